package ir

import (
	"math"
	"strconv"
	"strings"
)

// Attribute is a compile-time value attached to an Op by name. Attributes are interned by their Context: two
// attributes are equal exactly when they are the same pointer.
//
// The concrete attributes are *BoolAttr, *Int32Attr, *Int64Attr, *IndexAttr, *FloatAttr, *DoubleAttr, *StrAttr,
// *ArrayAttr, *TypeAttr, *PointerAttr, *ComplexAttr, *IntArrayAttr, *DataTypeAttr, *PlaceAttr, *DataLayoutAttr,
// *ScalarAttr, *TensorNameAttr, *OpaqueAttr and *NullAttr.
type Attribute interface {
	// Kind returns the attribute's kind.
	Kind() AttrKind
	// String returns the attribute in the tagged PIR text syntax ((Int32)1, (Float)1e-05, "EXPLICIT", …).
	String() string
	// key returns the interning key; kinds are distinguished by their text tags.
	key() string
}

// AttrKind is the kind of an attribute value.
type AttrKind uint8

// The attribute kinds. KindAny is not a kind of any value; schemas use it to accept every kind.
const (
	KindAny AttrKind = iota
	KindBool
	KindInt32
	KindInt64
	KindIndex
	KindFloat
	KindDouble
	KindStr
	KindArray
	KindType
	KindPointer
	KindComplex64
	KindComplex128
	KindIntArray
	KindDataType
	KindPlace
	KindDataLayout
	KindScalar
	KindTensorName
	KindOpaque
	KindNull
	numAttrKinds
)

var attrKindNames = [numAttrKinds]string{
	KindAny: "any", KindBool: "bool", KindInt32: "i32", KindInt64: "i64", KindIndex: "index", KindFloat: "f32",
	KindDouble: "f64", KindStr: "str", KindArray: "array", KindType: "type", KindPointer: "pointer",
	KindComplex64: "c64", KindComplex128: "c128", KindIntArray: "IntArray", KindDataType: "DataType",
	KindPlace: "Place", KindDataLayout: "DataLayout", KindScalar: "Scalar", KindTensorName: "TensorName",
	KindOpaque: "opaque", KindNull: "null",
}

