package interp

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/pirdrr/drr/ir"
)

// ElemSize returns the number of bytes one element of dt occupies in ir.Variable.Data, or 0 if the interpreter
// cannot decode dt.
func ElemSize(dt ir.DType) int {
	switch dt {
	case ir.DTypeBool, ir.DTypeUint8, ir.DTypeInt8:
		return 1
	case ir.DTypeUint16, ir.DTypeInt16, ir.DTypeFloat16, ir.DTypeBFloat16:
		return 2
	case ir.DTypeUint32, ir.DTypeInt32, ir.DTypeFloat32:
		return 4
	case ir.DTypeUint64, ir.DTypeInt64, ir.DTypeFloat64:
		return 8
	}
	return 0
}

// DecodeData reads raw little-endian elements of type dt (the layout of ir.Variable.Data) into a host tensor of the
// given shape.
func DecodeData(dt ir.DType, shape []int, raw []byte) (*Tensor, error) {
	size := ElemSize(dt)
	if size == 0 {
		return nil, fmt.Errorf("interp: cannot decode elements of type %s", dt)
	}
	n, err := NumElements(shape)
	if err != nil {
		return nil, err
	}
	if len(raw) != n*size {
		return nil, fmt.Errorf("interp: %s data for shape %v needs %d bytes, got %d", dt, shape, n*size, len(raw))
	}
	t := &Tensor{DType: dt, Shape: append([]int{}, shape...), Data: make([]float64, n)}
	le := binary.LittleEndian
	for i := range t.Data {
		b := raw[i*size:]
		var v float64
		switch dt {
		case ir.DTypeBool:
			if b[0] != 0 {
				v = 1
			}
		case ir.DTypeUint8:
			v = float64(b[0])
		case ir.DTypeInt8:
			v = float64(int8(b[0]))
		case ir.DTypeUint16:
			v = float64(le.Uint16(b))
		case ir.DTypeInt16:
			v = float64(int16(le.Uint16(b)))
		case ir.DTypeFloat16:
			v = halfToFloat(le.Uint16(b))
		case ir.DTypeBFloat16:
			v = float64(math.Float32frombits(uint32(le.Uint16(b)) << 16))
		case ir.DTypeUint32:
			v = float64(le.Uint32(b))
		case ir.DTypeInt32:
			v = float64(int32(le.Uint32(b)))
		case ir.DTypeFloat32:
			v = float64(math.Float32frombits(le.Uint32(b)))
		case ir.DTypeUint64:
			v = float64(le.Uint64(b))
		case ir.DTypeInt64:
			v = float64(int64(le.Uint64(b)))
		case ir.DTypeFloat64:
			v = math.Float64frombits(le.Uint64(b))
		}
		t.Data[i] = v
	}
	return t, nil
}

// EncodeData writes t's elements as raw little-endian values of t.DType (the layout of ir.Variable.Data). Floats are
// rounded to nearest, integers truncated toward zero (and wrapped to the type's width), booleans are 1 for non-zero.
func EncodeData(t *Tensor) ([]byte, error) {
	size := ElemSize(t.DType)
	if size == 0 {
		return nil, fmt.Errorf("interp: cannot encode elements of type %s", t.DType)
	}
	out := make([]byte, len(t.Data)*size)
	le := binary.LittleEndian
	for i, v := range t.Data {
		b := out[i*size:]
		switch t.DType {
		case ir.DTypeBool:
			if v != 0 {
				b[0] = 1
			}
		case ir.DTypeUint8, ir.DTypeInt8:
			b[0] = byte(int64(v))
		case ir.DTypeUint16, ir.DTypeInt16:
			le.PutUint16(b, uint16(int64(v)))
		case ir.DTypeFloat16:
			le.PutUint16(b, floatToHalf(v))
		case ir.DTypeBFloat16:
			le.PutUint16(b, floatToBF16(v))
		case ir.DTypeUint32, ir.DTypeInt32:
			le.PutUint32(b, uint32(int64(v)))
		case ir.DTypeFloat32:
			le.PutUint32(b, math.Float32bits(float32(v)))
		case ir.DTypeUint64:
			le.PutUint64(b, uint64(v))
		case ir.DTypeInt64:
			le.PutUint64(b, uint64(int64(v)))
		case ir.DTypeFloat64:
			le.PutUint64(b, math.Float64bits(v))
		}
	}
	return out, nil
}

