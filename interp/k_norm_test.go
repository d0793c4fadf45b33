package interp

import (
	"math"
	"math/cmplx"
	"testing"

	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/ir"
)

func TestNormKernels(t *testing.T) {
	// Rows [1 2 3] and [4 4 4]: means 2 and 4, variances 2/3 and 0.
	x := fT(sh(2, 3), 1, 2, 3, 4, 4, 4)
	inv := 1 / math.Sqrt(2.0/3+1e-5)
	cases := []opCase{
		{name: "layer_norm", op: "pd_op.layer_norm", in: []any{x, fT(sh(3), 1, 2, 3), fT(sh(3), 0, 0, 1)},
			attrs: []ir.NamedAttr{a(t, "epsilon", float32(1e-5)), a(t, "begin_norm_axis", 1)},
			want:  []*Tensor{fT(sh(2, 3), -inv, 0, 3*inv+1, 0, 0, 1), fT(sh(2), 2, 4), fT(sh(2), 2.0/3, 0)}, tol: 1e-7},
		{name: "layer_norm without affine, begin 0", op: "pd_op.layer_norm", in: []any{fT(sh(2), 0, 2), nil, nil},
			attrs: []ir.NamedAttr{a(t, "epsilon", float32(0)), a(t, "begin_norm_axis", 0)},
			want:  []*Tensor{fT(sh(2), -1, 1), fT(sh(), 1), fT(sh(), 1)}},
		{name: "group_norm NCHW", op: "pd_op.group_norm", in: []any{fT(sh(1, 4, 1, 1), 1, 3, 10, 10), fT(sh(4), 1, 1, 2, 2), fT(sh(4), 0, 0, 0, 5)},
			attrs: []ir.NamedAttr{a(t, "groups", 2), a(t, "epsilon", float32(0))},
			want:  []*Tensor{fT(sh(1, 4, 1, 1), -1, 1, math.NaN(), math.NaN()), fT(sh(1, 2), 2, 10), fT(sh(1, 2), 1, 0)}},
		{name: "group_norm NHWC", op: "pd_op.group_norm", in: []any{fT(sh(1, 1, 2, 2), 1, 5, 3, 7), nil, nil},
			attrs: []ir.NamedAttr{a(t, "groups", 2), a(t, "epsilon", float32(0)), a(t, "data_format", "NHWC")},
			want:  []*Tensor{fT(sh(1, 1, 2, 2), -1, -1, 1, 1), fT(sh(1, 2), 2, 6), fT(sh(1, 2), 1, 1)}},
		{name: "instance_norm", op: "pd_op.instance_norm", in: []any{fT(sh(1, 2, 2), 0, 2, 5, 5), nil, fT(sh(2), 0, 3)},
			attrs: []ir.NamedAttr{a(t, "epsilon", float32(0))},
			want:  []*Tensor{fT(sh(1, 2, 2), -1, 1, math.NaN(), math.NaN()), fT(sh(2), 1, 5), fT(sh(2), 1, math.Inf(1))}},
		{name: "affine_channel NHWC", op: "pd_op.affine_channel", in: []any{fT(sh(1, 1, 2, 2), 1, 2, 3, 4), fT(sh(2), 10, 100), fT(sh(2), 1, 2)},
			attrs: []ir.NamedAttr{a(t, "data_layout", "NHWC")}, want: []*Tensor{fT(sh(1, 1, 2, 2), 11, 202, 31, 402)}},
		{name: "affine_channel NCHW", op: "pd_op.affine_channel", in: []any{fT(sh(1, 2, 1, 2), 1, 2, 3, 4), fT(sh(2), 10, 100), fT(sh(2), 1, 2)},
			want: []*Tensor{fT(sh(1, 2, 1, 2), 11, 21, 302, 402)}},
	}
	runOpCases(t, cases)
}

func TestMiscKernels(t *testing.T) {
	cases := []opCase{
		{name: "arange float", op: "pd_op.arange", in: []any{fT(sh(1), 0), fT(sh(1), 1), fT(sh(1), 0.25)}, want: []*Tensor{fT(sh(4), 0, 0.25, 0.5, 0.75)}},
		{name: "arange int descending", op: "pd_op.arange", in: []any{i64T(sh(1), 5), i64T(sh(1), 0), i64T(sh(1), -2)}, want: []*Tensor{i64T(sh(3), 5, 3, 1)}},
		{name: "arange empty", op: "pd_op.arange", in: []any{i64T(sh(), 3), i64T(sh(), 3), i64T(sh(), 1)}, want: []*Tensor{i64T(sh(0))}},
		{name: "linspace", op: "pd_op.linspace", in: []any{fT(sh(1), 0), fT(sh(1), 1), i32T(sh(1), 5)}, want: []*Tensor{fT(sh(5), 0, 0.25, 0.5, 0.75, 1)}},
		{name: "linspace one", op: "pd_op.linspace", in: []any{fT(sh(1), 3), fT(sh(1), 1), i32T(sh(1), 1)}, want: []*Tensor{fT(sh(1), 3)}},
		{name: "full_with_tensor", op: "pd_op.full_with_tensor", in: []any{fT(sh(), 2.5), i64T(sh(2), 2, 1)}, want: []*Tensor{fT(sh(2, 1), 2.5, 2.5)}},
		{name: "fill", op: "pd_op.fill", in: []any{fT(sh(2), 1, 2), fT(sh(1), 7)}, want: []*Tensor{fT(sh(2), 7, 7)}},
		{name: "numel", op: "pd_op.numel", in: []any{fT(sh(2, 3, 0))}, want: []*Tensor{i64T(sh(), 0)}},
		{name: "numel as [1]", op: "pd_op.numel", in: []any{fT(sh(2, 3), ramp(6, 1, 0)...)}, want: []*Tensor{i64T(sh(1), 6)}},
		{name: "all_reduce on one rank", op: "pd_op.c_allreduce_sum", in: []any{fT(sh(2), 1, 2)},
			attrs: []ir.NamedAttr{a(t, "ring_id", 0), a(t, "use_calc_stream", true), a(t, "use_model_parallel", false)}, want: []*Tensor{fT(sh(2), 1, 2)}},
		{name: "partial_allgather of several ranks", op: "pd_op.partial_allgather", in: []any{fT(sh(2), 1, 2)},
			attrs: []ir.NamedAttr{a(t, "nranks", 2), a(t, "rank", 0)}, want: []*Tensor{fT(sh(2))}, err: "one rank"},
		{name: "random_routing", op: "pd_op.random_routing", in: []any{fT(sh(2), 0.5, 0.1), fT(sh(2, 2), 0.9, 0.2, 0.9, 0.2), i64T(sh(2, 2), 3, 4, 5, 6)},
			want: []*Tensor{i64T(sh(2, 2), 3, -1, 5, 6)}},
	}
	runOpCases(t, cases)
}

