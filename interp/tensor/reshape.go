package tensor

import (
	"fmt"
	"slices"
)

// inferShape resolves a target shape against an input shape: one -1 is
// inferred from the element count and, when zeroCopies is set (Paddle
// reshape semantics), a 0 at position i copies in[i].
func inferShape(in, target []int, zeroCopies bool) ([]int, error) {
	n, err := numelOf(in)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(target))
	unknown := -1
	known := 1
	for i, d := range target {
		switch {
		case d == -1:
			if unknown >= 0 {
				return nil, fmt.Errorf("tensor: reshape: target shape %v has more than one -1", target)
			}
			unknown = i
			continue
		case d == 0 && zeroCopies:
			if i >= len(in) {
				return nil, fmt.Errorf("tensor: reshape: target shape %v has 0 at index %d but input %v has rank %d", target, i, in, len(in))
			}
			d = in[i]
		case d < 0:
			return nil, fmt.Errorf("tensor: reshape: invalid dimension %d in target shape %v", d, target)
		}
		out[i] = d
		if d != 0 && known > maxInt/d {
			return nil, fmt.Errorf("tensor: reshape: target shape %v too large", target)
		}
		known *= d
	}
	if unknown >= 0 {
		if known == 0 {
			return nil, fmt.Errorf("tensor: reshape: cannot infer -1 in %v: other dimensions multiply to 0", target)
		}
		if n%known != 0 {
			return nil, fmt.Errorf("tensor: reshape: cannot reshape %v (%d elements) to %v", in, n, target)
		}
		out[unknown] = n / known
		return out, nil
	}
	if known != n {
		return nil, fmt.Errorf("tensor: reshape: cannot reshape %v (%d elements) to %v (%d elements)", in, n, out, known)
	}
	return out, nil
}

// normAxis maps axis in [-rank, rank) to [0, rank).
func normAxis(op string, axis, rank int) (int, error) {
	if axis < -rank || axis >= rank {
		return 0, fmt.Errorf("tensor: %s: axis %d out of range for rank %d", op, axis, rank)
	}
	if axis < 0 {
		axis += rank
	}
	return axis, nil
}

// Reshape implements Paddle's reshape: a 0 in shape copies the input
// dimension at the same index, and a single -1 is inferred from the element
// count. The result owns a copy of the data.
func Reshape[T Float](x *Tensor[T], shape []int) (*Tensor[T], error) {
	return withShape(x, shape, ReshapeShape[T])
}

// ReshapeShape is the shape Reshape gives x, without copying its data (for
// a view over x's buffer).
func ReshapeShape[T Float](x *Tensor[T], shape []int) ([]int, error) {
	if err := x.validate("reshape"); err != nil {
		return nil, err
	}
	return inferShape(x.Shape, shape, true)
}

// withShape returns a copy of x's data with the shape shapeOf computes.
func withShape[T Float, A any](x *Tensor[T], arg A, shapeOf func(*Tensor[T], A) ([]int, error)) (*Tensor[T], error) {
	out, err := shapeOf(x, arg)
	if err != nil {
		return nil, err
	}
	return &Tensor[T]{Shape: out, Data: slices.Clone(x.Data)}, nil
}

// Flatten merges dimensions start..stop (inclusive, negative values count
// from the end) into one, as Paddle's flatten. A 0-D input becomes shape [1].
func Flatten[T Float](x *Tensor[T], startAxis, stopAxis int) (*Tensor[T], error) {
	return withShape(x, [2]int{startAxis, stopAxis}, func(x *Tensor[T], a [2]int) ([]int, error) {
		return FlattenShape(x, a[0], a[1])
	})
}

