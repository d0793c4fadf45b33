package drrcli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/sample"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/rules"
)

// wrongFold is conv2d_bn_fold with a bug: the scale is divided by the variance instead of sqrt(variance + eps).
const wrongFold = `family conv = [pd_op.conv2d, pd_op.depthwise_conv2d]
family batch_norm = [pd_op.batch_norm, pd_op.batch_norm_]

rule conv2d_bn_fold_wrong {
  for C in conv
  for B in batch_norm
  match {
    %y = C(%x, %w) {strides: $st, paddings: $pd, padding_algorithm: $pa, dilations: $dl, groups: $g, data_format: $fmt}
    %out, _, _, _, _, _ = B(%y, %mean, %var, %scale, %bias) {epsilon: $eps, data_format: $fmt, is_test: $test,
                                                             use_global_stats: $global, trainable_statistics: $trainable}
  }
  where {
    $pa in ["EXPLICIT", "SAME", "VALID"]
    $fmt in ["NCHW", "NHWC"]
    $g >= 1
    $eps >= 0 && $eps <= 0.001
    $global || $test && !$trainable
    immutable(%w, %mean, %var, %scale, %bias)
    dtype(%w) in [float32, float64]
  }
  rewrite {
    %alpha  = pd_op.divide(%scale, %var)
    %wshape = pd_op.full_int_array() {value: [-1, 1, 1, 1], dtype: int64}
    %w2     = pd_op.multiply(%w, pd_op.reshape(%alpha, %wshape))
    %c      = C(%x, %w2) {strides: $st, paddings: $pd, padding_algorithm: $pa, dilations: $dl, groups: $g, data_format: $fmt}
    %b2     = pd_op.subtract(%bias, pd_op.multiply(%mean, %alpha))
    %bshape = pd_op.full_int_array() {value: $fmt == "NCHW" ? [1, -1, 1, 1] : [1, 1, 1, -1], dtype: int64}
    replace %out with pd_op.add(%c, pd_op.reshape(%b2, %bshape))
  }
}
`

// eigvalsProgram needs an eigenvalue solver, which the interpreter does not have.
const eigvalsProgram = `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2,2],stop_gradient:[true]} : () -> builtin.tensor<2x2xf32>
    (%1) = "pd_op.eigvals" (%0) {} : (builtin.tensor<2x2xf32>) -> builtin.tensor<2xc64>
    (%2) = "pd_op.fetch" (%1) {col:(Int32)0,name:"out",persistable:[true],stop_gradient:[false]} : (builtin.tensor<2xc64>) -> builtin.tensor<2xc64>
}
`

// ruleLine finds the table line of a rule in rule-mode output and returns its status and detail.
func ruleLine(t *testing.T, out, id string) (status, detail string) {
	t.Helper()
	re := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(id) + ` +(ok|FAILED|SKIPPED|never) +(\S*) +\d+ +(.*)$`)
	m := re.FindStringSubmatch(out)
	require.NotNil(t, m, "no line for %s in\n%s", id, out)
	return m[1], m[3]
}

