package ir

import (
	"strconv"
	"strings"
)

// Type is the type of a Value. Types are interned by their Context: two types are equal exactly when they are the
// same pointer, so types can be compared with ==.
//
// The concrete types are *ScalarType, *TensorType, *VectorType, *SelectedRowsType, *TensorArrayType,
// *OpaqueType and *NullType.
type Type interface {
	// String returns the type as PIR text prints it (builtin.tensor<1x64xf32>, vec[…], f32, …).
	String() string
	// key returns the interning key: String plus any parameter the text form leaves out.
	key() string
	// head returns the type's own head (see typeHead).
	head() *typeHead
}

// typeHead is part of every type: the type itself as an interface value, which its Context sets when it interns
// the type. A Value holds its type as a pointer to the head, one word where the interface takes two (a program has
// millions of values).
type typeHead struct{ self Type }

// headOf returns the head a Value stores for type t: t's own once interned; a head of its own for a type its
// Context did not intern (built by hand), so that reading a head never races with setting one.
func headOf(t Type) *typeHead {
	if t == nil {
		return nil
	}
	if h := t.head(); h.self != nil {
		return h
	}
	return &typeHead{self: t}
}

// Tensor spellings: the dialect-qualified names under which tensor types print. They share one representation,
// TensorType, and differ in meaning only for ValueTensor.
const (
	// DenseTensor is the mutable, possibly aliased tensor type real programs use.
	DenseTensor = "builtin.tensor"
	// LegacyTensor is the spelling of DenseTensor in older (2023) prints.
	LegacyTensor = "pd_op.tensor"
	// ValueTensor is the value-semantics tensor type of seed 000 §2.5: never mutated, never aliased.
	ValueTensor = "pd_op.v_tensor"
	// BareTensor is the spelling of DenseTensor in the newest (untagged) prints and in the oldest ones.
	BareTensor = "tensor"
)

// Dynamic is the size of a dimension that is unknown until run time (printed -1).
const Dynamic int64 = -1

// DefaultLayout is the data layout a tensor type has when its source did not say (PIR JSON always writes it).
const DefaultLayout = "NCHW"

// ScalarType is an element type used as a type: f32, i64, b, …
type ScalarType struct {
	DType DType
	h     typeHead
}

func (t *ScalarType) String() string  { return t.DType.String() }
func (t *ScalarType) key() string     { return t.DType.String() }
func (t *ScalarType) head() *typeHead { return &t.h }

// TensorType is a dense tensor type: its dims (Dynamic for unknown), element type and, for PIR JSON, the layout,
// LoD and offset that the text form does not print. Spelling is the name it prints under (DenseTensor,
// LegacyTensor, ValueTensor, BareTensor, or a kernel-dialect spelling such as gpu_tensor).
type TensorType struct {
	Spelling string
	Dims     []int64
	Elem     Type
	Layout   string
	LoD      [][]uint64
	Offset   uint64
	h        typeHead
}

func (t *TensorType) head() *typeHead { return &t.h }

func (t *TensorType) String() string {
	var b strings.Builder
	b.WriteString(t.Spelling)
	b.WriteByte('<')
	writeDims(&b, t.Dims)
	b.WriteString(t.Elem.String())
	b.WriteByte('>')
	return b.String()
}

func (t *TensorType) key() string { return t.String() + extKey(t.Layout, t.LoD, t.Offset) }

// IsValue reports whether t is a value tensor (pd_op.v_tensor): immutable and never aliased.
func (t *TensorType) IsValue() bool { return t.Spelling == ValueTensor }

// DType returns the element type of t as a DType, or DTypeUndefined if the element type is not a scalar.
func (t *TensorType) DType() DType {
	if s, ok := t.Elem.(*ScalarType); ok {
		return s.DType
	}
	return DTypeUndefined
}

// Rank returns the number of dimensions of t.
func (t *TensorType) Rank() int { return len(t.Dims) }

// Static reports whether every dimension of t is known.
func (t *TensorType) Static() bool {
	for _, d := range t.Dims {
		if d < 0 {
			return false
		}
	}
	return true
}

// NumElements returns the product of the dims of t, or -1 if some dimension is dynamic.
func (t *TensorType) NumElements() int64 {
	n := int64(1)
	for _, d := range t.Dims {
		if d < 0 {
			return -1
		}
		n *= d
	}
	return n
}