// FlattenShape is the shape Flatten gives x, without copying its data.
func FlattenShape[T Float](x *Tensor[T], startAxis, stopAxis int) ([]int, error) {
	if err := x.validate("flatten"); err != nil {
		return nil, err
	}
	r := len(x.Shape)
	if r == 0 {
		if startAxis < -1 || startAxis > 0 || stopAxis < -1 || stopAxis > 0 {
			return nil, fmt.Errorf("tensor: flatten: axes (%d, %d) invalid for a 0-D tensor", startAxis, stopAxis)
		}
		return []int{1}, nil
	}
	s, err := normAxis("flatten", startAxis, r)
	if err != nil {
		return nil, err
	}
	e, err := normAxis("flatten", stopAxis, r)
	if err != nil {
		return nil, err
	}
	if s > e {
		return nil, fmt.Errorf("tensor: flatten: start_axis %d is after stop_axis %d", startAxis, stopAxis)
	}
	out := slices.Clone(x.Shape[:s])
	m := 1
	for _, d := range x.Shape[s : e+1] {
		m *= d
	}
	out = append(out, m)
	out = append(out, x.Shape[e+1:]...)
	return out, nil
}

// Squeeze removes size-1 dimensions. With no axes every size-1 dimension is
// removed; otherwise only the listed axes (negative values count from the
// end) are removed, and listed axes whose size is not 1 are silently kept,
// as in Paddle.
func Squeeze[T Float](x *Tensor[T], axes []int) (*Tensor[T], error) {
	return withShape(x, axes, SqueezeShape[T])
}

// SqueezeShape is the shape Squeeze gives x, without copying its data.
func SqueezeShape[T Float](x *Tensor[T], axes []int) ([]int, error) {
	if err := x.validate("squeeze"); err != nil {
		return nil, err
	}
	r := len(x.Shape)
	drop := make([]bool, r)
	if len(axes) == 0 {
		for i, d := range x.Shape {
			drop[i] = d == 1
		}
	}
	for _, a := range axes {
		if r == 0 {
			if a < -1 || a > 0 {
				return nil, fmt.Errorf("tensor: squeeze: axis %d invalid for a 0-D tensor", a)
			}
			continue
		}
		na, err := normAxis("squeeze", a, r)
		if err != nil {
			return nil, err
		}
		if x.Shape[na] == 1 {
			drop[na] = true
		}
	}
	out := []int{}
	for i, d := range x.Shape {
		if !drop[i] {
			out = append(out, d)
		}
	}
	return out, nil
}

// Unsqueeze inserts size-1 dimensions. Axes are applied one after another,
// each relative to the rank reached so far; a negative axis a means
// a + currentRank + 1, as in Paddle.
func Unsqueeze[T Float](x *Tensor[T], axes []int) (*Tensor[T], error) {
	return withShape(x, axes, UnsqueezeShape[T])
}

// UnsqueezeShape is the shape Unsqueeze gives x, without copying its data.
func UnsqueezeShape[T Float](x *Tensor[T], axes []int) ([]int, error) {
	if err := x.validate("unsqueeze"); err != nil {
		return nil, err
	}
	// isNew marks inserted dimensions; the remaining slots take the input
	// dimensions in order.
	isNew := make([]bool, len(x.Shape))
	for _, a := range axes {
		cur := len(isNew)
		pos := a
		if a < 0 {
			pos = a + cur + 1
		}
		if pos < 0 || pos > cur {
			return nil, fmt.Errorf("tensor: unsqueeze: axis %d out of range for rank %d", a, cur)
		}
		isNew = slices.Insert(isNew, pos, true)
	}
	out := make([]int, len(isNew))
	in := 0
	for i, nw := range isNew {
		if nw {
			out[i] = 1
		} else {
			out[i] = x.Shape[in]
			in++
		}
	}
	return out, nil
}

// StaticShape converts the dims of an IR type to a tensor shape; ok is false if a dim is dynamic (negative).
func StaticShape(dims []int64) (shape []int, ok bool) {
	shape = make([]int, len(dims))
	for i, d := range dims {
		if d < 0 {
			return nil, false
		}
		shape[i] = int(d)
	}
	return shape, true
}