func TestVerifyRuleModeShippedSets(t *testing.T) {
	tests := []struct {
		set     string
		summary string            // a regular expression
		lines   map[string]string // rule ID → status
	}{
		{"conv_bn_relu", `\d+ ok, 0 FAILED, 0 SKIPPED`, map[string]string{
			"conv2d_bn_fold[pd_op.conv2d,pd_op.batch_norm_]":          "ok",
			"conv2d_bn_fold[pd_op.depthwise_conv2d,pd_op.batch_norm]": "ok",
			"conv2d_add_act[pd_op.relu]":                              "ok",
			"conv2d_add":                                              "ok",
			"fused_conv2d_add_residual_then_act":                      "ok",
		}},
		// Every instance that can fire is verified; instances over ops the rule excludes never fire.
		{"inplace", `\d+ ok, 0 FAILED, 0 SKIPPED, \d+ never fire`, map[string]string{
			"deinplace[pd_op.relu_]": "ok", "deinplace[pd_op.c_allreduce_sum_]": "never"}},
		{"reinplace", `\d+ ok, 0 FAILED, 0 SKIPPED, \d+ never fire`, map[string]string{
			"reinplace[pd_op.relu_]": "ok", "reinplace[pd_op.cast_]": "ok", "reinplace[pd_op.flatten_]": "never"}},
		{"value_semantics", `\d+ ok, 0 FAILED, 0 SKIPPED`, map[string]string{"drop_copy": "ok"}},
		// A pipeline: its rule sets (value_semantics once).
		{"inference", `\d+ ok, 0 FAILED, 0 SKIPPED, \d+ never fire`, map[string]string{"snapshot_of_copy": "ok", "conv2d_add": "ok",
			"deinplace[pd_op.relu_]": "ok", "reinplace[pd_op.relu_]": "ok"}},
	}
	for _, tc := range tests {
		t.Run(tc.set, func(t *testing.T) {
			code, out, errs := run(t, "", "verify", "-set", tc.set)
			require.Equal(t, exitOK, code, "%s\n%s", out, errs)
			assert.Regexp(t, `(?m)^`+tc.summary+`$`, out)
			for id, want := range tc.lines {
				status, _ := ruleLine(t, out, id)
				assert.Equal(t, want, status, id)
			}
		})
	}
	// The gpu_inference sets: every rule is verified (list holes such as a reshape's shape are solved from the
	// sizes of the values the where clause ties them to), none is SKIPPED, none fails.
	gpuSets := []string{
		"add_norm_fuse", "conv2d_add_act_fuse", "conv2d_add_fuse", "conv2d_bn_fuse",
		"delete_quant_dequant_linear_op", "delete_weight_dequant_linear_op", "embedding_eltwise_layernorm_fuse",
		"fc_elementwise_layernorm_fuse", "fused_flash_attn", "fused_rotary_position_embedding",
		"fused_weight_only_linear", "group_norm_silu_fuse", "group_norm_swish", "identity_op_clean",
		"map_op_to_another", "matmul_add_act_fuse", "matmul_scale_fuse", "matmul_transpose_fuse",
		"multihead_matmul_fuse", "remove_redundant_transpose", "rotary_shared_ids", "rotary_single_tensor", "silu_fuse",
		"transpose_flatten_concat_fuse", "weight_only_linear_bias"}
	for _, set := range gpuSets {
		t.Run(set, func(t *testing.T) {
			code, out, errs := run(t, "", "verify", "-set", set)
			assert.Regexp(t, `(?m)^\d+ ok, 0 FAILED, 0 SKIPPED$`, out, errs)
			assert.Equal(t, exitOK, code, errs)
		})
	}
	// horizontal_fuse is users groups: rule mode builds MIN elements reading one value, their weights parameters.
	t.Run("horizontal_fuse", func(t *testing.T) {
		code, out, errs := run(t, "", "verify", "-set", "horizontal_fuse")
		assert.Regexp(t, `(?m)^3 ok, 0 FAILED, 0 SKIPPED$`, out, errs)
		assert.Equal(t, exitOK, code, errs)
	})
	// Every shipped set has been covered.
	assert.ElementsMatch(t, append([]string{"conv_bn_relu", "inplace", "reinplace", "value_semantics", "horizontal_fuse"},
		gpuSets...), rules.Sets())
}

func TestVerifyRuleModeReasons(t *testing.T) {
	code, out, errs := run(t, "", "verify", "-set", "reinplace", "-j", "1")
	require.Equal(t, exitOK, code, errs)
	_, detail := ruleLine(t, out, "reinplace[pd_op.c_allreduce_sum_]")
	assert.Equal(t, "can never fire: its where clause `!has_trait(%b, \"SideEffects\")` is always false (reinplace.drr:18:5)", detail)

	code, out, _ = run(t, "", "verify", "-set", "conv_bn_relu", "-v", "-variants", "2")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, `program 2: ok: $st = [2, 2], $pd = [1, 1], $pa = "SAME"`)
	assert.Contains(t, out, "%out: shape [2 4 4 5], max abs")
}

