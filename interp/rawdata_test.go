package interp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

func TestRawData(t *testing.T) {
	vals := []float64{0, 1, -2, 3}
	for _, dt := range []ir.DType{ir.DTypeBool, ir.DTypeUint8, ir.DTypeInt8, ir.DTypeUint16, ir.DTypeInt16,
		ir.DTypeUint32, ir.DTypeInt32, ir.DTypeUint64, ir.DTypeInt64, ir.DTypeFloat16, ir.DTypeBFloat16,
		ir.DTypeFloat32, ir.DTypeFloat64} {
		t.Run(dt.String(), func(t *testing.T) {
			in := make([]float64, len(vals))
			for i, v := range vals {
				in[i] = RoundTo(dt, v)
				if dt == ir.DTypeBool || dt == ir.DTypeUint8 || dt == ir.DTypeUint16 || dt == ir.DTypeUint32 || dt == ir.DTypeUint64 {
					in[i] = math.Abs(in[i])
					if dt == ir.DTypeBool {
						in[i] = RoundTo(dt, in[i])
					}
				}
			}
			h := &Tensor{DType: dt, Shape: []int{2, 2}, Data: in}
			raw, err := EncodeData(h)
			require.NoError(t, err)
			assert.Len(t, raw, 4*ElemSize(dt))
			back, err := DecodeData(dt, []int{2, 2}, raw)
			require.NoError(t, err)
			assert.Equal(t, h, back)
		})
	}
	_, err := DecodeData(ir.DTypeComplex64, []int{1}, make([]byte, 8))
	assert.EqualError(t, err, "interp: cannot decode elements of type c64")
	_, err = EncodeData(&Tensor{DType: ir.DTypePString, Shape: []int{1}, Data: []float64{1}})
	assert.EqualError(t, err, "interp: cannot encode elements of type pstring")
}

func TestHalfPrecision(t *testing.T) {
	tests := []struct {
		v    float64
		bits uint16
		back float64
	}{
		{1, 0x3c00, 1}, {-2, 0xc000, -2}, {65504, 0x7bff, 65504}, {1e6, 0x7c00, math.Inf(1)},
		{math.Ldexp(1, -24), 0x0001, math.Ldexp(1, -24)}, {math.Ldexp(1, -26), 0x0000, 0},
		{1 + 1.0/2048, 0x3c00, 1}, // a tie rounds to even
		{0.1, 0x2e66, 0.0999755859375},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.bits, floatToHalf(tc.v), "%v", tc.v)
		assert.Equal(t, tc.back, halfToFloat(floatToHalf(tc.v)), "%v", tc.v)
	}
	assert.True(t, math.IsNaN(halfToFloat(floatToHalf(math.NaN()))))
	assert.Equal(t, 1.0, RoundTo(ir.DTypeBFloat16, 1.001))
	assert.Equal(t, float64(float32(0.1)), RoundTo(ir.DTypeFloat32, 0.1))
	assert.Equal(t, -1.0, RoundTo(ir.DTypeInt32, -1.9))
	assert.Equal(t, 0.1, RoundTo(ir.DTypeFloat64, 0.1))
}

func TestHostTensor(t *testing.T) {
	h, err := NewTensor(ir.DTypeFloat32, []int{2, 2}, []float64{1, 2, 3, 4})
	require.NoError(t, err)
	assert.Equal(t, 4, h.Numel())
	assert.Equal(t, "Tensor<f32>[2 2]", h.String())
	c := h.Clone()
	c.Data[0] = 9
	assert.Equal(t, 1.0, h.Data[0])
	_, err = NewTensor(ir.DTypeFloat32, []int{3}, []float64{1})
	assert.EqualError(t, err, "interp: shape [3] needs 3 elements, got 1")
	_, err = NewTensor(ir.DTypeFloat32, []int{-1}, nil)
	assert.Error(t, err)
	assert.Equal(t, "Tensor(nil)", (*Tensor)(nil).String())
	assert.Nil(t, (*Tensor)(nil).Clone())
}

