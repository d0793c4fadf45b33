package pirjson

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// typ appends the JSON of t, encoding each distinct (interned) type once.
func (w *writer) typ(t ir.Type) error {
	if b, ok := w.types[t]; ok {
		w.buf = append(w.buf, b...)
		return nil
	}
	b, err := w.encodeType(nil, t)
	if err != nil {
		return err
	}
	w.types[t] = b
	w.buf = append(w.buf, b...)
	return nil
}

// encodeType appends the JSON of t to dst.
func (w *writer) encodeType(dst []byte, t ir.Type) ([]byte, error) {
	switch t := t.(type) {
	case *ir.ScalarType:
		n := t.DType.JSONName()
		if n == "" {
			return nil, fmt.Errorf("type %s has no PIR JSON encoding", t)
		}
		dst = append(dst, `{"#":"0.`...)
		dst = append(dst, n...)
		return append(dst, `"}`...), nil
	case *ir.TensorType:
		id := "0." + tDenseTensor
		switch t.Spelling {
		case ir.DenseTensor, ir.LegacyTensor, ir.BareTensor:
		case ir.ValueTensor:
			id = "1." + tValueTensor
		default:
			return nil, fmt.Errorf("type %s has no PIR JSON encoding", t)
		}
		return w.tensorPayload(dst, id, t.Elem, t.Dims, t.Layout, t.LoD, t.Offset, true)
	case *ir.SelectedRowsType:
		return w.tensorPayload(dst, "1."+tSelectedRows, t.Elem, t.Dims, t.Layout, t.LoD, t.Offset, true)
	case *ir.TensorArrayType:
		return w.tensorPayload(dst, "1."+tTensorArray, t.Elem, t.Dims, t.Layout, nil, 0, false)
	case *ir.VectorType:
		dst = append(dst, `{"#":"0.t_vec","D":[`...)
		for i, e := range t.Elems {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = w.encodeType(dst, e); err != nil {
				return nil, err
			}
		}
		return append(dst, "]}"...), nil
	case *ir.NullType:
		return append(dst, `{"#":"NULL"}`...), nil
	case *ir.OpaqueType:
		if id, ok := cfTypeIDs[t.Text]; ok {
			dst = append(dst, `{"#":"`...)
			dst = append(dst, id...)
			return append(dst, `"}`...), nil
		}
		if strings.HasPrefix(t.Text, "{") {
			if b, ok := canonicalText(t.Text); ok {
				return append(dst, b...), nil
			}
		}
		return nil, fmt.Errorf("type %s has no PIR JSON encoding", t)
	}
	return nil, fmt.Errorf("type %s has no PIR JSON encoding", t)
}

// tensorPayload appends {"#":id,"D":[dtype,dims,layout(,lod,offset)]}.
func (w *writer) tensorPayload(dst []byte, id string, elem ir.Type, dims []int64, layout string, lod [][]uint64, offset uint64, withLoD bool) ([]byte, error) {
	dst = append(dst, `{"#":"`...)
	dst = append(dst, id...)
	dst = append(dst, `","D":[`...)
	var err error
	if dst, err = w.encodeType(dst, elem); err != nil {
		return nil, err
	}
	dst = append(dst, ",["...)
	for i, d := range dims {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, d, 10)
	}
	dst = append(dst, "],"...)
	dst = appendString(dst, layout)
	if withLoD {
		dst = append(dst, ",["...)
		for i, level := range lod {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, '[')
			for j, x := range level {
				if j > 0 {
					dst = append(dst, ',')
				}
				dst = strconv.AppendUint(dst, x, 10)
			}
			dst = append(dst, ']')
		}
		dst = append(dst, "],"...)
		dst = strconv.AppendUint(dst, offset, 10)
	}
	return append(dst, "]}"...), nil
}

// attr appends the JSON of a, encoding each distinct (interned) attribute once.
func (w *writer) attr(a ir.Attribute) error {
	if b, ok := w.attrs[a]; ok {
		w.buf = append(w.buf, b...)
		return nil
	}
	b, err := w.encodeAttr(nil, a)
	if err != nil {
		return err
	}
	w.attrs[a] = b
	w.buf = append(w.buf, b...)
	return nil
}

func attrHead(dst []byte, id string) []byte {
	dst = append(dst, `{"#":"`...)
	dst = append(dst, id...)
	return append(dst, `","D":`...)
}

