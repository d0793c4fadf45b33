package graphnet

import (
	"encoding/binary"
	"math"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// tensorMeta is one class of weight_meta.py or input_meta.py:
//
//	class Program_weight_tensor_parameter_2:
//	    name = "parameter_2"
//	    original_name = "linear_0.w_0"
//	    shape = [768, 768]
//	    dtype = "float32"
//	    min_val = float("-0.0950393")
//	    max_val = float("0.0949818")
//	    mean = float("2.1163e-05")
//	    std = float("0.0199833")
//	    data = None
type tensorMeta struct {
	name         string
	originalName string
	shape        []int64
	dtype        ir.DType
	stats        *ir.TensorStats // nil if no statistic was recorded
	data         []byte          // little-endian elements, nil if data = None
	pos          Pos             // of the class
}

// metaFieldNames are the fields a meta class may set (GraphNet's loader reads these and "device").
var metaFieldNames = [...]string{"name", "original_name", "shape", "dtype", "min_val", "max_val", "mean", "std", "data",
	"device"}

func metaFieldIndex(name string) (int, bool) {
	for i, n := range metaFieldNames {
		if n == name {
			return i, true
		}
	}
	return 0, false
}

// metaValues are the fields set by a meta class.
type metaValues struct {
	v   [len(metaFieldNames)]literal
	set [len(metaFieldNames)]bool
}

func (m *metaValues) get(name string) (literal, bool) {
	i, _ := metaFieldIndex(name)
	return m.v[i], m.set[i]
}

// parseMeta reads a weight_meta.py or input_meta.py file: a sequence of classes, each describing one tensor.
func parseMeta(file string, src []byte) ([]tensorMeta, *Error) {
	mem := getArena()
	defer mem.release()
	body, err := parseModule(file, src, mem)
	if err != nil {
		return nil, err
	}
	var out []tensorMeta
	seen := map[string]Pos{}
	for _, s := range body {
		c, ok := s.(*classDef)
		if !ok {
			if _, isImport := s.(*importStmt); isImport {
				continue
			}
			return nil, errorAt(file, s.start(), "expected a class describing a tensor")
		}
		m, err := metaClass(file, c)
		if err != nil {
			return nil, err
		}
		if prev, dup := seen[m.name]; dup {
			return nil, errorAt(file, c.pos, "tensor %s is described twice (first at line %d)", m.name, prev.Line)
		}
		seen[m.name] = c.pos
		out = append(out, m)
	}
	return out, nil
}

func metaClass(file string, c *classDef) (tensorMeta, *Error) {
	m := tensorMeta{pos: c.pos}
	var fields metaValues
	for _, s := range c.body {
		if _, ok := s.(*passStmt); ok {
			continue
		}
		a, ok := s.(*assignStmt)
		if !ok {
			return m, errorAt(file, s.start(), "expected a field assignment (name = value) in class %s", c.name)
		}
		target, ok := a.target.(*nameExpr)
		if !ok {
			return m, errorAt(file, a.target.start(), "expected a field name")
		}
		f, known := metaFieldIndex(target.id)
		if !known {
			return m, errorAt(file, target.pos, "unknown field %s (fields: name, original_name, shape, dtype, min_val, max_val, mean, std, data)", target.id)
		}
		if fields.set[f] {
			return m, errorAt(file, target.pos, "field %s set twice", target.id)
		}
		v, err := evalLiteral(file, a.value)
		if err != nil {
			return m, err
		}
		v.pos = a.value.start()
		fields.v[f], fields.set[f] = v, true
	}
	str := func(name string, required bool) (string, *Error) {
		v, ok := fields.get(name)
		if !ok {
			if required {
				return "", errorAt(file, c.pos, "class %s has no %s", c.name, name)
			}
			return "", nil
		}
		if v.kind != litStr {
			return "", errorAt(file, v.pos, "%s must be a string, not %s", name, v.describe())
		}
		return strings.Clone(v.s), nil // v.s shares the source file's memory
	}
	var err *Error
	if m.name, err = str("name", true); err != nil {
		return m, err
	}
	if m.originalName, err = str("original_name", false); err != nil {
		return m, err
	}
	if _, err = str("device", false); err != nil {
		return m, err
	}
	dt, err := str("dtype", true)
	if err != nil {
		return m, err
	}
	d, ok := ir.DTypeFromDataType(dt)
	if !ok || d == ir.DTypeUndefined {
		v, _ := fields.get("dtype")
		return m, errorAt(file, v.pos, "unknown dtype %q", dt)
	}
	m.dtype = d
	shape, ok := fields.get("shape")
	if !ok {
		return m, errorAt(file, c.pos, "class %s has no shape", c.name)
	}
	if shape.kind != litList {
		return m, errorAt(file, shape.pos, "shape must be a list of ints, not %s", shape.describe())
	}
	m.shape = make([]int64, len(shape.elems))
	for i, e := range shape.elems {
		switch {
		case e.kind == litNone: // an unknown dimension (GraphNet's harness makes it 1)
			m.shape[i] = -1
		case e.kind == litInt && e.i >= -1:
			m.shape[i] = e.i
		default:
			return m, errorAt(file, e.pos, "shape must be a list of dimensions (ints >= -1, or None)")
		}
	}
	var stats ir.TensorStats
	recorded := false
	for _, f := range []struct {
		name string
		bit  ir.StatFields
		dst  *float64
	}{{"min_val", ir.StatMin, &stats.Min}, {"max_val", ir.StatMax, &stats.Max}, {"mean", ir.StatMean, &stats.Mean},
		{"std", ir.StatStd, &stats.Std}} {
		v, ok := fields.get(f.name)
		if !ok {
			stats.Missing |= f.bit
			continue
		}
		switch v.kind {
		case litInt:
			*f.dst = float64(v.i)
		case litFloat:
			*f.dst = v.f
		default:
			return m, errorAt(file, v.pos, "%s must be a number, not %s", f.name, v.describe())
		}
		recorded = true
	}
	if recorded {
		m.stats = &stats
	}
	if v, ok := fields.get("data"); ok && v.kind != litNone {
		if v.kind != litList {
			return m, errorAt(file, v.pos, "data must be None or a list, not %s", v.describe())
		}
		n := int64(1)
		for _, d := range m.shape {
			if d < 0 {
				return m, errorAt(file, v.pos, "data is given for a tensor of dynamic shape")
			}
			n *= d
		}
		if int64(len(v.elems)) != n {
			return m, errorAt(file, v.pos, "data has %d elements; shape %v holds %d", len(v.elems), m.shape, n)
		}
		data, err := encodeData(file, m.dtype, v.elems)
		if err != nil {
			return m, err
		}
		m.data = data
	}
	return m, nil
}

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
