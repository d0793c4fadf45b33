package rules_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/graphnet"
	"github.com/pirdrr/drr/ir/pirtext"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
	"github.com/pirdrr/drr/verify"
)

// verifyWOL checks a variant of fused_weight_only_linear.drr in rule mode and returns each rule's status.
func verifyWOL(t *testing.T, src string, params rule.Params) map[string]verify.RuleStatus {
	t.Helper()
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	set, diags := drr.LoadSource(ctx, drr.LoadOptions{}, "fused_weight_only_linear.drr", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	res, err := verify.Rules(set, verify.RuleOptions{Rewrite: rewriter.Options{Params: params}, Jobs: 1})
	require.NoError(t, err)
	out := map[string]verify.RuleStatus{}
	for _, r := range res {
		out[r.Rule.ID()] = r.Status
		if r.Status != verify.RuleOK {
			t.Logf("%s: %s: %s", r.Rule.ID(), r.Status, r.Reason)
		}
	}
	return out
}

// TestWeightOnlyLinearVerifies checks that int8 and int4 weight-only linears pass rule-mode verification within
// the error budget of weight_quantize (interp/rounding.go), with the parameter set and with the values the
// instantiator tries, while wrong rewrites of the same patterns are still caught.
func TestWeightOnlyLinearVerifies(t *testing.T) {
	src, err := rules.Source("fused_weight_only_linear")
	require.NoError(t, err)
	text := string(src)
	all := map[string]verify.RuleStatus{"weight_only_linear_bias": verify.RuleOK,
		"weight_only_linear_no_bias": verify.RuleOK}
	assert.Equal(t, all, verifyWOL(t, text, rule.Params{"sm_version": int64(80)}))
	assert.Equal(t, all, verifyWOL(t, text, nil), "the instantiator tries the sm_version values the rules compare with")
	// The set gpu_inference runs after it, whose rule gives a bias-less weight_only_linear the add after it.
	absorb, err := rules.Source("weight_only_linear_bias")
	require.NoError(t, err)
	assert.Equal(t, map[string]verify.RuleStatus{"weight_only_linear_absorb_bias": verify.RuleOK},
		verifyWOL(t, string(absorb), nil))

	for _, tc := range []struct {
		name, old, new, rule string
	}{
		{"transposed weight", `%m = pd_op.matmul(%x, %w) {transpose_x: false, transpose_y: false}
    %z = pd_op.add(%m, %b)
  }
  where {
    $sm_version in [70, 75, 80, 86, 89, 90] && $weight_only_algo in ["weight_only_int8", "weight_only_int4"]
    is_param(%w) && dtype(%w) in [float16, bfloat16]
    rank(%w) == 2 && rank(%x) >= 2 && dim(%x, -1) == dim(%w, 0)
    dim(%x, -1) % 64 == 0 && dim(%w, 1) % 16 == 0
    shape(%b) == [dim(%w, 1)]`, `%m = pd_op.matmul(%x, %w) {transpose_x: false, transpose_y: true}
    %z = pd_op.add(%m, %b)
  }
  where {
    $sm_version in [70, 75, 80, 86, 89, 90] && $weight_only_algo in ["weight_only_int8", "weight_only_int4"]
    is_param(%w) && dtype(%w) in [float16, bfloat16]
    rank(%w) == 2 && rank(%x) >= 2 && dim(%x, -1) == dim(%w, 1)
    dim(%x, -1) % 64 == 0 && dim(%w, 0) % 16 == 0
    shape(%b) == [dim(%w, 0)]`, "weight_only_linear_bias"},
		{"bias dropped", "replace %z with pd_op.weight_only_linear(%x, %q, %b, %s) {\n",
			"replace %z with pd_op.weight_only_linear(%x, %q, null, %s) {\n", "weight_only_linear_bias"},
		{"weight read as int4", `weight_dtype: $weight_only_algo == "weight_only_int8" ? "int8" : "int4", arch: $sm_version, group_size: -1}
  }
}

/// matmul(x, w) alone`, `weight_dtype: "int4", arch: $sm_version, group_size: -1}
  }
}

/// matmul(x, w) alone`, "weight_only_linear_bias"},
		{"group scales read per channel", `%q, %s = pd_op.weight_quantize(%w) {algo: $weight_only_algo, arch: $sm_version, group_size: -1}
    replace %m with`, `%q, %s = pd_op.weight_quantize(%w) {algo: $weight_only_algo, arch: $sm_version, group_size: 32}
    replace %m with`, "weight_only_linear_no_bias"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, 1, strings.Count(text, tc.old), "the variant's text must occur once")
			got := verifyWOL(t, strings.Replace(text, tc.old, tc.new, 1), rule.Params{"sm_version": int64(80)})
			assert.Equal(t, verify.RuleFailed, got[tc.rule])
		})
	}
}

// TestWeightOnlyLinearProgramMode runs gpu_inference with sm_version 80 on a program with a float16 linear (with
// bias) and one without, and checks that both become weight-only linears and that the outputs agree within the
// budget; with the default sm_version nothing changes.
func TestWeightOnlyLinearProgramMode(t *testing.T) {
	const prog = `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float16,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2,4,64],stop_gradient:[true]} : () -> builtin.tensor<2x4x64xf16>
    (%1) = "builtin.parameter" () {parameter_name:"w1"} : () -> builtin.tensor<64x64xf16>
    (%2) = "builtin.parameter" () {parameter_name:"b1"} : () -> builtin.tensor<64xf16>
    (%3) = "builtin.parameter" () {parameter_name:"w2"} : () -> builtin.tensor<64x32xf16>
    (%4) = "pd_op.matmul" (%0, %1) {transpose_x:false,transpose_y:false} : (builtin.tensor<2x4x64xf16>, builtin.tensor<64x64xf16>) -> builtin.tensor<2x4x64xf16>
    (%5) = "pd_op.add" (%4, %2) {} : (builtin.tensor<2x4x64xf16>, builtin.tensor<64xf16>) -> builtin.tensor<2x4x64xf16>
    (%6) = "pd_op.matmul" (%5, %3) {transpose_x:false,transpose_y:false} : (builtin.tensor<2x4x64xf16>, builtin.tensor<64x32xf16>) -> builtin.tensor<2x4x32xf16>
    (%7) = "pd_op.fetch" (%6) {col:(Int32)0,name:"out0"} : (builtin.tensor<2x4x32xf16>) -> builtin.tensor<2x4x32xf16>
}
`
	reg := rewriter.NewRegistry()
	require.NoError(t, rules.Register(reg))
	for _, tc := range []struct {
		params rule.Params
		wol    int
	}{{rule.Params{"sm_version": int64(80)}, 2}, {nil, 0}} {
		ctx, err := ir.NewDefaultContext()
		require.NoError(t, err)
		p, _, err := pirtext.Parse(ctx, "prog.pir", []byte(prog), pirtext.ReadOptions{})
		require.NoError(t, err)
		pl, err := reg.Pipeline(ctx, "gpu_inference")
		require.NoError(t, err)
		res, err := verify.Pipeline(p, pl, verify.PipelineOptions{Registry: reg, Rewrite: rewriter.Options{Params: tc.params}})
		require.NoError(t, err, "%v", tc.params)
		n := 0
		for op := range res.After.Walk() {
			if op.Name() == "pd_op.weight_only_linear" {
				n++
			}
		}
		assert.Equal(t, tc.wol, n, "%v", tc.params)
	}
}

// eligibleLinears counts the matmuls of p that fused_weight_only_linear's conditions accept for a GPU target: not
// transposed, by a 2-D float16/bfloat16 parameter [K, N] with K a multiple of 64 (and x's last dimension) and N of
// 16.
func eligibleLinears(p *ir.Program) int {
	n := 0
	for op := range p.Walk() {
		if op.Name() != "pd_op.matmul" {
			continue
		}
		tx, _ := ir.AsBool(op.AttrOrDefault("transpose_x"))
		ty, _ := ir.AsBool(op.AttrOrDefault("transpose_y"))
		def := op.Operand(1).DefiningOp()
		x, w := ir.TensorOf(op.Operand(0).Type()), ir.TensorOf(op.Operand(1).Type())
		if tx || ty || def == nil || def.Name() != "builtin.parameter" || x == nil || w == nil || w.Rank() != 2 ||
			x.Rank() < 2 {
			continue
		}
		if dt := w.DType(); dt != ir.DTypeFloat16 && dt != ir.DTypeBFloat16 {
			continue
		}
		k, nn := w.Dims[0], w.Dims[1]
		if x.Dims[x.Rank()-1] == k && k%64 == 0 && nn%16 == 0 {
			n++
		}
	}
	return n
}

// TestLLaMAWeightOnlyLinear runs gpu_inference on the corpus's LLaMA graph: with sm_version 80 every linear the
// conditions accept becomes a weight-only linear (and no other does), with the default the pass changes nothing
// and the pipeline's result is the one without the pass.
func TestLLaMAWeightOnlyLinear(t *testing.T) {
	dir := corpus.Path(t, "graphnet_samples/PaddleNLP/facebook_llama-7b")
	reg := rewriter.NewRegistry()
	require.NoError(t, rules.Register(reg))
	run := func(params rule.Params, drop string) (*ir.Program, int, []*rewriter.PassResult) {
		ctx, err := ir.NewDefaultContext()
		require.NoError(t, err)
		p, err := graphnet.Read(ctx, dir)
		require.NoError(t, err)
		eligible := eligibleLinears(p)
		var names []string
		for _, n := range rules.GPUInferencePipeline {
			if n != drop {
				names = append(names, n)
			}
		}
		pl, err := reg.Pipeline(ctx, names...)
		require.NoError(t, err)
		res, err := pl.Run(p, &rewriter.Env{Registry: reg, Options: rewriter.Options{Params: params}})
		require.NoError(t, err)
		return p, eligible, res
	}
	count := func(p *ir.Program, name string) int {
		n := 0
		for op := range p.Walk() {
			if op.Name() == name {
				n++
			}
		}
		return n
	}
	p80, eligible, _ := run(rule.Params{"sm_version": int64(80)}, "")
	require.Positive(t, eligible)
	assert.Equal(t, eligible, count(p80, "pd_op.weight_only_linear"))
	assert.Equal(t, eligible, count(p80, "pd_op.weight_quantize"))
	assert.Zero(t, eligibleLinears(p80))
	t.Logf("sm_version 80: %d of LLaMA's linears became weight_only_linear", eligible)

	p0, _, res := run(nil, "")
	for _, r := range res {
		if r.Pass == "fused_weight_only_linear" {
			assert.Zero(t, r.Stats.Rewrites)
		}
	}
	without, _, _ := run(nil, "fused_weight_only_linear")
	assert.Equal(t, string(pirtext.Print(without, pirtext.WriteOptions{})), string(pirtext.Print(p0, pirtext.WriteOptions{})), "the default changes nothing")
}
