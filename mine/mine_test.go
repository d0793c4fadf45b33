package mine_test

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
	"github.com/pirdrr/drr/mine"
	"github.com/pirdrr/drr/rules"
)

// typeHole is the T of the test programs' op lines: the tensor type of the program.
var typeHole = regexp.MustCompile(`\bT\b`)

// program renders a test program: two inputs x and y of type ty, the ops (lines of PIR text after them) and an
// output of the last value.
func program(t *testing.T, ctx *ir.Context, ty string, ops ...string) *ir.Program {
	t.Helper()
	var b strings.Builder
	b.WriteString("{\n")
	for i, name := range []string{"x", "y"} {
		fmt.Fprintf(&b, "    (%%%d) = \"pd_op.data\" () {dtype:(pd_op.DataType)float32,name:%q,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[-1],stop_gradient:[true]} : () -> %s\n", i, name, ty)
	}
	last := ""
	for _, op := range ops {
		op = typeHole.ReplaceAllLiteralString(op, ty)
		fmt.Fprintf(&b, "    %s\n", op)
		last = op[strings.Index(op, "(")+1 : strings.Index(op, ")")]
	}
	fmt.Fprintf(&b, "    () = \"builtin.shadow_output\" (%s) {output_name:\"out\"} : (%s) ->\n}\n", last, ty)
	p, _, err := pirtext.Parse(ctx, "test.pir", []byte(b.String()), pirtext.ReadOptions{})
	require.NoError(t, err, b.String())
	require.Empty(t, ir.Verify(p).Errors())
	return p
}

// swishChain is add → relu → sigmoid · relu: the relu's result has two readers, the multiply's operands in the
// order given.
func swishChain(t *testing.T, ctx *ir.Context, ty string, swapped bool) *ir.Program {
	mul := `(%5) = "pd_op.multiply" (%4, %3) {stop_gradient:[true]} : (T, T) -> T`
	if swapped {
		mul = `(%5) = "pd_op.multiply" (%3, %4) {stop_gradient:[true]} : (T, T) -> T`
	}
	return program(t, ctx, ty,
		`(%2) = "pd_op.add" (%0, %1) {stop_gradient:[true]} : (T, T) -> T`,
		`(%3) = "pd_op.relu" (%2) {stop_gradient:[true]} : (T) -> T`,
		`(%4) = "pd_op.sigmoid" (%3) {stop_gradient:[false]} : (T) -> T`,
		mul)
}

func newMiner(t *testing.T) *mine.Miner {
	m, err := cost.NewModel("a100")
	require.NoError(t, err)
	return mine.New(mine.Options{Model: m})
}

func keysOf(cands []*mine.Candidate) map[string]*mine.Candidate {
	out := map[string]*mine.Candidate{}
	for _, c := range cands {
		out[c.Chain.Short()] = c
	}
	return out
}

// TestEnumeration: the subgraphs of the swish chain are those whose inner values nothing outside reads; the same
// chains on other shapes and with the commutative multiply's operands swapped get the same keys.
func TestEnumeration(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	m := newMiner(t)
	m.Add(m.Scan(mine.Source{Program: "a", Family: "fa"}, swishChain(t, ctx, "builtin.tensor<4x8xf32>", false)))
	m.Add(m.Scan(mine.Source{Program: "b", Family: "fb"}, swishChain(t, ctx, "builtin.tensor<2x3x5xf32>", true)))
	st := m.Stats()
	assert.Equal(t, 2, st.Programs)
	assert.Equal(t, 8, st.Subgraphs, "4 per program: add→relu, sigmoid·, relu→sigmoid·, add→relu→sigmoid·")
	got := keysOf(m.Candidates())
	// relu → sigmoid alone is not a subgraph: the relu's result is read by the multiply too.
	assert.ElementsMatch(t, []string{"add → relu", "sigmoid → multiply", "relu → sigmoid → multiply", "add → relu → sigmoid → multiply"},
		keys(got))
	for _, c := range got {
		assert.Equal(t, c.Chain.Key(), c.Key, "the key is the chain's")
		assert.Equal(t, 2, c.Occurrences, c.Key)
		assert.Equal(t, 2, c.Graphs, c.Key)
		assert.Equal(t, []string{"fa", "fb"}, c.Families, c.Key)
		require.Len(t, c.Sites, 2)
		assert.Equal(t, "a", c.Sites[0].Program)
	}
	assert.Equal(t, "pd_op.sigmoid(i0:f32) -> f32; pd_op.multiply(i0:f32, v0.0) -> f32", got["sigmoid → multiply"].Key)
	assert.Equal(t, "%5", got["sigmoid → multiply"].Sites[0].Value)
}

