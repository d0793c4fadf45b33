package rules_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/graphnet"
	"github.com/pirdrr/drr/ir/pirjson"
	"github.com/pirdrr/drr/ir/pirtext"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
)

// deadParamProgram has a parameter the matmul reads (w), a dead one at the top level (pooler_weight) and a dead
// one in a branch of a pd_op.if (inner).
const deadParamProgram = `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2,8],stop_gradient:[true]} : () -> builtin.tensor<2x8xf32>
    (%1) = "pd_op.data" () {dtype:(pd_op.DataType)bool,name:"c",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1],stop_gradient:[true]} : () -> builtin.tensor<1xb>
    (%2) = "builtin.parameter" () {parameter_name:"w"} : () -> builtin.tensor<8x4xf32>
    (%3) = "builtin.parameter" () {parameter_name:"pooler_weight"} : () -> builtin.tensor<8x8xf32>
    (%4) = "pd_op.matmul" (%0, %2) {transpose_x:false,transpose_y:false} : (builtin.tensor<2x8xf32>, builtin.tensor<8x4xf32>) -> builtin.tensor<2x4xf32>
    (%5) = "pd_op.if" (%1) {} -> builtin.tensor<2x4xf32> {
        (%6) = "builtin.parameter" () {parameter_name:"inner"} : () -> builtin.tensor<4xf32>
        (%7) = "pd_op.relu" (%4) {} : (builtin.tensor<2x4xf32>) -> builtin.tensor<2x4xf32>
        () = "cf.yield" (%7) {} : (builtin.tensor<2x4xf32>) ->
    } else {
        () = "cf.yield" (%4) {} : (builtin.tensor<2x4xf32>) ->
    }
    (%8) = "pd_op.fetch" (%5) {col:(Int32)0,name:"out"} : (builtin.tensor<2x4xf32>) -> builtin.tensor<2x4xf32>
}`

// inserted records the ops a rewriter reports inserted.
type inserted struct{ ops []*ir.Op }

func (l *inserted) OpInserted(op *ir.Op) { l.ops = append(l.ops, op) }
func (l *inserted) OpModified(*ir.Op)    {}
func (l *inserted) OpErased(*ir.Op)      {}

// publications maps each parameter some builtin.shadow_output publishes to the output names, at any depth.
func publications(p *ir.Program) map[string][]string {
	out := map[string][]string{}
	for op := range p.Walk() {
		if op.Name() != ir.ShadowOutputOpName {
			continue
		}
		d := op.Operand(0).DefiningOp()
		if d == nil || d.Name() != ir.ParameterOpName {
			continue
		}
		param, _ := ir.AsString(d.Attr("parameter_name"))
		name, _ := ir.AsString(op.Attr("output_name"))
		out[param] = append(out[param], name)
	}
	return out
}

// TestAddShadowOutputAfterDeadParameter: every dead builtin.parameter, nested ones too, gets one shadow_output
// named as the parameter, through the rewriter (its listener sees each), in the parameter's block; a second run
// adds nothing and reports nothing.
func TestAddShadowOutputAfterDeadParameter(t *testing.T) {
	p := parse(t, deadParamProgram)
	l := &inserted{}
	n, err := rules.AddShadowOutputAfterDeadParameter(p, ir.NewRewriter(p.Ctx, l))
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	require.Len(t, l.ops, 2, "the listener sees every shadow_output")
	for _, op := range l.ops {
		assert.Equal(t, ir.ShadowOutputOpName, op.Name())
		assert.Same(t, op.Operand(0).DefiningOp().Block(), op.Block(), "published where the parameter is defined")
	}
	assert.Equal(t, map[string][]string{"pooler_weight": {"pooler_weight"}, "inner": {"inner"}}, publications(p))
	require.Empty(t, ir.Verify(p).Errors())

	once := pirtext.Print(p, pirtext.WriteOptions{})
	l.ops = nil
	n, err = rules.AddShadowOutputAfterDeadParameter(p, ir.NewRewriter(p.Ctx, l))
	require.NoError(t, err)
	assert.Zero(t, n, "idempotent: a published parameter is not dead")
	assert.Empty(t, l.ops)
	assert.Equal(t, string(once), string(pirtext.Print(p, pirtext.WriteOptions{})))
}