func TestFFT(t *testing.T) {
	ctx := kctx(t)
	c64 := func(shape []int) ir.Type { return typeOf(ctx, tt(ir.DTypeComplex64, shape)) }
	// dft2 is the 2-D transform by its double-sum definition.
	x := []float64{1, 2, -1, 0.5, 3, 0, 2, -2}
	dft2 := func(sign float64, scale float64) []float64 {
		var out []float64
		for k0 := range 2 {
			for k1 := range 4 {
				var s complex128
				for j0 := range 2 {
					for j1 := range 4 {
						s += complex(x[j0*4+j1], 0) * cmplx.Rect(1, sign*2*math.Pi*(float64(j0*k0)/2+float64(j1*k1)/4))
					}
				}
				out = append(out, real(s)*scale, imag(s)*scale)
			}
		}
		return out
	}
	fft := func(attrs ...ir.NamedAttr) []ir.NamedAttr { return attrs }
	cases := []opCase{
		{name: "onesided 1-D", op: "pd_op.fft_r2c", in: []any{fT(sh(4), 1, 2, 3, 4)},
			attrs: fft(a(t, "axes", []int64{0}), a(t, "normalization", "backward"), a(t, "forward", true), a(t, "onesided", true)),
			want:  []*Tensor{tt(ir.DTypeComplex64, sh(3), 10, 0, -2, 2, -2, 0)}, tol: 1e-12},
		{name: "two axes, full", op: "pd_op.fft_r2c", in: []any{fT(sh(2, 4), x...)},
			attrs: fft(a(t, "axes", []int64{0, 1}), a(t, "normalization", "backward"), a(t, "forward", true), a(t, "onesided", false)),
			want:  []*Tensor{tt(ir.DTypeComplex64, sh(2, 4), dft2(-1, 1)...)}, tol: 1e-12},
		{name: "inverse ortho", op: "pd_op.fft_r2c", in: []any{fT(sh(2, 4), x...)},
			attrs: fft(a(t, "axes", []int64{0, -1}), a(t, "normalization", "ortho"), a(t, "forward", false), a(t, "onesided", false)),
			want:  []*Tensor{tt(ir.DTypeComplex64, sh(2, 4), dft2(1, 1/math.Sqrt(8))...)}, tol: 1e-12},
	}
	runOpCases(t, cases)

	// real and abs read complex values; other ops refuse them.
	b := progtest.NewIn(t, ctx)
	in := b.Data("x", 4)
	f := b.OpT("pd_op.fft_r2c", []*ir.Value{in}, []ir.Type{c64(sh(3))}, a(t, "axes", []int64{0}),
		a(t, "normalization", "forward"), a(t, "forward", true), a(t, "onesided", true)).Result(0)
	b.Fetch(b.OpT("pd_op.real", []*ir.Value{f}, []ir.Type{typeOf(ctx, fT(sh(3)))}).Result(0), "real", 0)
	b.Fetch(b.OpT("pd_op.abs", []*ir.Value{f}, []ir.Type{typeOf(ctx, fT(sh(3)))}).Result(0), "abs", 1)
	out := eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"x": fT(sh(4), 1, 2, 3, 4)}})
	requireTensorClose(t, fT(sh(3), 2.5, -0.5, -0.5), out["real"], 1e-12, "real")
	requireTensorClose(t, fT(sh(3), 2.5, math.Sqrt(0.5), 0.5), out["abs"], 1e-12, "abs")

	b.Fetch(b.OpT("pd_op.exp", []*ir.Value{f}, []ir.Type{c64(sh(3))}).Result(0), "exp", 2)
	_, err := Evaluate(b.P, &Feed{Inputs: map[string]*Tensor{"x": fT(sh(4), 1, 2, 3, 4)}}, Options{})
	requireErrorContains(t, err, "cannot evaluate pd_op.exp at (new op): complex operand 0")
}

func requireErrorContains(t *testing.T, err error, s string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", s)
	}
	if !contains(err.Error(), s) {
		t.Fatalf("error %q does not contain %q", err, s)
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