// encodeAttr appends the JSON of a to dst.
func (w *writer) encodeAttr(dst []byte, a ir.Attribute) ([]byte, error) {
	switch a := a.(type) {
	case *ir.BoolAttr:
		dst = attrHead(dst, "0."+aBool)
		dst = strconv.AppendBool(dst, a.Value)
	case *ir.Int32Attr:
		dst = attrHead(dst, "0."+aInt32)
		dst = strconv.AppendInt(dst, int64(a.Value), 10)
	case *ir.Int64Attr:
		dst = attrHead(dst, "0."+aInt64)
		dst = strconv.AppendInt(dst, a.Value, 10)
	case *ir.IndexAttr:
		dst = attrHead(dst, "0."+aIndex)
		dst = strconv.AppendInt(dst, a.Value, 10)
	case *ir.FloatAttr:
		return appendFloatAttr(dst, "0."+aFloat, float64(a.Value)), nil
	case *ir.DoubleAttr:
		return appendFloatAttr(dst, "0."+aDouble, a.Value), nil
	case *ir.StrAttr:
		dst = attrHead(dst, "0."+aStr)
		dst = appendString(dst, a.Value)
	case *ir.TensorNameAttr:
		dst = attrHead(dst, "0."+aTensorName)
		dst = appendString(dst, a.Name)
	case *ir.PointerAttr:
		dst = attrHead(dst, "0."+aPointer)
		dst = appendString(dst, a.Text)
	case *ir.ArrayAttr:
		dst = attrHead(dst, "0."+aArray)
		dst = append(dst, '[')
		for i, e := range a.Elems {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = w.encodeAttr(dst, e); err != nil {
				return nil, err
			}
		}
		dst = append(dst, ']')
	case *ir.TypeAttr:
		dst = attrHead(dst, "0."+aType)
		var err error
		if dst, err = w.encodeType(dst, a.Type); err != nil {
			return nil, err
		}
	case *ir.ComplexAttr:
		id := "0." + aC128
		if a.Bits == 64 {
			id = "0." + aC64
		}
		dst = attrHead(dst, id)
		dst = append(dst, '[')
		dst = appendNumber(dst, a.Real)
		dst = append(dst, ',')
		dst = appendNumber(dst, a.Im)
		dst = append(dst, ']')
	case *ir.IntArrayAttr:
		dst = attrHead(dst, "1."+aIntArray)
		dst = append(dst, '[')
		for i, v := range a.Values {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = strconv.AppendInt(dst, v, 10)
		}
		dst = append(dst, ']')
	case *ir.DataTypeAttr:
		dst = attrHead(dst, "1."+aDataType)
		dst = appendString(dst, a.DType.DataTypeName())
	case *ir.PlaceAttr:
		dst = attrHead(dst, "1."+aPlace)
		dst = append(dst, '[')
		dst = strconv.AppendInt(dst, int64(a.Place.Type), 10)
		dst = append(dst, ',')
		dst = strconv.AppendInt(dst, int64(a.Place.Device), 10)
		dst = append(dst, ',')
		dst = appendString(dst, a.Place.Custom)
		dst = append(dst, ']')
	case *ir.DataLayoutAttr:
		dst = attrHead(dst, "1."+aLayout)
		dst = appendString(dst, a.Layout)
	case *ir.ScalarAttr:
		var err error
		if dst, err = appendScalar(attrHead(dst, "1."+aScalar), a); err != nil {
			return nil, err
		}
	case *ir.NullAttr:
		return append(dst, `{"#":"NULL"}`...), nil
	case *ir.OpaqueAttr:
		if strings.HasPrefix(a.Text, "{") {
			if b, ok := canonicalText(a.Text); ok {
				return append(dst, b...), nil
			}
		}
		return nil, fmt.Errorf("attribute %s has no PIR JSON encoding", a)
	default:
		return nil, fmt.Errorf("attribute %s has no PIR JSON encoding", a)
	}
	return append(dst, '}'), nil
}

// appendFloatAttr appends a float attribute: its value in "D", or "VD" for NaN and infinities.
func appendFloatAttr(dst []byte, id string, v float64) []byte {
	dst = append(dst, `{"#":"`...)
	dst = append(dst, id...)
	switch {
	case math.IsNaN(v):
		return append(dst, `","VD":"NaN"}`...)
	case math.IsInf(v, 1):
		return append(dst, `","VD":"INF"}`...)
	case math.IsInf(v, -1):
		return append(dst, `","VD":"-INF"}`...)
	}
	dst = append(dst, `","D":`...)
	dst = appendFloat(dst, v)
	return append(dst, '}')
}

// appendNumber appends a float inside an array payload; nlohmann writes NaN and infinities there as null.
func appendNumber(dst []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(dst, "null"...)
	}
	return appendFloat(dst, v)
}

// appendScalar appends the payload ["dtype", value] of a Scalar attribute, formatting the value as Paddle does for
// the data type.
func appendScalar(dst []byte, a *ir.ScalarAttr) ([]byte, error) {
	dst = append(dst, '[')
	dst = appendString(dst, a.DType.DataTypeName())
	dst = append(dst, ',')
	switch a.DType {
	case ir.DTypeFloat32:
		v, ok := ir.AsFloat(a.Value)
		if !ok {
			return nil, fmt.Errorf("scalar %s has no number", a)
		}
		dst = appendNumber(dst, float64(float32(v)))
	case ir.DTypeFloat64:
		v, ok := ir.AsFloat(a.Value)
		if !ok {
			return nil, fmt.Errorf("scalar %s has no number", a)
		}
		dst = appendNumber(dst, v)
	case ir.DTypeBool:
		v, ok := ir.AsBool(a.Value)
		if !ok {
			return nil, fmt.Errorf("scalar %s has no bool", a)
		}
		dst = strconv.AppendBool(dst, v)
	case ir.DTypeUint64:
		v, ok := ir.AsInt(a.Value)
		if !ok {
			return nil, fmt.Errorf("scalar %s has no integer", a)
		}
		dst = strconv.AppendUint(dst, uint64(v), 10)
	case ir.DTypeComplex64, ir.DTypeComplex128:
		c, ok := a.Value.(*ir.ComplexAttr)
		if !ok {
			return nil, fmt.Errorf("scalar %s has no complex value", a)
		}
		re, im := c.Real, c.Im
		if a.DType == ir.DTypeComplex64 {
			re, im = float64(float32(re)), float64(float32(im))
		}
		dst = appendNumber(dst, re)
		dst = append(dst, ',')
		dst = appendNumber(dst, im)
	case ir.DTypeInt8, ir.DTypeInt16, ir.DTypeInt32, ir.DTypeInt64, ir.DTypeUint8, ir.DTypeUint16, ir.DTypeUint32,
		ir.DTypeFloat16, ir.DTypeBFloat16:
		v, ok := ir.AsInt(a.Value)
		if !ok {
			return nil, fmt.Errorf("scalar %s has no integer", a)
		}
		dst = strconv.AppendInt(dst, v, 10)
	default:
		return nil, fmt.Errorf("scalar %s has no PIR JSON encoding", a)
	}
	return append(dst, ']'), nil
}
