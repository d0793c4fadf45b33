package verify_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/analysis"
	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/internal/sample"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
	"github.com/pirdrr/drr/verify"
)

// Program verification: passes run on a copy, both copies evaluated and compared.

func countOps(p *ir.Program, name string) int {
	n := 0
	for op := range p.Walk() {
		if op.Name() == name {
			n++
		}
	}
	return n
}

func pipeline(t testing.TB, ctx *ir.Context, reg *rewriter.Registry, names ...string) rewriter.Pipeline {
	t.Helper()
	pl, err := reg.Pipeline(ctx, names...)
	require.NoError(t, err)
	return pl
}

// sampleProgram is the sample model without its weights (the tests of what passes do without weight data).
func sampleProgram(t testing.TB) (*ir.Context, *ir.Program) {
	t.Helper()
	ctx := newCtx(t)
	p, err := sample.LoadModel(ctx)
	require.NoError(t, err)
	return ctx, p
}

// TestVerifyPassesSampleWeights: with the sample's own weights, the inference pipeline (which ends with
// fold_constants) leaves no weight arithmetic, and the outputs agree.
func TestVerifyPassesSampleWeights(t *testing.T) {
	ctx := newCtx(t)
	p, err := sample.Load(ctx)
	require.NoError(t, err)
	reg := shippedRegistry(t)
	res, err := verify.Pipeline(p, pipeline(t, ctx, reg, "inference"), verify.PipelineOptions{Registry: reg})
	require.NoError(t, err, "%v", res.Report)
	assert.Empty(t, res.WeightOps, "fold_constants folded the batch-norm arithmetic")
	assert.Positive(t, res.Passes[len(res.Passes)-1].Changes)
	assert.Less(t, res.Report.Outputs[0].MaxRel, 1e-5, "folded weights are float32")
}

func TestVerifyPassesSample(t *testing.T) {
	ctx, p := sampleProgram(t)
	reg := shippedRegistry(t)
	printed := string(pirtext.Print(p, pirtext.WriteOptions{}))
	res, err := verify.Pipeline(p, pipeline(t, ctx, reg, "inference"), verify.PipelineOptions{Registry: reg})
	require.NoError(t, err)
	assert.Equal(t, printed, string(pirtext.Print(p, pirtext.WriteOptions{})), "the input program is not changed")
	require.NotNil(t, res.Report)
	require.Len(t, res.Report.Outputs, 1)
	assert.True(t, res.Report.OK())
	assert.Less(t, res.Report.Outputs[0].MaxRel, 1e-12)
	assert.Zero(t, res.AnchoredSinks, "the sample model has a fetch")
	assert.Zero(t, countOps(res.After, "pd_op.batch_norm_"), "the batch norms are folded")
	assert.Equal(t, 5, countOps(res.Before, "pd_op.batch_norm_"))
	assert.NotEmpty(t, res.WeightOps, "the folds leave weight arithmetic, without data to fold it")
	assert.Positive(t, res.WeightOps["pd_op.divide"])
	assert.Len(t, res.Passes, 12)
}

// TestVerifyPassesFoldConstants: with random weight data, the inference pipeline, which ends with fold_constants,
// removes the weight arithmetic (which reinplace made partly inplace) and the outputs still agree; without data
// fold_constants changes nothing.
func TestVerifyPassesFoldConstants(t *testing.T) {
	ctx, p := sampleProgram(t)
	reg := shippedRegistry(t)
	pl := pipeline(t, ctx, reg, "inference")

	res, err := verify.Pipeline(p, pl, verify.PipelineOptions{Registry: reg})
	require.NoError(t, err)
	fold := res.Passes[len(res.Passes)-1]
	assert.Equal(t, "fold_constants", fold.Pass)
	assert.Zero(t, fold.Changes, "no weight data: a no-op")
	assert.Positive(t, countOps(res.After, "pd_op.sqrt_"), "reinplace made sqrt(var+eps) inplace")

	res, err = verify.Pipeline(p, pl, verify.PipelineOptions{Registry: reg, FillWeights: true, WeightSeed: 5})
	require.NoError(t, err, "%v", res.Report)
	assert.Equal(t, 27, res.WeightsFilled)
	fold = res.Passes[len(res.Passes)-1]
	assert.Positive(t, fold.Changes)
	assert.Empty(t, res.WeightOps, "no weight arithmetic left")
	for _, name := range []string{"pd_op.sqrt", "pd_op.sqrt_", "pd_op.divide", "pd_op.subtract", "pd_op.batch_norm_"} {
		assert.Zero(t, countOps(res.After, name), name)
	}
	assert.Less(t, res.Report.Outputs[0].MaxRel, 1e-5, "folded weights are float32")
	for name, v := range res.After.Params {
		assert.NotNil(t, v.Data, name)
	}
}

