package interp

import (
	"math"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// buffer is the storage of one or more values: an op result that is a view or an inplace result shares the buffer
// of its operand, so that a write through one value is seen through all of them.
type buffer[T tensor.Float] struct {
	data []T
	// borrowed marks data owned by the caller (a fed tensor used without copying); it is copied before the first
	// write (all values sharing the buffer then see the copy).
	borrowed bool
	// random marks data that depends on a random op's draw (see k_random.go).
	random bool
}

// writable makes the buffer's data the machine's own, copying borrowed data.
func (b *buffer[T]) writable() []T {
	if b.borrowed {
		b.data = append([]T(nil), b.data...)
		b.borrowed = false
	}
	return b.data
}

// overwrite writes the elements of r, the buffer of result j of a kernel (of b's length), into b: every value
// sharing b sees them. When r is the kernel's own fresh buffer — no operand in args and no other result in res
// shares it, and it borrows nothing — b takes r's data instead of a copy of it: an inplace op then costs no copy,
// and data b borrowed (a fed tensor, an output's snapshot) is left as it was.
func (b *buffer[T]) overwrite(r *buffer[T], args, res []*value[T], j int) {
	fresh := !r.borrowed
	for _, a := range args {
		fresh = fresh && !a.sharesBuffer(r)
	}
	for i, o := range res {
		fresh = fresh && (i == j || !o.sharesBuffer(r))
	}
	if !fresh {
		copy(b.writable(), r.data)
		return
	}
	b.data, b.borrowed = r.data, false
}

// sharesBuffer reports whether v (or an element of a vector v) holds buffer r.
func (v *value[T]) sharesBuffer(r *buffer[T]) bool {
	if v == nil {
		return false
	}
	if v.vec {
		for _, e := range v.elems {
			if e.sharesBuffer(r) {
				return true
			}
		}
		return false
	}
	return v.buf == r
}

// value is the run-time value of an ir.Value: a tensor (a shape and a dtype over a buffer) or a vector of values
// (builtin.combine, split and split_with_num results).
type value[T tensor.Float] struct {
	buf   *buffer[T]
	shape []int
	dtype ir.DType
	// vec marks a vector value; elems holds its elements.
	vec   bool
	elems []*value[T]
	// rounding estimates the rounding error of the value's computation, as a variance in units of the unit
	// roundoff (rounding.go).
	rounding float64
}

// newValue wraps a freshly computed kernel result, taking ownership of its data.
func newValue[T tensor.Float](t *tensor.Tensor[T], dt ir.DType) *value[T] {
	return &value[T]{buf: &buffer[T]{data: t.Data}, shape: t.Shape, dtype: dt}
}

// fromHost converts a host tensor into a value, rounding to T. In float64 the value borrows the host data
// (copied on the first write); in float32 it gets its own buffer.
func fromHost[T tensor.Float](h *Tensor) *value[T] {
	if d, ok := any(h.Data).([]T); ok {
		return &value[T]{buf: &buffer[T]{data: d, borrowed: true}, shape: append([]int{}, h.Shape...), dtype: h.DType}
	}
	data := make([]T, len(h.Data))
	for i, x := range h.Data {
		data[i] = T(x)
	}
	return &value[T]{buf: &buffer[T]{data: data}, shape: append([]int{}, h.Shape...), dtype: h.DType}
}

// view returns a value sharing v's buffer with another shape (the caller checks the element count).
func (v *value[T]) view(shape []int, dt ir.DType) *value[T] {
	if v.vec {
		return &value[T]{vec: true, elems: v.elems}
	}
	return &value[T]{buf: v.buf, shape: shape, dtype: dt}
}

// tensor returns a kernel view of v (sharing its data; kernels never modify their inputs).
func (v *value[T]) tensor() *tensor.Tensor[T] {
	return &tensor.Tensor[T]{Shape: v.shape, Data: v.buf.data}
}

// numel returns the element count of a tensor value.
func (v *value[T]) NumElements() int {
	n := 1
	for _, d := range v.shape {
		n *= d
	}
	return n
}

// host copies a tensor value out as a host tensor.
func (v *value[T]) host() *Tensor {
	out := &Tensor{DType: v.dtype, Shape: append([]int{}, v.shape...), Data: make([]float64, len(v.buf.data))}
	for i, x := range v.buf.data {
		out.Data[i] = float64(x)
	}
	return out
}

// output returns v as an output value: a float64 host copy, or, when compact, a host tensor without data and the
// elements in T, shared with v's buffer. With snapshot (an output taken while the program runs on), the buffer
// becomes borrowed: an op that writes it later copies it first (buffer.writable), so the output keeps the values
// it had when taken, without a copy of a tensor nothing writes again.
func (v *value[T]) output(compact, snapshot bool) (*Tensor, any) {
	if !compact {
		return v.host(), nil
	}
	if snapshot {
		v.buf.borrowed = true
	}
	return &Tensor{DType: v.dtype, Shape: append([]int{}, v.shape...)}, v.buf.data
}

// copyValue returns a deep copy of a tensor value in a new buffer.
func copyValue[T tensor.Float](v *value[T]) *value[T] {
	data := make([]T, len(v.buf.data))
	copy(data, v.buf.data)
	return &value[T]{buf: &buffer[T]{data: data}, shape: append([]int{}, v.shape...), dtype: v.dtype}
}

// normalizeDType makes the elements of data valid for dt: integers are truncated toward zero and booleans become
// 0 or 1. Floating-point types keep the evaluation precision.
func normalizeDType[T tensor.Float](data []T, dt ir.DType) {
	switch {
	case dt == ir.DTypeBool:
		for i, x := range data {
			if x != 0 {
				data[i] = 1
			}
		}
	case dt.IsInteger():
		for i, x := range data {
			data[i] = T(math.Trunc(float64(x)))
		}
	}
}

// hasComplex reports whether v is, or a vector v holds, a complex tensor.
func (v *value[T]) hasComplex() bool {
	if v.vec {
		for _, e := range v.elems {
			if e.hasComplex() {
				return true
			}
		}
		return false
	}
	return isComplex(v.dtype)
}

// isRandom reports whether v (or an element of a vector v) depends on a random op's draw.
func (v *value[T]) isRandom() bool {
	if v.vec {
		for _, e := range v.elems {
			if e.isRandom() {
				return true
			}
		}
		return false
	}
	return v.buf != nil && v.buf.random
}

// markRandom marks v's buffers as depending on a random draw.
func (v *value[T]) markRandom() {
	if v.vec {
		for _, e := range v.elems {
			e.markRandom()
		}
		return
	}
	if v.buf != nil {
		v.buf.random = true
	}
}

// roundingOf returns the rounding variance of v (the largest of a vector's elements).
func (v *value[T]) roundingOf() float64 {
	if v == nil {
		return 0
	}
	if v.vec {
		r := 0.0
		for _, e := range v.elems {
			r = max(r, e.roundingOf())
		}
		return r
	}
	return v.rounding
}

// setRounding sets the rounding variance of v (and of a vector's elements).
func (v *value[T]) setRounding(r float64) {
	if v.vec {
		for _, e := range v.elems {
			e.setRounding(r)
		}
		return
	}
	v.rounding = r
}