// VectorType is a vector of types, the type of a builtin.combine result (printed vec[T,T]).
type VectorType struct {
	Elems []Type
	h     typeHead
}

func (t *VectorType) head() *typeHead { return &t.h }

func (t *VectorType) String() string {
	var b strings.Builder
	b.WriteString("vec[")
	for i, e := range t.Elems {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(e.String())
	}
	b.WriteByte(']')
	return b.String()
}

func (t *VectorType) key() string {
	var b strings.Builder
	b.WriteString("vec[")
	for i, e := range t.Elems {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(e.key())
	}
	b.WriteByte(']')
	return b.String()
}

// SelectedRowsType is Paddle's sparse-rows tensor type (pd_op.selectedrows<…>).
type SelectedRowsType struct {
	Dims   []int64
	Elem   Type
	Layout string
	LoD    [][]uint64
	Offset uint64
	h      typeHead
}

func (t *SelectedRowsType) head() *typeHead { return &t.h }

func (t *SelectedRowsType) String() string {
	var b strings.Builder
	b.WriteString("pd_op.selectedrows<")
	writeDims(&b, t.Dims)
	b.WriteString(t.Elem.String())
	b.WriteByte('>')
	return b.String()
}

func (t *SelectedRowsType) key() string { return t.String() + extKey(t.Layout, t.LoD, t.Offset) }

// TensorArrayType is Paddle's tensor array type (pd_op.tensor_array<f32>).
type TensorArrayType struct {
	Elem   Type
	Dims   []int64
	Layout string
	h      typeHead
}

func (t *TensorArrayType) head() *typeHead { return &t.h }

func (t *TensorArrayType) String() string {
	var b strings.Builder
	b.WriteString("pd_op.tensor_array<")
	b.WriteString(t.Elem.String())
	b.WriteByte('>')
	return b.String()
}

func (t *TensorArrayType) key() string {
	var b strings.Builder
	b.WriteString(t.String())
	b.WriteString("{dims=")
	writeDims(&b, t.Dims)
	b.WriteString(",layout=")
	b.WriteString(t.Layout)
	b.WriteByte('}')
	return b.String()
}

// OpaqueType is a type of a dialect the engine does not model (the cf stack types, kernel types with places, …),
// kept as its exact text and printed back unchanged.
type OpaqueType struct {
	Text string
	h    typeHead
}

func (t *OpaqueType) String() string  { return t.Text }
func (t *OpaqueType) key() string     { return "opaque:" + t.Text }
func (t *OpaqueType) head() *typeHead { return &t.h }

// NullType is the absent type, printed <<NULL TYPE>>.
type NullType struct{ h typeHead }

func (*NullType) String() string    { return "<<NULL TYPE>>" }
func (*NullType) key() string       { return "<<NULL TYPE>>" }
func (t *NullType) head() *typeHead { return &t.h }

func writeDims(b *strings.Builder, dims []int64) {
	for _, d := range dims {
		b.WriteString(strconv.FormatInt(d, 10))
		b.WriteByte('x')
	}
}

func extKey(layout string, lod [][]uint64, offset uint64) string {
	if layout == DefaultLayout && len(lod) == 0 && offset == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("{layout=")
	b.WriteString(layout)
	b.WriteString(",lod=")
	for _, l := range lod {
		b.WriteByte('[')
		for i, x := range l {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatUint(x, 10))
		}
		b.WriteByte(']')
	}
	b.WriteString(",offset=")
	b.WriteString(strconv.FormatUint(offset, 10))
	b.WriteByte('}')
	return b.String()
}

// TensorOf returns t as a *TensorType, or nil if t is not a tensor type.
func TensorOf(t Type) *TensorType {
	tt, _ := t.(*TensorType)
	return tt
}

// ElemDType returns the element DType of a tensor, selected-rows or scalar type, or DTypeUndefined.
func ElemDType(t Type) DType {
	switch t := t.(type) {
	case *TensorType:
		return t.DType()
	case *ScalarType:
		return t.DType
	case *SelectedRowsType:
		if s, ok := t.Elem.(*ScalarType); ok {
			return s.DType
		}
	case *TensorArrayType:
		if s, ok := t.Elem.(*ScalarType); ok {
			return s.DType
		}
	}
	return DTypeUndefined
}
