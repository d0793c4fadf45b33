package ir_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

func TestFusedResultTypes(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p := ir.NewProgram(ctx)
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(p.Body())
	val := func(dt ir.DType, dims ...int64) *ir.Value {
		return b.Create(ir.OpSpec{Name: "test.value", Results: []ir.Type{ctx.Tensor(ir.DenseTensor, dims, ctx.Scalar(dt))}}).Result(0)
	}
	f := func(dims ...int64) *ir.Value { return val(ir.DTypeFloat32, dims...) }
	vec := func(vs ...*ir.Value) *ir.Value {
		var ts []ir.Type
		for _, v := range vs {
			ts = append(ts, v.Type())
		}
		return b.Create(ir.OpSpec{Name: "builtin.combine", Operands: vs, Results: []ir.Type{ctx.Vector(ts...)}}).Result(0)
	}
	na := func(name string, a ir.Attribute) ir.NamedAttr { return ir.NamedAttr{Name: name, Value: a} }
	tests := []struct {
		op       string
		operands []*ir.Value
		attrs    []ir.NamedAttr
		want     string // result types joined by "; "
	}{
		{"pd_op.fc", []*ir.Value{f(2, 3, 4), f(4, 5), f(5)}, []ir.NamedAttr{na("in_num_col_dims", ctx.Int32(2))},
			"builtin.tensor<2x3x5xf32>"},
		{"pd_op.fc", []*ir.Value{f(3, 4), f(8, 9), nil}, []ir.NamedAttr{na("padding_weights", ctx.Bool(true))},
			"builtin.tensor<3x5xf32>"},
		{"pd_op.fused_gemm_epilogue", []*ir.Value{f(-1, 7, 4), f(5, 4), f(5)},
			[]ir.NamedAttr{na("trans_x", ctx.Bool(false)), na("trans_y", ctx.Bool(true)), na("activation", ctx.Str("gelu"))},
			"builtin.tensor<-1x7x5xf32>; <<NULL TYPE>>"},
		{"pd_op.fused_gemm_epilogue", []*ir.Value{f(4, 3), f(4, 5), f(5)},
			[]ir.NamedAttr{na("trans_x", ctx.Bool(true)), na("trans_y", ctx.Bool(false)), na("activation", ctx.Str("none"))},
			"builtin.tensor<3x5xf32>; <<NULL TYPE>>"},
		{"pd_op.multihead_matmul", []*ir.Value{f(2, 128, 768), f(768, 3, 768), f(3, 768), f(2, 1, 1, 128)}, nil,
			"builtin.tensor<2x128x768xf32>"},
		{"pd_op.fused_rotary_position_embedding", []*ir.Value{f(1, 8, 4, 64), f(1, 8, 4, 64), nil, nil, nil, nil}, nil,
			"builtin.tensor<1x8x4x64xf32>; builtin.tensor<1x8x4x64xf32>; <<NULL TYPE>>"},
		{"pd_op.rms_norm", []*ir.Value{f(2, 8, 64), nil, f(2, 8, 64), f(64), nil}, []ir.NamedAttr{na("begin_norm_axis", ctx.Int32(2))},
			"builtin.tensor<2x8x64xf32>; builtin.tensor<2x8x64xf32>; builtin.tensor<16xf32>"},
		{"pd_op.fused_bias_residual_layernorm", []*ir.Value{f(-1, 64), f(64), nil, f(64), f(64)},
			[]ir.NamedAttr{na("begin_norm_axis", ctx.Int32(1)), na("quant_scale", ctx.Float(-1))},
			"builtin.tensor<-1x64xf32>; <<NULL TYPE>>; builtin.tensor<-1xf32>; builtin.tensor<-1xf32>"},
		{"pd_op.add_group_norm_silu", []*ir.Value{f(2, 32, 8, 8), f(2, 32, 8, 8), f(32), f(32)}, []ir.NamedAttr{na("groups", ctx.Int32(8))},
			"builtin.tensor<2x32x8x8xf32>; builtin.tensor<2x32x8x8xf32>; builtin.tensor<2x8xf32>; builtin.tensor<2x8xf32>"},
		{"pd_op.fusion_transpose_flatten_concat", []*ir.Value{vec(f(2, 3, 4, 4), f(2, 5, 4, 4))},
			[]ir.NamedAttr{na("trans_axis", ctx.Int32s(0, 2, 3, 1)), na("flatten_axis", ctx.Int32(1)), na("concat_axis", ctx.Int32(1))},
			"builtin.tensor<2x128xf32>"},
		{"pd_op.flash_attn", []*ir.Value{f(2, 16, 8, 64), f(2, 32, 8, 64), f(2, 32, 8, 64), nil, nil}, nil,
			"builtin.tensor<2x16x8x64xf32>; builtin.tensor<2x8x16x32xf32>; builtin.tensor<2x8x16xf32>; builtin.tensor<2xi64>"},
		{"pd_op.weight_only_linear", []*ir.Value{f(2, 7, 64), val(ir.DTypeInt8, 32, 64), nil, f(64)},
			[]ir.NamedAttr{na("weight_dtype", ctx.Str("int4"))}, "builtin.tensor<2x7x64xf32>"},
		{"pd_op.fused_embedding_eltwise_layernorm", []*ir.Value{vec(val(ir.DTypeInt64, 1, 21), val(ir.DTypeInt64, 1, 21)),
			vec(f(30522, 768), f(2, 768)), f(768), f(768)}, nil, "builtin.tensor<1x21x768xf32>"},
		{"pd_op.fused_fc_elementwise_layernorm", []*ir.Value{f(4, 3), f(3, 5), f(4, 5), nil, nil, nil}, nil,
			"builtin.tensor<4x5xf32>; builtin.tensor<4xf32>; builtin.tensor<4xf32>"},
		{"pd_op.fused_dropout_add", []*ir.Value{f(4, 6), f(4, 6), nil, f(1)}, nil, "builtin.tensor<4x6xf32>; builtin.tensor<2xi64>"},
		{"pd_op.skip_layernorm", []*ir.Value{f(2, 3, 4), f(2, 3, 4), f(4), f(4)}, nil, "builtin.tensor<2x3x4xf32>"},
		{"pd_op.conv2d", []*ir.Value{f(2, 3, 6, 7), f(4, 3, 3, 3)}, nil, "builtin.tensor<2x4x4x5xf32>"},
		{"pd_op.conv2d", []*ir.Value{f(2, 6, 6, 8), f(8, 1, 3, 3)},
			[]ir.NamedAttr{na("groups", ctx.Int32(8)), na("data_format", ctx.Str("NHWC"))}, "builtin.tensor<2x4x4x8xf32>"},
		{"pd_op.conv2d", []*ir.Value{f(-1, -1, 6, 7), f(4, 3, 3, 3)}, nil, "builtin.tensor<-1x4x4x5xf32>"},
		{"pd_op.fused_conv2d_add_act", []*ir.Value{f(2, 6, 7, 8), f(16, 3, 3, 8), f(16), nil},
			[]ir.NamedAttr{na("data_format", ctx.Str("NHWC")), na("force_backend", ctx.Str("gpu"))},
			"builtin.tensor<2x4x5x16xf32>; <<NULL TYPE>>"},
	}
	for _, tc := range tests {
		s := ctx.Schema(tc.op)
		require.NotNil(t, s, tc.op)
		types, err := ctx.InferResultTypes(s, tc.operands, tc.attrs)
		require.NoError(t, err, tc.op)
		var got []string
		for _, ty := range types {
			got = append(got, ty.String())
		}
		assert.Equal(t, tc.want, strings.Join(got, "; "), tc.op)
	}

	// Bad shapes are errors, not guesses.
	_, err = ctx.InferResultTypes(ctx.Schema("pd_op.multihead_matmul"), []*ir.Value{f(2, 768), f(768, 3, 768), f(3, 768), nil}, nil)
	assert.ErrorContains(t, err, "input must be [B, S, H]")
	_, err = ctx.InferResultTypes(ctx.Schema("pd_op.fc"), []*ir.Value{f(3, 4), f(4, 5), nil}, []ir.NamedAttr{na("in_num_col_dims", ctx.Int32(2))})
	assert.ErrorContains(t, err, "in_num_col_dims 2")
	// Paddle's ConvInferMeta: input channels = filter channels × groups.
	_, err = ctx.InferResultTypes(ctx.Schema("pd_op.conv2d"), []*ir.Value{f(2, 3, 6, 7), f(8, 8, 3, 3)}, nil)
	assert.ErrorContains(t, err, "input channels 3 != filter channels 8 * groups 1")
	_, err = ctx.InferResultTypes(ctx.Schema("pd_op.fused_conv2d_add_act"), []*ir.Value{f(2, 6, 7, 8), f(16, 8, 3, 3), f(16), nil},
		[]ir.NamedAttr{na("data_format", ctx.Str("NHWC")), na("force_backend", ctx.Str("gpu"))})
	assert.ErrorContains(t, err, "input channels 8 != filter channels 3 * groups 1", "the cutlass filter is [C_out, kh, kw, C_in]")
	badGroupNorm := []struct {
		name     string
		operands []*ir.Value
		attrs    []ir.NamedAttr
		want     string
	}{
		{"the op's default groups", []*ir.Value{f(2, 32, 8, 8), nil, f(32), f(32)}, nil, "groups -1 must be between 1 and the 32 channels"},
		{"more groups than channels", []*ir.Value{f(2, 8, 8, 8), nil, f(8), f(8)}, []ir.NamedAttr{na("groups", ctx.Int32(16))},
			"groups 16 must be between 1 and the 8 channels"},
		{"scale of another axis", []*ir.Value{f(2, 8, 8, 32), nil, f(8), f(32)},
			[]ir.NamedAttr{na("groups", ctx.Int32(4)), na("data_format", ctx.Str("NHWC"))}, "scale must have 32 elements"},
	}
	for _, tc := range badGroupNorm {
		_, err = ctx.InferResultTypes(ctx.Schema("pd_op.add_group_norm_silu"), tc.operands, tc.attrs)
		assert.ErrorContains(t, err, tc.want, tc.name)
	}
}