// TestVerifyAllowSkip: a rule that cannot be checked is an error with its position; -allow-skip lets it pass (and
// still reports it).
func TestVerifyAllowSkip(t *testing.T) {
	dir := t.TempDir()
	rules := write(t, dir, "skip.drr", `rule never_instantiable {
  match { %y = pd_op.relu(%x) }
  where { is_param(%x) && is_input(%x) }
  rewrite { replace %y with pd_op.relu(%x) }
}

rule fine {
  match { %y = pd_op.relu(%x) }
  rewrite { replace %y with pd_op.maximum(%x, pd_op.full() {shape: [1], value: 0.0, dtype: float32}) }
}
`)
	code, out, errs := run(t, "", "verify", rules)
	require.Equal(t, exitFailure, code, out)
	assert.Contains(t, out, "1 ok, 0 FAILED, 1 SKIPPED")
	assert.Contains(t, errs, rules+":1:6: rule never_instantiable SKIPPED: could not satisfy the rule's pattern and constraints")
	status, detail := ruleLine(t, out, "never_instantiable")
	assert.Equal(t, "SKIPPED", status)
	assert.Contains(t, detail, "constraint is_input(%x) is false")

	code, out, errs = run(t, "", "verify", "-allow-skip", rules)
	require.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "1 ok, 0 FAILED, 1 SKIPPED")
	assert.NotContains(t, errs, "SKIPPED")
}

// TestVerifyWrongRule: drrc verify wrong.drr exits 1 and names the rule, the output that differs and the program.
func TestVerifyWrongRule(t *testing.T) {
	dir := t.TempDir()
	wrong := write(t, dir, "wrong.drr", wrongFold)
	code, out, errs := run(t, "", "verify", wrong)
	require.Equal(t, exitFailure, code, out)
	status, detail := ruleLine(t, out, "conv2d_bn_fold_wrong[pd_op.conv2d,pd_op.batch_norm_]")
	assert.Equal(t, "FAILED", status)
	assert.Contains(t, detail, "outputs differ: %out: max rel")
	assert.Contains(t, out, `      on $st = [1, 1], $pd = [0, 0], $pa = "EXPLICIT"`)
	assert.Contains(t, out, "0 ok, 4 FAILED, 0 SKIPPED", "every instance of the family fails")
	assert.Contains(t, errs, wrong+":4:6: rule conv2d_bn_fold_wrong[pd_op.conv2d,pd_op.batch_norm_] FAILED: outputs differ: %out: max rel")

	// The same rule file with -rules in rule mode.
	code, _, _ = run(t, "", "verify", "-rules", wrong)
	assert.Equal(t, exitFailure, code)
}

// TestVerifyWrongQuantRules: the two quantization rules with their one essential step dropped are FAILED, although
// verify accepts the shipped rules, which change the values by up to half a quantization step (the error budget
// models quantization as a rounding to its grid, not as an error of any size).
func TestVerifyWrongQuantRules(t *testing.T) {
	tests := []struct {
		set, rule, from, to string
	}{
		// The quantized integers instead of x: the dequantization's scale s/qmax is lost.
		{"delete_quant_dequant_linear_op", "delete_quant_dequant_linear", "replace %y with %x", "replace %y with %q"},
		// Paddle's rewrite: the quantized weight itself, its scales left to int8 kernels a float pipeline does not have.
		{"delete_weight_dequant_linear_op", "delete_weight_dequant_linear",
			"replace %y with pd_op.divide(%ws, pd_op.full() {shape: [1], value: $qmax, dtype: dtype(%s)})",
			"replace %y with pd_op.cast(%w) {dtype: dtype(%s)}"},
	}
	for _, tc := range tests {
		t.Run(tc.set, func(t *testing.T) {
			src, err := rules.Source(tc.set)
			require.NoError(t, err)
			require.Contains(t, string(src), tc.from)
			wrong := write(t, t.TempDir(), "wrong.drr", strings.Replace(string(src), tc.from, tc.to, 1))
			code, out, errs := run(t, "", "verify", wrong)
			require.Equal(t, exitFailure, code, "%s\n%s", out, errs)
			status, detail := ruleLine(t, out, tc.rule)
			assert.Equal(t, "FAILED", status, detail)
			assert.Contains(t, detail, "outputs differ: %y: max rel")

			code, out, errs = run(t, "", "verify", "-set", tc.set)
			require.Equal(t, exitOK, code, "%s\n%s", out, errs)
			status, detail = ruleLine(t, out, tc.rule)
			assert.Equal(t, "ok", status, detail)
		})
	}
}

