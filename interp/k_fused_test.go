package interp_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
)

// Every fused op is checked against the unfused ops its fuse pass replaces: two programs with the same inputs and
// parameters, one written with the unfused ops and one with the fused op, must agree on random data (Compare, in
// float64 to 1e-9).

// fusionCase builds the unfused and the fused form of one computation.
type fusionCase struct {
	name           string
	unfused, fused func(b *progtest.Builder) []*ir.Value
	tol            float64
}

func runFusionCases(t *testing.T, cases []fusionCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := interp.Kctx(t)
			build := func(f func(b *progtest.Builder) []*ir.Value) *ir.Program {
				b := progtest.NewIn(t, ctx)
				for i, v := range f(b) {
					b.Fetch(v, "out"+string(rune('0'+i)), i)
				}
				require.Empty(t, ir.Verify(b.P).Errors())
				return b.P
			}
			before, after := build(tc.unfused), build(tc.fused)
			tol := tc.tol
			if tol == 0 {
				tol = 1e-9
			}
			rep, err := compare.Programs(before, after, compare.Options{RelTol: tol, Runs: 2})
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
		{name: "fc", unfused: func(b *progtest.Builder) []*ir.Value {
			x, w, bias := b.Data("x", 2, 3, 4), b.Param("w", 4, 5), b.Param("bias", 5)
			return []*ir.Value{b.V("pd_op.relu", b.V("pd_op.add", b.V("pd_op.matmul", x, w), bias))}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			x, w, bias := b.Data("x", 2, 3, 4), b.Param("w", 4, 5), b.Param("bias", 5)
			return []*ir.Value{b.VA("pd_op.fc", []*ir.Value{x, w, bias}, progtest.Attr("in_num_col_dims", b.I32(2)), progtest.Attr("activation_type", b.St("relu")))}
		}},
		{name: "fc with padded weights", unfused: func(b *progtest.Builder) []*ir.Value {
			x, w := b.Data("x", 3, 4), b.Param("w", 8, 9)
			ws := b.Ops("pd_op.slice", []*ir.Value{w, b.Ints(0, 0), b.Ints(4, 5)}, []ir.Type{b.F32(4, 5)}, progtest.Attr("axes", b.Ctx.Int64s(0, 1)),
				progtest.Attr("infer_flags", b.Ctx.Int64s(1, 1)), progtest.Attr("decrease_axis", b.Ctx.Int64s()))[0]
			return []*ir.Value{b.V("pd_op.matmul", x, ws)}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			x, w := b.Data("x", 3, 4), b.Param("w", 8, 9)
			return []*ir.Value{b.VA("pd_op.fc", []*ir.Value{x, w, nil}, progtest.Attr("padding_weights", b.Bo(true)))}
		}},
		{name: "fused_gemm_epilogue gelu", unfused: func(b *progtest.Builder) []*ir.Value {
			x, y, bias := b.Data("x", 2, 3, 4), b.Param("y", 5, 4), b.Param("bias", 5)
			mm := b.VA("pd_op.matmul", []*ir.Value{x, y}, progtest.Attr("transpose_x", b.Bo(false)), progtest.Attr("transpose_y", b.Bo(true)))
			return []*ir.Value{b.VA("pd_op.gelu", []*ir.Value{b.V("pd_op.add", mm, bias)}, progtest.Attr("approximate", b.Bo(true)))}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			x, y, bias := b.Data("x", 2, 3, 4), b.Param("y", 5, 4), b.Param("bias", 5)
			return []*ir.Value{b.Op("pd_op.fused_gemm_epilogue", []*ir.Value{x, y, bias}, progtest.Attr("trans_x", b.Bo(false)),
				progtest.Attr("trans_y", b.Bo(true)), progtest.Attr("activation", b.St("gelu"))).Result(0)}
		}},
		{name: "fused_gemm_epilogue transposed x", unfused: func(b *progtest.Builder) []*ir.Value {
			x, y, bias := b.Data("x", 4, 3), b.Param("y", 4, 5), b.Param("bias", 5)
			mm := b.VA("pd_op.matmul", []*ir.Value{x, y}, progtest.Attr("transpose_x", b.Bo(true)), progtest.Attr("transpose_y", b.Bo(false)))
			return []*ir.Value{b.V("pd_op.add", mm, bias)}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			x, y, bias := b.Data("x", 4, 3), b.Param("y", 4, 5), b.Param("bias", 5)
			return []*ir.Value{b.Op("pd_op.fused_gemm_epilogue", []*ir.Value{x, y, bias}, progtest.Attr("trans_x", b.Bo(true)),
				progtest.Attr("trans_y", b.Bo(false)), progtest.Attr("activation", b.St("none"))).Result(0)}
		}},
		{name: "multihead_matmul", unfused: func(b *progtest.Builder) []*ir.Value {
			// BERT: heads 2, head size 3, hidden 6, batch 2, sequence 4.
			x, w, bias, qk := b.Data("x", 2, 4, 6), b.Param("w", 6, 3, 6), b.Param("bias", 3, 6), b.Data("bias_qk", 2, 1, 1, 4)
			w2 := b.VA("pd_op.reshape", []*ir.Value{w, b.Ints(6, 18)})
			qkv := b.V("pd_op.add", b.V("pd_op.matmul", x, w2), b.VA("pd_op.reshape", []*ir.Value{bias, b.Ints(18)}))
			qkv = b.VA("pd_op.reshape", []*ir.Value{qkv, b.Ints(2, 4, 3, 2, 3)})
			qkv = b.VA("pd_op.transpose", []*ir.Value{qkv}, progtest.Attr("perm", b.I32s(2, 0, 3, 1, 4)))
			part := b.F32(1, 2, 2, 4, 3)
			split := b.OpT("pd_op.split", []*ir.Value{qkv, b.Ints(1, 1, 1), b.Full([]int64{1}, 0, ir.DTypeInt32)},
				[]ir.Type{b.Ctx.Vector(part, part, part)})
			qkvs := b.OpT("builtin.split", []*ir.Value{split.Result(0)}, []ir.Type{part, part, part}).Results()
			sq := func(v *ir.Value) *ir.Value { return b.VA("pd_op.squeeze", []*ir.Value{v, b.Ints(0)}) }
			q, k, v := sq(qkvs[0]), sq(qkvs[1]), sq(qkvs[2])
			s := b.VA("pd_op.matmul", []*ir.Value{q, k}, progtest.Attr("transpose_x", b.Bo(false)), progtest.Attr("transpose_y", b.Bo(true)))
			s = b.VA("pd_op.scale", []*ir.Value{s, b.Full([]int64{1}, 0.5)}, progtest.Attr("bias", b.Fl(0)), progtest.Attr("bias_after_scale", b.Bo(true)))
			p := b.VA("pd_op.softmax", []*ir.Value{b.V("pd_op.add", s, qk)}, progtest.Attr("axis", b.I32(-1)))
			o := b.VA("pd_op.transpose", []*ir.Value{b.V("pd_op.matmul", p, v)}, progtest.Attr("perm", b.I32s(0, 2, 1, 3)))
			return []*ir.Value{b.VA("pd_op.reshape", []*ir.Value{o, b.Ints(2, 4, 6)})}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			x, w, bias, qk := b.Data("x", 2, 4, 6), b.Param("w", 6, 3, 6), b.Param("bias", 3, 6), b.Data("bias_qk", 2, 1, 1, 4)
			return []*ir.Value{b.VA("pd_op.multihead_matmul", []*ir.Value{x, w, bias, qk}, progtest.Attr("alpha", b.Fl(0.5)), progtest.Attr("head_number", b.I32(2)))}
		}},
		{name: "fused_rotary_position_embedding halves", unfused: func(b *progtest.Builder) []*ir.Value {
			q, k, sin, cos := b.Data("q", 2, 3, 2, 4), b.Data("k", 2, 3, 2, 4), b.Data("sin", 1, 3, 1, 4), b.Data("cos", 1, 3, 1, 4)
			rot := func(x *ir.Value) *ir.Value {
				half := b.F32(2, 3, 2, 2)
				sp := b.OpT("pd_op.split", []*ir.Value{x, b.Ints(2, 2), b.Full([]int64{1}, -1, ir.DTypeInt32)}, []ir.Type{b.Ctx.Vector(half, half)})
				hs := b.OpT("builtin.split", []*ir.Value{sp.Result(0)}, []ir.Type{half, half}).Results()
				neg := b.VA("pd_op.scale", []*ir.Value{hs[1], b.Full([]int64{1}, -1)}, progtest.Attr("bias", b.Fl(0)), progtest.Attr("bias_after_scale", b.Bo(true)))
				r := b.VA("pd_op.concat", []*ir.Value{b.Combine(neg, hs[0]), b.Full([]int64{1}, -1, ir.DTypeInt32)})
				return b.V("pd_op.add", b.V("pd_op.multiply", x, cos), b.V("pd_op.multiply", r, sin))
			}
			return []*ir.Value{rot(q), rot(k)}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			q, k, sin, cos := b.Data("q", 2, 3, 2, 4), b.Data("k", 2, 3, 2, 4), b.Data("sin", 1, 3, 1, 4), b.Data("cos", 1, 3, 1, 4)
			r := b.Op("pd_op.fused_rotary_position_embedding", []*ir.Value{q, k, nil, sin, cos, nil}, progtest.Attr("use_neox_rotary_style", b.Bo(false)))
			return []*ir.Value{r.Result(0), r.Result(1)}
		}},
		{name: "fused_rotary_position_embedding pairs", unfused: func(b *progtest.Builder) []*ir.Value {
			q, sin, cos := b.Data("q", 2, 3, 2, 4), b.Data("sin", 1, 3, 1, 4), b.Data("cos", 1, 3, 1, 4)
			pairs := b.VA("pd_op.reshape", []*ir.Value{q, b.Ints(2, 3, 2, 2, 2)})
			one := b.F32(2, 3, 2, 2, 1)
			sp := b.OpT("pd_op.split", []*ir.Value{pairs, b.Ints(1, 1), b.Full([]int64{1}, -1, ir.DTypeInt32)}, []ir.Type{b.Ctx.Vector(one, one)})
			xs := b.OpT("builtin.split", []*ir.Value{sp.Result(0)}, []ir.Type{one, one}).Results()
			neg := b.VA("pd_op.scale", []*ir.Value{xs[1], b.Full([]int64{1}, -1)}, progtest.Attr("bias", b.Fl(0)), progtest.Attr("bias_after_scale", b.Bo(true)))
			r := b.VA("pd_op.concat", []*ir.Value{b.Combine(neg, xs[0]), b.Full([]int64{1}, -1, ir.DTypeInt32)})
			r = b.VA("pd_op.reshape", []*ir.Value{r, b.Ints(2, 3, 2, 4)})
			return []*ir.Value{b.V("pd_op.add", b.V("pd_op.multiply", q, cos), b.V("pd_op.multiply", r, sin))}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			q, sin, cos := b.Data("q", 2, 3, 2, 4), b.Data("sin", 1, 3, 1, 4), b.Data("cos", 1, 3, 1, 4)
			return []*ir.Value{b.Op("pd_op.fused_rotary_position_embedding", []*ir.Value{q, nil, nil, sin, cos, nil}).Result(0)}
		}},
		{name: "rms_norm with residual and bias", unfused: func(b *progtest.Builder) []*ir.Value {
			x, res, bias, w := b.Data("x", 2, 3, 8), b.Data("res", 2, 3, 8), b.Param("bias", 8), b.Param("w", 8)
			h := b.V("pd_op.add", b.V("pd_op.add", x, res), bias)
			ss := b.VA("pd_op.sum", []*ir.Value{b.V("pd_op.multiply", h, h), b.Ints(-1)}, progtest.Attr("keepdim", b.Bo(true)))
			r := b.V("pd_op.rsqrt", b.VA("pd_op.scale", []*ir.Value{ss, b.Full([]int64{1}, 1.0/8)}, progtest.Attr("bias", b.Fl(1e-6)), progtest.Attr("bias_after_scale", b.Bo(true))))
			return []*ir.Value{b.V("pd_op.multiply", b.V("pd_op.multiply", h, r), w), h}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			x, res, bias, w := b.Data("x", 2, 3, 8), b.Data("res", 2, 3, 8), b.Param("bias", 8), b.Param("w", 8)
			r := b.Op("pd_op.rms_norm", []*ir.Value{x, bias, res, w, nil}, progtest.Attr("epsilon", b.Fl(1e-6)), progtest.Attr("begin_norm_axis", b.I32(2)),
				progtest.Attr("quant_scale", b.Fl(-1)), progtest.Attr("quant_round_type", b.I32(0)), progtest.Attr("quant_max_bound", b.Fl(0)), progtest.Attr("quant_min_bound", b.Fl(0)))
			return []*ir.Value{r.Result(0), r.Result(1)}
		}, tol: 1e-6},
		{name: "fused_bias_residual_layernorm", unfused: func(b *progtest.Builder) []*ir.Value {
			x, res, bias, w, nb := b.Data("x", 3, 8), b.Data("res", 3, 8), b.Param("bias", 8), b.Param("w", 8), b.Param("nb", 8)
			h := b.V("pd_op.add", b.V("pd_op.add", x, bias), b.VA("pd_op.scale", []*ir.Value{res, b.Full([]int64{1}, 0.5)},
				progtest.Attr("bias", b.Fl(0)), progtest.Attr("bias_after_scale", b.Bo(true))))
			ln := b.Ops("pd_op.layer_norm", []*ir.Value{h, w, nb}, []ir.Type{h.Type(), b.F32(3), b.F32(3)}, progtest.Attr("epsilon", b.Fl(1e-5)), progtest.Attr("begin_norm_axis", b.I32(1)))
			return []*ir.Value{ln[0], h, ln[1], ln[2]}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			x, res, bias, w, nb := b.Data("x", 3, 8), b.Data("res", 3, 8), b.Param("bias", 8), b.Param("w", 8), b.Param("nb", 8)
			r := b.Op("pd_op.fused_bias_residual_layernorm", []*ir.Value{x, bias, res, w, nb}, progtest.Attr("epsilon", b.Fl(1e-5)),
				progtest.Attr("residual_alpha", b.Fl(0.5)), progtest.Attr("begin_norm_axis", b.I32(1)), progtest.Attr("quant_scale", b.Fl(-1)),
				progtest.Attr("quant_round_type", b.I32(0)), progtest.Attr("quant_max_bound", b.Fl(0)), progtest.Attr("quant_min_bound", b.Fl(0)))
			return r.Results()
		}},
		{name: "add_group_norm_silu", unfused: func(b *progtest.Builder) []*ir.Value {
			x, res, sc, bias := b.Data("x", 2, 4, 3, 3), b.Data("res", 2, 4, 3, 3), b.Param("scale", 4), b.Param("bias", 4)
			h := b.V("pd_op.add", x, res)
			gn := b.Ops("pd_op.group_norm", []*ir.Value{h, sc, bias}, []ir.Type{h.Type(), b.F32(2, 2), b.F32(2, 2)},
				progtest.Attr("epsilon", b.Fl(1e-5)), progtest.Attr("groups", b.I32(2)), progtest.Attr("data_format", b.St("NCHW")))
			return []*ir.Value{b.V("pd_op.silu", gn[0]), h, gn[1], gn[2]}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			x, res, sc, bias := b.Data("x", 2, 4, 3, 3), b.Data("res", 2, 4, 3, 3), b.Param("scale", 4), b.Param("bias", 4)
			return b.Op("pd_op.add_group_norm_silu", []*ir.Value{x, res, sc, bias}, progtest.Attr("groups", b.I32(2)), progtest.Attr("activation", b.St("silu"))).Results()
		}},
		{name: "fusion_transpose_flatten_concat", unfused: func(b *progtest.Builder) []*ir.Value {
			var parts []*ir.Value
			for i, n := range []int64{3, 5} {
				x := b.Data("x"+string(rune('0'+i)), 2, n, 4, 4)
				tr := b.VA("pd_op.transpose", []*ir.Value{x}, progtest.Attr("perm", b.I32s(0, 2, 3, 1)))
				parts = append(parts, b.VA("pd_op.flatten", []*ir.Value{tr}, progtest.Attr("start_axis", b.I32(1)), progtest.Attr("stop_axis", b.I32(3))))
			}
			return []*ir.Value{b.VA("pd_op.concat", []*ir.Value{b.Combine(parts...), b.Full([]int64{1}, 1, ir.DTypeInt32)})}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			x0, x1 := b.Data("x0", 2, 3, 4, 4), b.Data("x1", 2, 5, 4, 4)
			return []*ir.Value{b.VA("pd_op.fusion_transpose_flatten_concat", []*ir.Value{b.Combine(x0, x1)},
				progtest.Attr("trans_axis", b.I32s(0, 2, 3, 1)), progtest.Attr("flatten_axis", b.I32(1)), progtest.Attr("concat_axis", b.I32(1)))}
		}},
		{name: "flash_attn causal", unfused: func(b *progtest.Builder) []*ir.Value {
			q, k, v := b.Data("q", 2, 4, 2, 3), b.Data("k", 2, 4, 2, 3), b.Data("v", 2, 4, 2, 3)
			tr := func(x *ir.Value) *ir.Value {
				return b.VA("pd_op.transpose", []*ir.Value{x}, progtest.Attr("perm", b.I32s(0, 2, 1, 3)))
			}
			s := b.VA("pd_op.matmul", []*ir.Value{tr(q), tr(k)}, progtest.Attr("transpose_x", b.Bo(false)), progtest.Attr("transpose_y", b.Bo(true)))
			s = b.VA("pd_op.scale", []*ir.Value{s, b.Full([]int64{1}, 1/math.Sqrt(3))}, progtest.Attr("bias", b.Fl(0)), progtest.Attr("bias_after_scale", b.Bo(true)))
			mask := b.VA("pd_op.triu", []*ir.Value{b.Full([]int64{4, 4}, math.Inf(-1))}, progtest.Attr("diagonal", b.I32(1)))
			p := b.VA("pd_op.softmax", []*ir.Value{b.V("pd_op.add", s, mask)}, progtest.Attr("axis", b.I32(-1)))
			return []*ir.Value{tr(b.V("pd_op.matmul", p, tr(v)))}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			q, k, v := b.Data("q", 2, 4, 2, 3), b.Data("k", 2, 4, 2, 3), b.Data("v", 2, 4, 2, 3)
			return []*ir.Value{b.Op("pd_op.flash_attn", []*ir.Value{q, k, v, nil, nil}, progtest.Attr("causal", b.Bo(true)), progtest.Attr("is_test", b.Bo(true))).Result(0)}
		}},
		{name: "weight_only_linear", unfused: func(b *progtest.Builder) []*ir.Value {
			x, w, bias := b.Data("x", 3, 8), b.Param("w", 8, 4), b.Param("bias", 4)
			q := b.Ops("pd_op.weight_quantize", []*ir.Value{w}, []ir.Type{b.Typ(ir.DTypeInt8, 4, 8), b.F32(4)}, progtest.Attr("algo", b.St("weight_only_int8")))
			d := b.Ops("pd_op.weight_dequantize", []*ir.Value{q[0], q[1]}, []ir.Type{b.F32(8, 4)}, progtest.Attr("algo", b.St("weight_only_int8")), progtest.Attr("out_dtype", b.Ctx.DataType(ir.DTypeFloat32)))
			return []*ir.Value{b.V("pd_op.add", b.V("pd_op.matmul", x, d[0]), bias)}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			x, w, bias := b.Data("x", 3, 8), b.Param("w", 8, 4), b.Param("bias", 4)
			q := b.Ops("pd_op.weight_quantize", []*ir.Value{w}, []ir.Type{b.Typ(ir.DTypeInt8, 4, 8), b.F32(4)}, progtest.Attr("algo", b.St("weight_only_int8")))
			return []*ir.Value{b.VA("pd_op.weight_only_linear", []*ir.Value{x, q[0], bias, q[1]}, progtest.Attr("weight_dtype", b.St("int8")))}
		}},
		{name: "weight_only_linear int4 by group", unfused: func(b *progtest.Builder) []*ir.Value {
			x, w := b.Data("x", 3, 8), b.Param("w", 8, 4)
			q := b.Ops("pd_op.weight_quantize", []*ir.Value{w}, []ir.Type{b.Typ(ir.DTypeInt8, 2, 8), b.F32(2, 4)},
				progtest.Attr("algo", b.St("weight_only_int4")), progtest.Attr("group_size", b.I32(4)))
			d := b.Ops("pd_op.weight_dequantize", []*ir.Value{q[0], q[1]}, []ir.Type{b.F32(8, 4)}, progtest.Attr("algo", b.St("weight_only_int4")),
				progtest.Attr("out_dtype", b.Ctx.DataType(ir.DTypeFloat32)), progtest.Attr("group_size", b.I32(4)))
			return []*ir.Value{b.V("pd_op.matmul", x, d[0])}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			x, w := b.Data("x", 3, 8), b.Param("w", 8, 4)
			q := b.Ops("pd_op.weight_quantize", []*ir.Value{w}, []ir.Type{b.Typ(ir.DTypeInt8, 2, 8), b.F32(2, 4)},
				progtest.Attr("algo", b.St("weight_only_int4")), progtest.Attr("group_size", b.I32(4)))
			return []*ir.Value{b.VA("pd_op.weight_only_linear", []*ir.Value{x, q[0], nil, q[1]}, progtest.Attr("weight_dtype", b.St("int4")), progtest.Attr("group_size", b.I32(4)))}
		}},
		{name: "fused_embedding_eltwise_layernorm", unfused: func(b *progtest.Builder) []*ir.Value {
			var sum *ir.Value
			for i := range 3 {
				ids, emb := b.DataT("ids"+string(rune('0'+i)), ir.DTypeInt64, 2, 5), b.Param("emb"+string(rune('0'+i)), 8, 6)
				e := b.Ops("pd_op.embedding", []*ir.Value{ids, emb}, []ir.Type{b.F32(2, 5, 6)})[0]
				if sum == nil {
					sum = e
				} else {
					sum = b.V("pd_op.add", sum, e)
				}
			}
			return []*ir.Value{b.LayerNorm(sum, b.Param("scale", 6), b.Param("bias", 6), 2, 2, 5, 6)}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			var ids, embs []*ir.Value
			for i := range 3 {
				ids = append(ids, b.DataT("ids"+string(rune('0'+i)), ir.DTypeInt64, 2, 5))
				embs = append(embs, b.Param("emb"+string(rune('0'+i)), 8, 6))
			}
			return []*ir.Value{b.VA("pd_op.fused_embedding_eltwise_layernorm", []*ir.Value{b.Combine(ids...), b.Combine(embs...),
				b.Param("bias", 6), b.Param("scale", 6)})}
		}},
		{name: "fused_fc_elementwise_layernorm", unfused: func(b *progtest.Builder) []*ir.Value {
			x, w, y, b0 := b.Data("x", 4, 3), b.Param("w", 3, 5), b.Data("y", 4, 5), b.Param("b0", 5)
			h := b.V("pd_op.add", b.V("pd_op.relu", b.V("pd_op.add", b.V("pd_op.matmul", x, w), b0)), y)
			return []*ir.Value{b.LayerNorm(h, b.Param("scale", 5), b.Param("b1", 5), 1, 4, 5)}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			x, w, y, b0 := b.Data("x", 4, 3), b.Param("w", 3, 5), b.Data("y", 4, 5), b.Param("b0", 5)
			r := b.Op("pd_op.fused_fc_elementwise_layernorm", []*ir.Value{x, w, y, b0, b.Param("scale", 5), b.Param("b1", 5)},
				progtest.Attr("activation_type", b.St("relu")))
			return []*ir.Value{r.Result(0)}
		}},
		{name: "skip_layernorm", unfused: func(b *progtest.Builder) []*ir.Value {
			x, y := b.Data("x", 2, 3, 4), b.Data("y", 2, 3, 4)
			return []*ir.Value{b.LayerNorm(b.V("pd_op.add", x, y), b.Param("scale", 4), b.Param("bias", 4), 2, 2, 3, 4)}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			x, y := b.Data("x", 2, 3, 4), b.Data("y", 2, 3, 4)
			return []*ir.Value{b.VA("pd_op.skip_layernorm", []*ir.Value{x, y, b.Param("scale", 4), b.Param("bias", 4)},
				progtest.Attr("epsilon", b.Fl(1e-5)), progtest.Attr("begin_norm_axis", b.I32(2)))}
		}},
		{name: "fused_dropout_add in training draws the dropout's numbers", unfused: func(b *progtest.Builder) []*ir.Value {
			x, y := b.Data("x", 4, 6), b.Data("y", 4, 6)
			d := b.Ops("pd_op.dropout", []*ir.Value{x, nil, b.Full([]int64{1}, 0.3)}, []ir.Type{x.Type(), b.Typ(ir.DTypeUint8, 4, 6)},
				progtest.Attr("is_test", b.Bo(false)), progtest.Attr("mode", b.St("upscale_in_train")), progtest.Attr("seed", b.I32(0)), progtest.Attr("fix_seed", b.Bo(false)))
			return []*ir.Value{b.V("pd_op.add", d[0], y)}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			x, y := b.Data("x", 4, 6), b.Data("y", 4, 6)
			return []*ir.Value{b.Op("pd_op.fused_dropout_add", []*ir.Value{x, y, nil, b.Full([]int64{1}, 0.3)},
				progtest.Attr("is_test", b.Bo(false)), progtest.Attr("mode", b.St("upscale_in_train"))).Result(0)}
		}},
		{name: "fused_softmax_mask", unfused: func(b *progtest.Builder) []*ir.Value {
			x, m := b.Data("x", 2, 2, 3, 3), b.Data("m", 2, 1, 3, 3)
			return []*ir.Value{b.VA("pd_op.softmax", []*ir.Value{b.V("pd_op.add", x, m)}, progtest.Attr("axis", b.I32(-1)))}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			x, m := b.Data("x", 2, 2, 3, 3), b.Data("m", 2, 1, 3, 3)
			return []*ir.Value{b.V("pd_op.fused_softmax_mask", x, m)}
		}},
		{name: "fused_softmax_mask_upper_triangle", unfused: func(b *progtest.Builder) []*ir.Value {
			x := b.Data("x", 2, 3, 3)
			mask := b.VA("pd_op.triu", []*ir.Value{b.Full([]int64{3, 3}, math.Inf(-1))}, progtest.Attr("diagonal", b.I32(1)))
			return []*ir.Value{b.VA("pd_op.softmax", []*ir.Value{b.V("pd_op.add", x, mask)}, progtest.Attr("axis", b.I32(-1)))}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			return []*ir.Value{b.V("pd_op.fused_softmax_mask_upper_triangle", b.Data("x", 2, 3, 3))}
		}},
		{name: "fused_conv2d_add_act", unfused: func(b *progtest.Builder) []*ir.Value {
			x, w, bias, res := b.Data("x", 1, 2, 5, 5), b.Param("w", 3, 2, 3, 3), b.Param("bias", 3), b.Data("res", 1, 3, 3, 3)
			conv := b.VA("pd_op.conv2d", []*ir.Value{x, w}, progtest.Attr("strides", b.I32s(1, 1)), progtest.Attr("paddings", b.I32s(0, 0)),
				progtest.Attr("padding_algorithm", b.St("EXPLICIT")), progtest.Attr("dilations", b.I32s(1, 1)), progtest.Attr("groups", b.I32(1)), progtest.Attr("data_format", b.St("NCHW")))
			h := b.V("pd_op.add", b.V("pd_op.add", conv, b.VA("pd_op.reshape", []*ir.Value{bias, b.Ints(1, 3, 1, 1)})), res)
			return []*ir.Value{b.V("pd_op.relu", h)}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			x, w, bias, res := b.Data("x", 1, 2, 5, 5), b.Param("w", 3, 2, 3, 3), b.Param("bias", 3), b.Data("res", 1, 3, 3, 3)
			return []*ir.Value{b.Op("pd_op.fused_conv2d_add_act", []*ir.Value{x, w, bias, res}).Result(0)}
		}},
		{name: "fused_conv2d_add_act cutlass (NHWC, filter [C_out, kh, kw, C_in])", unfused: func(b *progtest.Builder) []*ir.Value {
			x, w, bias := b.Data("x", 1, 5, 5, 2), b.Param("w", 3, 2, 3, 3), b.Param("bias", 3)
			conv := b.VA("pd_op.conv2d", []*ir.Value{x, w}, progtest.Attr("paddings", b.I32s(1, 1)), progtest.Attr("data_format", b.St("NHWC")))
			return []*ir.Value{b.V("pd_op.sigmoid", b.V("pd_op.add", conv, bias))}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			x, w, bias := b.Data("x", 1, 5, 5, 2), b.Param("w", 3, 2, 3, 3), b.Param("bias", 3)
			ohwi := b.VA("pd_op.transpose", []*ir.Value{w}, progtest.Attr("perm", b.I32s(0, 2, 3, 1)))
			return []*ir.Value{b.Op("pd_op.fused_conv2d_add_act", []*ir.Value{x, ohwi, bias, nil}, progtest.Attr("paddings", b.I32s(1, 1)),
				progtest.Attr("data_format", b.St("NHWC")), progtest.Attr("activation", b.St("sigmoid")), progtest.Attr("force_backend", b.St("gpu"))).Result(0)}
		}},
		{name: "add_group_norm_silu per-channel residual", unfused: func(b *progtest.Builder) []*ir.Value {
			x, res, sc, bias := b.Data("x", 2, 3, 3, 4), b.Data("res", 4), b.Param("scale", 4), b.Param("bias", 4)
			h := b.V("pd_op.add", x, res)
			gn := b.Ops("pd_op.group_norm", []*ir.Value{h, sc, bias}, []ir.Type{h.Type(), b.F32(2, 2), b.F32(2, 2)},
				progtest.Attr("epsilon", b.Fl(1e-5)), progtest.Attr("groups", b.I32(2)), progtest.Attr("data_format", b.St("NHWC")))
			return []*ir.Value{gn[0], h, gn[1], gn[2]}
		}, fused: func(b *progtest.Builder) []*ir.Value {
			x, res, sc, bias := b.Data("x", 2, 3, 3, 4), b.Data("res", 4), b.Param("scale", 4), b.Param("bias", 4)
			return b.Op("pd_op.add_group_norm_silu", []*ir.Value{x, res, sc, bias}, progtest.Attr("groups", b.I32(2)),
				progtest.Attr("data_format", b.St("NHWC")), progtest.Attr("activation", b.St(""))).Results()
		}},
		{name: "swish", unfused: func(b *progtest.Builder) []*ir.Value {
			x := b.Data("x", 7)
			return []*ir.Value{b.V("pd_op.multiply", x, b.V("pd_op.sigmoid", x))}
		}, fused: func(b *progtest.Builder) []*ir.Value { return []*ir.Value{b.V("pd_op.swish", b.Data("x", 7))} }},
	}
	runFusionCases(t, cases)
}

