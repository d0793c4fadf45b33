package cost_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/ir"
)

// formulaCase is an op built on a program input and its hand-computed work.
type formulaCase struct {
	name  string
	build func(g *builder) *ir.Op
	want  cost.Work
}

// f32 bytes of n elements.
func b32(n int64) int64 { return 4 * n }

func runFormulaCases(t *testing.T, cases []formulaCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := newBuilder(t)
			op := tc.build(g)
			c := g.costOf(op)
			require.NoError(t, c.Err)
			got := c.Work
			require.Equal(t, tc.want.FLOPs, got.FLOPs, "FLOPs")
			if tc.want.Read != 0 || tc.want.Written != 0 {
				require.Equal(t, tc.want.Read, got.Read, "bytes read")
				require.Equal(t, tc.want.Written, got.Written, "bytes written")
			}
			require.Equal(t, 1, got.Kernels, "kernels")
			require.Equal(t, tc.want.Unit, got.Unit, "unit")
		})
	}
}

// TestMatmul: 2·M·N·K per product, K from the right dim under transposes, the batch of the broadcast result.
func TestMatmul(t *testing.T) {
	mm := func(x, y, out []int64, tx, ty bool) func(g *builder) *ir.Op {
		return func(g *builder) *ir.Op {
			return g.op("pd_op.matmul", []*ir.Value{g.data("x", g.f32(x...)), g.param("y", g.f32(y...))}, []ir.Type{g.f32(out...)},
				"transpose_x", g.ctx.Bool(tx), "transpose_y", g.ctx.Bool(ty))
		}
	}
	runFormulaCases(t, []formulaCase{
		// [2,3,4]·[4,5]: 2·(2·3·5)·4.
		{"batched", mm([]int64{2, 3, 4}, []int64{4, 5}, []int64{2, 3, 5}, false, false),
			cost.Work{FLOPs: 240, Read: b32(24 + 20), Written: b32(30), Unit: cost.Matrix}},
		// xᵀ: x [2,4,3] is K=4 rows.
		{"transpose_x", mm([]int64{2, 4, 3}, []int64{4, 5}, []int64{2, 3, 5}, true, false),
			cost.Work{FLOPs: 240, Read: b32(24 + 20), Written: b32(30), Unit: cost.Matrix}},
		// yᵀ: [3,4]·[5,4]ᵀ: 2·3·5·4.
		{"transpose_y", mm([]int64{3, 4}, []int64{5, 4}, []int64{3, 5}, false, true),
			cost.Work{FLOPs: 120, Read: b32(12 + 20), Written: b32(15), Unit: cost.Matrix}},
		// Batch broadcast: [8,1,3,4]·[6,4,5] → [8,6,3,5]: 2·720·4.
		{"broadcast", mm([]int64{8, 1, 3, 4}, []int64{6, 4, 5}, []int64{8, 6, 3, 5}, false, false),
			cost.Work{FLOPs: 5760, Read: b32(96 + 120), Written: b32(720), Unit: cost.Matrix}},
		// A vector times a matrix: 2·5·4.
		{"vector", mm([]int64{4}, []int64{4, 5}, []int64{5}, false, false),
			cost.Work{FLOPs: 40, Read: b32(4 + 20), Written: b32(5), Unit: cost.Matrix}},
		// bmm [2,3,4]·[2,4,5].
		{"bmm", func(g *builder) *ir.Op {
			return g.op("pd_op.bmm", []*ir.Value{g.data("x", g.f32(2, 3, 4)), g.data("y", g.f32(2, 4, 5))}, []ir.Type{g.f32(2, 3, 5)})
		}, cost.Work{FLOPs: 240, Read: b32(24 + 40), Written: b32(30), Unit: cost.Matrix}},
		// einsum "bij,bjk->bik" over [2,3,4], [2,4,5]: iteration space 2·3·4·5, 2 operations per point.
		{"einsum", func(g *builder) *ir.Op {
			x, y := g.data("x", g.f32(2, 3, 4)), g.data("y", g.f32(2, 4, 5))
			vec := g.val("builtin.combine", []*ir.Value{x, y}, g.ctx.Vector(x.Type(), y.Type()))
			return g.op("pd_op.einsum", []*ir.Value{vec}, []ir.Type{g.f32(2, 3, 5)}, "equation", g.ctx.Str("bij,bjk->bik"))
		}, cost.Work{FLOPs: 240, Read: b32(24 + 40), Written: b32(30), Unit: cost.Matrix}},
		// einsum with an ellipsis: "...ij,jk" over [2,3,4], [4,5]: 2·(2·3·4·5).
		{"einsum_ellipsis", func(g *builder) *ir.Op {
			x, y := g.data("x", g.f32(2, 3, 4)), g.data("y", g.f32(4, 5))
			vec := g.val("builtin.combine", []*ir.Value{x, y}, g.ctx.Vector(x.Type(), y.Type()))
			return g.op("pd_op.einsum", []*ir.Value{vec}, []ir.Type{g.f32(2, 3, 5)}, "equation", g.ctx.Str("...ij,jk->...ik"))
		}, cost.Work{FLOPs: 240, Read: b32(24 + 20), Written: b32(30), Unit: cost.Matrix}},
	})
}

