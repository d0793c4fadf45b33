package interp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// Every fused op is checked against the unfused ops its fuse pass replaces: two programs with the same inputs and
// parameters, one written with the unfused ops and one with the fused op, must agree on random data (Compare, in
// float64 to 1e-9).

// fusionCase builds the unfused and the fused form of one computation.
type fusionCase struct {
	name           string
	unfused, fused func(b *builder) []*ir.Value
	tol            float64
}

func (b *builder) typ(dt ir.DType, dims ...int64) ir.Type { return b.tensorT(dt, dims...) }

func (b *builder) f32(dims ...int64) ir.Type { return b.typ(ir.DTypeFloat32, dims...) }

// ops is an op with explicit result types (for ops without a type rule); it returns the results.
func (b *builder) ops(name string, operands []*ir.Value, results []ir.Type, attrs ...ir.NamedAttr) []*ir.Value {
	return b.opT(name, operands, results, attrs...).Results()
}

func (b *builder) combine(vs ...*ir.Value) *ir.Value {
	var ts []ir.Type
	for _, v := range vs {
		ts = append(ts, v.Type())
	}
	return b.opT("builtin.combine", vs, []ir.Type{b.ctx.Vector(ts...)}).Result(0)
}

func (b *builder) fl(v float32) ir.Attribute { return b.ctx.Float(v) }
func (b *builder) bo(v bool) ir.Attribute    { return b.ctx.Bool(v) }
func (b *builder) i32(v int) ir.Attribute    { return b.ctx.Int32(int32(v)) }
func (b *builder) st(v string) ir.Attribute  { return b.ctx.Str(v) }

func (b *builder) layerNorm(x, scale, bias *ir.Value, begin int, dims ...int64) *ir.Value {
	rows := int64(1)
	for _, d := range dims[:begin] {
		rows *= d
	}
	return b.ops("pd_op.layer_norm", []*ir.Value{x, scale, bias}, []ir.Type{x.Type(), b.f32(dims[:begin]...), b.f32(dims[:begin]...)},
		attr("epsilon", b.fl(1e-5)), attr("begin_norm_axis", b.i32(begin)))[0]
}

func runFusionCases(t *testing.T, cases []fusionCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := kctx(t)
			build := func(f func(b *builder) []*ir.Value) *ir.Program {
				b := newBuilderIn(t, ctx)
				for i, v := range f(b) {
					b.fetch(v, "out"+string(rune('0'+i)), i)
				}
				require.Empty(t, ir.Verify(b.p).Errors())
				return b.p
			}
			before, after := build(tc.unfused), build(tc.fused)
			tol := tc.tol
			if tol == 0 {
				tol = 1e-9
			}
			rep, err := Compare(before, after, CompareOptions{RelTol: tol, Runs: 2})
			require.NoError(t, err, "%s", rep)
			require.NotEmpty(t, rep.Outputs)
			for _, o := range rep.Outputs {
				require.Empty(t, o.Problem, o.Name)
			}
		})
	}
}