func keys(m map[string]*mine.Candidate) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestSaving: fusing add → relu on 4x8 float32 saves one kernel and the relu's read and the add's write of the
// 128-byte intermediate.
func TestSaving(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	m := newMiner(t)
	m.Add(m.Scan(mine.Source{Program: "a"}, swishChain(t, ctx, "builtin.tensor<4x8xf32>", false)))
	c := keysOf(m.Candidates())["add → relu"]
	require.NotNil(t, c)
	assert.Equal(t, int64(1), c.Saving.Kernels)
	assert.Equal(t, int64(256), c.Saving.Bytes)
	launch := m.Options().Model.Device.LaunchOverhead.Value
	assert.InDelta(t, launch, c.Saving.Time.Low, 1e-12)
	assert.Greater(t, c.Saving.Time.High, launch, "the bytes saved add to the launch")
}

// TestAttributesAndTypesSplitKeys: attribute values that matter and element types are part of the key;
// stop_gradient is not.
func TestAttributesAndTypesSplitKeys(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	m := newMiner(t)
	scale := func(ty, s string) *ir.Program {
		return program(t, ctx, ty,
			`(%2) = "pd_op.scale" (%0) {bias:(Float)0,bias_after_scale:true,scale:(Float)`+s+`,stop_gradient:[true]} : (T) -> T`,
			`(%3) = "pd_op.softmax" (%2) {axis:(Int32)-1,stop_gradient:[false]} : (T) -> T`)
	}
	m.Add(m.Scan(mine.Source{Program: "a"}, scale("builtin.tensor<4x8xf32>", "0.125")))
	m.Add(m.Scan(mine.Source{Program: "b"}, scale("builtin.tensor<4x8xf32>", "0.125")))
	m.Add(m.Scan(mine.Source{Program: "c"}, scale("builtin.tensor<4x8xf32>", "0.5")))
	m.Add(m.Scan(mine.Source{Program: "d"}, scale("builtin.tensor<4x8xf16>", "0.125")))
	cands := m.Candidates()
	require.Len(t, cands, 3)
	counts := map[int]int{}
	for _, c := range cands {
		counts[c.Occurrences]++
		assert.NotContains(t, c.Key, "stop_gradient")
	}
	assert.Equal(t, map[int]int{2: 1, 1: 2}, counts)
}

// TestOneMatrixOpPerChain: two matrix products are never one chain.
func TestOneMatrixOpPerChain(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	m := newMiner(t)
	m.Add(m.Scan(mine.Source{Program: "a"}, program(t, ctx, "builtin.tensor<8x8xf32>",
		`(%2) = "pd_op.matmul" (%0, %1) {transpose_x:false,transpose_y:false} : (T, T) -> T`,
		`(%3) = "pd_op.relu" (%2) {} : (T) -> T`,
		`(%4) = "pd_op.matmul" (%3, %1) {transpose_x:false,transpose_y:false} : (T, T) -> T`)))
	assert.ElementsMatch(t, []string{"matmul → relu", "relu → matmul"}, keys(keysOf(m.Candidates())))
}