// conv2d builds a convolution of input in and filter f with the given attributes; out may have dynamic dims, which
// the attributes then decide.
func conv2d(name string, in, f, out []int64, kv ...any) func(g *builder) *ir.Op {
	return func(g *builder) *ir.Op {
		attrs := append([]any{}, kv...)
		return g.op(name, []*ir.Value{g.data("x", g.f32(in...)), g.param("w", g.f32(f...))}, []ir.Type{g.f32(out...)}, attrs...)
	}
}

// TestConv: 2·(Ci/groups)·kh·kw per output element; the output size from the type, or from strides, dilations,
// paddings (2 or 4 values) and the padding algorithm when the type's dims are dynamic, NCHW or NHWC.
func TestConv(t *testing.T) {
	g0 := newBuilder(t)
	c := g0.ctx
	cases := []formulaCase{
		// Groups 2, stride 2, padding 1: out 8+2-3 = 7, /2 +1 = 4: [1,6,4,4] = 96 outputs, 2·2·9 each.
		{"groups_stride_padding", conv2d("pd_op.conv2d", []int64{1, 4, 8, 8}, []int64{6, 2, 3, 3}, []int64{-1, 6, -1, -1},
			"groups", c.Int32(2), "strides", c.Int32s(2, 2), "paddings", c.Int32s(1, 1), "dilations", c.Int32s(1, 1)),
			cost.Work{FLOPs: 3456, Read: b32(256 + 108), Written: b32(96), Unit: cost.Matrix}},
		// The same from a static result type.
		{"static_type", conv2d("pd_op.conv2d", []int64{1, 4, 8, 8}, []int64{6, 2, 3, 3}, []int64{1, 6, 4, 4},
			"groups", c.Int32(2), "strides", c.Int32s(2, 2), "paddings", c.Int32s(1, 1)),
			cost.Work{FLOPs: 3456, Read: b32(256 + 108), Written: b32(96), Unit: cost.Matrix}},
		// Dilation 2, padding 2: the effective kernel is 5: 8+4-5+1 = 8: [1,6,8,8].
		{"dilation", conv2d("pd_op.conv2d", []int64{1, 4, 8, 8}, []int64{6, 2, 3, 3}, []int64{-1, 6, -1, -1},
			"groups", c.Int32(2), "strides", c.Int32s(1, 1), "paddings", c.Int32s(2, 2), "dilations", c.Int32s(2, 2)),
			cost.Work{FLOPs: 2 * 384 * 2 * 9, Read: b32(256 + 108), Written: b32(384), Unit: cost.Matrix}},
		// Four paddings (before, after per axis) [0,1,0,1], stride 2: (8+1-3)/2+1 = 4.
		{"asymmetric_padding", conv2d("pd_op.conv2d", []int64{1, 4, 8, 8}, []int64{6, 4, 3, 3}, []int64{-1, 6, -1, -1},
			"strides", c.Int32s(2, 2), "paddings", c.Int32s(0, 1, 0, 1)),
			cost.Work{FLOPs: 2 * 96 * 4 * 9, Read: b32(256 + 216), Written: b32(96), Unit: cost.Matrix}},
		// SAME padding with stride 2: ⌈8/2⌉ = 4.
		{"same_padding", conv2d("pd_op.conv2d", []int64{1, 4, 8, 8}, []int64{6, 4, 3, 3}, []int64{-1, 6, -1, -1},
			"strides", c.Int32s(2, 2), "padding_algorithm", c.Str("SAME")),
			cost.Work{FLOPs: 2 * 96 * 4 * 9, Read: b32(256 + 216), Written: b32(96), Unit: cost.Matrix}},
		// NHWC: input [1,8,8,4], filter still [Co, Ci, kh, kw]: out [1,8,8,6].
		{"nhwc", conv2d("pd_op.conv2d", []int64{1, 8, 8, 4}, []int64{6, 4, 3, 3}, []int64{-1, -1, -1, 6},
			"paddings", c.Int32s(1, 1), "data_format", c.Str("NHWC")),
			cost.Work{FLOPs: 2 * 384 * 4 * 9, Read: b32(256 + 216), Written: b32(384), Unit: cost.Matrix}},
		// Depthwise: one input channel per group, on the vector units.
		{"depthwise", conv2d("pd_op.depthwise_conv2d", []int64{1, 4, 8, 8}, []int64{4, 1, 3, 3}, []int64{1, 4, 8, 8},
			"groups", c.Int32(4), "paddings", c.Int32s(1, 1)),
			cost.Work{FLOPs: 2 * 256 * 9, Read: b32(256 + 36), Written: b32(256), Unit: cost.Vector}},
		// A dynamic image too small for the kernel at the stand-in size (1x1 for an 8x8 kernel, stride 8): one output
		// position (SegFormer's patch embeddings).
		{"dynamic_spatial", conv2d("pd_op.conv2d", []int64{-1, 4, -1, -1}, []int64{6, 4, 8, 8}, []int64{-1, 6, -1, -1},
			"strides", c.Int32s(8, 8)),
			cost.Work{FLOPs: 2 * 6 * 4 * 64, Read: b32(4 + 6*4*64), Written: b32(6), Unit: cost.Matrix}},
		// A dynamic batch counts as 1 (one sample per inference).
		{"dynamic_batch", conv2d("pd_op.conv2d", []int64{-1, 4, 8, 8}, []int64{6, 4, 1, 1}, []int64{-1, 6, 8, 8}),
			cost.Work{FLOPs: 2 * 384 * 4, Read: b32(256 + 24), Written: b32(384), Unit: cost.Matrix}},
		// Transposed: 2·(Co/groups)·kh·kw per input element: x [1,4,4,4], filter [4,3,2,2] → [1,3,8,8].
		{"transpose", func(g *builder) *ir.Op {
			return g.op("pd_op.conv2d_transpose", []*ir.Value{g.data("x", g.f32(1, 4, 4, 4)), g.param("w", g.f32(4, 3, 2, 2)), g.ints()},
				[]ir.Type{g.f32(1, 3, 8, 8)}, "strides", g.ctx.Int32s(2, 2))
		}, cost.Work{FLOPs: 2 * 64 * 3 * 4, Read: b32(64+48) + 0, Written: b32(192), Unit: cost.Matrix}},
	}
	runFormulaCases(t, cases)
}

