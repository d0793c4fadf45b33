package mlirtext

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

func TestTypesAndAttrs(t *testing.T) {
	c := ir.NewContext()
	f32 := c.Scalar(ir.DTypeFloat32)
	tests := []struct {
		got, want string
	}{
		{Type(c.Tensor(ir.DenseTensor, []int64{-1, 3, 224}, f32)), "tensor<?x3x224xf32>"},
		{Type(c.Tensor(ir.ValueTensor, []int64{4}, f32)), "!pd_op.v_tensor<4xf32>"},
		{Type(c.Tensor(ir.DenseTensor, nil, c.Scalar(ir.DTypeBool))), "tensor<i1>"},
		{Type(c.Vector(f32, c.Scalar(ir.DTypeInt64))), "tuple<f32, i64>"},
		{Attr(c.Int32(1)), "1 : i32"},
		{Attr(c.Int64(-1)), "-1 : i64"},
		{Attr(c.Float(1e-5)), "1.0e-05 : f32"},
		{Attr(c.Float(0.9)), "9.0e-01 : f32"},
		{Attr(c.Double(2.5)), "2.5e+00 : f64"},
		{Attr(c.Double(math.NaN())), "0x7FF8000000000001 : f64"},
		{Attr(c.Str(`a"b`)), `"a\"b"`},
		{Attr(c.Int32s(1, 2)), "[1 : i32, 2 : i32]"},
		{Attr(c.DataType(ir.DTypeFloat32)), `"(pd_op.DataType)float32"`},
		{OpName("builtin.parameter"), "pd_op.parameter"},
		{OpName("builtin.combine"), "pir.combine"},
		{OpName("add(phi_kernel)"), "pir.kernel.add_phi_kernel_"},
		{OpName("pd_op.conv2d"), "pd_op.conv2d"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.got)
	}
}

// TestMLIRReadsOurOutput writes corpus programs (regions, block arguments, multi-result ops) and the sample model
// and has mlir-opt parse them, when mlir-opt is installed.
func TestMLIRReadsOurOutput(t *testing.T) {
	mlirOpt, err := exec.LookPath("mlir-opt")
	if err != nil {
		mlirOpt = "/usr/lib/llvm-22/bin/mlir-opt"
		if _, err := os.Stat(mlirOpt); err != nil {
			t.Skip("mlir-opt is not installed (Debian: apt-get install mlir-22-tools)")
		}
	}
	dir := "../../../shared/corpus/pir_text"
	files, _ := filepath.Glob(filepath.Join(dir, "*.pir"))
	if len(files) == 0 {
		t.Skip("the corpus is not at ../shared/corpus")
	}
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "24_") {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		p, _, err := pirtext.Parse(ctx, f, src, pirtext.ReadOptions{})
		require.NoError(t, err, f)
		var b bytes.Buffer
		require.NoError(t, Write(&b, p))
		cmd := exec.Command(mlirOpt, "--allow-unregistered-dialect", "-o", "/dev/null")
		cmd.Stdin = &b
		out, err := cmd.CombinedOutput()
		assert.NoError(t, err, "%s:\n%s\n%s", f, out, b.String())
	}
}
