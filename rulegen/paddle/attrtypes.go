package paddle

import (
	"fmt"

	"github.com/pirdrr/drr/ir"
)

// CppType is how one attribute type of the op catalog is read and written through Paddle's DRR API: the C++ type
// T of MatchContext::Attr<T> and of a ComputeAttr lambda's result, and the ResultPattern builder of a constant of
// that type. Paddle picks the IR attribute kind a ComputeAttr creates from the C++ type of the value it returns
// (ir_operation_factory.cc), and MatchContext::Attr<T> casts the IR attribute to T (attr_type_uilts.h), so the
// C++ type must be exactly the one the attribute's kind maps to.
type CppType struct {
	// Read is T of MatchContext::Attr<T>; "" if Paddle cannot read the kind.
	Read string
	// Compute is the type a ComputeAttr lambda returns to create the kind; "" if Paddle cannot create it.
	Compute string
	// Builder is the ResultPattern method that creates a constant of the kind (Float32Attr, DataTypeAttr, …); ""
	// if a constant needs a ComputeAttr.
	Builder string
}

// cppTypes maps the catalog's attribute kinds (scalars; arrays below) to their C++ types. full.value is f64 in
// the catalog (PIR 3.x stores the Scalar as a DoubleAttribute), read as double and created through ComputeAttr
// returning double (there is no Float64Attr builder); scale.bias is f32 (float, Float32Attr); IntArray is read
// and created as std::vector<int64_t>, which Paddle maps to IntArrayAttribute; an i64[] (an ArrayAttribute of
// Int64Attribute) can be read as std::vector<int64_t> but not created: the same C++ type creates an IntArray.
var cppTypes = map[ir.AttrKind]CppType{
	ir.KindBool:     {Read: "bool", Compute: "bool", Builder: "BoolAttr"},
	ir.KindInt32:    {Read: "int32_t", Compute: "int32_t", Builder: "Int32Attr"},
	ir.KindInt64:    {Read: "int64_t", Compute: "int64_t", Builder: "Int64Attr"},
	ir.KindFloat:    {Read: "float", Compute: "float", Builder: "Float32Attr"},
	ir.KindDouble:   {Read: "double", Compute: "double"},
	ir.KindStr:      {Read: "std::string", Compute: "std::string", Builder: "StrAttr"},
	ir.KindIntArray: {Read: "std::vector<int64_t>", Compute: "std::vector<int64_t>", Builder: "VectorInt64Attr"},
	ir.KindDataType: {Read: "phi::DataType", Compute: "phi::DataType", Builder: "DataTypeAttr"},
	ir.KindPlace:    {Read: "phi::Place", Compute: "phi::Place", Builder: "PlaceAttr"},
	// DataLayout: ResultPattern::DataLayoutAttr creates one, MatchContext::Attr has no instance to read one.
	ir.KindDataLayout: {Builder: "DataLayoutAttr"},
}

// cppArrayTypes maps the element kinds of array attributes.
var cppArrayTypes = map[ir.AttrKind]CppType{
	ir.KindInt32: {Read: "std::vector<int32_t>", Compute: "std::vector<int32_t>", Builder: "VectorInt32Attr"},
	ir.KindInt64: {Read: "std::vector<int64_t>"},
	ir.KindFloat: {Read: "std::vector<float>", Compute: "std::vector<float>", Builder: "VectorFloatAttr"},
}

// TypeOf returns the C++ types of attribute type t (zero for a kind Paddle's DRR API neither reads nor writes:
// Scalar, complex numbers, types, pointers, arrays of other kinds).
func TypeOf(t ir.AttrType) CppType {
	if t.Array {
		return cppArrayTypes[t.Kind]
	}
	return cppTypes[t.Kind]
}

// AttrType returns the catalog type of attribute name of op, with an error if the catalog has no such attribute.
func AttrType(ctx *ir.Context, op, name string) (ir.AttrType, error) {
	s := ctx.Schema(op)
	if s == nil {
		return ir.AttrType{}, fmt.Errorf("%s is not in the op catalog", op)
	}
	a := s.Attr(name)
	if a == nil {
		return ir.AttrType{}, fmt.Errorf("%s has no attribute %s in the op catalog", op, name)
	}
	return a.Type, nil
}

// CheckRead reports whether reading attribute name of op as MatchContext::Attr<cpp> agrees with the catalog.
func CheckRead(ctx *ir.Context, op, name, cpp string) error {
	t, err := AttrType(ctx, op, name)
	if err != nil {
		return err
	}
	want := TypeOf(t).Read
	if want == "" {
		return fmt.Errorf("%s.%s (%s) cannot be read with Paddle's MatchContext::Attr", op, name, t)
	}
	if want != cpp {
		return fmt.Errorf("%s.%s is %s in the op catalog, read as %s, not %s", op, name, t, want, cpp)
	}
	return nil
}

// CheckWrite reports whether creating attribute name of op from a ComputeAttr returning cpp, or with the builder
// res.<cpp>, agrees with the catalog.
func CheckWrite(ctx *ir.Context, op, name, cpp string, builder bool) error {
	t, err := AttrType(ctx, op, name)
	if err != nil {
		return err
	}
	ct := TypeOf(t)
	want := ct.Compute
	if builder {
		want = ct.Builder
	}
	if want == "" {
		return fmt.Errorf("%s.%s (%s) cannot be created in Paddle's DRR%s", op, name, t, map[bool]string{true: " with a builder", false: ""}[builder])
	}
	if want != cpp {
		return fmt.Errorf("%s.%s is %s in the op catalog, created with %s, not %s", op, name, t, want, cpp)
	}
	return nil
}