// weight_only_linear changes the numbers: int8 weights are the float weights up to half a quantization step. The
// error budget models weight_quantize as that rounding (rounding.go), so Compare accepts the fusion, while a
// linear that reads other weights is still a mismatch.
func TestWeightOnlyLinearQuantizationError(t *testing.T) {
	ctx := interp.Kctx(t)
	build := func(quant bool, weight string) *ir.Program {
		b := progtest.NewIn(t, ctx)
		x, w := b.Data("x", 3, 64), b.Param(weight, 64, 16)
		var out *ir.Value
		if quant {
			q := b.Ops("pd_op.weight_quantize", []*ir.Value{w}, []ir.Type{b.Typ(ir.DTypeInt8, 16, 64), b.F32(16)})
			out = b.VA("pd_op.weight_only_linear", []*ir.Value{x, q[0], nil, q[1]}, progtest.Attr("weight_dtype", b.St("int8")))
		} else {
			out = b.V("pd_op.matmul", x, w)
		}
		b.Fetch(out, "out", 0)
		return b.P
	}
	rep, err := compare.Programs(build(false, "w"), build(true, "w"), compare.Options{})
	require.NoError(t, err, "the quantization is within the budget")
	o := rep.Outputs[0]
	assert.Greater(t, o.MaxRel, 1e-5, "int8 weights are not the float weights")
	assert.Less(t, o.MaxRel, 2e-2, "but they are within the quantization error")
	assert.Greater(t, o.Tol, o.MaxRel)
	_, err = compare.Programs(build(false, "w"), build(true, "w2"), compare.Options{})
	require.ErrorIs(t, err, compare.ErrMismatch, "other weights are more than a quantization step away")
}
