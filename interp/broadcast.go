package interp

import (
	"github.com/pirdrr/drr/interp/tensor"
)

// mapUnary applies f (evaluated in float64) to every element of x, into a fresh tensor.
func mapUnary[T tensor.Float](x *tensor.Tensor[T], f func(float64) float64) *tensor.Tensor[T] {
	return tensor.Map(x, func(v T) T { return T(f(float64(v))) })
}

// mapBinary applies f (evaluated in float64) to x and y with numpy broadcasting, into a fresh tensor. It is the
// element-wise engine of the binary ops the tensor package does not have (maximum, comparisons, logical ops, …).
func mapBinary[T tensor.Float](x, y *tensor.Tensor[T], f func(a, b float64) float64) (*tensor.Tensor[T], error) {
	return tensor.Map2("", x, y, func(a, b T) T { return T(f(float64(a), float64(b))) })
}

// mapTernary applies f (evaluated in float64) to x, y and z with numpy broadcasting (where, lerp, masked_fill).
func mapTernary[T tensor.Float](x, y, z *tensor.Tensor[T], f func(a, b, c float64) float64) (*tensor.Tensor[T], error) {
	return tensor.Map3("", x, y, z, func(a, b, c T) T { return T(f(float64(a), float64(b), float64(c))) })
}
