package drrcli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// swishConvProgram is conv2d + bias + swish in float32, which swishRule fuses into a fused_conv2d_add_act with
// activation swish for no particular kernel: Paddle's cuDNN kernel does not know swish.
const swishConvProgram = `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1,8,16,16],stop_gradient:[true]} : () -> builtin.tensor<1x8x16x16xf32>
    (%1) = "builtin.parameter" () {parameter_name:"w"} : () -> builtin.tensor<8x8x3x3xf32>
    (%2) = "builtin.parameter" () {parameter_name:"b"} : () -> builtin.tensor<1x8x1x1xf32>
    (%3) = "pd_op.conv2d" (%0, %1) {data_format:"NCHW",dilations:[(Int32)1,(Int32)1],groups:(Int32)1,padding_algorithm:"EXPLICIT",paddings:[(Int32)1,(Int32)1],strides:[(Int32)1,(Int32)1]} : (builtin.tensor<1x8x16x16xf32>, builtin.tensor<8x8x3x3xf32>) -> builtin.tensor<1x8x16x16xf32>
    (%4) = "pd_op.add" (%3, %2) {} : (builtin.tensor<1x8x16x16xf32>, builtin.tensor<1x8x1x1xf32>) -> builtin.tensor<1x8x16x16xf32>
    (%5) = "pd_op.swish" (%4) {} : (builtin.tensor<1x8x16x16xf32>) -> builtin.tensor<1x8x16x16xf32>
    (%6) = "pd_op.fetch" (%5) {col:(Int32)0,name:"out0"} : (builtin.tensor<1x8x16x16xf32>) -> builtin.tensor<1x8x16x16xf32>
}
`

// swishRule is a user's rule that fuses conv2d + bias + swish as conv_bn_relu did before it had Paddle's defaults
// (issue 27): without force_backend, so the cuDNN kernel would run it. The shipped sets fuse swish only with
// use_cutlass, for the cutlass kernel.
const swishRule = `rule conv_add_swish {
  match {
    %y = pd_op.conv2d(%x, %w) {strides: $st, paddings: $pd, padding_algorithm: $pa, dilations: $dl, groups: $g,
        data_format: $fmt}
    %z = pd_op.add(%y, %b)
    %r = pd_op.swish(%z)
  }
  rewrite {
    %f, _ = pd_op.fused_conv2d_add_act(%x, %w, %b, null) {strides: $st, paddings: $pd, padding_algorithm: $pa,
        dilations: $dl, groups: $g, data_format: $fmt, activation: "swish"}
    replace %r with %f
  }
}
`

// TestCheckTarget: drrc check -target checks a program against the target's kernel table, positioned, and fails
// on what Paddle cannot run; the same program checks clean without -target, and before the fusion.
func TestCheckTarget(t *testing.T) {
	dir := t.TempDir()
	prog := write(t, dir, "p.pir", swishConvProgram)
	swish := write(t, dir, "swish.drr", swishRule)
	fused := filepath.Join(dir, "fused.pir")
	code, _, errs := run(t, "", "apply", "-rules", swish, prog, "-o", fused)
	require.Equal(t, exitOK, code, errs)

	code, _, errs = run(t, "", "check", "-target", "gpu:sm80", prog)
	assert.Equal(t, exitOK, code, "the unfused program has kernels: %s", errs)

	code, _, errs = run(t, "", "check", fused)
	assert.Equal(t, exitOK, code, "without -target only the IR is checked: %s", errs)

	code, _, errs = run(t, "", "check", "-target", "gpu:sm80", fused)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, fused+":5:5: error: (%3, %4) = pd_op.fused_conv2d_add_act: Paddle cannot run it on gpu:sm80 [cudnn_activation]: "+
		`the cuDNN kernel knows no activation "swish"`)
	assert.Contains(t, errs, "(paddle/phi/kernels/fusion/gpu/fused_conv2d_add_act_kernel.cu)")
	assert.Contains(t, errs, `    (%3, %4) = "pd_op.fused_conv2d_add_act" (%0, %1, %2, <<NULL`, "the source line is shown")

	code, _, errs = run(t, "", "check", "-target", "gpu:sm81", fused)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errs, `invalid value "gpu:sm81" for flag -target: target "gpu:sm81": sm81 is not the compute capability of an NVIDIA GPU`)

	code, _, errs = run(t, "", "check", "-target", "cpu", fused)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "no kernel table for target cpu")
}

// TestKernelCheckPass: kernel_check at the end of a pipeline fails the run on ops Paddle cannot run on -target,
// positioned in the input program where the op came from, and writes nothing; without -target it says so. The
// shipped conv_bn_relu makes only what Paddle runs there, with its defaults and with use_cutlass.
func TestKernelCheckPass(t *testing.T) {
	dir := t.TempDir()
	prog := write(t, dir, "p.pir", swishConvProgram)
	swish := write(t, dir, "swish.drr", swishRule)
	out := filepath.Join(dir, "out.pir")
	code, _, errs := run(t, "", "apply", "-rules", swish, "-passes", "kernel_check", "-target", "gpu:sm80", prog, "-o", out)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "pass kernel_check: 1 op Paddle cannot run on gpu:sm80:")
	assert.Contains(t, errs, prog+":7:5: error: (%3, %4) = pd_op.fused_conv2d_add_act: Paddle cannot run it on gpu:sm80 [cudnn_activation]",
		"positioned at the swish the op replaced")
	assert.NoFileExists(t, out)

	for _, args := range [][]string{nil, {"-param", "use_cutlass=true"}} {
		code, _, errs = run(t, "", append(append([]string{"apply", "-passes", "conv_bn_relu,kernel_check", "-target", "gpu:sm80"}, args...),
			prog, "-o", out)...)
		assert.Equal(t, exitOK, code, "%v: %s", args, errs)
		assert.FileExists(t, out)
	}

	code, _, errs = run(t, "", "apply", "-passes", "kernel_check", prog, "-o", out)
	assert.Equal(t, exitFailure, code)
	assert.True(t, strings.Contains(errs, "kernel_check needs a target: give -target (gpu:sm80, cpu)"), errs)
}
