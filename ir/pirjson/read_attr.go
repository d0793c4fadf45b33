package pirjson

import (
	"math"

	"github.com/pirdrr/drr/ir"
)

// attr reads an attribute, from the cache when the same bytes were read before.
func (r *reader) attr() (ir.Attribute, error) {
	s := &r.s
	s.ws()
	start := s.mark()
	cached := s.depth < maxCacheDepth
	if cached && s.skip() == nil {
		if a, ok := r.attrs[string(s.src[start.pos:s.pos])]; ok {
			return a, nil
		}
	}
	s.reset(start)
	a, err := r.parseAttr()
	if err != nil {
		return nil, err
	}
	if cached && worthCaching(a) {
		r.attrs[string(s.src[start.pos:s.pos])] = a
	}
	return a, nil
}

// Kinds of attribute ids.
const (
	akUnknown = iota
	akUnknownDialect
	akNull
	akBool
	akInt32
	akInt64
	akIndex
	akFloat
	akDouble
	akStr
	akTensorName
	akPointer
	akArray
	akType
	akC64
	akC128
	akIntArray
	akDataType
	akLayout
	akPlace
	akScalar
	akOpaque
)

var builtinAttrKinds = map[string]int{
	aBool: akBool, aInt32: akInt32, aInt64: akInt64, aIndex: akIndex, aFloat: akFloat, aDouble: akDouble, aStr: akStr,
	aTensorName: akTensorName, aPointer: akPointer, aArray: akArray, aType: akType, aC64: akC64, aC128: akC128,
}

var pdAttrKinds = map[string]int{
	aIntArray: akIntArray, aDataType: akDataType, aLayout: akLayout, aPlace: akPlace, aScalar: akScalar,
}

// classifyAttr resolves an attribute id.
func classifyAttr(id string) int {
	if id == nullID {
		return akNull
	}
	dialect, name, _, known := splitID(id)
	if !known {
		return akUnknownDialect
	}
	var k int
	switch dialect {
	case "builtin":
		k = builtinAttrKinds[name]
	case "pd_op":
		k = pdAttrKinds[name]
	case "pd_dist":
		if distAttrs[name] {
			k = akOpaque
		}
	}
	return k
}

// parseAttr reads an attribute object. The attribute kind comes from its id, never from the JSON token.
func (r *reader) parseAttr() (ir.Attribute, error) {
	s := &r.s
	var a ir.Attribute
	var kind int
	o, err := r.idObject(true, func(o *idObject) error {
		kind = classifyAttr(string(o.id))
		var err error
		a, err = r.attrPayload(o, kind)
		return err
	})
	if err != nil {
		return nil, err
	}
	if o.hasVD {
		kind = classifyAttr(string(o.id))
		if kind != akFloat && kind != akDouble {
			if kind == akUnknown || kind == akUnknownDialect {
				return nil, r.idError(&o, "attribute", kind == akUnknownDialect)
			}
			return nil, s.errAt(o.vdOff, "\"VD\" is only allowed in a_f32 and a_f64 attributes, not %q", o.id)
		}
		if o.hasD {
			return nil, s.errAt(o.vdOff, "an attribute has both \"D\" and \"VD\"")
		}
		v, ok := specialFloat(string(o.vd))
		if !ok {
			return nil, s.errAt(o.vdOff, "bad VD %q; want \"NaN\", \"INF\" or \"-INF\"", o.vd)
		}
		if kind == akFloat {
			return r.ctx.Float(float32(v)), nil
		}
		return r.ctx.Double(v), nil
	}
	if o.hasD {
		if kind == akOpaque {
			text, err := r.opaqueText(&o)
			if err != nil {
				return nil, err
			}
			return r.ctx.OpaqueAttr(text), nil
		}
		return a, nil
	}
	switch kind = classifyAttr(string(o.id)); kind {
	case akUnknown, akUnknownDialect:
		return nil, r.idError(&o, "attribute", kind == akUnknownDialect)
	case akNull:
		return r.ctx.NullAttr(), nil
	}
	return nil, s.errAt(o.off, "missing key \"D\" in %q", o.id)
}