// TestBoundedEnumeration: MaxPerRoot stops a root's enumeration and says so.
func TestBoundedEnumeration(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	model, err := cost.NewModel("a100")
	require.NoError(t, err)
	var ops []string
	ops = append(ops, `(%2) = "pd_op.relu" (%0) {} : (T) -> T`)
	for i := 3; i < 10; i++ {
		ops = append(ops, fmt.Sprintf(`(%%%d) = "pd_op.relu" (%%%d) {} : (T) -> T`, i, i-1))
	}
	p := program(t, ctx, "builtin.tensor<8xf32>", ops...)
	m := mine.New(mine.Options{Model: model, MaxPerRoot: 2})
	m.Add(m.Scan(mine.Source{Program: "a"}, p))
	assert.Positive(t, m.Stats().Truncated)
	free := mine.New(mine.Options{Model: model})
	free.Add(free.Scan(mine.Source{Program: "a"}, p))
	assert.Zero(t, free.Stats().Truncated)
	// 8 relus in a row: each root grows up to 5 producers; overlapping occurrences of one key count once.
	got := keysOf(free.Candidates())
	assert.Equal(t, 4, got["relu → relu"].Occurrences)
	assert.Equal(t, 1, got["relu → relu → relu → relu → relu"].Occurrences)
}

// TestCatalog: sigmoid · x is what the shipped silu rule makes swish of; the skeletons of all candidates check.
func TestCatalog(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	set, err := rules.Load(ctx, "silu_fuse")
	require.NoError(t, err)
	cat := mine.NewCatalog([]mine.NamedSet{{Name: "silu_fuse", Set: set, Source: func(f string) ([]byte, error) { return fs.ReadFile(rules.FS(), f) }}})
	require.Equal(t, 1, cat.Len())
	m := newMiner(t)
	m.Add(m.Scan(mine.Source{Program: "a"}, swishChain(t, ctx, "builtin.tensor<4x8xf32>", true)))
	cands := m.Candidates()
	cat.Annotate(cands)
	got := keysOf(cands)
	require.Len(t, got["sigmoid → multiply"].Fused, 1)
	f := got["sigmoid → multiply"].Fused[0]
	assert.Equal(t, "pd_op.swish", f.Op)
	assert.Equal(t, "silu", f.Rule)
	assert.Equal(t, "silu_fuse", f.Set)
	assert.Empty(t, got["relu → sigmoid → multiply"].Fused)
	for i, c := range cands {
		sk := mine.NewSkeleton(i+1, c, mine.SkeletonInfo{Device: "a100", Passes: "none"})
		src := sk.Source
		assert.Equal(t, len(c.Fused) > 0, sk.Fuses, "%s", src)
		set, diags := drr.LoadSource(ctx, drr.LoadOptions{}, "sk.drr", src)
		require.False(t, diags.HasErrors(), "%s\n%s", diags, src)
		require.Len(t, set.Rules, 1)
		assert.Equal(t, mine.RuleName(i+1, c), set.Rules[0].Name)
	}
}

func TestFamily(t *testing.T) {
	for _, tc := range []struct{ path, sample, family string }{
		{"x/PaddleNLP/bert-base-cased", "bert-base-cased", "bert"},
		{"x/PaddleNLP/chinese-xlnet-mid", "chinese-xlnet-mid", "xlnet"},
		{"x/PaddleX/PP-YOLOE-L/subgraph_3", "PP-YOLOE-L", "yoloe"},
		{"x/PaddleX/ResNet50_vd", "ResNet50_vd", "resnet"},
		{"x/PaddleX/MobileNetV3_large_x1_0/subgraph_1", "MobileNetV3_large_x1_0", "mobilenet"},
		{"x/PaddleNLP/ernie-3.0-base-zh", "ernie-3.0-base-zh", "ernie"},
		{"models/det.inference.json", "det", "det"},
		{"prog.pir", "prog", "prog"},
		{"x/PaddleNLP/t5-small", "t5-small", "t5"},
		{"x/PaddleX/Co-DINO-R50/subgraph_0", "Co-DINO-R50", "co-dino"},
		{"x/PaddleNLP/facebook_llama-7b", "facebook_llama-7b", "llama"},
		{"x/PaddleNLP/microsoft_deberta-base", "microsoft_deberta-base", "deberta"},
		{"x/PaddleX/subgraph_x", "subgraph_x", "subgraph"},
	} {
		assert.Equal(t, tc.sample, mine.SampleName(tc.path), tc.path)
		assert.Equal(t, tc.family, mine.Family(tc.sample), tc.sample)
	}
}

