package interp

import (
	"testing"

	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/ir"
)

// The expected values are worked out by hand from Paddle's formulas (k_quant.go). qmax 4 with scale 4 makes
// qmax·inv(s) exactly 1, so the grid is the integers and the ties of round_type 0 (to even) and 1 (away from
// zero) show.
func TestQuantizeLinearKernel(t *testing.T) {
	i8 := func(shape []int, data ...float64) *Tensor { return tt(ir.DTypeInt8, shape, data...) }
	q := func(attrs ...ir.NamedAttr) []ir.NamedAttr { return attrs }
	ties := fT(sh(8), 0.5, 1.5, 2.5, -2.5, 3.5, 7, -7, 0)
	// The training results: rate 0.9 is a C++ float in Paddle's moving average.
	r := float64(float32(0.9))
	state, accum := r*1+1, r*1+3
	runOpCases(t, []opCase{
		{name: "round_type 0: ties to even, clamped to [-qmax-1, qmax]", op: "pd_op.quantize_linear",
			in: []any{ties, fT(sh(1), 4), fT(sh(1), 0), nil, nil}, attrs: q(a(t, "quant_axis", -1), a(t, "qmax", 4)),
			want: []*Tensor{fT(sh(8), 0, 2, 2, -2, 4, 4, -5, 0)}},
		{name: "round_type 1: clipped to [-s, s], ties away from zero", op: "pd_op.quantize_linear",
			in:    []any{ties, fT(sh(1), 4), fT(sh(1), 0), nil, nil},
			attrs: q(a(t, "quant_axis", -1), a(t, "qmax", 4), a(t, "round_type", 1)),
			want:  []*Tensor{fT(sh(8), 1, 2, 3, -3, 4, 4, -4, 0)}},
		// The defaults (qmax 127, round_type 0): 127·(1/2)·1 = 63.5 rounds to 64, -63.5 to -64; 3 is beyond the
		// range and clamps to 127, -3 to -128.
		{name: "defaults, per tensor", op: "pd_op.quantize_linear",
			in: []any{fT(sh(6), 1, -1, 0.5, 3, -3, 0), fT(sh(1), 2), fT(sh(1), 0), nil, nil}, attrs: q(a(t, "quant_axis", -1)),
			want: []*Tensor{fT(sh(6), 64, -64, 32, 127, -128, 0)}},
		{name: "defaults, round_type 1", op: "pd_op.quantize_linear",
			in:    []any{fT(sh(6), 1, -1, 0.5, 3, -3, 0), fT(sh(1), 2), fT(sh(1), 0), nil, nil},
			attrs: q(a(t, "quant_axis", -1), a(t, "round_type", 1)),
			want:  []*Tensor{fT(sh(6), 64, -64, 32, 127, -127, 0)}},
		// Per channel along axis 0: rows scaled by 4/1 and 4/2.
		{name: "per channel, axis 0", op: "pd_op.quantize_linear",
			in: []any{fT(sh(2, 3), 0.25, 0.5, -1, 1, -2, 3), fT(sh(2), 1, 2), fT(sh(2), 0, 0), nil, nil}, attrs: q(a(t, "qmax", 4)),
			want: []*Tensor{fT(sh(2, 3), 1, 2, -4, 2, -4, 4)}},
		// Along axis 1 of [2, 2, 2]: the pairs alternate between channel 0 (·4) and channel 1 (·2).
		{name: "per channel, axis 1", op: "pd_op.quantize_linear",
			in:    []any{fT(sh(2, 2, 2), 0.25, 0.5, 1, 2, -0.25, -0.5, -1, 4), fT(sh(2), 1, 2), fT(sh(2), 0, 0), nil, nil},
			attrs: q(a(t, "quant_axis", 1), a(t, "qmax", 4)),
			want:  []*Tensor{fT(sh(2, 2, 2), 1, 2, 2, 4, -1, -2, -2, 4)}},
		// A zero scale is guarded: inv(0) = 1/(0 + 1e-6).
		{name: "zero scale", op: "pd_op.quantize_linear",
			in: []any{fT(sh(3), 6e-7, -1, 0), fT(sh(1), 0), fT(sh(1), 0), nil, nil}, attrs: q(a(t, "quant_axis", -1), a(t, "qmax", 4)),
			want: []*Tensor{fT(sh(3), 2, -5, 0)}},
		{name: "only_observer copies x", op: "pd_op.quantize_linear",
			in:    []any{fT(sh(2), 0.3, -7), fT(sh(1), 4), fT(sh(1), 0), nil, nil},
			attrs: q(a(t, "quant_axis", -1), a(t, "qmax", 4), a(t, "only_observer", true)),
			want:  []*Tensor{fT(sh(2), 0.3, -7)}},
		// Training, per tensor: max|x| = 3, state = 0.9·1 + 1, accum = 0.9·1 + 3, scale = accum/state ≈ 2.05;
		// y = round(4/scale·x).
		{name: "training, per tensor", op: "pd_op.quantize_linear",
			in:    []any{fT(sh(3), 1, -3, 2), fT(sh(1), 1), fT(sh(1), 0), fT(sh(1), 1), fT(sh(1), 1)},
			attrs: q(a(t, "quant_axis", -1), a(t, "qmax", 4), a(t, "is_test", false)),
			want:  []*Tensor{fT(sh(3), 2, -5, 4), fT(sh(1), state), fT(sh(1), accum), fT(sh(1), accum/state)}, tol: 1e-15},
		// Training, per channel: each row's abs-max is its scale.
		{name: "training, per channel", op: "pd_op.quantize_linear",
			in:    []any{fT(sh(2, 2), 1, -3, 0.5, 0.25), fT(sh(2), 1, 1), fT(sh(2), 0, 0), nil, nil},
			attrs: q(a(t, "qmax", 4), a(t, "is_test", false)),
			want:  []*Tensor{fT(sh(2, 2), 1, -4, 4, 2), nil, nil, fT(sh(2), 3, 0.5)},
			types: []ir.Type{nil, kctx(t).NullType(), kctx(t).NullType()}},
		{name: "training per tensor needs in_accum and in_state", op: "pd_op.quantize_linear",
			in: []any{fT(sh(3), 1, -3, 2), fT(sh(1), 1), fT(sh(1), 0), nil, nil}, attrs: q(a(t, "quant_axis", -1), a(t, "is_test", false)),
			want: []*Tensor{fT(sh(3))}, err: "needs in_accum and in_state"},
		{name: "training needs a scale too", op: "pd_op.quantize_linear",
			in: []any{fT(sh(3), 1, -3, 2), nil, fT(sh(1), 0), fT(sh(1), 1), fT(sh(1), 1)}, attrs: q(a(t, "quant_axis", -1), a(t, "is_test", false)),
			want: []*Tensor{fT(sh(3))}, err: "quantize_linear needs a scale"},
		{name: "quant_axis 2", op: "pd_op.quantize_linear", in: []any{fT(sh(1, 1, 2), 1, 2), fT(sh(2), 1, 1), fT(sh(2), 0, 0), nil, nil},
			attrs: q(a(t, "quant_axis", 2)), want: []*Tensor{fT(sh(1, 1, 2))}, err: "quant_axis must be 0, 1 or -1, is 2"},
		{name: "round_type 2", op: "pd_op.quantize_linear", in: []any{fT(sh(2), 1, 2), fT(sh(1), 1), fT(sh(1), 0), nil, nil},
			attrs: q(a(t, "quant_axis", -1), a(t, "round_type", 2)), want: []*Tensor{fT(sh(2))}, err: "round_type must be 0"},
		{name: "bit_length 17", op: "pd_op.quantize_linear", in: []any{fT(sh(2), 1, 2), fT(sh(1), 1), fT(sh(1), 0), nil, nil},
			attrs: q(a(t, "quant_axis", -1), a(t, "bit_length", 17)), want: []*Tensor{fT(sh(2))}, err: "bit_length must be in [1, 16]"},

		// dequantize_linear: y = x·s/qmax in the scale's dtype; an int8 weight becomes float32.
		{name: "dequantize an int8 tensor", op: "pd_op.dequantize_linear",
			in: []any{i8(sh(4), -128, 0, 64, 127), fT(sh(1), 2), fT(sh(1), 0), nil, nil}, attrs: q(a(t, "quant_axis", -1)),
			want: []*Tensor{fT(sh(4), -128*2.0/127, 0, 64*2.0/127, 2)}},
		{name: "dequantize per channel, axis 0", op: "pd_op.dequantize_linear",
			in: []any{fT(sh(2, 2), 4, -2, 4, -2), fT(sh(2), 1, 8), fT(sh(2), 0, 0), nil, nil}, attrs: q(a(t, "qmax", 4)),
			want: []*Tensor{fT(sh(2, 2), 1, -0.5, 8, -4)}},
		{name: "dequantize per channel, axis 1", op: "pd_op.dequantize_linear",
			in:    []any{fT(sh(1, 2, 2), 4, -2, 4, -2), fT(sh(2), 1, 8), fT(sh(2), 0, 0), nil, nil},
			attrs: q(a(t, "quant_axis", 1), a(t, "qmax", 4)),
			want:  []*Tensor{fT(sh(1, 2, 2), 1, -0.5, 8, -4)}},
		{name: "dequantize, only_observer", op: "pd_op.dequantize_linear",
			in:    []any{fT(sh(2), 4, -2), fT(sh(1), 3), fT(sh(1), 0), nil, nil},
			attrs: q(a(t, "quant_axis", -1), a(t, "only_observer", true)),
			want:  []*Tensor{fT(sh(2), 4, -2)}},
		{name: "dequantize with one scale for two channels", op: "pd_op.dequantize_linear",
			in: []any{fT(sh(2, 2), 4, -2, 4, -2), fT(sh(1), 1), fT(sh(1), 0), nil, nil}, attrs: q(a(t, "qmax", 4)),
			want: []*Tensor{fT(sh(2, 2))}, err: "one value per channel"},
		{name: "dequantize without scale", op: "pd_op.dequantize_linear",
			in: []any{fT(sh(2), 4, -2), nil, fT(sh(1), 0), nil, nil}, attrs: q(a(t, "quant_axis", -1)),
			want: []*Tensor{fT(sh(2))}, err: "needs a scale"},
	})
}

// TestQuantizeLinearInplace: quantize_linear_ in inference leaves its scale alone, and out_scale (written into the
// scale's buffer) reads it.
func TestQuantizeLinearInplace(t *testing.T) {
	b := progtest.New(t)
	x, s, z := b.Data("x", 2), b.Data("s", 1), b.Data("z", 1)
	op := b.Op("pd_op.quantize_linear_", []*ir.Value{x, s, z, nil, nil}, progtest.Attr("quant_axis", b.Ctx.Int32(-1)),
		progtest.Attr("qmax", b.Ctx.Int32(4)))
	b.Fetch(op.Result(0), "y", 0)
	b.Fetch(op.Result(3), "out_scale", 1)
	out := eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"x": host(sh(2), 1, -3), "s": host(sh(1), 4), "z": host(sh(1), 0)}})
	requireTensorClose(t, host(sh(2), 1, -3), out["y"], 0, "y")
	requireTensorClose(t, host(sh(1), 4), out["out_scale"], 0, "out_scale")
}
