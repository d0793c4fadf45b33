package tensor

import (
	"errors"
	"fmt"
	"slices"
)

// Float is the set of element types a Tensor can hold.
type Float interface {
	float32 | float64
}

// Tensor is a dense, row-major (C order) tensor of float32 or float64
// elements. Shape holds the extent of every dimension (an empty Shape is a
// 0-D scalar holding exactly one element) and Data holds the elements, with
// len(Data) equal to the product of Shape.
//
// Kernels in this package never modify their inputs and always return
// freshly allocated results; the only exception is the Reshape method, which
// returns a view sharing Data.
type Tensor[T Float] struct {
	// Shape is the extent of each dimension, outermost first.
	Shape []int
	// Data holds the elements in row-major order.
	Data []T
}

// ErrNilTensor is returned (wrapped) when a required tensor argument is nil.
var ErrNilTensor = errors.New("nil tensor")

// New returns a zero-filled tensor of the given shape. Dimensions must be
// non-negative; New with no dimensions returns a 0-D scalar.
func New[T Float](shape ...int) (*Tensor[T], error) {
	n, err := numelOf(shape)
	if err != nil {
		return nil, err
	}
	return &Tensor[T]{Shape: cloneShape(shape), Data: make([]T, n)}, nil
}

// FromSlice returns a tensor of the given shape whose Data is a copy of data.
// It fails when len(data) does not match the shape.
func FromSlice[T Float](shape []int, data []T) (*Tensor[T], error) {
	n, err := numelOf(shape)
	if err != nil {
		return nil, err
	}
	if n != len(data) {
		return nil, fmt.Errorf("tensor: shape %v needs %d elements, got %d", shape, n, len(data))
	}
	return &Tensor[T]{Shape: cloneShape(shape), Data: slices.Clone(data)}, nil
}

// Full returns a tensor of the given shape with every element set to v.
func Full[T Float](v T, shape ...int) (*Tensor[T], error) {
	t, err := New[T](shape...)
	if err != nil {
		return nil, err
	}
	for i := range t.Data {
		t.Data[i] = v
	}
	return t, nil
}

// Scalar returns a 0-D tensor holding v.
func Scalar[T Float](v T) *Tensor[T] {
	return &Tensor[T]{Shape: []int{}, Data: []T{v}}
}

// Numel returns the number of elements implied by the shape.
func (t *Tensor[T]) Numel() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// Rank returns the number of dimensions.
func (t *Tensor[T]) Rank() int { return len(t.Shape) }

// Offset returns the position in Data of the element at the given
// multi-index, or an error when the index has the wrong length or is out of
// range. Negative indices are not accepted.
func (t *Tensor[T]) Offset(idx ...int) (int, error) {
	if len(idx) != len(t.Shape) {
		return 0, fmt.Errorf("tensor: index %v has %d components, tensor has rank %d", idx, len(idx), len(t.Shape))
	}
	off := 0
	for i, v := range idx {
		if v < 0 || v >= t.Shape[i] {
			return 0, fmt.Errorf("tensor: index %v out of range for shape %v", idx, t.Shape)
		}
		off = off*t.Shape[i] + v
	}
	if off >= len(t.Data) {
		return 0, fmt.Errorf("tensor: index %v beyond data of length %d", idx, len(t.Data))
	}
	return off, nil
}

// At returns the element at the given multi-index.
func (t *Tensor[T]) At(idx ...int) (T, error) {
	off, err := t.Offset(idx...)
	if err != nil {
		return 0, err
	}
	return t.Data[off], nil
}

// Set stores v at the given multi-index.
func (t *Tensor[T]) Set(v T, idx ...int) error {
	off, err := t.Offset(idx...)
	if err != nil {
		return err
	}
	t.Data[off] = v
	return nil
}

// Reshape returns a view of t with a new shape that shares t's Data (no
// copy). At most one dimension may be -1, in which case it is inferred; all
// other dimensions must be non-negative and the element count must match.
// For Paddle's reshape semantics (where 0 copies an input dimension) use the
// package-level Reshape function.
func (t *Tensor[T]) Reshape(shape ...int) (*Tensor[T], error) {
	if err := t.validate("reshape"); err != nil {
		return nil, err
	}
	out, err := inferShape(t.Shape, shape, false)
	if err != nil {
		return nil, err
	}
	return &Tensor[T]{Shape: out, Data: t.Data}, nil
}

// Clone returns a deep copy of t.
func (t *Tensor[T]) Clone() *Tensor[T] {
	if t == nil {
		return nil
	}
	return &Tensor[T]{Shape: cloneShape(t.Shape), Data: slices.Clone(t.Data)}
}

// String returns a short description (shape and element type), not the data.
func (t *Tensor[T]) String() string {
	if t == nil {
		return "Tensor(nil)"
	}
	var z T
	return fmt.Sprintf("Tensor[%T]%v", z, t.Shape)
}

// validate checks that t is non-nil, that its dimensions are non-negative and
// that len(Data) matches the shape. op names the caller for error messages.
func (t *Tensor[T]) validate(op string) error {
	if t == nil {
		return fmt.Errorf("tensor: %s: %w", op, ErrNilTensor)
	}
	n, err := numelOf(t.Shape)
	if err != nil {
		return fmt.Errorf("tensor: %s: %w", op, err)
	}
	if n != len(t.Data) {
		return fmt.Errorf("tensor: %s: shape %v needs %d elements but Data has %d", op, t.Shape, n, len(t.Data))
	}
	return nil
}

// numelOf returns the product of shape, rejecting negative dimensions and
// products that overflow int.
func numelOf(shape []int) (int, error) {
	n := 1
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("negative dimension in shape %v", shape)
		}
		if d != 0 && n > maxInt/d {
			return 0, fmt.Errorf("shape %v has too many elements", shape)
		}
		n *= d
	}
	return n, nil
}

const maxInt = int(^uint(0) >> 1)

// checkAlloc verifies that buffers of the given shapes have an element
// count representable as int, so that allocating them cannot panic on
// overflow (it can still fail for lack of memory).
func checkAlloc(op string, shapes ...[]int) error {
	for _, s := range shapes {
		if _, err := numelOf(s); err != nil {
			return fmt.Errorf("tensor: %s: %w", op, err)
		}
	}
	return nil
}

// stridesOf returns row-major strides for shape.
func stridesOf(shape []int) []int {
	st := make([]int, len(shape))
	s := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = s
		s *= shape[i]
	}
	return st
}

// newUnchecked allocates a tensor whose shape is already known to be valid.
func newUnchecked[T Float](shape []int) *Tensor[T] {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return &Tensor[T]{Shape: cloneShape(shape), Data: make([]T, n)}
}

// cloneShape copies a shape, returning a non-nil empty slice for 0-D.
func cloneShape(shape []int) []int {
	return append([]int{}, shape...)
}
