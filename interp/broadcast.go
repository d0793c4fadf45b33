package interp

import (
	"github.com/pirdrr/drr/interp/tensor"
)

// mapUnary applies f (evaluated in float64) to every element of x, into a fresh tensor.
func mapUnary[T tensor.Float](x *tensor.Tensor[T], f func(float64) float64) *tensor.Tensor[T] {
	out := &tensor.Tensor[T]{Shape: append([]int{}, x.Shape...), Data: make([]T, len(x.Data))}
	for i, v := range x.Data {
		out.Data[i] = T(f(float64(v)))
	}
	return out
}

// mapBinary applies f (evaluated in float64) to x and y with numpy broadcasting, into a fresh tensor. It is the
// element-wise engine of the binary ops the tensor package does not have (maximum, comparisons, logical ops, …).
func mapBinary[T tensor.Float](x, y *tensor.Tensor[T], f func(a, b float64) float64) (*tensor.Tensor[T], error) {
	shape, err := tensor.BroadcastShape(x.Shape, y.Shape)
	if err != nil {
		return nil, err
	}
	n, err := numel(shape)
	if err != nil {
		return nil, err
	}
	out := &tensor.Tensor[T]{Shape: shape, Data: make([]T, n)}
	if n == 0 {
		return out, nil
	}
	sx, sy := bstrides(x.Shape, shape), bstrides(y.Shape, shape)
	r := len(shape)
	if r == 0 {
		out.Data[0] = T(f(float64(x.Data[0]), float64(y.Data[0])))
		return out, nil
	}
	idx := make([]int, r)
	ix, iy := 0, 0
	last := r - 1
	inner, ixs, iys := shape[last], sx[last], sy[last]
	for o := 0; o < n; o += inner {
		a, b := ix, iy
		for k := range inner {
			out.Data[o+k] = T(f(float64(x.Data[a]), float64(y.Data[b])))
			a += ixs
			b += iys
		}
		for d := last - 1; d >= 0; d-- {
			idx[d]++
			ix += sx[d]
			iy += sy[d]
			if idx[d] < shape[d] {
				break
			}
			ix -= sx[d] * shape[d]
			iy -= sy[d] * shape[d]
			idx[d] = 0
		}
	}
	return out, nil
}

// bstrides returns the strides of a row-major tensor of shape in, right-aligned against out, with 0 for
// broadcast (size-1 or missing) dimensions.
func bstrides(in, out []int) []int {
	st := make([]int, len(out))
	s := 1
	off := len(out) - len(in)
	for i := len(in) - 1; i >= 0; i-- {
		if in[i] != 1 {
			st[off+i] = s
		}
		s *= in[i]
	}
	return st
}