// String returns the name of k as written in dialect catalogs (i32, f32, IntArray, …).
func (k AttrKind) String() string {
	if k < numAttrKinds {
		return attrKindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// AttrKindFromName parses an attribute kind name as written in dialect catalogs.
func AttrKindFromName(s string) (AttrKind, bool) {
	for k, n := range attrKindNames {
		if n == s {
			return AttrKind(k), true
		}
	}
	return 0, false
}

// BoolAttr is a boolean attribute (true, false).
type BoolAttr struct{ Value bool }

// Int32Attr is a 32-bit integer attribute ((Int32)1).
type Int32Attr struct{ Value int32 }

// Int64Attr is a 64-bit integer attribute ((Int64)-1).
type Int64Attr struct{ Value int64 }

// IndexAttr is an index attribute ((Index)3).
type IndexAttr struct{ Value int64 }

// FloatAttr is a 32-bit float attribute ((Float)1e-05).
type FloatAttr struct{ Value float32 }

// DoubleAttr is a 64-bit float attribute ((Double)1).
type DoubleAttr struct{ Value float64 }

// StrAttr is a string attribute ("EXPLICIT").
type StrAttr struct{ Value string }

// ArrayAttr is a list of attributes ([(Int32)1,(Int32)1]).
type ArrayAttr struct{ Elems []Attribute }

// TypeAttr is a type used as an attribute.
type TypeAttr struct{ Type Type }

// PointerAttr is a raw pointer attribute, kept as its text ((Pointer)0x7f…).
type PointerAttr struct{ Text string }

// ComplexAttr is a complex number attribute of 64 (two f32) or 128 (two f64) bits.
type ComplexAttr struct {
	Bits     int // 64 or 128
	Real, Im float64
}

// IntArrayAttr is Paddle's IntArray attribute ((pd_op.IntArray)[1,2]).
type IntArrayAttr struct{ Values []int64 }

// DataTypeAttr is Paddle's DataType attribute ((pd_op.DataType)float32).
type DataTypeAttr struct{ DType DType }

// PlaceAttr is Paddle's Place attribute ((pd_op.Place)Place(cpu)).
type PlaceAttr struct{ Place Place }

// DataLayoutAttr is Paddle's DataLayout attribute ((pd_op.DataLayout)NCHW).
type DataLayoutAttr struct{ Layout string }

// ScalarAttr is Paddle's Scalar attribute: a number with its own data type.
type ScalarAttr struct {
	DType DType
	Value Attribute // a BoolAttr, Int32Attr, Int64Attr, FloatAttr, DoubleAttr or ComplexAttr
}

// TensorNameAttr is the builtin TensorName attribute.
type TensorNameAttr struct{ Name string }

// OpaqueAttr is an attribute of a dialect the engine does not model (kernel_key:<…>, kernel_info:(0x…)), kept
// as its exact text.
type OpaqueAttr struct{ Text string }

// NullAttr is the absent attribute, printed <#AttrNull>.
type NullAttr struct{}

// Place is a device placement: an allocation type, a device id and, for custom devices, the device type name.
type Place struct {
	Type   PlaceType
	Device int
	Custom string
}

// PlaceType is Paddle's AllocationType; the numbers are the ones PIR JSON writes.
type PlaceType int

// The allocation types of Paddle's phi::AllocationType.
const (
	PlaceUndefined PlaceType = 0
	PlaceCPU       PlaceType = 1
	PlaceGPU       PlaceType = 2
	PlaceGPUPinned PlaceType = 3
	PlaceXPU       PlaceType = 4
	PlaceXPUPinned PlaceType = 5
	PlaceIPU       PlaceType = 7
	PlaceCustom    PlaceType = 9
)

// String returns p as Paddle prints it inside a Place attribute: Place(cpu), Place(gpu:0), Place(undefined:0), ….
// Like Paddle's printer it drops the device id of cpu and pinned places, and a custom device named like a builtin
// one reads back as the builtin; PIR JSON keeps both, so only a JSON → text → JSON trip can lose them.
func (p Place) String() string {
	dev := strconv.Itoa(p.Device)
	switch p.Type {
	case PlaceCPU:
		return "Place(cpu)"
	case PlaceGPUPinned:
		return "Place(gpu_pinned)"
	case PlaceXPUPinned:
		return "Place(xpu_pinned)"
	case PlaceGPU:
		return "Place(gpu:" + dev + ")"
	case PlaceXPU:
		return "Place(xpu:" + dev + ")"
	case PlaceIPU:
		return "Place(ipu:" + dev + ")"
	case PlaceUndefined:
		return "Place(undefined:" + dev + ")"
	case PlaceCustom:
		return "Place(" + p.Custom + ":" + dev + ")"
	}
	return "Place(" + strconv.Itoa(int(p.Type)) + ":" + dev + ")"
}

// ParsePlace parses the inside of Place(…) as Paddle prints it ("cpu", "gpu:0", "undefined:0", "npu:1", …).
func ParsePlace(s string) (Place, bool) {
	name, dev, hasDev := strings.Cut(s, ":")
	d := 0
	if hasDev {
		n, err := strconv.Atoi(dev)
		if err != nil {
			return Place{}, false
		}
		d = n
	}
	switch name {
	case "cpu":
		return Place{Type: PlaceCPU, Device: d}, true
	case "gpu_pinned":
		return Place{Type: PlaceGPUPinned, Device: d}, true
	case "xpu_pinned":
		return Place{Type: PlaceXPUPinned, Device: d}, true
	case "gpu":
		return Place{Type: PlaceGPU, Device: d}, true
	case "xpu":
		return Place{Type: PlaceXPU, Device: d}, true
	case "ipu":
		return Place{Type: PlaceIPU, Device: d}, true
	case "undefined", "":
		return Place{Type: PlaceUndefined, Device: d}, true
	}
	if n, err := strconv.Atoi(name); err == nil {
		return Place{Type: PlaceType(n), Device: d}, true
	}
	if !hasDev {
		return Place{}, false
	}
	return Place{Type: PlaceCustom, Device: d, Custom: name}, true
}

func (*BoolAttr) Kind() AttrKind       { return KindBool }
func (*Int32Attr) Kind() AttrKind      { return KindInt32 }
func (*Int64Attr) Kind() AttrKind      { return KindInt64 }
func (*IndexAttr) Kind() AttrKind      { return KindIndex }
func (*FloatAttr) Kind() AttrKind      { return KindFloat }
func (*DoubleAttr) Kind() AttrKind     { return KindDouble }
func (*StrAttr) Kind() AttrKind        { return KindStr }
func (*ArrayAttr) Kind() AttrKind      { return KindArray }
func (*TypeAttr) Kind() AttrKind       { return KindType }
func (*PointerAttr) Kind() AttrKind    { return KindPointer }
func (*IntArrayAttr) Kind() AttrKind   { return KindIntArray }
func (*DataTypeAttr) Kind() AttrKind   { return KindDataType }
func (*PlaceAttr) Kind() AttrKind      { return KindPlace }
func (*DataLayoutAttr) Kind() AttrKind { return KindDataLayout }
func (*ScalarAttr) Kind() AttrKind     { return KindScalar }
func (*TensorNameAttr) Kind() AttrKind { return KindTensorName }
func (*OpaqueAttr) Kind() AttrKind     { return KindOpaque }
func (*NullAttr) Kind() AttrKind       { return KindNull }

// Kind returns KindComplex64 or KindComplex128.
func (a *ComplexAttr) Kind() AttrKind {
	if a.Bits == 64 {
		return KindComplex64
	}
	return KindComplex128
}

func (a *BoolAttr) String() string {
	if a.Value {
		return "true"
	}
	return "false"
}
func (a *Int32Attr) String() string  { return "(Int32)" + strconv.FormatInt(int64(a.Value), 10) }
func (a *Int64Attr) String() string  { return "(Int64)" + strconv.FormatInt(a.Value, 10) }
func (a *IndexAttr) String() string  { return "(Index)" + strconv.FormatInt(a.Value, 10) }
func (a *FloatAttr) String() string  { return "(Float)" + FormatFloat(float64(a.Value), 32) }
func (a *DoubleAttr) String() string { return "(Double)" + FormatFloat(a.Value, 64) }
func (a *StrAttr) String() string    { return QuoteString(a.Value) }
func (a *ArrayAttr) String() string {
	var b strings.Builder
	b.WriteByte('[')
	for i, e := range a.Elems {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(e.String())
	}
	b.WriteByte(']')
	return b.String()
}
func (a *TypeAttr) String() string    { return a.Type.String() }
func (a *PointerAttr) String() string { return "(Pointer)" + a.Text }
func (a *ComplexAttr) String() string {
	tag := "(Complex128)"
	if a.Bits == 64 {
		tag = "(Complex64)"
	}
	return tag + "[" + FormatFloat(a.Real, a.Bits/2) + "," + FormatFloat(a.Im, a.Bits/2) + "]"
}
func (a *IntArrayAttr) String() string   { return "(pd_op.IntArray)" + formatInts(a.Values) }
func (a *DataTypeAttr) String() string   { return "(pd_op.DataType)" + a.DType.DataTypeName() }
func (a *PlaceAttr) String() string      { return "(pd_op.Place)" + a.Place.String() }
func (a *DataLayoutAttr) String() string { return "(pd_op.DataLayout)" + a.Layout }
func (a *ScalarAttr) String() string {
	return "(pd_op.Scalar)" + a.DType.DataTypeName() + ":" + a.Value.String()
}
func (a *TensorNameAttr) String() string { return "(TensorName)" + QuoteString(a.Name) }
func (a *OpaqueAttr) String() string     { return a.Text }
func (*NullAttr) String() string         { return "<#AttrNull>" }

func (a *BoolAttr) key() string     { return a.String() }
func (a *Int32Attr) key() string    { return a.String() }
func (a *Int64Attr) key() string    { return a.String() }
func (a *IndexAttr) key() string    { return a.String() }
func (a *FloatAttr) key() string    { return "(Float)" + floatKey(float64(a.Value), 32) }
func (a *DoubleAttr) key() string   { return "(Double)" + floatKey(a.Value, 64) }
func (a *StrAttr) key() string      { return a.String() }
func (a *TypeAttr) key() string     { return "(Type)" + a.Type.key() }
func (a *PointerAttr) key() string  { return a.String() }
func (a *IntArrayAttr) key() string { return a.String() }
func (a *DataTypeAttr) key() string { return a.String() }
func (a *PlaceAttr) key() string {
	return "(pd_op.Place)" + strconv.Itoa(int(a.Place.Type)) + ":" + strconv.Itoa(a.Place.Device) + ":" + a.Place.Custom
}
func (a *DataLayoutAttr) key() string { return a.String() }
func (a *ScalarAttr) key() string {
	return "(pd_op.Scalar)" + a.DType.DataTypeName() + ":" + a.Value.key()
}
func (a *TensorNameAttr) key() string { return a.String() }
func (a *OpaqueAttr) key() string     { return "(Opaque)" + a.Text }
func (*NullAttr) key() string         { return "<#AttrNull>" }
func (a *ComplexAttr) key() string {
	return "(Complex" + strconv.Itoa(a.Bits) + ")" + floatKey(a.Real, 64) + "," + floatKey(a.Im, 64)
}
func (a *ArrayAttr) key() string {
	var b strings.Builder
	b.WriteByte('[')
	for i, e := range a.Elems {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(e.key())
	}
	b.WriteByte(']')
	return b.String()
}

// floatKey distinguishes every float value exactly (including -0 and NaN payloads, which all intern as one NaN).
func floatKey(v float64, bits int) string {
	if math.IsNaN(v) {
		return "nan"
	}
	return strconv.FormatFloat(v, 'g', -1, bits)
}

func formatInts(v []int64) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(x, 10))
	}
	b.WriteByte(']')
	return b.String()
}

