package interp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pirdrr/drr/ir"
)

func TestMathKernels(t *testing.T) {
	xs := []float64{-0.9, -0.25, 0, 0.3, 0.75}
	pos := []float64{1, 1.5, 2.25, 4, 9.5}
	f := func(data []float64) *Tensor { return fT(sh(len(data)), data...) }
	unary := func(name string, in []float64, fn func(float64) float64, attrs ...any) opCase {
		tc := opCase{name: name, op: "pd_op." + name, in: []any{f(in)}, want: []*Tensor{f(mapF(in, fn))}, tol: 1e-14}
		for i := 0; i+1 < len(attrs); i += 2 {
			tc.attrs = append(tc.attrs, a(t, attrs[i].(string), attrs[i+1]))
		}
		return tc
	}
	cases := []opCase{
		unary("acos", xs, math.Acos),
		unary("asin", xs, math.Asin),
		unary("atan", xs, math.Atan),
		unary("atanh", xs, math.Atanh),
		unary("asinh", xs, math.Asinh),
		unary("acosh", pos, math.Acosh),
		unary("cosh", xs, func(v float64) float64 { return (math.Exp(v) + math.Exp(-v)) / 2 }),
		unary("sinh", xs, func(v float64) float64 { return (math.Exp(v) - math.Exp(-v)) / 2 }),
		unary("tan", xs, func(v float64) float64 { return math.Sin(v) / math.Cos(v) }),
		unary("expm1", xs, func(v float64) float64 { return math.Exp(v) - 1 }),
		unary("log1p", pos, func(v float64) float64 { return math.Log(1 + v) }),
		unary("log2", pos, func(v float64) float64 { return math.Log(v) / math.Ln2 }),
		unary("log10", pos, func(v float64) float64 { return math.Log(v) / math.Ln10 }),
		unary("trunc", []float64{-2.5, -0.5, 0.5, 1.7}, func(v float64) float64 { return float64(int(v)) }),
		// Half away from zero, and at 10^−decimals.
		{name: "round", op: "pd_op.round", in: []any{fT(sh(5), -2.5, -0.5, 0.5, 1.5, 2.4)}, want: []*Tensor{fT(sh(5), -3, -1, 1, 2, 2)}},
		{name: "round decimals", op: "pd_op.round", in: []any{fT(sh(3), 1.25, -3.14159, 1234)}, attrs: []ir.NamedAttr{a(t, "decimals", 2)},
			want: []*Tensor{fT(sh(3), 1.25, -3.14, 1234)}, tol32: 1e-6},
		{name: "round negative decimals", op: "pd_op.round", in: []any{fT(sh(2), 1250, -1349)}, attrs: []ir.NamedAttr{a(t, "decimals", -2)},
			want: []*Tensor{fT(sh(2), 1300, -1300)}},
		// Reference values from mpmath at 30 digits.
		{name: "digamma", op: "pd_op.digamma", in: []any{fT(sh(4), 1, 0.5, -0.5, 12.3)},
			want: []*Tensor{fT(sh(4), -0.5772156649015328606, -1.963510026021423479, 0.03648997397857652056, 2.468398400301138290)},
			tol:  1e-13, tol32: 1e-6},
		{name: "digamma poles", op: "pd_op.digamma", in: []any{fT(sh(2), 0, -3)}, want: []*Tensor{fT(sh(2), math.Inf(1), math.Inf(1))}},
		{name: "polygamma 1", op: "pd_op.polygamma", in: []any{fT(sh(3), 1, 0.5, 25.5)}, attrs: []ir.NamedAttr{a(t, "n", 1)},
			want: []*Tensor{fT(sh(3), math.Pi*math.Pi/6, math.Pi*math.Pi/2, 0.03999466964956292404)}, tol: 1e-13, tol32: 1e-6},
		{name: "polygamma 2", op: "pd_op.polygamma", in: []any{fT(sh(1), 1)}, attrs: []ir.NamedAttr{a(t, "n", 2)},
			want: []*Tensor{fT(sh(1), -2.404113806319188571)}, tol: 1e-13},
		{name: "polygamma 3 negative", op: "pd_op.polygamma", in: []any{fT(sh(1), -1.5)}, attrs: []ir.NamedAttr{a(t, "n", 3)},
			want: []*Tensor{fT(sh(1), 194.5942762191876224)}, tol: 1e-12, tol32: 1e-6},
		{name: "polygamma 0 is digamma", op: "pd_op.polygamma", in: []any{fT(sh(1), 0.5)}, attrs: []ir.NamedAttr{a(t, "n", 0)},
			want: []*Tensor{fT(sh(1), -1.963510026021423479)}, tol: 1e-13},
		{name: "i0", op: "pd_op.i0", in: []any{fT(sh(5), 0, 1, -3.5, 10, 50)},
			want: []*Tensor{fT(sh(5), 1, 1.266065877752008336, 7.378203432225479660, 2815.716628466254471, 293255378384933632665.5)},
			tol:  1e-13, tol32: 1e-6},
		{name: "gammaincc", op: "pd_op.gammaincc", in: []any{fT(sh(3), 2.5, 0.5, 7), fT(sh(3), 1.3, 4, 2)},
			want: []*Tensor{fT(sh(3), 0.7613652678450139032, 0.004677734981047265838, 0.9954661944737511337)}, tol: 1e-12, tol32: 1e-6},
		{name: "erfinv", op: "pd_op.erfinv", in: []any{fT(sh(1), 0.3)}, want: []*Tensor{fT(sh(1), 0.2724627147267543450)}, tol: 1e-14},
		{name: "lgamma", op: "pd_op.lgamma", in: []any{fT(sh(1), 4.5)}, want: []*Tensor{fT(sh(1), 2.453736570842442221)}, tol: 1e-14},
		{name: "gammaln", op: "pd_op.gammaln", in: []any{fT(sh(2), 1, 5)}, want: []*Tensor{fT(sh(2), 0, math.Log(24))}, tol: 1e-14},
		{name: "logit clamps at eps", op: "pd_op.logit", in: []any{fT(sh(3), 0, 0.5, 0.8)}, attrs: []ir.NamedAttr{a(t, "eps", float32(0.25))},
			want: []*Tensor{fT(sh(3), math.Log(1.0/3), 0, math.Log(3))}, tol: 1e-14},
		{name: "thresholded_relu", op: "pd_op.thresholded_relu", in: []any{fT(sh(3), 0.5, 1, 2)},
			attrs: []ir.NamedAttr{a(t, "threshold", float32(1)), a(t, "value", float32(-7))}, want: []*Tensor{fT(sh(3), -7, -7, 2)}},
		{name: "hardtanh", op: "pd_op.hardtanh", in: []any{fT(sh(3), -3, 0.5, 30)},
			attrs: []ir.NamedAttr{a(t, "t_min", float32(-1)), a(t, "t_max", float32(24))}, want: []*Tensor{fT(sh(3), -1, 0.5, 24)}},
		{name: "softplus threshold", op: "pd_op.softplus", in: []any{fT(sh(2), 0, 30)},
			attrs: []ir.NamedAttr{a(t, "beta", float32(2)), a(t, "threshold", float32(20))}, want: []*Tensor{fT(sh(2), math.Ln2/2, 30)}},
		{name: "selu", op: "pd_op.selu", in: []any{fT(sh(2), 1, -1)},
			// The defaults are f32 attributes: Paddle computes with the float32 constants.
			want: []*Tensor{fT(sh(2), float64(float32(1.0507009873554805)),
				float64(float32(1.0507009873554805))*float64(float32(1.6732632423543772))*(math.Exp(-1)-1))}, tol32: 1e-6},
	}
	runOpCases(t, cases)
}

