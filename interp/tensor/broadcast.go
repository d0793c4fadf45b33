package tensor

import (
	"fmt"
	"slices"
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
	return binary("add", x, y, func(a, b T) T { return a + b })
}

// Subtract returns x - y with numpy broadcasting.
func Subtract[T Float](x, y *Tensor[T]) (*Tensor[T], error) {
	return binary("subtract", x, y, func(a, b T) T { return a - b })
}

// Multiply returns x * y (elementwise) with numpy broadcasting.
func Multiply[T Float](x, y *Tensor[T]) (*Tensor[T], error) {
	return binary("multiply", x, y, func(a, b T) T { return a * b })
}

// Divide returns x / y (elementwise, IEEE semantics for division by zero)
// with numpy broadcasting.
func Divide[T Float](x, y *Tensor[T]) (*Tensor[T], error) {
	return binary("divide", x, y, func(a, b T) T { return a / b })
}

func binary[T Float](op string, x, y *Tensor[T], f func(a, b T) T) (*Tensor[T], error) {
	if err := x.validate(op + " x"); err != nil {
		return nil, err
	}
	if err := y.validate(op + " y"); err != nil {
		return nil, err
	}
	shape, err := BroadcastShape(x.Shape, y.Shape)
	if err != nil {
		return nil, fmt.Errorf("tensor: %s: %w", op, err)
	}
	if err := checkAlloc(op, shape); err != nil {
		return nil, err
	}
	out := newUnchecked[T](shape)
	n := len(out.Data)
	if n == 0 {
		return out, nil
	}
	if slices.Equal(x.Shape, y.Shape) {
		for i := range out.Data {
			out.Data[i] = f(x.Data[i], y.Data[i])
		}
		return out, nil
	}
	r := len(shape)
	if r == 0 { // both 0-D is covered above; unreachable otherwise
		out.Data[0] = f(x.Data[0], y.Data[0])
		return out, nil
	}
	sx := broadcastStrides(x.Shape, shape)
	sy := broadcastStrides(y.Shape, shape)
	last := r - 1
	inner := shape[last]
	ix, iy := sx[last], sy[last]
	idx := make([]int, r)
	px, py := 0, 0
	for o := 0; o < n; o += inner {
		dst := out.Data[o : o+inner]
		a, b := px, py
		for j := range dst {
			dst[j] = f(x.Data[a], y.Data[b])
			a += ix
			b += iy
		}
		for d := last - 1; d >= 0; d-- {
			idx[d]++
			px += sx[d]
			py += sy[d]
			if idx[d] < shape[d] {
				break
			}
			px -= sx[d] * shape[d]
			py -= sy[d] * shape[d]
			idx[d] = 0
		}
	}
	return out, nil
}