// FormatFloat formats v for PIR text: the shortest decimal that reads back as the same float of the given bit size
// (32 or 64), in C's %g layout (exponent for exponents < -4 or >= 6, at least two exponent digits), and inf, -inf,
// nan. For every value Paddle's printer writes (6 significant digits) this is exactly Paddle's text; values that
// need more digits keep them, so text round-trips are lossless.
func FormatFloat(v float64, bits int) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'g', -1, bits)
}

// QuoteString quotes s for PIR text: double quotes, with ", \ and control characters escaped.
func QuoteString(s string) string {
	return string(AppendQuoted(nil, s))
}

// AppendQuoted appends s quoted as QuoteString does: \" \\ \n \t \r, and \xHH for the other control characters.
func AppendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		start = i + 1
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\t':
			b = append(b, '\\', 't')
		case '\r':
			b = append(b, '\\', 'r')
		default:
			b = append(b, '\\', 'x', "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
		}
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// Accessors for common attribute shapes, used by rules, type rules and passes.

// AsInt returns the value of an integer attribute (Int32, Int64, Index, or a Scalar holding one) and whether a is one.
func AsInt(a Attribute) (int64, bool) {
	switch a := a.(type) {
	case *Int32Attr:
		return int64(a.Value), true
	case *Int64Attr:
		return a.Value, true
	case *IndexAttr:
		return a.Value, true
	case *ScalarAttr:
		return AsInt(a.Value)
	}
	return 0, false
}

