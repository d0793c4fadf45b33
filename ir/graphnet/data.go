package graphnet

import (
	"encoding/binary"
	"math"

	"github.com/pirdrr/drr/ir"
)

// Tensor data as ir.Variable.Data holds it: little-endian elements of the tensor's dtype.

// dtypeSize returns the size in bytes of one element of d, or 0 if data of that type cannot be encoded.
func dtypeSize(d ir.DType) int {
	switch d {
	case ir.DTypeBool, ir.DTypeUint8, ir.DTypeInt8:
		return 1
	case ir.DTypeInt16, ir.DTypeUint16, ir.DTypeFloat16, ir.DTypeBFloat16:
		return 2
	case ir.DTypeInt32, ir.DTypeUint32, ir.DTypeFloat32:
		return 4
	case ir.DTypeInt64, ir.DTypeUint64, ir.DTypeFloat64:
		return 8
	}
	return 0
}

// encodeData packs literal elements as little-endian values of dtype d (Variable.Data's layout).
func encodeData(file string, d ir.DType, elems []literal) ([]byte, *Error) {
	size := dtypeSize(d)
	if size == 0 {
		return nil, errorAt(file, elems[0].pos, "data of dtype %s is not supported", d.DataTypeName())
	}
	out := make([]byte, len(elems)*size)
	for i, e := range elems {
		dst := out[i*size:]
		var f float64
		var n int64
		isInt := false
		switch e.kind {
		case litBool:
			if d != ir.DTypeBool {
				return nil, errorAt(file, e.pos, "a bool in the data of a %s tensor", d.DataTypeName())
			}
			if e.b {
				n = 1
			}
			isInt = true
		case litInt:
			n, f, isInt = e.i, float64(e.i), true
		case litFloat:
			f = e.f
		default:
			return nil, errorAt(file, e.pos, "data elements must be numbers, not %s", e.describe())
		}
		switch d {
		case ir.DTypeFloat32:
			binary.LittleEndian.PutUint32(dst, math.Float32bits(float32(f)))
		case ir.DTypeFloat64:
			binary.LittleEndian.PutUint64(dst, math.Float64bits(f))
		case ir.DTypeFloat16:
			binary.LittleEndian.PutUint16(dst, float16Bits(float32(f)))
		case ir.DTypeBFloat16:
			binary.LittleEndian.PutUint16(dst, bfloat16Bits(float32(f)))
		default:
			if !isInt {
				return nil, errorAt(file, e.pos, "a float in the data of a %s tensor", d.DataTypeName())
			}
			if !intFits(n, d) {
				return nil, errorAt(file, e.pos, "%d does not fit in %s", n, d.DataTypeName())
			}
			switch size {
			case 1:
				dst[0] = byte(n)
			case 2:
				binary.LittleEndian.PutUint16(dst, uint16(n))
			case 4:
				binary.LittleEndian.PutUint32(dst, uint32(n))
			case 8:
				binary.LittleEndian.PutUint64(dst, uint64(n))
			}
		}
	}
	return out, nil
}

func intFits(n int64, d ir.DType) bool {
	switch d {
	case ir.DTypeBool:
		return n == 0 || n == 1
	case ir.DTypeUint8:
		return n >= 0 && n <= math.MaxUint8
	case ir.DTypeInt8:
		return n >= math.MinInt8 && n <= math.MaxInt8
	case ir.DTypeUint16:
		return n >= 0 && n <= math.MaxUint16
	case ir.DTypeInt16:
		return n >= math.MinInt16 && n <= math.MaxInt16
	case ir.DTypeUint32:
		return n >= 0 && n <= math.MaxUint32
	case ir.DTypeInt32:
		return n >= math.MinInt32 && n <= math.MaxInt32
	case ir.DTypeUint64:
		return n >= 0
	}
	return true
}

// float16Bits converts f to IEEE half precision, rounding to nearest even.
func float16Bits(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23&0xff) - 127 + 15
	mant := b & 0x7fffff
	switch {
	case b&0x7fffffff > 0x7f800000: // NaN
		return sign | 0x7e00
	case exp >= 31: // overflow or inf
		return sign | 0x7c00
	case exp <= 0: // subnormal or zero
		if exp < -10 {
			return sign
		}
		mant |= 0x800000
		shift := uint32(14 - exp)
		half := uint16(mant >> shift)
		rem := mant & (1<<shift - 1)
		mid := uint32(1) << (shift - 1)
		if rem > mid || rem == mid && half&1 == 1 {
			half++
		}
		return sign | half
	}
	half := uint16(exp)<<10 | uint16(mant>>13)
	rem := mant & 0x1fff
	if rem > 0x1000 || rem == 0x1000 && half&1 == 1 {
		half++ // may carry into the exponent, which is right
	}
	return sign | half
}

// bfloat16Bits converts f to bfloat16, rounding to nearest even.
func bfloat16Bits(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 {
		return uint16(b>>16) | 0x40
	}
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}

// float16Value and bfloat16Value decode the two half formats.
func float16Value(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := int32(h >> 10 & 0x1f)
	mant := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case exp == 0:
		if mant == 0 {
			return math.Float32frombits(sign)
		}
		f := float32(mant) / 1024 / 16384
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | uint32(exp-15+127)<<23 | mant<<13)
}

func bfloat16Value(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }
