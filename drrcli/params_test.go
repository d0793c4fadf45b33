package drrcli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wolProgram is a float16 linear with bias that fused_weight_only_linear turns into a weight-only linear for a GPU
// target.
const wolProgram = `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float16,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2,4,64],stop_gradient:[true]} : () -> builtin.tensor<2x4x64xf16>
    (%1) = "builtin.parameter" () {parameter_name:"w"} : () -> builtin.tensor<64x32xf16>
    (%2) = "builtin.parameter" () {parameter_name:"b"} : () -> builtin.tensor<32xf16>
    (%3) = "pd_op.matmul" (%0, %1) {transpose_x:false,transpose_y:false} : (builtin.tensor<2x4x64xf16>, builtin.tensor<64x32xf16>) -> builtin.tensor<2x4x32xf16>
    (%4) = "pd_op.add" (%3, %2) {} : (builtin.tensor<2x4x32xf16>, builtin.tensor<32xf16>) -> builtin.tensor<2x4x32xf16>
    (%5) = "pd_op.fetch" (%4) {col:(Int32)0,name:"out0"} : (builtin.tensor<2x4x32xf16>) -> builtin.tensor<2x4x32xf16>
}
`

func TestParamFlag(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "p.pir")
	require.NoError(t, os.WriteFile(prog, []byte(wolProgram), 0o644))
	for _, tc := range []struct {
		name string
		args []string
		code int
		out  string // a substring of the output (stdout for 0, stderr otherwise)
		not  string
	}{
		// Paddle's pass runs bottom-up: the add is visited first and its rule takes the bias.
		{"sm 80", []string{"apply", "-set", "fused_weight_only_linear", "-bottom-up", "-param", "sm_version=80", prog}, exitOK,
			`"pd_op.weight_only_linear" (%0, %3, %2, %4) {arch:(Int32)80,group_size:(Int32)-1,weight_dtype:"int8"}`, ""},
		// Top-down, the matmul fuses first; the set of pirdrr's own then absorbs the bias.
		{"sm 80 top-down", []string{"apply", "-passes", "fused_weight_only_linear,weight_only_linear_bias", "-param", "sm_version=80", prog}, exitOK,
			`"pd_op.weight_only_linear" (%0, %3, %2, %4) {arch:(Int32)80,group_size:(Int32)-1,weight_dtype:"int8"}`, ""},
		{"int4", []string{"apply", "-set", "fused_weight_only_linear", "-param", "sm_version=86", "-param", "weight_only_algo=weight_only_int4", prog}, exitOK,
			`{arch:(Int32)86,group_size:(Int32)-1,weight_dtype:"int4"}`, ""},
		{"default", []string{"apply", "-set", "fused_weight_only_linear", prog}, exitOK, `"pd_op.matmul"`, "weight_only_linear"},
		{"unknown", []string{"apply", "-set", "fused_weight_only_linear", "-param", "sm=80", prog}, exitFailure,
			`drrc apply: -param sm: unknown parameter "sm" (did you mean sm_version?)`, ""},
		{"not declared by the pipeline", []string{"apply", "-set", "silu_fuse", "-param", "sm_version=80", prog}, exitFailure,
			"drrc apply: -param sm_version: the rule sets that run declare no parameter", ""},
		{"wrong kind", []string{"apply", "-set", "fused_weight_only_linear", "-param", "sm_version=ampere", prog}, exitFailure,
			`"ampere" is not an i64`, ""},
		{"verify rule mode", []string{"verify", "-param", "sm_version=80", "-set", "fused_weight_only_linear"}, exitOK,
			"2 ok, 0 FAILED, 0 SKIPPED", ""},
		{"verify program mode", []string{"verify", "-passes", "gpu_inference", "-param", "sm_version=80", prog}, exitOK, "ok", ""},
		{"explain", []string{"explain", "-set", "fused_weight_only_linear", "-op", "%3", prog}, exitOK,
			"$sm_version is 0; the rule wants one of [70, 75, 80, 86, 89, 90]", ""},
		{"target", []string{"apply", "-set", "fused_weight_only_linear", "-bottom-up", "-target", "gpu:sm80", prog}, exitOK,
			`"pd_op.weight_only_linear" (%0, %3, %2, %4) {arch:(Int32)80,group_size:(Int32)-1,weight_dtype:"int8"}`, ""},
		{"target and its alias agree", []string{"apply", "-set", "fused_weight_only_linear", "-target", "gpu:sm86", "-param", "sm_version=86", prog}, exitOK,
			`{arch:(Int32)86,group_size:(Int32)-1,weight_dtype:"int8"}`, ""},
		{"target and its alias disagree", []string{"apply", "-set", "fused_weight_only_linear", "-target", "gpu:sm80", "-param", "sm_version=75", prog}, exitFailure,
			"drrc apply: -param sm_version=75 contradicts -target gpu:sm80, which sets sm_version=80 (give one of them)", ""},
		{"cpu target", []string{"apply", "-set", "fused_weight_only_linear", "-target", "cpu", prog}, exitOK, `"pd_op.matmul"`, "weight_only_linear"},
		{"target of no set", []string{"apply", "-set", "silu_fuse", "-target", "gpu:sm80", prog}, exitOK, `"pd_op.matmul"`, ""},
		{"bad target", []string{"apply", "-set", "fused_weight_only_linear", "-target", "gpu:sm81", prog}, exitUsage,
			`invalid value "gpu:sm81" for flag -target: target "gpu:sm81": sm81 is not the compute capability of an NVIDIA GPU`, ""},
		{"verify with a target", []string{"verify", "-target", "gpu:sm80", "-set", "fused_weight_only_linear"}, exitOK,
			"2 ok, 0 FAILED, 0 SKIPPED", ""},
		{"explain with a target", []string{"explain", "-set", "fused_weight_only_linear", "-target", "gpu:sm75", "-op", "%3", prog}, exitOK,
			"rule weight_only_linear_no_bias (fused_weight_only_linear.drr:49:6): match", "$sm_version is 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, "", tc.args...)
			require.Equal(t, tc.code, code, "%s\n%s", out, errs)
			got := out
			if tc.code != exitOK {
				got = errs
			}
			assert.Contains(t, got, tc.out)
			if tc.not != "" {
				assert.NotContains(t, got, tc.not)
			}
		})
	}
}

func TestApplyListShowsParams(t *testing.T) {
	code, out, errs := run(t, "", "apply", "-list")
	require.Equal(t, exitOK, code, errs)
	i := strings.Index(out, "fused_weight_only_linear ")
	require.GreaterOrEqual(t, i, 0, out)
	assert.Contains(t, out[i:], "-param sm_version=0 (i64): The compute capability of the GPU")
	assert.Contains(t, out[i:], `-param weight_only_algo="weight_only_int8" (str)`)
}
