package cost

import (
	"fmt"

	"github.com/pirdrr/drr/ir"
)

// Work is what one op does, independent of the device: the floating-point (or integer) operations it performs,
// the bytes it reads and writes in device memory, and the kernels it launches.
type Work struct {
	// FLOPs counts multiply and add as one each (a multiply-accumulate is 2), as XLA's cost analysis does;
	// transcendental functions count as the few operations of their usual polynomial.
	FLOPs int64
	// Read and Written are bytes moved from and to device memory, with the element sizes of the types.
	Read, Written int64
	// Kernels is 0 for ops that move no data (views, metadata, vector plumbing, program inputs and outputs), 1 for
	// an op Paddle runs as one kernel (a fused op included).
	Kernels int
	// Unit and DType decide the peak rate the FLOPs run at (Device.Rate).
	Unit  Unit
	DType ir.DType
}

// Bytes is the bytes the op moves: read plus written.
func (w Work) Bytes() int64 { return w.Read + w.Written }

// none is the work of an op that runs no kernel.
var none = Work{}

// shape is a tensor operand or result as the formulas see it: dims with dynamic dims replaced, the element type.
type shape struct {
	dims []int64
	dt   ir.DType
}

// elems returns the number of elements.
func (s shape) elems() int64 {
	n := int64(1)
	for _, d := range s.dims {
		n *= d
	}
	return n
}

// bytes returns the size in bytes.
func (s shape) bytes() int64 { return s.elems() * int64(elemSize(s.dt)) }

// rank returns the number of dims.
func (s shape) rank() int { return len(s.dims) }

// dim returns dim i, counting from the end when i is negative; 1 out of range.
func (s shape) dim(i int) int64 {
	if i < 0 {
		i += len(s.dims)
	}
	if i < 0 || i >= len(s.dims) {
		return 1
	}
	return s.dims[i]
}

// elemSize returns the size in bytes of one element of dt (0 when it has none).
func elemSize(dt ir.DType) int {
	switch dt {
	case ir.DTypeBool, ir.DTypeUint8, ir.DTypeInt8, ir.DTypeFloat8E4M3FN, ir.DTypeFloat8E5M2:
		return 1
	case ir.DTypeUint16, ir.DTypeInt16, ir.DTypeFloat16, ir.DTypeBFloat16:
		return 2
	case ir.DTypeUint32, ir.DTypeInt32, ir.DTypeFloat32:
		return 4
	case ir.DTypeUint64, ir.DTypeInt64, ir.DTypeFloat64, ir.DTypeComplex64, ir.DTypeIndex:
		return 8
	case ir.DTypeComplex128:
		return 16
	}
	return 0
}

// opView is an op as its formula reads it: operand and result shapes with dynamic dims replaced by the model's
// DynamicDim, attributes with their schema defaults.
type opView struct {
	op  *ir.Op
	dyn int64
	// dynamic is set when a type the formula read had a dynamic dim.
	dynamic bool
	// buf holds the dims of the shapes handed out since reset (they are read while the formula runs, never kept).
	buf []int64
	// beyond is set when the formula read more than the op's kind, attributes and operand and result types (the
	// op defining an operand: constInts), so that its work is not the same for every op with those (workMemo).
	beyond bool
}

// reset points the view at op, reusing its buffer.
func (v *opView) reset(op *ir.Op) {
	v.op, v.dynamic, v.buf, v.beyond = op, false, v.buf[:0], false
}

// tensorShape converts a tensor type.
func (v *opView) tensorShape(t ir.Type) (shape, bool) {
	tt := ir.TensorOf(t)
	if tt == nil {
		if sr, ok := t.(*ir.SelectedRowsType); ok {
			return v.dims(sr.Dims, ir.ElemDType(t)), true
		}
		return shape{}, false
	}
	return v.dims(tt.Dims, tt.DType()), true
}

func (v *opView) dims(ds []int64, dt ir.DType) shape {
	start := len(v.buf)
	for _, d := range ds {
		if d < 0 {
			d = v.dyn
			v.dynamic = true
		}
		v.buf = append(v.buf, d)
	}
	return shape{dims: v.buf[start:len(v.buf):len(v.buf)], dt: dt}
}

// typeBytes returns the bytes of a tensor type (a vector's tensors summed), dynamic dims as the model's.
func (v *opView) typeBytes(t ir.Type) int64 {
	switch t := t.(type) {
	case *ir.TensorType:
		return v.count(t.Dims) * int64(elemSize(t.DType()))
	case *ir.VectorType:
		n := int64(0)
		for _, e := range t.Elems {
			n += v.typeBytes(e)
		}
		return n
	case *ir.SelectedRowsType:
		return v.count(t.Dims) * int64(elemSize(ir.ElemDType(t)))
	}
	return 0
}