func TestFusedOpsAgreeWithTheirUnfusedForms(t *testing.T) {
	cases := []fusionCase{
		{name: "fc", unfused: func(b *builder) []*ir.Value {
			x, w, bias := b.data("x", 2, 3, 4), b.param("w", 4, 5), b.param("bias", 5)
			return []*ir.Value{b.v("pd_op.relu", b.v("pd_op.add", b.v("pd_op.matmul", x, w), bias))}
		}, fused: func(b *builder) []*ir.Value {
			x, w, bias := b.data("x", 2, 3, 4), b.param("w", 4, 5), b.param("bias", 5)
			return []*ir.Value{b.va("pd_op.fc", []*ir.Value{x, w, bias}, attr("in_num_col_dims", b.i32(2)), attr("activation_type", b.st("relu")))}
		}},
		{name: "fc with padded weights", unfused: func(b *builder) []*ir.Value {
			x, w := b.data("x", 3, 4), b.param("w", 8, 9)
			ws := b.ops("pd_op.slice", []*ir.Value{w, b.ints(0, 0), b.ints(4, 5)}, []ir.Type{b.f32(4, 5)}, attr("axes", b.ctx.Int64s(0, 1)),
				attr("infer_flags", b.ctx.Int64s(1, 1)), attr("decrease_axis", b.ctx.Int64s()))[0]
			return []*ir.Value{b.v("pd_op.matmul", x, ws)}
		}, fused: func(b *builder) []*ir.Value {
			x, w := b.data("x", 3, 4), b.param("w", 8, 9)
			return []*ir.Value{b.va("pd_op.fc", []*ir.Value{x, w, nil}, attr("padding_weights", b.bo(true)))}
		}},
		{name: "fused_gemm_epilogue gelu", unfused: func(b *builder) []*ir.Value {
			x, y, bias := b.data("x", 2, 3, 4), b.param("y", 5, 4), b.param("bias", 5)
			mm := b.va("pd_op.matmul", []*ir.Value{x, y}, attr("transpose_x", b.bo(false)), attr("transpose_y", b.bo(true)))
			return []*ir.Value{b.va("pd_op.gelu", []*ir.Value{b.v("pd_op.add", mm, bias)}, attr("approximate", b.bo(true)))}
		}, fused: func(b *builder) []*ir.Value {
			x, y, bias := b.data("x", 2, 3, 4), b.param("y", 5, 4), b.param("bias", 5)
			return []*ir.Value{b.op("pd_op.fused_gemm_epilogue", []*ir.Value{x, y, bias}, attr("trans_x", b.bo(false)),
				attr("trans_y", b.bo(true)), attr("activation", b.st("gelu"))).Result(0)}
		}},
		{name: "fused_gemm_epilogue transposed x", unfused: func(b *builder) []*ir.Value {
			x, y, bias := b.data("x", 4, 3), b.param("y", 4, 5), b.param("bias", 5)
			mm := b.va("pd_op.matmul", []*ir.Value{x, y}, attr("transpose_x", b.bo(true)), attr("transpose_y", b.bo(false)))
			return []*ir.Value{b.v("pd_op.add", mm, bias)}
		}, fused: func(b *builder) []*ir.Value {
			x, y, bias := b.data("x", 4, 3), b.param("y", 4, 5), b.param("bias", 5)
			return []*ir.Value{b.op("pd_op.fused_gemm_epilogue", []*ir.Value{x, y, bias}, attr("trans_x", b.bo(true)),
				attr("trans_y", b.bo(false)), attr("activation", b.st("none"))).Result(0)}
		}},
		{name: "multihead_matmul", unfused: func(b *builder) []*ir.Value {
			// BERT: heads 2, head size 3, hidden 6, batch 2, sequence 4.
			x, w, bias, qk := b.data("x", 2, 4, 6), b.param("w", 6, 3, 6), b.param("bias", 3, 6), b.data("bias_qk", 2, 1, 1, 4)
			w2 := b.va("pd_op.reshape", []*ir.Value{w, b.ints(6, 18)})
			qkv := b.v("pd_op.add", b.v("pd_op.matmul", x, w2), b.va("pd_op.reshape", []*ir.Value{bias, b.ints(18)}))
			qkv = b.va("pd_op.reshape", []*ir.Value{qkv, b.ints(2, 4, 3, 2, 3)})
			qkv = b.va("pd_op.transpose", []*ir.Value{qkv}, attr("perm", b.i32s(2, 0, 3, 1, 4)))
			part := b.f32(1, 2, 2, 4, 3)
			split := b.opT("pd_op.split", []*ir.Value{qkv, b.ints(1, 1, 1), b.full([]int64{1}, 0, ir.DTypeInt32)},
				[]ir.Type{b.ctx.Vector(part, part, part)})
			qkvs := b.opT("builtin.split", []*ir.Value{split.Result(0)}, []ir.Type{part, part, part}).Results()
			sq := func(v *ir.Value) *ir.Value { return b.va("pd_op.squeeze", []*ir.Value{v, b.ints(0)}) }
			q, k, v := sq(qkvs[0]), sq(qkvs[1]), sq(qkvs[2])
			s := b.va("pd_op.matmul", []*ir.Value{q, k}, attr("transpose_x", b.bo(false)), attr("transpose_y", b.bo(true)))
			s = b.va("pd_op.scale", []*ir.Value{s, b.full([]int64{1}, 0.5)}, attr("bias", b.fl(0)), attr("bias_after_scale", b.bo(true)))
			p := b.va("pd_op.softmax", []*ir.Value{b.v("pd_op.add", s, qk)}, attr("axis", b.i32(-1)))
			o := b.va("pd_op.transpose", []*ir.Value{b.v("pd_op.matmul", p, v)}, attr("perm", b.i32s(0, 2, 1, 3)))
			return []*ir.Value{b.va("pd_op.reshape", []*ir.Value{o, b.ints(2, 4, 6)})}
		}, fused: func(b *builder) []*ir.Value {
			x, w, bias, qk := b.data("x", 2, 4, 6), b.param("w", 6, 3, 6), b.param("bias", 3, 6), b.data("bias_qk", 2, 1, 1, 4)
			return []*ir.Value{b.va("pd_op.multihead_matmul", []*ir.Value{x, w, bias, qk}, attr("alpha", b.fl(0.5)), attr("head_number", b.i32(2)))}
		}},
		{name: "fused_rotary_position_embedding halves", unfused: func(b *builder) []*ir.Value {
			q, k, sin, cos := b.data("q", 2, 3, 2, 4), b.data("k", 2, 3, 2, 4), b.data("sin", 1, 3, 1, 4), b.data("cos", 1, 3, 1, 4)
			rot := func(x *ir.Value) *ir.Value {
				half := b.f32(2, 3, 2, 2)
				sp := b.opT("pd_op.split", []*ir.Value{x, b.ints(2, 2), b.full([]int64{1}, -1, ir.DTypeInt32)}, []ir.Type{b.ctx.Vector(half, half)})
				hs := b.opT("builtin.split", []*ir.Value{sp.Result(0)}, []ir.Type{half, half}).Results()
				neg := b.va("pd_op.scale", []*ir.Value{hs[1], b.full([]int64{1}, -1)}, attr("bias", b.fl(0)), attr("bias_after_scale", b.bo(true)))
				r := b.va("pd_op.concat", []*ir.Value{b.combine(neg, hs[0]), b.full([]int64{1}, -1, ir.DTypeInt32)})
				return b.v("pd_op.add", b.v("pd_op.multiply", x, cos), b.v("pd_op.multiply", r, sin))
			}
			return []*ir.Value{rot(q), rot(k)}
		}, fused: func(b *builder) []*ir.Value {
			q, k, sin, cos := b.data("q", 2, 3, 2, 4), b.data("k", 2, 3, 2, 4), b.data("sin", 1, 3, 1, 4), b.data("cos", 1, 3, 1, 4)
			r := b.op("pd_op.fused_rotary_position_embedding", []*ir.Value{q, k, nil, sin, cos, nil}, attr("use_neox_rotary_style", b.bo(false)))
			return []*ir.Value{r.Result(0), r.Result(1)}
		}},
		{name: "fused_rotary_position_embedding pairs", unfused: func(b *builder) []*ir.Value {
			q, sin, cos := b.data("q", 2, 3, 2, 4), b.data("sin", 1, 3, 1, 4), b.data("cos", 1, 3, 1, 4)
			pairs := b.va("pd_op.reshape", []*ir.Value{q, b.ints(2, 3, 2, 2, 2)})
			one := b.f32(2, 3, 2, 2, 1)
			sp := b.opT("pd_op.split", []*ir.Value{pairs, b.ints(1, 1), b.full([]int64{1}, -1, ir.DTypeInt32)}, []ir.Type{b.ctx.Vector(one, one)})
			xs := b.opT("builtin.split", []*ir.Value{sp.Result(0)}, []ir.Type{one, one}).Results()
			neg := b.va("pd_op.scale", []*ir.Value{xs[1], b.full([]int64{1}, -1)}, attr("bias", b.fl(0)), attr("bias_after_scale", b.bo(true)))
			r := b.va("pd_op.concat", []*ir.Value{b.combine(neg, xs[0]), b.full([]int64{1}, -1, ir.DTypeInt32)})
			r = b.va("pd_op.reshape", []*ir.Value{r, b.ints(2, 3, 2, 4)})
			return []*ir.Value{b.v("pd_op.add", b.v("pd_op.multiply", q, cos), b.v("pd_op.multiply", r, sin))}
		}, fused: func(b *builder) []*ir.Value {
			q, sin, cos := b.data("q", 2, 3, 2, 4), b.data("sin", 1, 3, 1, 4), b.data("cos", 1, 3, 1, 4)
			return []*ir.Value{b.op("pd_op.fused_rotary_position_embedding", []*ir.Value{q, nil, nil, sin, cos, nil}).Result(0)}
		}},
		{name: "rms_norm with residual and bias", unfused: func(b *builder) []*ir.Value {
			x, res, bias, w := b.data("x", 2, 3, 8), b.data("res", 2, 3, 8), b.param("bias", 8), b.param("w", 8)
			h := b.v("pd_op.add", b.v("pd_op.add", x, res), bias)
			ss := b.va("pd_op.sum", []*ir.Value{b.v("pd_op.multiply", h, h), b.ints(-1)}, attr("keepdim", b.bo(true)))
			r := b.v("pd_op.rsqrt", b.va("pd_op.scale", []*ir.Value{ss, b.full([]int64{1}, 1.0/8)}, attr("bias", b.fl(1e-6)), attr("bias_after_scale", b.bo(true))))
			return []*ir.Value{b.v("pd_op.multiply", b.v("pd_op.multiply", h, r), w), h}
		}, fused: func(b *builder) []*ir.Value {
			x, res, bias, w := b.data("x", 2, 3, 8), b.data("res", 2, 3, 8), b.param("bias", 8), b.param("w", 8)
			r := b.op("pd_op.rms_norm", []*ir.Value{x, bias, res, w, nil}, attr("epsilon", b.fl(1e-6)), attr("begin_norm_axis", b.i32(2)),
				attr("quant_scale", b.fl(-1)), attr("quant_round_type", b.i32(0)), attr("quant_max_bound", b.fl(0)), attr("quant_min_bound", b.fl(0)))
			return []*ir.Value{r.Result(0), r.Result(1)}
		}, tol: 1e-6},
		{name: "fused_bias_residual_layernorm", unfused: func(b *builder) []*ir.Value {
			x, res, bias, w, nb := b.data("x", 3, 8), b.data("res", 3, 8), b.param("bias", 8), b.param("w", 8), b.param("nb", 8)
			h := b.v("pd_op.add", b.v("pd_op.add", x, bias), b.va("pd_op.scale", []*ir.Value{res, b.full([]int64{1}, 0.5)},
				attr("bias", b.fl(0)), attr("bias_after_scale", b.bo(true))))
			ln := b.ops("pd_op.layer_norm", []*ir.Value{h, w, nb}, []ir.Type{h.Type(), b.f32(3), b.f32(3)}, attr("epsilon", b.fl(1e-5)), attr("begin_norm_axis", b.i32(1)))
			return []*ir.Value{ln[0], h, ln[1], ln[2]}
		}, fused: func(b *builder) []*ir.Value {
			x, res, bias, w, nb := b.data("x", 3, 8), b.data("res", 3, 8), b.param("bias", 8), b.param("w", 8), b.param("nb", 8)
			r := b.op("pd_op.fused_bias_residual_layernorm", []*ir.Value{x, bias, res, w, nb}, attr("epsilon", b.fl(1e-5)),
				attr("residual_alpha", b.fl(0.5)), attr("begin_norm_axis", b.i32(1)), attr("quant_scale", b.fl(-1)),
				attr("quant_round_type", b.i32(0)), attr("quant_max_bound", b.fl(0)), attr("quant_min_bound", b.fl(0)))
			return r.Results()
		}},
		{name: "add_group_norm_silu", unfused: func(b *builder) []*ir.Value {
			x, res, sc, bias := b.data("x", 2, 4, 3, 3), b.data("res", 2, 4, 3, 3), b.param("scale", 4), b.param("bias", 4)
			h := b.v("pd_op.add", x, res)
			gn := b.ops("pd_op.group_norm", []*ir.Value{h, sc, bias}, []ir.Type{h.Type(), b.f32(2, 2), b.f32(2, 2)},
				attr("epsilon", b.fl(1e-5)), attr("groups", b.i32(2)), attr("data_format", b.st("NCHW")))
			return []*ir.Value{b.v("pd_op.silu", gn[0]), h, gn[1], gn[2]}
		}, fused: func(b *builder) []*ir.Value {
			x, res, sc, bias := b.data("x", 2, 4, 3, 3), b.data("res", 2, 4, 3, 3), b.param("scale", 4), b.param("bias", 4)
			return b.op("pd_op.add_group_norm_silu", []*ir.Value{x, res, sc, bias}, attr("groups", b.i32(2)), attr("activation", b.st("silu"))).Results()
		}},
		{name: "fusion_transpose_flatten_concat", unfused: func(b *builder) []*ir.Value {
			var parts []*ir.Value
			for i, n := range []int64{3, 5} {
				x := b.data("x"+string(rune('0'+i)), 2, n, 4, 4)
				tr := b.va("pd_op.transpose", []*ir.Value{x}, attr("perm", b.i32s(0, 2, 3, 1)))
				parts = append(parts, b.va("pd_op.flatten", []*ir.Value{tr}, attr("start_axis", b.i32(1)), attr("stop_axis", b.i32(3))))
			}
			return []*ir.Value{b.va("pd_op.concat", []*ir.Value{b.combine(parts...), b.full([]int64{1}, 1, ir.DTypeInt32)})}
		}, fused: func(b *builder) []*ir.Value {
			x0, x1 := b.data("x0", 2, 3, 4, 4), b.data("x1", 2, 5, 4, 4)
			return []*ir.Value{b.va("pd_op.fusion_transpose_flatten_concat", []*ir.Value{b.combine(x0, x1)},
				attr("trans_axis", b.i32s(0, 2, 3, 1)), attr("flatten_axis", b.i32(1)), attr("concat_axis", b.i32(1)))}
		}},
		{name: "flash_attn causal", unfused: func(b *builder) []*ir.Value {
			q, k, v := b.data("q", 2, 4, 2, 3), b.data("k", 2, 4, 2, 3), b.data("v", 2, 4, 2, 3)
			tr := func(x *ir.Value) *ir.Value {
				return b.va("pd_op.transpose", []*ir.Value{x}, attr("perm", b.i32s(0, 2, 1, 3)))
			}
			s := b.va("pd_op.matmul", []*ir.Value{tr(q), tr(k)}, attr("transpose_x", b.bo(false)), attr("transpose_y", b.bo(true)))
			s = b.va("pd_op.scale", []*ir.Value{s, b.full([]int64{1}, 1/math.Sqrt(3))}, attr("bias", b.fl(0)), attr("bias_after_scale", b.bo(true)))
			mask := b.va("pd_op.triu", []*ir.Value{b.full([]int64{4, 4}, math.Inf(-1))}, attr("diagonal", b.i32(1)))
			p := b.va("pd_op.softmax", []*ir.Value{b.v("pd_op.add", s, mask)}, attr("axis", b.i32(-1)))
			return []*ir.Value{tr(b.v("pd_op.matmul", p, tr(v)))}
		}, fused: func(b *builder) []*ir.Value {
			q, k, v := b.data("q", 2, 4, 2, 3), b.data("k", 2, 4, 2, 3), b.data("v", 2, 4, 2, 3)
			return []*ir.Value{b.op("pd_op.flash_attn", []*ir.Value{q, k, v, nil, nil}, attr("causal", b.bo(true)), attr("is_test", b.bo(true))).Result(0)}
		}},
		{name: "weight_only_linear", unfused: func(b *builder) []*ir.Value {
			x, w, bias := b.data("x", 3, 8), b.param("w", 8, 4), b.param("bias", 4)
			q := b.ops("pd_op.weight_quantize", []*ir.Value{w}, []ir.Type{b.typ(ir.DTypeInt8, 4, 8), b.f32(4)}, attr("algo", b.st("weight_only_int8")))
			d := b.ops("pd_op.weight_dequantize", []*ir.Value{q[0], q[1]}, []ir.Type{b.f32(8, 4)}, attr("algo", b.st("weight_only_int8")), attr("out_dtype", b.ctx.DataType(ir.DTypeFloat32)))
			return []*ir.Value{b.v("pd_op.add", b.v("pd_op.matmul", x, d[0]), bias)}
		}, fused: func(b *builder) []*ir.Value {
			x, w, bias := b.data("x", 3, 8), b.param("w", 8, 4), b.param("bias", 4)
			q := b.ops("pd_op.weight_quantize", []*ir.Value{w}, []ir.Type{b.typ(ir.DTypeInt8, 4, 8), b.f32(4)}, attr("algo", b.st("weight_only_int8")))
			return []*ir.Value{b.va("pd_op.weight_only_linear", []*ir.Value{x, q[0], bias, q[1]}, attr("weight_dtype", b.st("int8")))}
		}},
		{name: "weight_only_linear int4 by group", unfused: func(b *builder) []*ir.Value {
			x, w := b.data("x", 3, 8), b.param("w", 8, 4)
			q := b.ops("pd_op.weight_quantize", []*ir.Value{w}, []ir.Type{b.typ(ir.DTypeInt8, 2, 8), b.f32(2, 4)},
				attr("algo", b.st("weight_only_int4")), attr("group_size", b.i32(4)))
			d := b.ops("pd_op.weight_dequantize", []*ir.Value{q[0], q[1]}, []ir.Type{b.f32(8, 4)}, attr("algo", b.st("weight_only_int4")),
				attr("out_dtype", b.ctx.DataType(ir.DTypeFloat32)), attr("group_size", b.i32(4)))
			return []*ir.Value{b.v("pd_op.matmul", x, d[0])}
		}, fused: func(b *builder) []*ir.Value {
			x, w := b.data("x", 3, 8), b.param("w", 8, 4)
			q := b.ops("pd_op.weight_quantize", []*ir.Value{w}, []ir.Type{b.typ(ir.DTypeInt8, 2, 8), b.f32(2, 4)},
				attr("algo", b.st("weight_only_int4")), attr("group_size", b.i32(4)))
			return []*ir.Value{b.va("pd_op.weight_only_linear", []*ir.Value{x, q[0], nil, q[1]}, attr("weight_dtype", b.st("int4")), attr("group_size", b.i32(4)))}
		}},
		{name: "fused_embedding_eltwise_layernorm", unfused: func(b *builder) []*ir.Value {
			var sum *ir.Value
			for i := range 3 {
				ids, emb := b.dataT("ids"+string(rune('0'+i)), ir.DTypeInt64, 2, 5), b.param("emb"+string(rune('0'+i)), 8, 6)
				e := b.ops("pd_op.embedding", []*ir.Value{ids, emb}, []ir.Type{b.f32(2, 5, 6)})[0]
				if sum == nil {
					sum = e
				} else {
					sum = b.v("pd_op.add", sum, e)
				}
			}
			return []*ir.Value{b.layerNorm(sum, b.param("scale", 6), b.param("bias", 6), 2, 2, 5, 6)}
		}, fused: func(b *builder) []*ir.Value {
			var ids, embs []*ir.Value
			for i := range 3 {
				ids = append(ids, b.dataT("ids"+string(rune('0'+i)), ir.DTypeInt64, 2, 5))
				embs = append(embs, b.param("emb"+string(rune('0'+i)), 8, 6))
			}
			return []*ir.Value{b.va("pd_op.fused_embedding_eltwise_layernorm", []*ir.Value{b.combine(ids...), b.combine(embs...),
				b.param("bias", 6), b.param("scale", 6)})}
		}},
		{name: "fused_fc_elementwise_layernorm", unfused: func(b *builder) []*ir.Value {
			x, w, y, b0 := b.data("x", 4, 3), b.param("w", 3, 5), b.data("y", 4, 5), b.param("b0", 5)
			h := b.v("pd_op.add", b.v("pd_op.relu", b.v("pd_op.add", b.v("pd_op.matmul", x, w), b0)), y)
			return []*ir.Value{b.layerNorm(h, b.param("scale", 5), b.param("b1", 5), 1, 4, 5)}
		}, fused: func(b *builder) []*ir.Value {
			x, w, y, b0 := b.data("x", 4, 3), b.param("w", 3, 5), b.data("y", 4, 5), b.param("b0", 5)
			r := b.op("pd_op.fused_fc_elementwise_layernorm", []*ir.Value{x, w, y, b0, b.param("scale", 5), b.param("b1", 5)},
				attr("activation_type", b.st("relu")))
			return []*ir.Value{r.Result(0)}
		}},
		{name: "skip_layernorm", unfused: func(b *builder) []*ir.Value {
			x, y := b.data("x", 2, 3, 4), b.data("y", 2, 3, 4)
			return []*ir.Value{b.layerNorm(b.v("pd_op.add", x, y), b.param("scale", 4), b.param("bias", 4), 2, 2, 3, 4)}
		}, fused: func(b *builder) []*ir.Value {
			x, y := b.data("x", 2, 3, 4), b.data("y", 2, 3, 4)
			return []*ir.Value{b.va("pd_op.skip_layernorm", []*ir.Value{x, y, b.param("scale", 4), b.param("bias", 4)},
				attr("epsilon", b.fl(1e-5)), attr("begin_norm_axis", b.i32(2)))}
		}},
		{name: "fused_dropout_add in training draws the dropout's numbers", unfused: func(b *builder) []*ir.Value {
			x, y := b.data("x", 4, 6), b.data("y", 4, 6)
			d := b.ops("pd_op.dropout", []*ir.Value{x, nil, b.full([]int64{1}, 0.3)}, []ir.Type{x.Type(), b.typ(ir.DTypeUint8, 4, 6)},
				attr("is_test", b.bo(false)), attr("mode", b.st("upscale_in_train")), attr("seed", b.i32(0)), attr("fix_seed", b.bo(false)))
			return []*ir.Value{b.v("pd_op.add", d[0], y)}
		}, fused: func(b *builder) []*ir.Value {
			x, y := b.data("x", 4, 6), b.data("y", 4, 6)
			return []*ir.Value{b.op("pd_op.fused_dropout_add", []*ir.Value{x, y, nil, b.full([]int64{1}, 0.3)},
				attr("is_test", b.bo(false)), attr("mode", b.st("upscale_in_train"))).Result(0)}
		}},
		{name: "fused_softmax_mask", unfused: func(b *builder) []*ir.Value {
			x, m := b.data("x", 2, 2, 3, 3), b.data("m", 2, 1, 3, 3)
			return []*ir.Value{b.va("pd_op.softmax", []*ir.Value{b.v("pd_op.add", x, m)}, attr("axis", b.i32(-1)))}
		}, fused: func(b *builder) []*ir.Value {
			x, m := b.data("x", 2, 2, 3, 3), b.data("m", 2, 1, 3, 3)
			return []*ir.Value{b.v("pd_op.fused_softmax_mask", x, m)}
		}},
		{name: "fused_softmax_mask_upper_triangle", unfused: func(b *builder) []*ir.Value {
			x := b.data("x", 2, 3, 3)
			mask := b.va("pd_op.triu", []*ir.Value{b.full([]int64{3, 3}, math.Inf(-1))}, attr("diagonal", b.i32(1)))
			return []*ir.Value{b.va("pd_op.softmax", []*ir.Value{b.v("pd_op.add", x, mask)}, attr("axis", b.i32(-1)))}
		}, fused: func(b *builder) []*ir.Value {
			return []*ir.Value{b.v("pd_op.fused_softmax_mask_upper_triangle", b.data("x", 2, 3, 3))}
		}},
		{name: "fused_conv2d_add_act", unfused: func(b *builder) []*ir.Value {
			x, w, bias, res := b.data("x", 1, 2, 5, 5), b.param("w", 3, 2, 3, 3), b.param("bias", 3), b.data("res", 1, 3, 3, 3)
			conv := b.va("pd_op.conv2d", []*ir.Value{x, w}, attr("strides", b.i32s(1, 1)), attr("paddings", b.i32s(0, 0)),
				attr("padding_algorithm", b.st("EXPLICIT")), attr("dilations", b.i32s(1, 1)), attr("groups", b.i32(1)), attr("data_format", b.st("NCHW")))
			h := b.v("pd_op.add", b.v("pd_op.add", conv, b.va("pd_op.reshape", []*ir.Value{bias, b.ints(1, 3, 1, 1)})), res)
			return []*ir.Value{b.v("pd_op.relu", h)}
		}, fused: func(b *builder) []*ir.Value {
			x, w, bias, res := b.data("x", 1, 2, 5, 5), b.param("w", 3, 2, 3, 3), b.param("bias", 3), b.data("res", 1, 3, 3, 3)
			return []*ir.Value{b.op("pd_op.fused_conv2d_add_act", []*ir.Value{x, w, bias, res}).Result(0)}
		}},
		{name: "fused_conv2d_add_act cutlass (NHWC, filter [C_out, kh, kw, C_in])", unfused: func(b *builder) []*ir.Value {
			x, w, bias := b.data("x", 1, 5, 5, 2), b.param("w", 3, 2, 3, 3), b.param("bias", 3)
			conv := b.va("pd_op.conv2d", []*ir.Value{x, w}, attr("paddings", b.i32s(1, 1)), attr("data_format", b.st("NHWC")))
			return []*ir.Value{b.v("pd_op.sigmoid", b.v("pd_op.add", conv, bias))}
		}, fused: func(b *builder) []*ir.Value {
			x, w, bias := b.data("x", 1, 5, 5, 2), b.param("w", 3, 2, 3, 3), b.param("bias", 3)
			ohwi := b.va("pd_op.transpose", []*ir.Value{w}, attr("perm", b.i32s(0, 2, 3, 1)))
			return []*ir.Value{b.op("pd_op.fused_conv2d_add_act", []*ir.Value{x, ohwi, bias, nil}, attr("paddings", b.i32s(1, 1)),
				attr("data_format", b.st("NHWC")), attr("activation", b.st("sigmoid")), attr("force_backend", b.st("gpu"))).Result(0)}
		}},
		{name: "add_group_norm_silu per-channel residual", unfused: func(b *builder) []*ir.Value {
			x, res, sc, bias := b.data("x", 2, 3, 3, 4), b.data("res", 4), b.param("scale", 4), b.param("bias", 4)
			h := b.v("pd_op.add", x, res)
			gn := b.ops("pd_op.group_norm", []*ir.Value{h, sc, bias}, []ir.Type{h.Type(), b.f32(2, 2), b.f32(2, 2)},
				attr("epsilon", b.fl(1e-5)), attr("groups", b.i32(2)), attr("data_format", b.st("NHWC")))
			return []*ir.Value{gn[0], h, gn[1], gn[2]}
		}, fused: func(b *builder) []*ir.Value {
			x, res, sc, bias := b.data("x", 2, 3, 3, 4), b.data("res", 4), b.param("scale", 4), b.param("bias", 4)
			return b.op("pd_op.add_group_norm_silu", []*ir.Value{x, res, sc, bias}, attr("groups", b.i32(2)),
				attr("data_format", b.st("NHWC")), attr("activation", b.st(""))).Results()
		}},
		{name: "swish", unfused: func(b *builder) []*ir.Value {
			x := b.data("x", 7)
			return []*ir.Value{b.v("pd_op.multiply", x, b.v("pd_op.sigmoid", x))}
		}, fused: func(b *builder) []*ir.Value { return []*ir.Value{b.v("pd_op.swish", b.data("x", 7))} }},
	}
	runFusionCases(t, cases)
}

