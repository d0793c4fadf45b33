package tensor

import (
	"fmt"
)

// BroadcastShape returns the numpy-style broadcast of two shapes: shapes are
// aligned at their trailing dimensions and each pair of extents must be equal
// or contain a 1 (the result takes the other extent). Paddle 2.x elementwise
// ops (add, subtract, multiply, divide) follow this rule.
func BroadcastShape(a, b []int) ([]int, error) {
	r := max(len(a), len(b))
	out := make([]int, r)
	for i := 1; i <= r; i++ {
		da, db := 1, 1
		if i <= len(a) {
			da = a[len(a)-i]
		}
		if i <= len(b) {
			db = b[len(b)-i]
		}
		if da < 0 || db < 0 {
			return nil, fmt.Errorf("tensor: broadcast: negative dimension in %v or %v", a, b)
		}
		switch {
		case da == db:
			out[r-i] = da
		case da == 1:
			out[r-i] = db
		case db == 1:
			out[r-i] = da
		default:
			return nil, fmt.Errorf("tensor: broadcast: shapes %v and %v are incompatible (dimension %d: %d vs %d)", a, b, r-i, da, db)
		}
	}
	return out, nil
}

// broadcastStrides returns, for each dimension of out, the stride of a tensor
// of shape in (right-aligned against out) with 0 for broadcast dimensions.
func broadcastStrides(in, out []int) []int {
	st := make([]int, len(out))
	inSt := stridesOf(in)
	off := len(out) - len(in)
	for i := range in {
		if in[i] != 1 || out[off+i] == 1 {
			st[off+i] = inSt[i]
		}
	}
	return st
}

// Add returns x + y with numpy broadcasting.
func Add[T Float](x, y *Tensor[T]) (*Tensor[T], error) {
	return map2("add", x, y, func(a, b T) T { return a + b }, arithAdd)
}

// Subtract returns x - y with numpy broadcasting.
func Subtract[T Float](x, y *Tensor[T]) (*Tensor[T], error) {
	return map2("subtract", x, y, func(a, b T) T { return a - b }, arithSub)
}

// Multiply returns x * y (elementwise) with numpy broadcasting.
func Multiply[T Float](x, y *Tensor[T]) (*Tensor[T], error) {
	return map2("multiply", x, y, func(a, b T) T { return a * b }, arithMul)
}

// Divide returns x / y (elementwise, IEEE semantics for division by zero)
// with numpy broadcasting.
func Divide[T Float](x, y *Tensor[T]) (*Tensor[T], error) {
	return map2("divide", x, y, func(a, b T) T { return a / b }, arithDiv)
}
