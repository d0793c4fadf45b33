package interp

import (
	"math"
	"testing"

	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/ir"
)

// TestKernelsOutsideCorpus checks, op by op, kernels of ops the corpus does not use but inference programs and
// rewrites commonly produce.
func TestKernelsOutsideCorpus(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	lse := math.Log(math.Exp(1) + math.Exp(2) + math.Exp(3))
	x23 := fT(sh(2, 3), ramp(6, 1, 0)...)
	runOpCases(t, []opCase{
		{name: "log_softmax", op: "pd_op.log_softmax", in: []any{fT(sh(2, 3), 1, 2, 3, 0, 0, 0)},
			want: []*Tensor{fT(sh(2, 3), 1-lse, 2-lse, 3-lse, -math.Log(3), -math.Log(3), -math.Log(3))}},
		{name: "log_softmax axis 0", op: "pd_op.log_softmax", in: []any{fT(sh(2, 1), 0, 0)}, attrs: []ir.NamedAttr{a(t, "axis", 0)},
			want: []*Tensor{fT(sh(2, 1), -math.Log(2), -math.Log(2))}},
		{name: "amax", op: "pd_op.amax", in: []any{fT(sh(2, 3), 1, 5, 2, -1, -3, -2)}, attrs: []ir.NamedAttr{a(t, "axis", []int64{1})},
			want: []*Tensor{fT(sh(2), 5, -1)}},
		{name: "amin of all", op: "pd_op.amin", in: []any{fT(sh(2, 3), 1, 5, 2, -1, -3, -2)},
			want: []*Tensor{fT(sh(), -3)}},
		{name: "isinf", op: "pd_op.isinf", in: []any{fT(sh(4), inf, -inf, nan, 1)}, want: []*Tensor{bT(sh(4), 1, 1, 0, 0)}},
		{name: "isfinite", op: "pd_op.isfinite", in: []any{fT(sh(4), inf, -inf, nan, 1)}, want: []*Tensor{bT(sh(4), 0, 0, 0, 1)}},
		{name: "fmax ignores NaN", op: "pd_op.fmax", in: []any{fT(sh(4), 1, nan, 3, nan), fT(sh(4), 2, 2, nan, nan)},
			want: []*Tensor{fT(sh(4), 2, 2, 3, nan)}},
		{name: "fmin ignores NaN", op: "pd_op.fmin", in: []any{fT(sh(4), 1, nan, 3, nan), fT(sh(4), 2, 2, nan, nan)},
			want: []*Tensor{fT(sh(4), 1, 2, 3, nan)}},
		{name: "atan2", op: "pd_op.atan2", in: []any{fT(sh(2), 1, -1), fT(sh(2), 1, 1)}, want: []*Tensor{fT(sh(2), math.Pi/4, -math.Pi/4)}},
		{name: "heaviside", op: "pd_op.heaviside", in: []any{fT(sh(3), -1, 0, 2), fT(sh(3), 5, 0.5, 5)}, want: []*Tensor{fT(sh(3), 0, 0.5, 1)}},
		{name: "reverse", op: "pd_op.reverse", in: []any{x23, i64T(sh(1), 1)}, want: []*Tensor{fT(sh(2, 3), 2, 1, 0, 5, 4, 3)}},
		// x[0, c, 0, w] = 10c + w.
		{name: "pixel_shuffle", op: "pd_op.pixel_shuffle", in: []any{fT(sh(1, 4, 1, 2), 0, 1, 10, 11, 20, 21, 30, 31)},
			attrs: []ir.NamedAttr{a(t, "upscale_factor", 2)}, want: []*Tensor{fT(sh(1, 1, 2, 4), 0, 10, 1, 11, 20, 30, 21, 31)}},
		{name: "pixel_unshuffle", op: "pd_op.pixel_unshuffle", in: []any{fT(sh(1, 1, 2, 4), 0, 10, 1, 11, 20, 30, 21, 31)},
			attrs: []ir.NamedAttr{a(t, "downscale_factor", 2)}, want: []*Tensor{fT(sh(1, 4, 1, 2), 0, 1, 10, 11, 20, 21, 30, 31)}},
		{name: "pixel_shuffle NHWC", op: "pd_op.pixel_shuffle", in: []any{fT(sh(1, 1, 2, 4), 0, 10, 20, 30, 1, 11, 21, 31)},
			attrs: []ir.NamedAttr{a(t, "upscale_factor", 2), a(t, "data_format", "NHWC")}, want: []*Tensor{fT(sh(1, 2, 4, 1), 0, 10, 1, 11, 20, 30, 21, 31)}},
		{name: "channel_shuffle", op: "pd_op.channel_shuffle", in: []any{fT(sh(1, 6, 1, 1), ramp(6, 1, 0)...)},
			attrs: []ir.NamedAttr{a(t, "groups", 2)}, want: []*Tensor{fT(sh(1, 6, 1, 1), 0, 3, 1, 4, 2, 5)}},
		{name: "channel_shuffle NHWC", op: "pd_op.channel_shuffle", in: []any{fT(sh(1, 1, 1, 6), ramp(6, 1, 0)...)},
			attrs: []ir.NamedAttr{a(t, "groups", 2), a(t, "data_format", "NHWC")}, want: []*Tensor{fT(sh(1, 1, 1, 6), 0, 3, 1, 4, 2, 5)}},
		{name: "shuffle_channel", op: "pd_op.shuffle_channel", in: []any{fT(sh(1, 6, 1, 1), ramp(6, 1, 0)...)},
			attrs: []ir.NamedAttr{a(t, "group", 3)}, want: []*Tensor{fT(sh(1, 6, 1, 1), 0, 2, 4, 1, 3, 5)}},
		// Two frames of four channels: channel 0 comes from the previous frame, channel 1 from the next.
		{name: "temporal_shift", op: "pd_op.temporal_shift", in: []any{fT(sh(2, 4, 1, 1), 0, 1, 2, 3, 10, 11, 12, 13)},
			attrs: []ir.NamedAttr{a(t, "seg_num", 2)}, want: []*Tensor{fT(sh(2, 4, 1, 1), 0, 11, 2, 3, 0, 0, 12, 13)}},
		{name: "temporal_shift NHWC", op: "pd_op.temporal_shift", in: []any{fT(sh(2, 1, 1, 4), 0, 1, 2, 3, 10, 11, 12, 13)},
			attrs: []ir.NamedAttr{a(t, "seg_num", 2), a(t, "data_format", "NHWC")}, want: []*Tensor{fT(sh(2, 1, 1, 4), 0, 11, 2, 3, 0, 0, 12, 13)}},
		{name: "diagonal", op: "pd_op.diagonal", in: []any{x23}, want: []*Tensor{fT(sh(2), 0, 4)}},
		{name: "diagonal above", op: "pd_op.diagonal", in: []any{x23}, attrs: []ir.NamedAttr{a(t, "offset", 1)}, want: []*Tensor{fT(sh(2), 1, 5)}},
		{name: "diagonal below", op: "pd_op.diagonal", in: []any{x23}, attrs: []ir.NamedAttr{a(t, "offset", -1)}, want: []*Tensor{fT(sh(1), 3)}},
		{name: "diagonal of planes", op: "pd_op.diagonal", in: []any{fT(sh(2, 2, 2), ramp(8, 1, 0)...)},
			attrs: []ir.NamedAttr{a(t, "axis1", 1), a(t, "axis2", 2)}, want: []*Tensor{fT(sh(2, 2), 0, 3, 4, 7)}},
		{name: "trace", op: "pd_op.trace", in: []any{x23}, want: []*Tensor{fT(sh(), 4)}},
		{name: "trace of planes", op: "pd_op.trace", in: []any{fT(sh(2, 2, 2), ramp(8, 1, 0)...)},
			attrs: []ir.NamedAttr{a(t, "axis1", -2), a(t, "axis2", -1)}, want: []*Tensor{fT(sh(2), 3, 11)}},
		{name: "dot of vectors", op: "pd_op.dot", in: []any{fT(sh(3), 1, 2, 3), fT(sh(3), 4, 5, 6)}, want: []*Tensor{fT(sh(), 32)}},
		{name: "dot of rows", op: "pd_op.dot", in: []any{fT(sh(2, 2), 1, 2, 3, 4), fT(sh(2, 2), 1, 1, 2, 2)}, want: []*Tensor{fT(sh(2), 3, 14)}},
		{name: "mv", op: "pd_op.mv", in: []any{fT(sh(2, 2), 1, 2, 3, 4), fT(sh(2), 1, 1)}, want: []*Tensor{fT(sh(2), 3, 7)}},
		{name: "kron", op: "pd_op.kron", in: []any{fT(sh(2), 1, 2), fT(sh(2, 2), 1, 2, 3, 4)}, want: []*Tensor{fT(sh(2, 4), 1, 2, 2, 4, 3, 4, 6, 8)}},
		{name: "cummax", op: "pd_op.cummax", in: []any{fT(sh(6), 1, 3, 2, 3, nan, 0)},
			want: []*Tensor{fT(sh(6), 1, 3, 3, 3, nan, nan), i64T(sh(6), 0, 1, 1, 3, 4, 4)}},
		{name: "cummin", op: "pd_op.cummin", in: []any{fT(sh(2, 2), 3, 1, 2, 1)}, attrs: []ir.NamedAttr{a(t, "axis", 0)},
			want: []*Tensor{fT(sh(2, 2), 3, 1, 2, 1), i64T(sh(2, 2), 0, 0, 1, 1)}},
		{name: "logcumsumexp", op: "pd_op.logcumsumexp", in: []any{fT(sh(3), 0, 0, 0)}, want: []*Tensor{fT(sh(3), 0, math.Log(2), math.Log(3))}},
		{name: "logcumsumexp exclusive", op: "pd_op.logcumsumexp", in: []any{fT(sh(3), 0, 0, 0)}, attrs: []ir.NamedAttr{a(t, "exclusive", true)},
			want: []*Tensor{fT(sh(3), -inf, 0, math.Log(2))}},
		{name: "logcumsumexp reverse", op: "pd_op.logcumsumexp", in: []any{fT(sh(3), 0, 0, 0)}, attrs: []ir.NamedAttr{a(t, "reverse", true)},
			want: []*Tensor{fT(sh(3), math.Log(3), math.Log(2), 0)}},
		{name: "argsort", op: "pd_op.argsort", in: []any{fT(sh(4), 3, 1, 2, 1)}, want: []*Tensor{fT(sh(4), 1, 1, 2, 3), i64T(sh(4), 1, 3, 2, 0)}},
		{name: "argsort descending", op: "pd_op.argsort", in: []any{fT(sh(4), 3, 1, 2, 1)}, attrs: []ir.NamedAttr{a(t, "descending", true)},
			want: []*Tensor{fT(sh(4), 3, 2, 1, 1), i64T(sh(4), 0, 2, 1, 3)}},
		{name: "argsort NaN last", op: "pd_op.argsort", in: []any{fT(sh(3), nan, 1, 0)}, want: []*Tensor{fT(sh(3), 0, 1, nan), i64T(sh(3), 2, 1, 0)}},
		{name: "argsort along rows", op: "pd_op.argsort", in: []any{fT(sh(2, 2), 2, 1, 0, 3)}, attrs: []ir.NamedAttr{a(t, "axis", 0)},
			want: []*Tensor{fT(sh(2, 2), 0, 1, 2, 3), i64T(sh(2, 2), 1, 0, 0, 1)}},
		{name: "isclose", op: "pd_op.isclose", in: []any{fT(sh(5), 1, 1.000001, nan, inf, 1.1), fT(sh(5), 1, 1, nan, inf, 1), fT(sh(), 1e-5), fT(sh(), 1e-8)},
			want: []*Tensor{bT(sh(5), 1, 1, 0, 1, 0)}},
		{name: "isclose equal_nan", op: "pd_op.isclose", in: []any{fT(sh(2), nan, 1), fT(sh(2), nan, 2), fT(sh(), 1e-5), fT(sh(), 1e-8)},
			attrs: []ir.NamedAttr{a(t, "equal_nan", true)}, want: []*Tensor{bT(sh(2), 1, 0)}},
		{name: "allclose", op: "pd_op.allclose", in: []any{fT(sh(2), 1, 2), fT(sh(2), 1, 2.000001), fT(sh(), 1e-5), fT(sh(), 1e-8)},
			want: []*Tensor{bT(sh(), 1)}},
		{name: "allclose false", op: "pd_op.allclose", in: []any{fT(sh(2), 1, 2), fT(sh(2), 1, 2.1), fT(sh(), 1e-5), fT(sh(), 1e-8)},
			want: []*Tensor{bT(sh(), 0)}},
		{name: "equal_all", op: "pd_op.equal_all", in: []any{fT(sh(2), 1, 2), fT(sh(2), 1, 2)}, want: []*Tensor{bT(sh(), 1)}},
		{name: "equal_all differs", op: "pd_op.equal_all", in: []any{fT(sh(2), 1, 2), fT(sh(2), 1, 3)}, want: []*Tensor{bT(sh(), 0)}},
		{name: "equal_all shapes differ", op: "pd_op.equal_all", in: []any{fT(sh(2), 1, 2), fT(sh(1, 2), 1, 2)}, want: []*Tensor{bT(sh(), 0)}},
		{name: "label_smooth", op: "pd_op.label_smooth", in: []any{fT(sh(2, 2), 1, 0, 0, 1), nil}, attrs: []ir.NamedAttr{a(t, "epsilon", float32(0.1))},
			want: []*Tensor{fT(sh(2, 2), 0.95, 0.05, 0.05, 0.95)}, tol: 1e-7},
		{name: "label_smooth with prior", op: "pd_op.label_smooth", in: []any{fT(sh(2, 2), 1, 0, 0, 1), fT(sh(1, 2), 0.3, 0.7)},
			attrs: []ir.NamedAttr{a(t, "epsilon", float32(0.1))}, want: []*Tensor{fT(sh(2, 2), 0.93, 0.07, 0.03, 0.97)}, tol: 1e-7},
		{name: "maxout", op: "pd_op.maxout", in: []any{fT(sh(1, 4, 1, 2), 1, 0, 5, 9, 3, 3, 2, 4)}, attrs: []ir.NamedAttr{a(t, "groups", 2)},
			want: []*Tensor{fT(sh(1, 2, 1, 2), 5, 9, 3, 4)}},
		{name: "sequence_mask", op: "pd_op.sequence_mask", in: []any{i64T(sh(2), 1, 3), i64T(sh(), 4)},
			attrs: []ir.NamedAttr{a(t, "out_dtype", ir.DTypeInt64)}, want: []*Tensor{i64T(sh(2, 4), 1, 0, 0, 0, 1, 1, 1, 0)}},
		{name: "sequence_mask to the longest", op: "pd_op.sequence_mask", in: []any{i64T(sh(2), 1, 3), i64T(sh(), -1)},
			attrs: []ir.NamedAttr{a(t, "out_dtype", ir.DTypeBool)}, want: []*Tensor{bT(sh(2, 3), 1, 0, 0, 1, 1, 1)}},
		{name: "eye", op: "pd_op.eye", in: []any{i64T(sh(), 2), i64T(sh(), 3)}, want: []*Tensor{fT(sh(2, 3), 1, 0, 0, 0, 1, 0)}},
		{name: "eye square", op: "pd_op.eye", in: []any{i64T(sh(), 2), i64T(sh(), -1)}, want: []*Tensor{fT(sh(2, 2), 1, 0, 0, 1)}},
		{name: "squared_l2_norm", op: "pd_op.squared_l2_norm", in: []any{fT(sh(3), 1, 2, 3)}, want: []*Tensor{fT(sh(1), 14)}},
		{name: "frobenius_norm", op: "pd_op.frobenius_norm", in: []any{fT(sh(2, 2), 3, 4, 0, 0), i64T(sh(1), 1)},
			attrs: []ir.NamedAttr{a(t, "keep_dim", false), a(t, "reduce_all", false)}, want: []*Tensor{fT(sh(2), 5, 0)}},
		{name: "frobenius_norm of all", op: "pd_op.frobenius_norm", in: []any{fT(sh(2, 2), 3, 4, 0, 0), i64T(sh(1), 1)},
			attrs: []ir.NamedAttr{a(t, "keep_dim", true), a(t, "reduce_all", true)}, want: []*Tensor{fT(sh(1, 1), 5)}},
		{name: "maxout along the last axis is not implemented", op: "pd_op.maxout", in: []any{fT(sh(1, 1, 1, 4), 1, 2, 3, 4)},
			attrs: []ir.NamedAttr{a(t, "groups", 2), a(t, "axis", -1)}, types: []ir.Type{typeOf(kctx(t), fT(sh(1, 1, 1, 2)))}, err: "cannot evaluate"},
	})
}

func TestUnbindKernels(t *testing.T) {
	ctx := kctx(t)
	f3 := typeOf(ctx, fT(sh(3)))
	for _, tc := range []struct {
		op    string
		attrs []ir.NamedAttr
	}{
		{"pd_op.unbind", nil},
		{"pd_op.unstack", []ir.NamedAttr{a(t, "num", 2)}},
	} {
		b := progtest.NewIn(t, ctx)
		x := b.DataT("x", ir.DTypeFloat32, 2, 3)
		res := b.OpT(tc.op, []*ir.Value{x}, []ir.Type{ctx.Vector(f3, f3)}, tc.attrs...).Result(0)
		parts := b.OpT("builtin.split", []*ir.Value{res}, []ir.Type{f3, f3})
		b.Fetch(parts.Result(0), "0", 0)
		b.Fetch(parts.Result(1), "1", 1)
		out := eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"x": fT(sh(2, 3), ramp(6, 1, 0)...)}})
		requireTensorClose(t, fT(sh(3), 0, 1, 2), out["0"], 0, tc.op)
		requireTensorClose(t, fT(sh(3), 3, 4, 5), out["1"], 0, tc.op)
	}
}