// TestAttention: flash_attn's score products and softmax (causal: the lower triangle), multihead_matmul's
// projection and attention, rotary embedding's 3 operations per rotated element.
func TestAttention(t *testing.T) {
	f16 := func(g *builder, dims ...int64) ir.Type { return g.ty(ir.DTypeFloat16, dims...) }
	flash := func(causal bool) func(g *builder) *ir.Op {
		return func(g *builder) *ir.Op {
			q, k, v := g.data("q", f16(g, 2, 16, 4, 8)), g.data("k", f16(g, 2, 16, 4, 8)), g.data("v", f16(g, 2, 16, 4, 8))
			return g.op("pd_op.flash_attn", []*ir.Value{q, k, v, nil, nil},
				[]ir.Type{f16(g, 2, 16, 4, 8), f16(g, 2, 4, 16, 16), g.f32(2, 4, 16), g.ty(ir.DTypeInt64, 2)},
				"causal", g.ctx.Bool(causal))
		}
	}
	// Scores: B·H·S·Sk = 2·4·16·16 = 2048; q·kᵀ and p·v 2·2048·8 each, softmax 5 each. Causal: 16·17/2 per head.
	// Read q, k, v (f16), write the output (f16) and the log-sum-exp (f32).
	rw := cost.Work{Read: 3 * 2 * 1024, Written: 2*1024 + 4*128}
	runFormulaCases(t, []formulaCase{
		{"flash_attn", flash(false), cost.Work{FLOPs: 2048*(16+16) + 5*2048, Read: rw.Read, Written: rw.Written, Unit: cost.Matrix}},
		{"flash_attn_causal", flash(true), cost.Work{FLOPs: 1088*(16+16) + 5*1088, Read: rw.Read, Written: rw.Written, Unit: cost.Matrix}},
		// input [1,8,16], w [16,3,16], 2 heads of 8: projection 2·8·768 + bias 8·48; scores 1·2·8·8 = 128: products
		// 4·128·8, softmax 5·128.
		{"multihead_matmul", func(g *builder) *ir.Op {
			return g.op("pd_op.multihead_matmul", []*ir.Value{g.data("x", g.f32(1, 8, 16)), g.param("w", g.f32(16, 3, 16)),
				g.param("b", g.f32(3, 16)), nil}, []ir.Type{g.f32(1, 8, 16)}, "head_number", g.ctx.Int32(2))
		}, cost.Work{FLOPs: 12288 + 384 + 4096 + 640, Read: b32(128 + 768 + 48), Written: b32(128), Unit: cost.Matrix}},
		// q and k [1,4,2,8] rotated: 3·(64+64).
		{"rotary", func(g *builder) *ir.Op {
			q, k := g.data("q", g.f32(1, 4, 2, 8)), g.data("k", g.f32(1, 4, 2, 8))
			sin, cos := g.param("sin", g.f32(1, 4, 1, 8)), g.param("cos", g.f32(1, 4, 1, 8))
			return g.op("pd_op.fused_rotary_position_embedding", []*ir.Value{q, k, nil, sin, cos, nil},
				[]ir.Type{g.f32(1, 4, 2, 8), g.f32(1, 4, 2, 8), nil})
		}, cost.Work{FLOPs: 3 * 128, Read: b32(64 + 64 + 32 + 32), Written: b32(128), Unit: cost.Vector}},
	})
}