// TestDeinplaceWeightOps: only inplace ops on weight values whose written operand dies there are turned back.
func TestDeinplaceWeightOps(t *testing.T) {
	ctx := newCtx(t)
	src := `{
    (%0) = "builtin.parameter" () {parameter_name:"var"} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],value:(Double)1e-05} : () -> builtin.tensor<1xf32>
    (%2) = "pd_op.add" (%0, %1) {} : (builtin.tensor<4xf32>, builtin.tensor<1xf32>) -> builtin.tensor<4xf32>
    (%3) = "pd_op.sqrt_" (%2) {} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%4) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[4]} : () -> builtin.tensor<4xf32>
    (%5) = "pd_op.assign" (%4) {} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%6) = "pd_op.relu_" (%5) {} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%7) = "pd_op.add" (%0, %1) {} : (builtin.tensor<4xf32>, builtin.tensor<1xf32>) -> builtin.tensor<4xf32>
    (%8) = "pd_op.exp_" (%7) {} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%9) = "pd_op.multiply" (%3, %6) {} : (builtin.tensor<4xf32>, builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%10) = "pd_op.multiply" (%9, %8) {} : (builtin.tensor<4xf32>, builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%11) = "pd_op.add" (%10, %7) {} : (builtin.tensor<4xf32>, builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%12) = "pd_op.fetch" (%11) {col:(Int32)0,name:"out"} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
}
`
	p, _, err := pirtext.Parse(ctx, "w.pir", []byte(src), pirtext.ReadOptions{})
	require.NoError(t, err)
	p.CollectParams()
	before := p.Clone()
	weights := analysis.WeightValues(p)
	n, err := rules.DeinplaceWeightOps(p, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "sqrt_ on a dying weight temporary; not relu_ (an activation), not exp_ (its operand is read later)")
	assert.Equal(t, 1, countOps(p, "pd_op.sqrt"))
	assert.Equal(t, 1, countOps(p, "pd_op.relu_"))
	assert.Equal(t, 1, countOps(p, "pd_op.exp_"))
	assert.Len(t, weights, 6, "var, full, two adds, sqrt_, exp_")
	assert.Equal(t, map[string]int{"pd_op.add": 2, "pd_op.sqrt": 1, "pd_op.exp_": 1}, verify.WeightOps(p))
	rep, err := compare.Programs(before, p, compare.Options{})
	require.NoError(t, err, "%v", rep)

	// FoldWeights with data: everything on weights folds except what reads the exp_-written buffer.
	_, err = feeds.FillRandomWeights(before, 1, feeds.Options{})
	require.NoError(t, err)
	after := before.Clone()
	n, err = rules.FoldWeights(after, nil)
	require.NoError(t, err)
	assert.Equal(t, 3, n, "full, add, sqrt")
	rep, err = compare.Programs(before, after, compare.Options{})
	require.NoError(t, err, "%v", rep)
}

// TestVerifyPassesCatchesWrongRules: a pipeline whose rule pass changes the numbers is reported with compare.ErrMismatch
// and the report; an op the interpreter cannot evaluate is reported with its name and position.
func TestVerifyPassesErrors(t *testing.T) {
	ctx, p := sampleProgram(t)
	reg := shippedRegistry(t)
	set := loadRules(t, ctx, WrongConvBNFold)
	pl := append(pipeline(t, ctx, reg, "inplace"), rewriter.NewRulePass("rules", set))
	res, err := verify.Pipeline(p, pl, verify.PipelineOptions{Registry: reg})
	require.ErrorIs(t, err, compare.ErrMismatch)
	require.NotNil(t, res.Report)
	assert.False(t, res.Report.OK())
	assert.Greater(t, res.Report.Outputs[0].MaxRel, 1e-3)

	src := `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[4]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.decode_jpeg" (%0) {mode:"unchanged",place:(pd_op.Place)Place(cpu)} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%2) = "pd_op.fetch" (%1) {col:(Int32)0,name:"out"} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
}
`
	q, _, err := pirtext.Parse(ctx, "decode.pir", []byte(src), pirtext.ReadOptions{})
	require.NoError(t, err)
	res, err = verify.Pipeline(q, pipeline(t, ctx, reg, "inference"), verify.PipelineOptions{Registry: reg})
	require.ErrorIs(t, err, interp.ErrUnsupported)
	assert.Nil(t, res.Report)
	assert.Contains(t, err.Error(), "cannot evaluate pd_op.decode_jpeg at decode.pir:3")
}

