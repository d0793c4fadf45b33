package pirtext

import (
	"strconv"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// AppendType appends the PIR text of a type to dst (the same text as t.String()).
func AppendType(dst []byte, t ir.Type) []byte { return appendType(dst, t) }

// AppendAttribute appends the PIR text of an attribute value to dst: tagged (the same text as a.String()) or, with
// untagged, the newer untagged syntax.
func AppendAttribute(dst []byte, a ir.Attribute, untagged bool) []byte {
	return appendAttr(dst, a, untagged)
}

func appendType(b []byte, t ir.Type) []byte {
	switch t := t.(type) {
	case nil:
		return append(b, nullType...)
	case *ir.ScalarType:
		return append(b, t.DType.String()...)
	case *ir.TensorType:
		b = append(b, t.Spelling...)
		b = append(b, '<')
		b = appendDims(b, t.Dims)
		b = appendType(b, t.Elem)
		return append(b, '>')
	case *ir.VectorType:
		b = append(b, "vec["...)
		for i, e := range t.Elems {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendType(b, e)
		}
		return append(b, ']')
	case *ir.SelectedRowsType:
		b = append(b, "pd_op.selectedrows<"...)
		b = appendDims(b, t.Dims)
		b = appendType(b, t.Elem)
		return append(b, '>')
	case *ir.TensorArrayType:
		b = append(b, "pd_op.tensor_array<"...)
		b = appendType(b, t.Elem)
		return append(b, '>')
	}
	return append(b, t.String()...)
}

func appendDims(b []byte, dims []int64) []byte {
	for _, d := range dims {
		b = strconv.AppendInt(b, d, 10)
		b = append(b, 'x')
	}
	return b
}

// readsBackUntagged reports whether a pointer's text reads back without its tag: 0x and identifier characters up to
// the first '.', as numberLit reads an untagged pointer. Others ((Pointer)0x. is one) keep their tag.
func readsBackUntagged(text string) bool {
	if !strings.HasPrefix(text, "0x") {
		return false
	}
	for i := 2; i < len(text); i++ {
		if !isIdentChar(text[i]) || text[i] == '.' {
			return false
		}
	}
	return true
}

// appendFloat appends a float as ir.FormatFloat writes it.
func appendFloat(b []byte, v float64, bits int) []byte {
	return append(b, ir.FormatFloat(v, bits)...)
}

func appendAttr(b []byte, a ir.Attribute, untagged bool) []byte {
	switch a := a.(type) {
	case nil, *ir.NullAttr:
		return append(b, nullAttr...)
	case *ir.BoolAttr:
		if a.Value {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case *ir.Int32Attr:
		if !untagged {
			b = append(b, "(Int32)"...)
		}
		return strconv.AppendInt(b, int64(a.Value), 10)
	case *ir.Int64Attr:
		if !untagged {
			b = append(b, "(Int64)"...)
		}
		return strconv.AppendInt(b, a.Value, 10)
	case *ir.IndexAttr:
		if !untagged {
			b = append(b, "(Index)"...)
		}
		return strconv.AppendInt(b, a.Value, 10)
	case *ir.FloatAttr:
		if !untagged {
			b = append(b, "(Float)"...)
		}
		return appendFloat(b, float64(a.Value), 32)
	case *ir.DoubleAttr:
		if !untagged {
			b = append(b, "(Double)"...)
		}
		return appendFloat(b, a.Value, 64)
	case *ir.StrAttr:
		return ir.AppendQuoted(b, a.Value)
	case *ir.ArrayAttr:
		b = append(b, '[')
		for i, e := range a.Elems {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendAttr(b, e, untagged)
		}
		return append(b, ']')
	case *ir.TypeAttr:
		if typeAttrNeedsTag(a.Type) {
			b = append(b, "(Type)"...)
		}
		return appendType(b, a.Type)
	case *ir.PointerAttr:
		if !untagged || !readsBackUntagged(a.Text) {
			b = append(b, "(Pointer)"...)
		}
		return append(b, a.Text...)
	case *ir.ComplexAttr:
		// No untagged spelling exists that reads back; complex values keep their tag.
		return append(b, a.String()...)
	case *ir.IntArrayAttr:
		if !untagged {
			b = append(b, "(pd_op.IntArray)"...)
		}
		b = append(b, '[')
		for i, v := range a.Values {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, v, 10)
		}
		return append(b, ']')
	case *ir.DataTypeAttr:
		if !untagged {
			b = append(b, "(pd_op.DataType)"...)
		}
		return append(b, a.DType.DataTypeName()...)
	case *ir.PlaceAttr:
		if !untagged {
			b = append(b, "(pd_op.Place)"...)
		}
		return append(b, a.Place.String()...)
	case *ir.DataLayoutAttr:
		if !untagged || !layoutNames[a.Layout] {
			b = append(b, "(pd_op.DataLayout)"...)
		}
		return append(b, a.Layout...)
	case *ir.ScalarAttr:
		if untagged {
			return appendAttr(b, a.Value, true)
		}
		b = append(b, "(pd_op.Scalar)"...)
		b = append(b, a.DType.DataTypeName()...)
		b = append(b, ':')
		return appendAttr(b, a.Value, false)
	case *ir.TensorNameAttr:
		if !untagged {
			b = append(b, "(TensorName)"...)
		}
		return ir.AppendQuoted(b, a.Name)
	case *ir.OpaqueAttr:
		return append(b, a.Text...)
	}
	return append(b, a.String()...)
}

// typeAttrNeedsTag reports whether a type attribute must be printed as (Type)T to read back as itself: a bare
// identifier type that an attribute value would not read as a type (a dialect type without parameters such as
// cf.stack), and the scalar types whose spelling is also a DataType spelling (index, pstring).
func typeAttrNeedsTag(t ir.Type) bool {
	switch t := t.(type) {
	case *ir.ScalarType:
		_, isData := ir.DTypeFromDataType(t.DType.String())
		return isData
	case *ir.OpaqueType:
		return !strings.Contains(t.Text, "<")
	}
	return false
}