// TestGPUInferenceKeepsPublishedParameters: the shadow_outputs the first pass of gpu_inference adds survive the
// pipeline (its dce, reinplace) and the writers PIR JSON and PIR text.
func TestGPUInferenceKeepsPublishedParameters(t *testing.T) {
	p := parse(t, deadParamProgram)
	reg := rewriter.NewRegistry()
	require.NoError(t, rules.Register(reg))
	pl, err := reg.Pipeline(p.Ctx, "gpu_inference")
	require.NoError(t, err)
	require.Equal(t, "add_shadow_output_after_dead_parameter", pl[0].Name(), "first, as in Paddle's kPirGpuPasses")
	_, err = pl.Run(p, &rewriter.Env{Registry: reg})
	require.NoError(t, err)
	want := map[string][]string{"pooler_weight": {"pooler_weight"}, "inner": {"inner"}}
	require.Equal(t, want, publications(p))

	js, err := pirjson.Marshal(p, pirjson.WriteOptions{})
	require.NoError(t, err)
	back, err := pirjson.Read(p.Ctx, "back.json", js, pirjson.ReadOptions{})
	require.NoError(t, err)
	assert.Equal(t, want, publications(back), "PIR JSON")
	back, _, err = pirtext.Parse(p.Ctx, "back.pir", pirtext.Print(p, pirtext.WriteOptions{}), pirtext.ReadOptions{})
	require.NoError(t, err)
	assert.Equal(t, want, publications(back), "PIR text")
}

// TestGraphNetLeavesPublishedParametersOut: on a GraphNet graph with dead weights (tinybert-6l-768d: 16),
// gpu_inference publishes each for Paddle's executor; a GraphNet graph has no executor scope, and its forward
// returns what the capture returned: the graph written back keeps the weights as arguments and returns no more
// outputs than the original, none of them a weight.
func TestGraphNetLeavesPublishedParametersOut(t *testing.T) {
	dir := corpus.Path(t, "graphnet_samples/PaddleNLP/tinybert-6l-768d")
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p, err := graphnet.Read(ctx, dir)
	require.NoError(t, err)
	outputs := fetches(p)
	var dead []string
	for op := range p.Walk() {
		if op.Name() == ir.ParameterOpName && !op.Result(0).HasUses() {
			name, _ := ir.AsString(op.Attr("parameter_name"))
			dead = append(dead, name)
		}
	}
	require.Len(t, dead, 16)
	reg := rewriter.NewRegistry()
	require.NoError(t, rules.Register(reg))
	pl, err := reg.Pipeline(ctx, "gpu_inference")
	require.NoError(t, err)
	_, err = pl.Run(p, &rewriter.Env{Registry: reg})
	require.NoError(t, err)
	require.Len(t, publications(p), len(dead))

	out := t.TempDir()
	require.NoError(t, graphnet.Write(p, out, graphnet.WriteOptions{}))
	back, err := graphnet.Read(ctx, out)
	require.NoError(t, err)
	assert.Equal(t, outputs, fetches(back), "forward returns what the capture returned")
	params := map[string]bool{}
	for op := range back.Walk() {
		if op.Name() == ir.FetchOpName {
			d := op.Operand(0).DefiningOp()
			assert.False(t, d != nil && d.Name() == ir.ParameterOpName, "a weight is returned")
		}
		if op.Name() == ir.ParameterOpName {
			name, _ := ir.AsString(op.Attr("parameter_name"))
			params[name] = true
		}
	}
	for _, name := range dead {
		assert.True(t, params[name], "%s stays an argument of forward", name)
	}
}

// fetches counts a program's fetch ops.
func fetches(p *ir.Program) int {
	n := 0
	for op := range p.Walk() {
		if op.Name() == ir.FetchOpName {
			n++
		}
	}
	return n
}