// TestFusedOps: the fused ops cost their parts: the product or convolution and the epilogue per output element.
func TestFusedOps(t *testing.T) {
	g0 := newBuilder(t)
	c := g0.ctx
	runFormulaCases(t, []formulaCase{
		// fc: input [2,3,4] flattened at 2 → [6,4]; w [4,5]; bias; relu: 2·30·4 + 30 + 30.
		{"fc", func(g *builder) *ir.Op {
			return g.op("pd_op.fc", []*ir.Value{g.data("x", g.f32(2, 3, 4)), g.param("w", g.f32(4, 5)), g.param("b", g.f32(5))},
				[]ir.Type{g.f32(2, 3, 5)}, "in_num_col_dims", g.ctx.Int32(2), "activation_type", g.ctx.Str("relu"))
		}, cost.Work{FLOPs: 300, Read: b32(24 + 20 + 5), Written: b32(30), Unit: cost.Matrix}},
		// fused_gemm_epilogue with gelu: 2·30·4 + 30·(1+5).
		{"fused_gemm_epilogue", func(g *builder) *ir.Op {
			return g.op("pd_op.fused_gemm_epilogue", []*ir.Value{g.data("x", g.f32(6, 4)), g.param("w", g.f32(4, 5)), g.param("b", g.f32(5))},
				[]ir.Type{g.f32(6, 5), nil}, "trans_x", g.ctx.Bool(false), "trans_y", g.ctx.Bool(false), "activation", g.ctx.Str("gelu"))
		}, cost.Work{FLOPs: 420, Read: b32(24 + 20 + 5), Written: b32(30), Unit: cost.Matrix}},
		// fused_conv2d_add_act: the groups/stride/padding convolution of TestConv (3456), bias, residual and relu
		// per output (96 each).
		{"fused_conv2d_add_act", func(g *builder) *ir.Op {
			return g.op("pd_op.fused_conv2d_add_act", []*ir.Value{g.data("x", g.f32(1, 4, 8, 8)), g.param("w", g.f32(6, 2, 3, 3)),
				g.param("b", g.f32(1, 6, 1, 1)), g.data("r", g.f32(1, 6, 4, 4))}, []ir.Type{g.f32(1, 6, 4, 4), nil},
				"groups", c.Int32(2), "strides", c.Int32s(2, 2), "paddings", c.Int32s(1, 1), "activation", c.Str("relu"))
		}, cost.Work{FLOPs: 3456 + 3*96, Read: b32(256 + 108 + 6 + 96), Written: b32(96), Unit: cost.Matrix}},
		// rms_norm with bias and residual: (4+2) per element of [2,8].
		{"rms_norm", func(g *builder) *ir.Op {
			return g.op("pd_op.rms_norm", []*ir.Value{g.data("x", g.f32(2, 8)), g.param("b", g.f32(8)), g.data("r", g.f32(2, 8)),
				g.param("w", g.f32(8)), nil}, []ir.Type{g.f32(2, 8), g.f32(2, 8), g.f32(2)})
		}, cost.Work{FLOPs: 6 * 16, Read: b32(16 + 8 + 16 + 8), Written: b32(16 + 16 + 2), Unit: cost.Vector}},
		// add_group_norm_silu with a residual: (1+8+5) per element of [1,4,2,2].
		{"add_group_norm_silu", func(g *builder) *ir.Op {
			return g.op("pd_op.add_group_norm_silu", []*ir.Value{g.data("x", g.f32(1, 4, 2, 2)), g.data("r", g.f32(1, 4, 2, 2)),
				g.param("s", g.f32(4)), g.param("b", g.f32(4))}, []ir.Type{g.f32(1, 4, 2, 2), g.f32(1, 4, 2, 2), g.f32(1, 2), g.f32(1, 2)},
				"groups", c.Int32(2), "activation", c.Str("silu"))
		}, cost.Work{FLOPs: 14 * 16, Read: b32(16 + 16 + 4 + 4), Written: b32(16 + 16 + 2 + 2), Unit: cost.Vector}},
		// fused_bias_residual_layernorm: (8+2) per element of [2,8].
		{"fused_bias_residual_layernorm", func(g *builder) *ir.Op {
			return g.op("pd_op.fused_bias_residual_layernorm", []*ir.Value{g.data("x", g.f32(2, 8)), g.param("b", g.f32(8)),
				g.data("r", g.f32(2, 8)), g.param("w", g.f32(8)), g.param("nb", g.f32(8))},
				[]ir.Type{g.f32(2, 8), g.f32(2, 8), g.f32(2), g.f32(2)})
		}, cost.Work{FLOPs: 10 * 16, Read: b32(16 + 8 + 16 + 8 + 8), Written: b32(16 + 16 + 2 + 2), Unit: cost.Vector}},
		// fused_fc_elementwise_layernorm: [2,4]·[4,8] (2·16·4) and per output bias0, residual and the norm (1+1+8).
		{"fused_fc_elementwise_layernorm", func(g *builder) *ir.Op {
			return g.op("pd_op.fused_fc_elementwise_layernorm", []*ir.Value{g.data("x", g.f32(2, 4)), g.param("w", g.f32(4, 8)),
				g.data("y", g.f32(2, 8)), g.param("b0", g.f32(8)), g.param("s", g.f32(8)), g.param("b1", g.f32(8))},
				[]ir.Type{g.f32(2, 8), nil, nil})
		}, cost.Work{FLOPs: 128 + 16*10, Read: b32(8 + 32 + 16 + 8 + 8 + 8), Written: b32(16), Unit: cost.Matrix}},
		// fused_embedding_eltwise_layernorm: 3 tables gathered into [1,5,8], 2 adds and the norm per output; reads
		// the ids (3·5 int64), bias and scale, and one row per id of each table.
		{"fused_embedding_eltwise_layernorm", func(g *builder) *ir.Op {
			i64 := g.ty(ir.DTypeInt64, 1, 5)
			ids := []*ir.Value{g.data("a", i64), g.data("b", i64), g.data("c", i64)}
			embs := []*ir.Value{g.param("ea", g.f32(100, 8)), g.param("eb", g.f32(512, 8)), g.param("ec", g.f32(2, 8))}
			idv := g.val("builtin.combine", ids, g.ctx.Vector(i64, i64, i64))
			ev := g.val("builtin.combine", embs, g.ctx.Vector(embs[0].Type(), embs[1].Type(), embs[2].Type()))
			return g.op("pd_op.fused_embedding_eltwise_layernorm", []*ir.Value{idv, ev, g.param("bias", g.f32(8)), g.param("scale", g.f32(8))},
				[]ir.Type{g.f32(1, 5, 8)})
		}, cost.Work{FLOPs: 10 * 40, Read: 3*5*8 + b32(8+8) + 3*b32(40), Written: b32(40), Unit: cost.Vector}},
		// weight_only_linear: x [2,16] f16 · int8 weight [8,16]ᵀ: 2·16·16, dequantizing 128 weights, the bias 16.
		{"weight_only_linear", func(g *builder) *ir.Op {
			f16 := g.ty(ir.DTypeFloat16, 2, 16)
			return g.op("pd_op.weight_only_linear", []*ir.Value{g.data("x", f16), g.param("w", g.ty(ir.DTypeInt8, 8, 16)),
				g.param("b", g.ty(ir.DTypeFloat16, 8)), g.param("s", g.ty(ir.DTypeFloat16, 8))}, []ir.Type{g.ty(ir.DTypeFloat16, 2, 8)},
				"weight_dtype", c.Str("int8"))
		}, cost.Work{FLOPs: 2*16*16 + 128 + 16, Read: 2*32 + 128 + 2*8 + 2*8, Written: 2 * 16, Unit: cost.Matrix}},
	})
}