// TestHalfConversionsAgreeWithArithmetic: the bitwise conversions give, bit for bit, what the arithmetic
// definitions (math.Frexp, math.Ldexp, math.RoundToEven, kept here as the reference) give: every half back to a
// float64, and to a half every half's value, the ties between neighbours and the values just around them,
// subnormals, the limits of rounding to zero and to infinity, and random values of every magnitude.
func TestHalfConversionsAgreeWithArithmetic(t *testing.T) {
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	var inputs []float64
	for h := range 1 << 16 {
		want := refHalfToFloat(uint16(h))
		require.True(t, same(want, halfToFloat(uint16(h))), "half %#04x: %v, want %v", h, halfToFloat(uint16(h)), want)
		if math.IsNaN(want) || math.IsInf(want, 0) || h == 0x7bff || h == 0xfbff {
			continue
		}
		next := refHalfToFloat(uint16(h + 1))
		mid := (want + next) / 2 // exact: a half has 11 significant bits
		inputs = append(inputs, want, mid, math.Nextafter(mid, math.Inf(1)), math.Nextafter(mid, math.Inf(-1)),
			math.Nextafter(want, math.Inf(1)), math.Nextafter(want, math.Inf(-1)))
	}
	inputs = append(inputs, 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(),
		65504, 65519.99, 65520, 65536, 1e300, math.Ldexp(1, -25), math.Nextafter(math.Ldexp(1, -25), 1),
		math.Ldexp(1, -26), 5e-324, -5e-324, math.Ldexp(1, -24), math.Ldexp(3, -26), math.Ldexp(1, -14),
		math.Nextafter(math.Ldexp(1, -14), 0))
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		inputs = append(inputs, math.Ldexp(r.Float64()*2-1, r.IntN(80)-50))
	}
	for _, v := range inputs {
		require.Equal(t, refFloatToHalf(v), floatToHalf(v), "%v (%#016x)", v, math.Float64bits(v))
	}
}

// refHalfToFloat is halfToFloat by arithmetic.
func refHalfToFloat(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1f
	frac := float64(h & 0x3ff)
	switch exp {
	case 0:
		return sign * frac * math.Ldexp(1, -24)
	case 0x1f:
		if frac != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	}
	return sign * math.Ldexp(1+frac/1024, exp-15)
}

// refFloatToHalf is floatToHalf by arithmetic.
func refFloatToHalf(v float64) uint16 {
	var sign uint16
	if math.Signbit(v) {
		sign = 0x8000
		v = -v
	}
	switch {
	case math.IsNaN(v):
		return 0x7e00
	case v >= 65520:
		return sign | 0x7c00
	case v <= math.Ldexp(1, -25):
		return sign
	}
	frac, exp := math.Frexp(v)
	e := exp - 1 + 15
	if e <= 0 {
		return sign | uint16(math.RoundToEven(v*math.Ldexp(1, 24)))
	}
	m := math.RoundToEven((frac*2 - 1) * 1024)
	if m == 1024 {
		m = 0
		e++
	}
	if e >= 0x1f {
		return sign | 0x7c00
	}
	return sign | uint16(e)<<10 | uint16(m)
}

// BenchmarkRoundToHalf rounds drawn weights to float16, as drrc verify does for a float16 program's weights: with
// the bitwise conversions, and with the arithmetic reference they replaced.
func BenchmarkRoundToHalf(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	vals := make([]float64, 4096)
	for i := range vals {
		vals[i] = r.NormFloat64() * 0.02
	}
	for _, bc := range []struct {
		name  string
		round func(float64) float64
	}{
		{"bits", func(v float64) float64 { return RoundTo(ir.DTypeFloat16, v) }},
		{"arithmetic", func(v float64) float64 { return refHalfToFloat(refFloatToHalf(v)) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(vals)) * 8)
			var sink float64
			for b.Loop() {
				for _, v := range vals {
					sink += bc.round(v)
				}
			}
			_ = sink
		})
	}
}