func TestVerifyProgramMode(t *testing.T) {
	dir := t.TempDir()
	model := write(t, dir, "tiny.json", string(sample.JSON()))

	code, out, errs := run(t, "", "verify", model)
	require.Equal(t, exitOK, code, "%s\n%s", out, errs)
	assert.Contains(t, out, "verify "+model+": inplace → value_semantics.wrap →")
	kernels, err := interp.Kernels()
	require.NoError(t, err)
	assert.Contains(t, out, "3 run(s) from seed 1, float32 on the "+kernels+" kernels, tolerance rel 1e-05 or each output's float32 error budget")
	assert.Regexp(t, `(?m)^  probs +\[1 10\] +\S+ +\S+ +\S+  ok$`, out)
	assert.Contains(t, out, "ok: 1 output(s) agree (max rel ")
	assert.Contains(t, errs, "conv2d_bn_fold", "pass statistics on standard error")

	code, out, errs = run(t, "", "verify", "-passes", "inference,fold_constants", "-fill-weights", "5", "-runs", "2", "-batch", "2", model)
	require.Equal(t, exitOK, code, "%s\n%s", out, errs)
	assert.Contains(t, out, "random data for 27 parameter(s) (seed 5)")
	assert.Contains(t, out, "weight arithmetic left after the passes: none")
	assert.Contains(t, out, "2 run(s) from seed 1")
	assert.Regexp(t, `(?m)^  probs +\[2 10\] `, out)

	// The inference pipeline ends with fold_constants: with weight data, no weight arithmetic is left; the
	// batch-norm folds alone leave theirs.
	code, out, _ = run(t, "", "verify", "-fill-weights", "5", "-float32", "-rtol", "1e-4", model)
	require.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "float32 on the "+kernels+" kernels, tolerance rel 0.0001")
	assert.Contains(t, out, "weight arithmetic left after the passes: none")
	code, out, _ = run(t, "", "verify", "-passes", "conv_bn_relu", "-fill-weights", "5", model)
	require.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "weight arithmetic left after the passes: ")
	assert.Contains(t, out, "pd_op.divide")
}

func TestVerifyProgramFailures(t *testing.T) {
	dir := t.TempDir()
	model := write(t, dir, "tiny.json", string(sample.JSON()))
	wrong := write(t, dir, "wrong.drr", wrongFold)

	// A wrong rule applied by -rules after de-inplacing.
	code, out, errs := run(t, "", "verify", "-rules", wrong, "-passes", "inplace,rules", model)
	require.Equal(t, exitFailure, code, out)
	assert.Regexp(t, `(?m)^  probs +\[1 10\] +\S+ +\S+ +\S+  FAIL \(run \d, element \d+: `, out)
	assert.Contains(t, out, "FAIL: 1 of 1 output(s) differ beyond the tolerance")
	assert.Contains(t, errs, "drrc verify: "+model+": interp: outputs differ: probs (max rel")

	// An op the interpreter cannot evaluate: named with its position.
	prog := write(t, dir, "eigvals.pir", eigvalsProgram)
	code, out, errs = run(t, "", "verify", prog)
	require.Equal(t, exitFailure, code, out)
	assert.Contains(t, errs, "drrc verify: "+prog+": before: cannot evaluate pd_op.eigvals at "+prog+":3")
	assert.Contains(t, out, "FAIL: before: cannot evaluate pd_op.eigvals at "+prog+":3")

	// An op beyond a size limit: the flag that raises it is named, and raising it lets the program through.
	code, out, errs = run(t, "", "verify", "-max-macs", "100", model)
	require.Equal(t, exitFailure, code, out)
	assert.Regexp(t, `before: evaluating pd_op\.\w+ at .*: \d+ multiply-accumulates, more than Options.MaxMACs \(100\)`, errs)
	assert.Contains(t, errs, "drrc verify: -max-macs raises the limit")
	code, out, errs = run(t, "", "verify", "-max-elements", "10", model)
	require.Equal(t, exitFailure, code, out)
	assert.Contains(t, errs, "elements, more than Options.MaxElements (10)")
	assert.Contains(t, errs, "drrc verify: -max-elements raises the limit")
	code, out, _ = run(t, "", "verify", "-max-macs", "1000000000", model)
	assert.Equal(t, exitOK, code, out)

	// A pass that does not exist.
	code, _, errs = run(t, "", "verify", "-passes", "nosuch", model)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, `unknown pass "nosuch"`)
}

