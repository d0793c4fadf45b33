package ir_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

func TestLinearQuantResultTypes(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p := ir.NewProgram(ctx)
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(p.Body())
	val := func(dt ir.DType, dims ...int64) *ir.Value {
		return b.Create(ir.OpSpec{Name: "test.value", Results: []ir.Type{ctx.Tensor(ir.DenseTensor, dims, ctx.Scalar(dt))}}).Result(0)
	}
	f := func(dims ...int64) *ir.Value { return val(ir.DTypeFloat32, dims...) }
	axis := func(a int32) []ir.NamedAttr { return []ir.NamedAttr{{Name: "quant_axis", Value: ctx.Int32(a)}} }
	tests := []struct {
		name, op string
		operands []*ir.Value
		attrs    []ir.NamedAttr
		want     string // result types joined by "; ", or the error
	}{
		{"per tensor", "pd_op.quantize_linear", []*ir.Value{f(-1, 8), f(1), f(1), nil, nil}, axis(-1),
			"builtin.tensor<-1x8xf32>; <<NULL TYPE>>; <<NULL TYPE>>; builtin.tensor<1xf32>"},
		{"per channel, training operands", "pd_op.quantize_linear_", []*ir.Value{f(4, 3, 2, 2), f(3), f(3), f(1), f(1)}, axis(1),
			"builtin.tensor<4x3x2x2xf32>; builtin.tensor<1xf32>; builtin.tensor<1xf32>; builtin.tensor<3xf32>"},
		{"the default quant_axis is 0", "pd_op.quantize_linear", []*ir.Value{f(4, 3), f(4), f(4), nil, nil}, nil,
			"builtin.tensor<4x3xf32>; <<NULL TYPE>>; <<NULL TYPE>>; builtin.tensor<4xf32>"},
		{"an int8 weight dequantizes to the scale's dtype", "pd_op.dequantize_linear",
			[]*ir.Value{val(ir.DTypeInt8, 16, 8, 3, 3), f(16), f(16), nil, nil}, axis(0),
			"builtin.tensor<16x8x3x3xf32>; <<NULL TYPE>>; <<NULL TYPE>>; builtin.tensor<16xf32>"},
		{"a float16 scale", "pd_op.dequantize_linear", []*ir.Value{f(2, 5), val(ir.DTypeFloat16, 1), f(1), nil, nil}, axis(-1),
			"builtin.tensor<2x5xf16>; <<NULL TYPE>>; <<NULL TYPE>>; builtin.tensor<1xf16>"},
		{"dequantize without scale", "pd_op.dequantize_linear", []*ir.Value{f(2, 5), nil, f(1), nil, nil}, axis(-1),
			"error: dequantize_linear needs a scale"},
		{"quant_axis 2", "pd_op.quantize_linear", []*ir.Value{f(2, 3, 4), f(4), f(4), nil, nil}, axis(2),
			"error: quant_axis must be 0, 1 or -1, is 2"},
		{"quant_axis beyond the rank", "pd_op.quantize_linear", []*ir.Value{f(5), f(1), f(1), nil, nil}, axis(1),
			"error: quant_axis 1 of a rank-1 input"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			types, err := ctx.InferResultTypes(ctx.Schema(tc.op), tc.operands, tc.attrs)
			if w, ok := strings.CutPrefix(tc.want, "error: "); ok {
				assert.ErrorContains(t, err, w)
				return
			}
			require.NoError(t, err)
			var got []string
			for _, ty := range types {
				got = append(got, ty.String())
			}
			assert.Equal(t, tc.want, strings.Join(got, "; "))
		})
	}
}