// TestAnchorSinks: a program without outputs keeps its sinks through dead-code elimination once anchored.
func TestAnchorSinks(t *testing.T) {
	ctx := newCtx(t)
	src := `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[4]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%2) = "pd_op.exp" (%1) {} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%3) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],value:(Double)1} : () -> builtin.tensor<1xf32>
}
`
	p, _, err := pirtext.Parse(ctx, "sinks.pir", []byte(src), pirtext.ReadOptions{})
	require.NoError(t, err)
	reg := shippedRegistry(t)
	res, err := verify.Pipeline(p, pipeline(t, ctx, reg, "dce"), verify.PipelineOptions{Registry: reg})
	require.NoError(t, err)
	assert.Equal(t, 1, res.AnchoredSinks, "exp's result; full is a constant, not a sink")
	assert.Equal(t, 1, countOps(res.After, "pd_op.exp"))
	assert.Equal(t, "%2 (pd_op.exp at sinks.pir:4)", res.Report.Outputs[0].Name)

	q := p.Clone()
	n, err := verify.AnchorSinks(q)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	n, err = verify.AnchorSinks(q)
	require.NoError(t, err)
	assert.Zero(t, n, "a program with a fetch is left alone")
}

// Pipeline evaluates both copies on the inputs the program recorded (ir.Program.Feeds, as GraphNet's
// input_meta.py gives token ids): a token-type table of two rows is read with the recorded ids, which random ids
// would overrun.
func TestVerifyPassesUsesRecordedFeeds(t *testing.T) {
	ctx := newCtx(t)
	src := `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)int64,name:"ids",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1,4]} : () -> builtin.tensor<1x4xi64>
    (%1) = "builtin.parameter" () {parameter_name:"table"} : () -> builtin.tensor<2x3xf32>
    (%2) = "pd_op.embedding" (%0, %1) {padding_idx:(Int64)-1,sparse:false} : (builtin.tensor<1x4xi64>, builtin.tensor<2x3xf32>) -> builtin.tensor<1x4x3xf32>
    (%3) = "pd_op.relu" (%2) {} : (builtin.tensor<1x4x3xf32>) -> builtin.tensor<1x4x3xf32>
    (%4) = "pd_op.fetch" (%3) {col:(Int32)0,name:"out"} : (builtin.tensor<1x4x3xf32>) -> builtin.tensor<1x4x3xf32>
}
`
	p, _, err := pirtext.Parse(ctx, "ids.pir", []byte(src), pirtext.ReadOptions{})
	require.NoError(t, err)
	p.CollectParams()
	ids := make([]byte, 4*8)
	ids[8] = 1 // 0, 1, 0, 0
	p.Feeds = map[string]*ir.Variable{"ids": {Name: "ids", Type: p.Body().First().Result(0).Type(), Data: ids}}
	reg := shippedRegistry(t)
	res, err := verify.Pipeline(p, pipeline(t, ctx, reg, "inference"), verify.PipelineOptions{Registry: reg,
		Compare: compare.Options{Runs: 2}})
	require.NoError(t, err)
	assert.True(t, res.Report.OK())
}

// TestEmbedding3Verifies is issue 27 item 6: Paddle's 3-table embedding test (test_embedding_eltwise_layernorm_
// fuse_pass.py, Fused3EmbeddingEltwiseLayernormPattern, written as PIR text) verifies with its pass. One id tensor
// looks up tables of 512 and 30,522 rows, the other a table of 2 rows: drawn from {0, …, 7}, as integer inputs
// were, the 2-row lookup failed before anything was compared; drawn within the rows they index, the program before
// and after the fusion agree.
func TestEmbedding3Verifies(t *testing.T) {
	ctx := newCtx(t)
	p, _, err := pirtext.ParseFile(ctx, "testdata/embedding3_eltwise_layernorm.pir", pirtext.ReadOptions{})
	require.NoError(t, err)
	reg := shippedRegistry(t)
	res, err := verify.Pipeline(p, pipeline(t, ctx, reg, "embedding_eltwise_layernorm_fuse"),
		verify.PipelineOptions{Registry: reg, Compare: compare.Options{Runs: 1}})
	require.NoError(t, err)
	require.True(t, res.Report.OK(), "%s", res.Report)
	assert.Equal(t, 1, countOps(res.After, "pd_op.fused_embedding_eltwise_layernorm"), "the three lookups are fused")
	assert.Zero(t, countOps(res.After, "pd_op.embedding"))

	feed, err := feeds.Random(1, feeds.Options{}, p)
	require.NoError(t, err)
	for name, rows := range map[string]float64{"x1": 512, "x2": 2} {
		seen := map[float64]bool{}
		for _, id := range feed.Inputs[name].Data {
			require.True(t, id >= 0 && id < rows, "%s: id %v of a %v-row table", name, id, rows)
			seen[id] = true
		}
		assert.Greater(t, len(seen), 1, "%s: the ids vary", name)
		if rows > 8 {
			assert.Greater(t, len(seen), 8, "%s: the ids are drawn from all %v rows, not from {0, …, 7}", name, rows)
		}
	}
}
