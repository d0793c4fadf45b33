package ir

import "fmt"

// DType is an element type: the scalar kinds of builtin types and the values of pd_op.DataType attributes.
type DType uint8

// The element types PIR knows. The zero value is DTypeUndefined.
const (
	DTypeUndefined DType = iota
	DTypeBool
	DTypeUint8
	DTypeInt8
	DTypeUint16
	DTypeInt16
	DTypeUint32
	DTypeInt32
	DTypeUint64
	DTypeInt64
	DTypeFloat16
	DTypeBFloat16
	DTypeFloat32
	DTypeFloat64
	DTypeComplex64
	DTypeComplex128
	DTypeFloat8E4M3FN
	DTypeFloat8E5M2
	DTypeIndex
	DTypePString
	numDTypes
)

// dtypeNames holds, per DType: the scalar type spelling in PIR text (f32), the pd_op.DataType spelling (float32) and
// the PIR JSON type id suffix (t_f32). An empty text or JSON spelling means the type has none.
var dtypeNames = [numDTypes]struct{ text, data, json string }{
	DTypeUndefined:    {"undefined", "Undefined", "t_undefined"},
	DTypeBool:         {"b", "bool", "t_bool"},
	DTypeUint8:        {"u8", "uint8", "t_ui8"},
	DTypeInt8:         {"i8", "int8", "t_i8"},
	DTypeUint16:       {"u16", "uint16", "t_ui16"},
	DTypeInt16:        {"i16", "int16", "t_i16"},
	DTypeUint32:       {"u32", "uint32", "t_ui32"},
	DTypeInt32:        {"i32", "int32", "t_i32"},
	DTypeUint64:       {"u64", "uint64", "t_ui64"},
	DTypeInt64:        {"i64", "int64", "t_i64"},
	DTypeFloat16:      {"f16", "float16", "t_f16"},
	DTypeBFloat16:     {"bf16", "bfloat16", "t_bf16"},
	DTypeFloat32:      {"f32", "float32", "t_f32"},
	DTypeFloat64:      {"f64", "float64", "t_f64"},
	DTypeComplex64:    {"c64", "complex64", "t_c64"},
	DTypeComplex128:   {"c128", "complex128", "t_c128"},
	DTypeFloat8E4M3FN: {"f8e4m3fn", "float8_e4m3fn", "t_f8e4m3fn"},
	DTypeFloat8E5M2:   {"f8e5m2", "float8_e5m2", "t_f8e5m2"},
	DTypeIndex:        {"index", "index", "t_index"},
	DTypePString:      {"pstring", "pstring", ""},
}

var (
	dtypeByText = map[string]DType{}
	dtypeByData = map[string]DType{}
	dtypeByJSON = map[string]DType{}
)

func init() {
	for d := DType(0); d < numDTypes; d++ {
		n := dtypeNames[d]
		dtypeByText[n.text] = d
		dtypeByData[n.data] = d
		if n.json != "" {
			dtypeByJSON[n.json] = d
		}
	}
	// Paddle's own parser table spells pstring "psting"; accept it on read.
	dtypeByData["psting"] = DTypePString
}

// String returns the scalar type spelling of d in PIR text (f32, i64, b, …).
func (d DType) String() string {
	if d < numDTypes {
		return dtypeNames[d].text
	}
	return fmt.Sprintf("dtype(%d)", uint8(d))
}

// DataTypeName returns the spelling of d as a pd_op.DataType attribute value (float32, int64, bool, …).
func (d DType) DataTypeName() string {
	if d < numDTypes {
		return dtypeNames[d].data
	}
	return d.String()
}

// JSONName returns the PIR JSON type id suffix of d (t_f32) or "" if PIR JSON has none.
func (d DType) JSONName() string {
	if d < numDTypes {
		return dtypeNames[d].json
	}
	return ""
}

// IsFloat reports whether d is a real floating-point type.
func (d DType) IsFloat() bool {
	switch d {
	case DTypeFloat16, DTypeBFloat16, DTypeFloat32, DTypeFloat64, DTypeFloat8E4M3FN, DTypeFloat8E5M2:
		return true
	}
	return false
}

// IsInteger reports whether d is a signed or unsigned integer type (bool and index excluded).
func (d DType) IsInteger() bool {
	switch d {
	case DTypeUint8, DTypeInt8, DTypeUint16, DTypeInt16, DTypeUint32, DTypeInt32, DTypeUint64, DTypeInt64:
		return true
	}
	return false
}

// DTypeFromText parses a scalar type spelling of PIR text (f32, i64, b, …).
func DTypeFromText(s string) (DType, bool) {
	d, ok := dtypeByText[s]
	return d, ok
}

// DTypeFromDataType parses a pd_op.DataType spelling (float32, int64, bool, …).
func DTypeFromDataType(s string) (DType, bool) {
	d, ok := dtypeByData[s]
	return d, ok
}

// DTypeFromJSON parses a PIR JSON scalar type id suffix (t_f32, t_ui8, …).
func DTypeFromJSON(s string) (DType, bool) {
	d, ok := dtypeByJSON[s]
	return d, ok
}

// DTypes returns every element type, in declaration order.
func DTypes() []DType {
	out := make([]DType, 0, numDTypes)
	for d := DType(0); d < numDTypes; d++ {
		out = append(out, d)
	}
	return out
}