// weight_only_linear changes the numbers: int8 weights are the float weights up to half a quantization step. The
// error budget models weight_quantize as that rounding (rounding.go), so Compare accepts the fusion, while a
// linear that reads other weights is still a mismatch.
func TestWeightOnlyLinearQuantizationError(t *testing.T) {
	ctx := kctx(t)
	build := func(quant bool, weight string) *ir.Program {
		b := newBuilderIn(t, ctx)
		x, w := b.data("x", 3, 64), b.param(weight, 64, 16)
		var out *ir.Value
		if quant {
			q := b.ops("pd_op.weight_quantize", []*ir.Value{w}, []ir.Type{b.typ(ir.DTypeInt8, 16, 64), b.f32(16)})
			out = b.va("pd_op.weight_only_linear", []*ir.Value{x, q[0], nil, q[1]}, attr("weight_dtype", b.st("int8")))
		} else {
			out = b.v("pd_op.matmul", x, w)
		}
		b.fetch(out, "out", 0)
		return b.p
	}
	rep, err := Compare(build(false, "w"), build(true, "w"), CompareOptions{})
	require.NoError(t, err, "the quantization is within the budget")
	o := rep.Outputs[0]
	assert.Greater(t, o.MaxRel, 1e-5, "int8 weights are not the float weights")
	assert.Less(t, o.MaxRel, 2e-2, "but they are within the quantization error")
	assert.Greater(t, o.Tol, o.MaxRel)
	_, err = Compare(build(false, "w"), build(true, "w2"), CompareOptions{})
	require.ErrorIs(t, err, ErrMismatch, "other weights are more than a quantization step away")
}