func TestBinaryKernels(t *testing.T) {
	cases := []opCase{
		// Python semantics: the remainder has the divisor's sign; floor division rounds toward −∞.
		{name: "remainder int", op: "pd_op.remainder", in: []any{i64T(sh(4), 7, -7, 7, -7), i64T(sh(4), 3, 3, -3, -3)}, want: []*Tensor{i64T(sh(4), 1, 2, -2, -1)}},
		{name: "remainder float", op: "pd_op.remainder", in: []any{fT(sh(2), 5.5, -5.5), fT(sh(1), 2)}, want: []*Tensor{fT(sh(2), 1.5, 0.5)}},
		{name: "remainder by zero", op: "pd_op.remainder", in: []any{i32T(sh(1), 1), i32T(sh(1), 0)}, want: []*Tensor{i32T(sh(1), 0)}, err: "integer division by zero"},
		{name: "floor_divide int", op: "pd_op.floor_divide", in: []any{i64T(sh(4), 7, -7, 7, -6), i64T(sh(4), 2, 2, -2, 3)}, want: []*Tensor{i64T(sh(4), 3, -4, -4, -2)}},
		{name: "floor_divide float", op: "pd_op.floor_divide", in: []any{fT(sh(3), 7, -7, 1), fT(sh(3), 2, 2, 0)}, want: []*Tensor{fT(sh(3), 3, -4, math.Inf(1))}},
		{name: "floor_divide by zero", op: "pd_op.floor_divide", in: []any{i64T(sh(1), 1), i64T(sh(1), 0)}, want: []*Tensor{i64T(sh(1), 0)}, err: "integer division by zero"},
		{name: "maximum broadcast", op: "pd_op.maximum", in: []any{fT(sh(2, 2), 1, 5, 3, -2), fT(sh(2), 2, 0)}, want: []*Tensor{fT(sh(2, 2), 2, 5, 3, 0)}},
		{name: "minimum NaN as Paddle", op: "pd_op.minimum", in: []any{fT(sh(2), math.NaN(), 1), fT(sh(2), 3, math.NaN())}, want: []*Tensor{fT(sh(2), 3, math.NaN())}},
		{name: "elementwise_pow int", op: "pd_op.elementwise_pow", in: []any{i32T(sh(3), 2, 3, -2), i32T(sh(3), 10, 2, 3)}, want: []*Tensor{i32T(sh(3), 1024, 9, -8)}},
		{name: "copysign", op: "pd_op.copysign", in: []any{fT(sh(3), 1, -2, 3), fT(sh(3), -1, 1, 0)}, want: []*Tensor{fT(sh(3), -1, 2, 3)}},
		{name: "bitwise_and", op: "pd_op.bitwise_and", in: []any{i32T(sh(2), 12, -1), i32T(sh(2), 10, 6)}, want: []*Tensor{i32T(sh(2), 8, 6)}},
		{name: "bitwise_or bool", op: "pd_op.bitwise_or", in: []any{bT(sh(2), 0, 1), bT(sh(2), 0, 0)}, want: []*Tensor{bT(sh(2), 0, 1)}},
		{name: "bitwise_xor", op: "pd_op.bitwise_xor", in: []any{i64T(sh(1), 12), i64T(sh(1), 10)}, want: []*Tensor{i64T(sh(1), 6)}},
		{name: "bitwise_not", op: "pd_op.bitwise_not", in: []any{i32T(sh(2), 0, 5)}, want: []*Tensor{i32T(sh(2), -1, -6)}},
		{name: "bitwise_not bool", op: "pd_op.bitwise_not", in: []any{bT(sh(2), 0, 1)}, want: []*Tensor{bT(sh(2), 1, 0)}},
		{name: "left shift wraps", op: "pd_op.bitwise_left_shift", in: []any{tt(ir.DTypeInt8, sh(2), 1, 64), tt(ir.DTypeInt8, sh(2), 3, 1)}, want: []*Tensor{tt(ir.DTypeInt8, sh(2), 8, -128)}},
		{name: "arithmetic right shift", op: "pd_op.bitwise_right_shift", in: []any{i32T(sh(2), -16, 16), i32T(sh(2), 2, 2)}, want: []*Tensor{i32T(sh(2), -4, 4)}},
		{name: "logical right shift", op: "pd_op.bitwise_right_shift", in: []any{tt(ir.DTypeInt8, sh(1), -16), tt(ir.DTypeInt8, sh(1), 2)},
			attrs: []ir.NamedAttr{a(t, "is_arithmetic", false)}, want: []*Tensor{tt(ir.DTypeInt8, sh(1), 60)}},
		{name: "where broadcasts", op: "pd_op.where", in: []any{bT(sh(2, 1), 1, 0), fT(sh(2, 2), 1, 2, 3, 4), fT(sh(), -1)}, want: []*Tensor{fT(sh(2, 2), 1, 2, -1, -1)}},
		{name: "lerp", op: "pd_op.lerp", in: []any{fT(sh(2), 0, 10), fT(sh(2), 4, 20), fT(sh(1), 0.25)}, want: []*Tensor{fT(sh(2), 1, 12.5)}},
		{name: "masked_fill", op: "pd_op.masked_fill", in: []any{fT(sh(2, 2), 1, 2, 3, 4), bT(sh(2), 1, 0), fT(sh(), -9)}, want: []*Tensor{fT(sh(2, 2), -9, 2, -9, 4)}},
		{name: "masked_fill cannot grow x", op: "pd_op.masked_fill", in: []any{fT(sh(2), 1, 2), bT(sh(2, 2), 1, 0, 0, 1), fT(sh(), -9)}, want: []*Tensor{fT(sh(2), 0, 0)}, err: "broadcast x"},
		{name: "prelu all", op: "pd_op.prelu", in: []any{fT(sh(1, 2), -2, 3), fT(sh(1), 0.5)}, want: []*Tensor{fT(sh(1, 2), -1, 3)}},
		{name: "prelu channel NCHW", op: "pd_op.prelu", in: []any{fT(sh(1, 2, 1, 2), -1, -1, -1, 1), fT(sh(2), 0.1, 0.2)},
			attrs: []ir.NamedAttr{a(t, "mode", "channel")}, want: []*Tensor{fT(sh(1, 2, 1, 2), -0.1, -0.1, -0.2, 1)}, tol32: 1e-7},
		{name: "prelu channel NHWC", op: "pd_op.prelu", in: []any{fT(sh(1, 1, 2, 2), -1, -1, -1, 1), fT(sh(2), 0.1, 0.2)},
			attrs: []ir.NamedAttr{a(t, "mode", "channel"), a(t, "data_format", "NHWC")}, want: []*Tensor{fT(sh(1, 1, 2, 2), -0.1, -0.2, -0.1, 1)}, tol32: 1e-7},
		{name: "prelu element", op: "pd_op.prelu", in: []any{fT(sh(2, 2), -1, -1, -1, -1), fT(sh(1, 2), 0.5, 2)},
			attrs: []ir.NamedAttr{a(t, "mode", "element")}, want: []*Tensor{fT(sh(2, 2), -0.5, -2, -0.5, -2)}},
		{name: "swiglu two operands", op: "pd_op.swiglu", in: []any{fT(sh(2), 0, 1), fT(sh(2), 5, 2)}, want: []*Tensor{fT(sh(2), 0, 2/(1+math.Exp(-1)))}},
		{name: "swiglu halves", op: "pd_op.swiglu", in: []any{fT(sh(1, 4), 0, 1, 5, 2), nil}, want: []*Tensor{fT(sh(1, 2), 0, 2/(1+math.Exp(-1)))}},
		{name: "add_n", op: "pd_op.add_n", in: []any{[]*Tensor{fT(sh(2), 1, 2), fT(sh(2), 10, 20), fT(sh(2), 100, 200)}}, want: []*Tensor{fT(sh(2), 111, 222)}},
		{name: "bce_loss clamps the log", op: "pd_op.bce_loss", in: []any{fT(sh(3), 0.5, 0, 0.25), fT(sh(3), 1, 1, 0)},
			want: []*Tensor{fT(sh(3), math.Ln2, 100, -math.Log(0.75))}},
		{name: "huber_loss", op: "pd_op.huber_loss", in: []any{fT(sh(2), 1, 5), fT(sh(2), 1.5, 1)}, attrs: []ir.NamedAttr{a(t, "delta", float32(1))},
			want: []*Tensor{fT(sh(2), 0.125, 3.5), fT(sh(2), 0.5, -4)}},
		{name: "sigmoid_cross_entropy_with_logits", op: "pd_op.sigmoid_cross_entropy_with_logits",
			in:   []any{fT(sh(3), 0, 2, -1), fT(sh(3), 1, 0, -100), nil},
			want: []*Tensor{fT(sh(3), math.Ln2, 2+math.Log(1+math.Exp(-2)), 0)}},
		{name: "sigmoid_cross_entropy_with_logits normalized", op: "pd_op.sigmoid_cross_entropy_with_logits",
			in:    []any{fT(sh(3), 0, 2, -1), fT(sh(3), 1, 0, -100), fT(sh(3), 2, 1, 1)},
			attrs: []ir.NamedAttr{a(t, "normalize", true)},
			want:  []*Tensor{fT(sh(3), math.Ln2, (2+math.Log(1+math.Exp(-2)))/2, 0)}},
	}
	runOpCases(t, cases)
}

func TestSpecialFunctionIdentities(t *testing.T) {
	for _, x := range []float64{0.3, 1.7, 4.2, 11.5, 33} {
		assert.InDelta(t, digamma(x)+1/x, digamma(x+1), 1e-13, "ψ(x+1) = ψ(x) + 1/x at %v", x)
		assert.InDelta(t, polygamma(1, x)-1/(x*x), polygamma(1, x+1), 1e-12*(1+polygamma(1, x)), "ψ'(x+1) = ψ'(x) − 1/x² at %v", x)
		assert.InDelta(t, 1.0, gammaincc(x, 0.7*x)+(1-gammaincc(x, 0.7*x)), 1e-15)
	}
	// Q(1, x) = e^−x and Q(a, x) − Q(a−1, x) = x^(a−1) e^−x / Γ(a).
	for _, x := range []float64{0.1, 1, 3, 12} {
		assert.InDelta(t, math.Exp(-x), gammaincc(1, x), 1e-14)
		g, _ := math.Lgamma(3)
		assert.InDelta(t, x*x*math.Exp(-x)/math.Exp(g), gammaincc(3, x)-gammaincc(2, x), 1e-13)
	}
}