func TestVerifyUsage(t *testing.T) {
	dir := t.TempDir()
	model := write(t, dir, "tiny.json", string(sample.JSON()))
	wrong := write(t, dir, "wrong.drr", wrongFold)
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"verify"}, exitUsage, "nothing to verify"},
		{[]string{"verify", model, wrong}, exitUsage, "give either programs or rule files"},
		{[]string{"verify", "-input", "x=1xa", model}, exitUsage, `bad dimension "a"`},
		{[]string{"verify", "-max-macs", "-1", model}, exitUsage, "must not be negative"},
		{[]string{"verify", "-input", "x", model}, exitUsage, "want name=1x3x64x64"},
		{[]string{"verify", "-runs", "0", model}, exitUsage, "-runs must be positive"},
		{[]string{"verify", "-passes", "inference"}, exitUsage, "-passes needs a program"},
		{[]string{"verify", "-set", "fold_constants"}, exitFailure, "fold_constants is a Go pass, not a rule set"},
		{[]string{"verify", filepath.Join(dir, "missing.json")}, exitFailure, "missing.json"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, _, errs := run(t, "", tc.args...)
			assert.Equal(t, tc.code, code, errs)
			assert.Contains(t, errs, tc.msg)
		})
	}
	code, out, _ := run(t, "", "help", "verify")
	assert.Equal(t, exitOK, code)
	for _, f := range []string{"-fill-weights seed", "-runs", "-rtol", "-float32", "-input name=1x3x64x64", "-variants", "Examples:"} {
		assert.Contains(t, out, f)
	}
	code, out, _ = run(t, "", "help")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "\tverify")
}

// TestApplyFoldConstants: fold_constants is a registered pass; without weight data it changes nothing.
func TestApplyFoldConstants(t *testing.T) {
	dir := t.TempDir()
	model := write(t, dir, "tiny.json", string(sample.JSON()))
	code, out, errs := run(t, "", "apply", "-passes", "inference,fold_constants", model, "-o", filepath.Join(dir, "out.json"))
	require.Equal(t, exitOK, code, "%s\n%s", out, errs)
	assert.Regexp(t, `fold_constants +0 changes`, errs)
	code, out, _ = run(t, "", "apply", "-list")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "fold_constants")
}

// TestVerifyCorpus runs program mode on real models (skipped when ../shared/corpus is absent).
func TestVerifyCorpus(t *testing.T) {
	corpus := filepath.Join("..", "..", "shared", "corpus")
	tests := []struct {
		file string
		args []string
	}{
		{"pir_json/nanaikaros__PP-OCRv5_mobile_det_infer.inference.json", []string{"-size", "64", "-runs", "1"}},
		// MobileNetV2 is captured in training mode: its batch norms stay, and the program still verifies.
		{"graphnet/graphnet_PaddleX_MobileNetV2_x1_0.pir", []string{"-input", "data_0=1x3x64x64", "-runs", "1"}},
		// Issue 14's recognizer: conv, swish, layer_norm, attention and CTC head.
		{"pir_json/nanaikaros__korean_PP-OCRv5_mobile_rec_infer.inference.json", []string{"-input", "x=1x3x48x160", "-runs", "1"}},
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			path := filepath.Join(corpus, tc.file)
			if _, err := os.Stat(path); err != nil {
				t.Skipf("corpus program %s is absent", path)
			}
			code, out, errs := run(t, "", append(append([]string{"verify"}, tc.args...), path)...)
			require.Equal(t, exitOK, code, "%s\n%s", out, errs)
			assert.Contains(t, out, "ok: 1 output(s) agree")
			t.Log(out)
		})
	}
}

// TestVerifyRejectsUnknownKernels runs drrc verify in a child process whose PIRDRR_KERNELS names no kernel path
// (the variable is read when the process starts): a usage error naming the variable and the paths there are, not
// a verification on another path than the one asked for.
func TestVerifyRejectsUnknownKernels(t *testing.T) {
	if os.Getenv("DRRCLI_KERNELS_CHILD") != "" {
		dir := t.TempDir()
		model := write(t, dir, "tiny.json", string(sample.JSON()))
		code, out, errs := run(t, "", "verify", model)
		fmt.Printf("exit %d\n%s%s", code, out, errs)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestVerifyRejectsUnknownKernels$", "-test.v")
	cmd.Env = append(os.Environ(), "DRRCLI_KERNELS_CHILD=1", "PIRDRR_KERNELS=sse9")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), fmt.Sprintf("exit %d\n", exitUsage))
	assert.Contains(t, string(out), `drrc verify: PIRDRR_KERNELS="sse9": this machine runs the kernel paths `)
	assert.NotContains(t, string(out), "run(s) from seed")
}
