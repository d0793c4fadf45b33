package interp

import (
	"fmt"
	"slices"

	"github.com/pirdrr/drr/ir"
)

// Tensor is a dense row-major host tensor: the form of program inputs, parameter values and outputs. Elements are
// held as float64 whatever the element type (integers and booleans are exact up to 2^53; booleans are 0 or 1) and
// whatever the evaluation precision. A complex tensor (c64, c128) holds 2·Numel() values, each element's real and
// imaginary parts in turn.
type Tensor struct {
	// DType is the element type the program declares for the value.
	DType ir.DType
	// Shape is the extent of each dimension; an empty Shape is a 0-D scalar.
	Shape []int
	// Data holds the Numel() elements in row-major order (real and imaginary parts interleaved for complex types).
	Data []float64
}

// NewTensor returns a tensor of the given element type and shape holding data (copied). It fails when the length
// of data does not match the shape.
func NewTensor(dt ir.DType, shape []int, data []float64) (*Tensor, error) {
	n, err := NumElements(shape)
	if err != nil {
		return nil, err
	}
	if isComplex(dt) {
		n *= 2
	}
	if n != len(data) {
		return nil, fmt.Errorf("interp: shape %v needs %d elements, got %d", shape, n, len(data))
	}
	return &Tensor{DType: dt, Shape: slices.Clone(shape), Data: slices.Clone(data)}, nil
}

// Numel returns the number of elements of t.
func (t *Tensor) Numel() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// Clone returns a deep copy of t.
func (t *Tensor) Clone() *Tensor {
	if t == nil {
		return nil
	}
	return &Tensor{DType: t.DType, Shape: append([]int{}, t.Shape...), Data: slices.Clone(t.Data)}
}

// String describes t by element type and shape (not its data).
func (t *Tensor) String() string {
	if t == nil {
		return "Tensor(nil)"
	}
	return fmt.Sprintf("Tensor<%s>%v", t.DType, t.Shape)
}

// NumElements returns the product of shape, rejecting negative dimensions and counts beyond 2^31 (which no
// evaluation could allocate).
func NumElements(shape []int) (int, error) {
	n := 1
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("interp: negative dimension in shape %v", shape)
		}
		if d != 0 && n > maxElems/d {
			return 0, fmt.Errorf("interp: shape %v has too many elements", shape)
		}
		n *= d
	}
	return n, nil
}

// maxElems bounds the element count of any tensor the interpreter allocates (2^31 elements, 16 GiB in float64),
// so that absurd shapes are errors rather than out-of-memory crashes.
const maxElems = 1 << 31