// count returns the element count of dims, dynamic ones as the model's.
func (v *opView) count(dims []int64) int64 {
	n := int64(1)
	for _, d := range dims {
		if d < 0 {
			d = v.dyn
			v.dynamic = true
		}
		n *= d
	}
	return n
}

// in returns operand i's shape; ok is false for an absent operand or one that is not a tensor.
func (v *opView) in(i int) (shape, bool) {
	if i >= v.op.NumOperands() {
		return shape{}, false
	}
	val := v.op.Operand(i)
	if val == nil {
		return shape{}, false
	}
	return v.tensorShape(val.Type())
}

// mustIn returns operand i's shape or an error naming it.
func (v *opView) mustIn(i int) (shape, error) {
	s, ok := v.in(i)
	if !ok {
		return s, fmt.Errorf("operand %d is not a tensor", i)
	}
	return s, nil
}

// out returns result i's shape.
func (v *opView) out(i int) (shape, bool) {
	if i >= v.op.NumResults() {
		return shape{}, false
	}
	return v.tensorShape(v.op.Result(i).Type())
}

// mustOut returns result i's shape or an error naming it.
func (v *opView) mustOut(i int) (shape, error) {
	s, ok := v.out(i)
	if !ok {
		return s, fmt.Errorf("result %d is not a tensor", i)
	}
	return s, nil
}

// inList returns the tensors of operand i when it is a vector (builtin.combine's result), or the operand alone.
func (v *opView) inList(i int) []shape {
	if i >= v.op.NumOperands() || v.op.Operand(i) == nil {
		return nil
	}
	return v.typeList(v.op.Operand(i).Type())
}

func (v *opView) typeList(t ir.Type) []shape {
	if vt, ok := t.(*ir.VectorType); ok {
		var out []shape
		for _, e := range vt.Elems {
			out = append(out, v.typeList(e)...)
		}
		return out
	}
	if s, ok := v.tensorShape(t); ok {
		return []shape{s}
	}
	return nil
}

// valueBytes returns the bytes of a value's tensors (all of a vector's).
func (v *opView) valueBytes(val *ir.Value) int64 {
	if val == nil {
		return 0
	}
	return v.typeBytes(val.Type())
}

// readAll returns the bytes of every operand (vector operands in full); skip names operands not to count.
func (v *opView) readAll(skip ...int) int64 {
	n := int64(0)
next:
	for i := 0; i < v.op.NumOperands(); i++ {
		for _, k := range skip {
			if k == i {
				continue next
			}
		}
		n += v.valueBytes(v.op.Operand(i))
	}
	return n
}

// writeAll returns the bytes of every result.
func (v *opView) writeAll() int64 {
	n := int64(0)
	for i := 0; i < v.op.NumResults(); i++ {
		n += v.valueBytes(v.op.Result(i))
	}
	return n
}

// firstTensor returns the first tensor result's shape, else the first tensor operand's: the shape an element-wise
// op iterates over.
func (v *opView) firstTensor() (shape, error) {
	if s, ok := v.out(0); ok {
		return s, nil
	}
	for i := 0; i < v.op.NumOperands(); i++ {
		if s, ok := v.in(i); ok {
			return s, nil
		}
	}
	return shape{}, fmt.Errorf("no tensor operand or result")
}

// ints returns an integer-array attribute (schema default when absent).
func (v *opView) ints(name string) ([]int64, bool) {
	return ir.AsInts(v.op.AttrOrDefault(name))
}

// int returns an integer attribute, or def.
func (v *opView) int(name string, def int64) int64 {
	if n, ok := ir.AsInt(v.op.AttrOrDefault(name)); ok {
		return n
	}
	return def
}

// str returns a string attribute, or "".
func (v *opView) str(name string) string {
	s, _ := ir.AsString(v.op.AttrOrDefault(name))
	return s
}

// bool returns a boolean attribute, or false.
func (v *opView) bool(name string) bool {
	b, _ := ir.AsBool(v.op.AttrOrDefault(name))
	return b
}

// constInts returns the values of operand i when a constant op defines it (full_int_array, …).
func (v *opView) constInts(i int) ([]int64, bool) {
	v.beyond = true
	if i >= v.op.NumOperands() || v.op.Operand(i) == nil {
		return nil, false
	}
	return ir.ConstInts(v.op.Operand(i))
}