// attrPayload reads the "D" of an attribute of the given kind.
func (r *reader) attrPayload(o *idObject, kind int) (ir.Attribute, error) {
	s := &r.s
	c := r.ctx
	switch kind {
	case akUnknown, akUnknownDialect:
		return nil, r.idError(o, "attribute", kind == akUnknownDialect)
	case akNull:
		return nil, s.errAt(o.dOff, "%q takes no \"D\"", o.id)
	case akBool:
		b, err := s.boolean()
		return c.Bool(b), err
	case akInt32:
		v, err := s.integer(math.MinInt32, math.MaxInt32)
		return c.Int32(int32(v)), err
	case akInt64:
		v, err := s.integer(math.MinInt64, math.MaxInt64)
		return c.Int64(v), err
	case akIndex:
		v, err := s.integer(math.MinInt64, math.MaxInt64)
		return c.Index(v), err
	case akFloat:
		v, err := s.float()
		return c.Float(float32(v)), err
	case akDouble:
		v, err := s.float()
		return c.Double(v), err
	case akStr, akTensorName, akPointer, akLayout:
		b, err := s.str()
		if err != nil {
			return nil, err
		}
		switch kind {
		case akStr:
			return c.Str(string(b)), nil
		case akTensorName:
			return c.TensorName(string(b)), nil
		case akPointer:
			return c.Pointer(string(b)), nil
		}
		return c.DataLayout(string(b)), nil
	case akArray:
		var elems []ir.Attribute
		err := s.array(func(int) error {
			e, err := r.attr()
			elems = append(elems, e)
			return err
		})
		if err != nil {
			return nil, err
		}
		return c.Array(elems...), nil
	case akType:
		t, err := r.typ()
		if err != nil {
			return nil, err
		}
		return c.TypeAttr(t), nil
	case akC64, akC128:
		bits := 64
		if kind == akC128 {
			bits = 128
		}
		var re, im float64
		err := r.tuple("a complex attribute", "[real, imag]", 2, func(i int) error {
			v, err := r.floatOrNull()
			if i == 0 {
				re = v
			} else {
				im = v
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		return c.Complex(bits, re, im), nil
	case akIntArray:
		v, err := r.ints()
		if err != nil {
			return nil, err
		}
		return c.IntArray(v), nil
	case akDataType:
		s.ws()
		off := s.pos
		b, err := s.str()
		if err != nil {
			return nil, err
		}
		d, ok := ir.DTypeFromDataType(string(b))
		if !ok {
			return nil, s.errAt(off, "unknown data type %q", b)
		}
		return c.DataType(d), nil
	case akPlace:
		var p ir.Place
		err := r.tuple("a place attribute", "[allocation type, device id, custom device type]", 3, func(i int) error {
			switch i {
			case 0:
				v, err := s.integer(math.MinInt32, math.MaxInt32)
				p.Type = ir.PlaceType(v)
				return err
			case 1:
				v, err := s.integer(math.MinInt32, math.MaxInt32)
				p.Device = int(v)
				return err
			}
			b, err := s.str()
			p.Custom = string(b)
			return err
		})
		if err != nil {
			return nil, err
		}
		return c.Place(p), nil
	case akScalar:
		return r.scalar()
	case akOpaque:
		return nil, r.skipOpaque()
	}
	return nil, nil
}

// specialFloat decodes a "VD" value. Paddle writes "NaN"; its reader compares with "NAN", which is accepted too.
func specialFloat(vd string) (float64, bool) {
	switch vd {
	case "NaN", "NAN":
		return math.NaN(), true
	case "INF":
		return math.Inf(1), true
	case "-INF":
		return math.Inf(-1), true
	}
	return 0, false
}

// floatOrNull reads a number, or null (how nlohmann writes NaN and infinities inside arrays) as NaN.
func (r *reader) floatOrNull() (float64, error) {
	s := &r.s
	if s.ws() == 'n' && s.lit("null") {
		return math.NaN(), nil
	}
	return s.float()
}

// scalarRange gives the integer range of the Scalar data types stored as Int32Attr.
var scalarRange = map[ir.DType][2]int64{
	ir.DTypeInt8:     {math.MinInt8, math.MaxInt8},
	ir.DTypeInt16:    {math.MinInt16, math.MaxInt16},
	ir.DTypeInt32:    {math.MinInt32, math.MaxInt32},
	ir.DTypeUint8:    {0, math.MaxUint8},
	ir.DTypeUint16:   {0, math.MaxUint16},
	ir.DTypeFloat16:  {0, math.MaxUint16}, // Paddle writes float16 and bfloat16 Scalars as uint16 values
	ir.DTypeBFloat16: {0, math.MaxUint16},
}

// scalar reads the payload ["dtype", value] (["dtype", real, imag] for complex data types) of a pd_op Scalar. The
// value is kept as Paddle writes it: a FloatAttr for float32, a DoubleAttr for float64, a BoolAttr for bool, an
// Int32Attr for the data types of at most 32 bits, an Int64Attr for int64, uint32 and uint64 (the bits of the
// uint64), and a ComplexAttr for complex64 and complex128.
func (r *reader) scalar() (ir.Attribute, error) {
	s := &r.s
	c := r.ctx
	s.ws()
	arrOff := s.pos
	var dt ir.DType
	var value ir.Attribute
	var re float64
	n := 0
	want := 2
	err := s.array(func(i int) error {
		n++
		if i >= want {
			return s.errAt(s.pos, "too many elements in a Scalar attribute")
		}
		if i == 0 {
			s.ws()
			off := s.pos
			b, err := s.str()
			if err != nil {
				return err
			}
			d, ok := ir.DTypeFromDataType(string(b))
			if !ok {
				return s.errAt(off, "unknown data type %q", b)
			}
			dt = d
			switch dt {
			case ir.DTypeComplex64, ir.DTypeComplex128:
				want = 3
			case ir.DTypeFloat32, ir.DTypeFloat64, ir.DTypeBool, ir.DTypeInt64, ir.DTypeUint32, ir.DTypeUint64:
			default:
				if _, ok := scalarRange[dt]; !ok {
					return s.errAt(off, "a Scalar attribute cannot have data type %q", b)
				}
			}
			return nil
		}
		var err error
		switch dt {
		case ir.DTypeFloat32:
			var v float64
			v, err = r.floatOrNull()
			value = c.Float(float32(v))
		case ir.DTypeFloat64:
			var v float64
			v, err = r.floatOrNull()
			value = c.Double(v)
		case ir.DTypeBool:
			var v bool
			v, err = s.boolean()
			value = c.Bool(v)
		case ir.DTypeInt64:
			var v int64
			v, err = s.integer(math.MinInt64, math.MaxInt64)
			value = c.Int64(v)
		case ir.DTypeUint32:
			var v int64
			v, err = s.integer(0, math.MaxUint32)
			value = c.Int64(v)
		case ir.DTypeUint64:
			var v uint64
			v, err = s.unsigned()
			value = c.Int64(int64(v))
		case ir.DTypeComplex64, ir.DTypeComplex128:
			var v float64
			v, err = r.floatOrNull()
			if i == 1 {
				re = v
			} else {
				bits := 64
				if dt == ir.DTypeComplex128 {
					bits = 128
				}
				value = c.Complex(bits, re, v)
			}
		default:
			rg := scalarRange[dt]
			var v int64
			v, err = s.integer(rg[0], rg[1])
			value = c.Int32(int32(v))
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if n != want {
		return nil, s.errAt(arrOff, "a Scalar attribute of data type %s has %d elements, got %d", dt.DataTypeName(), want, n)
	}
	return c.ScalarAttr(dt, value), nil
}
