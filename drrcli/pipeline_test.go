package drrcli

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// expReluProgram: relu of an exp that nothing else reads, so that reinplace makes the relu a relu_.
const expReluProgram = `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[true]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.exp" (%0) {} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%2) = "pd_op.relu" (%1) {} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%3) = "pd_op.fetch" (%2) {col:(Int32)0,name:"out"} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
}
`

const reluToTanh = `rule relu_to_tanh {
  match { %y = pd_op.relu(%x) }
  rewrite { replace %y with pd_op.tanh(%x) }
}
`

// TestPassesExtendPipeline: user rules join a named pipeline at a named point. After gpu_inference the relu is
// relu_ (reinplace), so rules run after the whole pipeline match nothing (the detour); run before reinplace,
// they fire (issue 30 item 2).
func TestPassesExtendPipeline(t *testing.T) {
	dir := t.TempDir()
	rules := write(t, dir, "r.drr", reluToTanh)
	prog := write(t, dir, "p.pir", expReluProgram)
	out := filepath.Join(dir, "out.pir")

	code, _, errs := run(t, "", "apply", "-rules", rules, "-passes", "gpu_inference,rules", prog, "-o", out)
	require.Equal(t, exitOK, code, errs)
	assert.Regexp(t, `\n  rules +converged, 0 rewrites`, errs)

	for _, spec := range []string{"gpu_inference[before reinplace: rules]", " inference [ after conv_bn_relu : rules ] "} {
		code, _, errs = run(t, "", "apply", "-rules", rules, "-passes", spec, prog, "-o", out)
		require.Equal(t, exitOK, code, errs)
		assert.Regexp(t, `relu_to_tanh +applied 1 of 1 matched`, errs, spec)
	}

	for _, tc := range []struct{ spec, want string }{
		{"gpu_inference[before reinplac: rules]", "gpu_inference has no pass reinplac (did you mean reinplace?)"},
		{"gpu_inference[before reinplace: rule]", `-passes: unknown pass "rule" (did you mean rules?)`},
		{"gpu_inference[before reinplace rules]", `-passes: expected ':' after "before reinplace"`},
	} {
		code, _, errs = run(t, "", "apply", "-rules", rules, "-passes", tc.spec, prog, "-o", out)
		assert.Equal(t, exitFailure, code, tc.spec)
		assert.Contains(t, errs, tc.want, tc.spec)
	}

	// verify's program mode builds the same pipeline.
	code, stdout, errs := run(t, "", "verify", "-rules", rules, "-passes", "inference[before reinplace: rules]", prog)
	assert.Equal(t, exitFailure, code, "relu → tanh differs: %s %s", stdout, errs)
	assert.Contains(t, stdout+errs, "relu_to_tanh")
}

// TestExplainPasses: explain -passes explains an op as the rules see it mid-pipeline (issue 30 items 2 and 5).
func TestExplainPasses(t *testing.T) {
	dir := t.TempDir()
	rules := write(t, dir, "r.drr", reluToTanh)
	prog := write(t, dir, "p.pir", expReluProgram)
	code, out, errs := run(t, "", "explain", "-rules", rules, "-passes", "gpu_inference[before reinplace: rules]", "-op", "@4", prog)
	require.Equal(t, exitOK, code, errs)
	// gpu_inference's passes up to reinplace: the first of them and the last (the count follows the pipeline).
	assert.Regexp(t, `after [1-9][0-9]* passes of -passes \(add_shadow_output_after_dead_parameter … dce\)`, out)
	assert.Contains(t, out, "rule relu_to_tanh")
	assert.Contains(t, out, "): match")

	// After the whole pipeline the relu is the relu_ reinplace built (at the relu's line): no rule can match it.
	code, out, errs = run(t, "", "explain", "-rules", rules, "-passes", "inference", "-op", "@4", prog)
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, "pd_op.relu_ at ")
	assert.Contains(t, out, "no rule has a root that can be pd_op.relu_")
	// A line no op of that program starts on says where the op was looked for.
	code, _, errs = run(t, "", "explain", "-rules", rules, "-passes", "inference", "-op", "@9", prog)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "no op starts on line 9 in the program -passes leaves")

	code, _, errs = run(t, "", "explain", "-rules", rules, "-passes", "gpu_inference[before reinplac: rules]", "-op", "@4", prog)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "gpu_inference has no pass reinplac (did you mean reinplace?)")
}