// RoundTo returns v as it would be stored in an element of type dt: rounded to float32, float16 or bfloat16
// precision, truncated toward zero for integers, 0 or 1 for booleans; float64 and unknown types keep v.
func RoundTo(dt ir.DType, v float64) float64 {
	switch {
	case dt == ir.DTypeFloat32:
		return float64(float32(v))
	case dt == ir.DTypeFloat16:
		return halfToFloat(floatToHalf(v))
	case dt == ir.DTypeBFloat16:
		return float64(math.Float32frombits(uint32(floatToBF16(v)) << 16))
	case dt == ir.DTypeBool:
		if v != 0 {
			return 1
		}
		return 0
	case dt.IsInteger():
		return math.Trunc(v)
	}
	return v
}

// halfToFloat converts IEEE 754 binary16 bits to a float64 (exactly: every half is a float64), by moving the
// sign, exponent and fraction fields into place. A NaN is math.NaN().
func halfToFloat(h uint16) float64 {
	sign := uint64(h&0x8000) << 48
	exp := uint64(h>>10) & 0x1f
	frac := uint64(h & 0x3ff)
	switch exp {
	case 0: // zero or subnormal: frac * 2^-24
		v := float64(frac) * 0x1p-24
		if sign != 0 {
			v = -v
		}
		return v
	case 0x1f:
		if frac != 0 {
			return math.NaN()
		}
		return math.Float64frombits(sign | 0x7ff<<52)
	}
	return math.Float64frombits(sign | (exp-15+1023)<<52 | frac<<42)
}

// floatToHalf converts v to IEEE 754 binary16 bits, rounding to nearest even, from v's bits: the fraction's 10
// leading bits (of a normal half), or its bits shifted to the half's subnormal scale, and the bits shifted out
// deciding the rounding. A NaN is 0x7e00 whatever its sign. (drrc verify rounds every weight a float16 program
// draws: at 7 billion, math.Frexp and math.Ldexp took three quarters of the time of verifying LLaMA-7B.)
func floatToHalf(v float64) uint16 {
	b := math.Float64bits(v)
	sign := uint16(b>>48) & 0x8000
	b &^= 1 << 63
	switch {
	case b > 0x7ff<<52: // NaN
		return 0x7e00
	case b >= 0x40effe0000000000: // 65520 and above, infinity included: rounds to infinity
		return sign | 0x7c00
	case b <= 0x3e60000000000000: // 2^-25 and below: rounds to zero (2^-25 is a tie, which goes to the even 0)
		return sign
	}
	e := int(b>>52) - 1023 + 15 // the half's biased exponent
	full := b&(1<<52-1) | 1<<52 // the significand with its leading 1, at 2^-52 per unit
	shift := uint(42)           // bits shifted out for a normal half's 10 fraction bits
	if e <= 0 {
		shift += uint(1 - e) // subnormal: units of 2^-24 (e ≥ -10 here, so shift ≤ 53)
		e = 0
	} else {
		full &^= 1 << 52 // a normal half's leading 1 is implicit, in its exponent
	}
	// Round to nearest even without a branch (drawn weights round up or down at random): add just under half a
	// unit, plus one more when the kept bits are odd. A carry out of the fraction (1024) moves into the exponent
	// when the fields are added, as it must.
	m := (full + (1<<(shift-1) - 1) + (full>>shift)&1) >> shift
	return sign | (uint16(e)<<10 + uint16(m))
}

// floatToBF16 converts v to bfloat16 bits, rounding to nearest even.
func floatToBF16(v float64) uint16 {
	b := math.Float32bits(float32(v))
	if math.IsNaN(v) {
		return 0x7fc0
	}
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}