// TestMovementAndViews: a gather reads what it writes, a view is no kernel, an inplace twin costs as its op.
func TestMovementAndViews(t *testing.T) {
	g := newBuilder(t)
	x := g.data("x", g.f32(64, 128))
	sl := g.op("pd_op.slice", []*ir.Value{x, g.ints(0), g.ints(8)}, []ir.Type{g.f32(8, 128)}, "axes", g.ctx.Int64s(0))
	rs := g.op("pd_op.reshape", []*ir.Value{sl.Result(0), g.ints(1024)}, []ir.Type{g.f32(1024)})
	relu := g.op("pd_op.relu_", []*ir.Value{rs.Result(0)}, []ir.Type{g.f32(1024)})
	g.fetch(relu.Result(0))
	r := g.analyze()
	byOp := map[*ir.Op]*cost.OpCost{}
	for i := range r.Ops {
		c := &r.Ops[i]
		byOp[c.Op] = c
	}
	// The slice reads 8 rows (and its two 1-element bounds), not the 64.
	require.Equal(t, b32(1024)+2*8, byOp[sl].Work.Read)
	require.Equal(t, b32(1024), byOp[sl].Work.Written)
	require.Equal(t, cost.Work{}, byOp[rs].Work, "a reshape is a view")
	require.Equal(t, int64(1024), byOp[relu].Work.FLOPs, "relu_ costs as relu")
	require.Equal(t, 3, r.Summary.RuntimeOps)
	require.Equal(t, 2, r.Summary.Kernels)
}

// TestUncosted: an op without a formula is reported, with its name, and contributes nothing.
func TestUncosted(t *testing.T) {
	g := newBuilder(t)
	x := g.data("x", g.f32(4))
	y := g.val("my.op", []*ir.Value{x}, g.f32(4))
	g.fetch(y)
	s := g.analyze().Summary
	require.Equal(t, 1, s.Uncosted)
	require.Equal(t, []string{"my.op"}, s.UncostedOps)
	require.Equal(t, 1, s.RuntimeOps)
	require.Zero(t, s.Kernels)
	require.False(t, cost.Costed("my.op"))
	require.True(t, cost.Costed("pd_op.relu_"))
}