// TestCatalogConstants: a pattern's constant op (matmul_scale's pd_op.full) matches the chain's constant input.
func TestCatalogConstants(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	set, err := rules.Load(ctx, "matmul_scale_fuse")
	require.NoError(t, err)
	cat := mine.NewCatalog([]mine.NamedSet{{Name: "matmul_scale_fuse", Set: set}})
	m := newMiner(t)
	m.Add(m.Scan(mine.Source{Program: "a"}, program(t, ctx, "builtin.tensor<8x8xf32>",
		`(%2) = "pd_op.matmul" (%0, %1) {transpose_x:false,transpose_y:true} : (T, T) -> T`,
		`(%3) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],value:(Double)0.125} : () -> builtin.tensor<1xf32>`,
		`(%4) = "pd_op.scale" (%2, %3) {bias:(Float)0,bias_after_scale:true} : (T, builtin.tensor<1xf32>) -> T`)))
	cands := m.Candidates()
	require.Len(t, cands, 1)
	assert.Contains(t, cands[0].Key, "=pd_op.full{")
	cat.Annotate(cands)
	require.Len(t, cands[0].Fused, 1)
	assert.Equal(t, "matmul_scale", cands[0].Fused[0].Rule)
	assert.True(t, cands[0].Fused[0].Constrained, "immutable(%w) refuses a product of two inputs")
	assert.Nil(t, cands[0].Fused[0].Refused, "a miner without the catalog explains nothing")
	sk := mine.NewSkeleton(1, cands[0], mine.SkeletonInfo{Device: "a100", Passes: "none", Ctx: ctx})
	require.NoError(t, sk.Err)
	assert.False(t, sk.Fuses, "the rule's holes on its constant op have no place in the mined match")
	assert.Contains(t, string(sk.Source), "pd_op.matmul (rule matmul_scale of the set matmul_scale_fuse")
}

// TestCatalogRefusals: a miner given the catalog says why a constrained rule whose pattern is a chain did not fire
// there — the failed check of the rule at the chain's first site — and that a rule which does match there was
// not run.
func TestCatalogRefusals(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	set, err := rules.Load(ctx, "matmul_scale_fuse")
	require.NoError(t, err)
	cat := mine.NewCatalog([]mine.NamedSet{{Name: "matmul_scale_fuse", Set: set}})
	model, err := cost.NewModel(cost.DefaultDevice)
	require.NoError(t, err)
	const full = `(%9) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],value:(Double)0.125} : () -> builtin.tensor<1xf32>`
	for _, tc := range []struct {
		name  string
		ops   []string
		site  string
		check string // "" when the rule matches at the site
	}{
		{"two inputs", []string{
			`(%2) = "pd_op.matmul" (%0, %1) {transpose_x:false,transpose_y:true} : (T, T) -> T`, full,
			`(%4) = "pd_op.scale" (%2, %9) {bias:(Float)0,bias_after_scale:true} : (T, builtin.tensor<1xf32>) -> T`,
		}, "%4", "matmul_scale_fuse.drr:"},
		{"a weight", []string{
			`(%2) = "builtin.parameter" () {parameter_name:"w"} : () -> T`,
			`(%3) = "pd_op.matmul" (%0, %2) {transpose_x:false,transpose_y:true} : (T, T) -> T`, full,
			`(%4) = "pd_op.scale" (%3, %9) {bias:(Float)0,bias_after_scale:true} : (T, builtin.tensor<1xf32>) -> T`,
		}, "%5", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mine.New(mine.Options{Model: model, Catalog: cat})
			p := program(t, ctx, "builtin.tensor<8x8xf32>", tc.ops...)
			m.Add(m.Scan(mine.Source{Program: "a"}, p))
			cands := m.Candidates()
			require.Len(t, cands, 1)
			cat.Annotate(cands)
			require.Len(t, cands[0].Fused, 1)
			r := cands[0].Fused[0].Refused
			require.NotNil(t, r)
			assert.Equal(t, "matmul_scale", r.Rule)
			assert.Equal(t, "a", r.Site.Program)
			assert.Equal(t, tc.site, r.Site.Value)
			if tc.check == "" {
				assert.Empty(t, r.Check)
				assert.Contains(t, r.String(), "matches at a %5")
			} else {
				assert.Contains(t, r.Check, tc.check)
				assert.Contains(t, r.Check, "immutable")
			}
		})
	}
}
