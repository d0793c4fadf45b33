package interp

import (
	"math"
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