// AsFloat returns the value of a numeric attribute (Float, Double, the integer kinds, or a Scalar holding one).
func AsFloat(a Attribute) (float64, bool) {
	switch a := a.(type) {
	case *FloatAttr:
		return float64(a.Value), true
	case *DoubleAttr:
		return a.Value, true
	case *ScalarAttr:
		return AsFloat(a.Value)
	}
	if i, ok := AsInt(a); ok {
		return float64(i), true
	}
	return 0, false
}

// AsString returns the value of a Str attribute (or TensorName, DataLayout) and whether a is one.
func AsString(a Attribute) (string, bool) {
	switch a := a.(type) {
	case *StrAttr:
		return a.Value, true
	case *TensorNameAttr:
		return a.Name, true
	case *DataLayoutAttr:
		return a.Layout, true
	}
	return "", false
}

// AsBool returns the value of a Bool attribute and whether a is one.
func AsBool(a Attribute) (bool, bool) {
	if b, ok := a.(*BoolAttr); ok {
		return b.Value, true
	}
	return false, false
}

// AsInts returns the integers of an IntArray attribute or of an array of integer attributes.
func AsInts(a Attribute) ([]int64, bool) {
	switch a := a.(type) {
	case *IntArrayAttr:
		return a.Values, true
	case *ArrayAttr:
		out := make([]int64, len(a.Elems))
		for i, e := range a.Elems {
			v, ok := AsInt(e)
			if !ok {
				return nil, false
			}
			out[i] = v
		}
		return out, true
	}
	return nil, false
}

// AsFloats returns the numbers of an array of numeric attributes.
func AsFloats(a Attribute) ([]float64, bool) {
	arr, ok := a.(*ArrayAttr)
	if !ok {
		return nil, false
	}
	out := make([]float64, len(arr.Elems))
	for i, e := range arr.Elems {
		v, ok := AsFloat(e)
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}
