package tensor

import (
	"fmt"
	"slices"
)

// Element-wise maps with numpy broadcasting, split across goroutines by rows of the output's last dimension.

// Map returns f applied to every element of x.
func Map[T Float](x *Tensor[T], f func(T) T) *Tensor[T] {
	out := newUnchecked[T](x.Shape)
	ParallelFor(len(x.Data), 8, func(lo, hi int) {
		src, dst := x.Data[lo:hi], out.Data[lo:hi]
		for i, v := range src {
			dst[i] = f(v)
		}
	})
	return out
}

// Map2 returns f(x, y) element-wise, x and y broadcast against each other.
func Map2[T Float](op string, x, y *Tensor[T], f func(a, b T) T) (*Tensor[T], error) {
	return map2(op, x, y, f, arithNone)
}

// arith names an element-wise binary operation that map2 spells out in its loops instead of calling f per element
// (the same operation in T, so the same values): the adds, multiplies and divides of biases, scales and residuals
// in every model, where the call costs more than the operation.
type arith uint8

const (
	arithNone arith = iota
	arithAdd
	arithSub
	arithMul
	arithDiv
)

// map2 is Map2, with the operation spelled out when k is not arithNone.
func map2[T Float](op string, x, y *Tensor[T], f func(a, b T) T, k arith) (*Tensor[T], error) {
	if err := x.validate(op + " x"); err != nil {
		return nil, err
	}
	if err := y.validate(op + " y"); err != nil {
		return nil, err
	}
	shape, err := BroadcastShape(x.Shape, y.Shape)
	if err != nil {
		return nil, broadcastErr(op, err)
	}
	if err := checkAlloc(op, shape); err != nil {
		return nil, err
	}
	out := newUnchecked[T](shape)
	if len(out.Data) == 0 {
		return out, nil
	}
	if slices.Equal(x.Shape, y.Shape) {
		ParallelFor(len(out.Data), 8, func(lo, hi int) {
			xs, ys, dst := x.Data[lo:hi], y.Data[lo:hi], out.Data[lo:hi]
			if k != arithNone {
				arithRow(k, dst, xs, 0, 1, ys, 0, 1)
				return
			}
			for i := range dst {
				dst[i] = f(xs[i], ys[i])
			}
		})
		return out, nil
	}
	sx, sy := broadcastStrides(x.Shape, shape), broadcastStrides(y.Shape, shape)
	forRows(shape, [][]int{sx, sy}, func(o, inner int, at []int, step []int) {
		dst := out.Data[o : o+inner]
		a, b := at[0], at[1]
		if k != arithNone {
			arithRow(k, dst, x.Data, a, step[0], y.Data, b, step[1])
			return
		}
		for j := range dst {
			dst[j] = f(x.Data[a], y.Data[b])
			a += step[0]
			b += step[1]
		}
	})
	return out, nil
}

// arithRow sets dst[j] = x[a+j·sa] k y[b+j·sb].
func arithRow[T Float](k arith, dst, x []T, a, sa int, y []T, b, sb int) {
	n := len(dst)
	switch {
	case sa == 1 && sb == 1:
		xs, ys := x[a:a+n], y[b:b+n]
		switch k {
		case arithAdd:
			for j := range dst {
				dst[j] = xs[j] + ys[j]
			}
		case arithSub:
			for j := range dst {
				dst[j] = xs[j] - ys[j]
			}
		case arithMul:
			for j := range dst {
				dst[j] = xs[j] * ys[j]
			}
		case arithDiv:
			for j := range dst {
				dst[j] = xs[j] / ys[j]
			}
		}
	case sa == 1 && sb == 0:
		xs, v := x[a:a+n], y[b]
		switch k {
		case arithAdd:
			for j := range dst {
				dst[j] = xs[j] + v
			}
		case arithSub:
			for j := range dst {
				dst[j] = xs[j] - v
			}
		case arithMul:
			for j := range dst {
				dst[j] = xs[j] * v
			}
		case arithDiv:
			for j := range dst {
				dst[j] = xs[j] / v
			}
		}
	case sa == 0 && sb == 1:
		v, ys := x[a], y[b:b+n]
		switch k {
		case arithAdd:
			for j := range dst {
				dst[j] = v + ys[j]
			}
		case arithSub:
			for j := range dst {
				dst[j] = v - ys[j]
			}
		case arithMul:
			for j := range dst {
				dst[j] = v * ys[j]
			}
		case arithDiv:
			for j := range dst {
				dst[j] = v / ys[j]
			}
		}
	default:
		for j := range dst {
			u, w := x[a], y[b]
			switch k {
			case arithAdd:
				dst[j] = u + w
			case arithSub:
				dst[j] = u - w
			case arithMul:
				dst[j] = u * w
			case arithDiv:
				dst[j] = u / w
			}
			a += sa
			b += sb
		}
	}
}

// Map3 returns f(x, y, z) element-wise, the three broadcast against each other.
func Map3[T Float](op string, x, y, z *Tensor[T], f func(a, b, c T) T) (*Tensor[T], error) {
	for i, t := range []*Tensor[T]{x, y, z} {
		if err := t.validate(fmt.Sprintf("%s operand %d", op, i)); err != nil {
			return nil, err
		}
	}
	shape, err := BroadcastShape(x.Shape, y.Shape)
	if err == nil {
		shape, err = BroadcastShape(shape, z.Shape)
	}
	if err != nil {
		return nil, broadcastErr(op, err)
	}
	if err := checkAlloc(op, shape); err != nil {
		return nil, err
	}
	out := newUnchecked[T](shape)
	if len(out.Data) == 0 {
		return out, nil
	}
	st := [][]int{broadcastStrides(x.Shape, shape), broadcastStrides(y.Shape, shape), broadcastStrides(z.Shape, shape)}
	forRows(shape, st, func(o, inner int, at []int, step []int) {
		dst := out.Data[o : o+inner]
		a, b, c := at[0], at[1], at[2]
		for j := range dst {
			dst[j] = f(x.Data[a], y.Data[b], z.Data[c])
			a += step[0]
			b += step[1]
			c += step[2]
		}
	})
	return out, nil
}

// forRows walks the rows of an output of the given shape (runs along its last dimension; a 0-D output is one row
// of one element), in parallel: row(o, inner, at, step) gets the row's flat output offset, its length, each
// input's flat offset at the row's start and each input's stride along the last dimension.
func forRows(shape []int, strides [][]int, row func(o, inner int, at []int, step []int)) {
	r := len(shape)
	if r == 0 {
		at := make([]int, len(strides))
		step := make([]int, len(strides))
		row(0, 1, at, step)
		return
	}
	last := r - 1
	inner := shape[last]
	if inner == 0 {
		return
	}
	rows := 1
	for _, d := range shape[:last] {
		rows *= d
	}
	step := make([]int, len(strides))
	for k, s := range strides {
		step[k] = s[last]
	}
	ParallelFor(rows, inner*4, func(r0, r1 int) {
		// The multi-index of row r0, then the input offsets it implies.
		idx := make([]int, last)
		rem := r0
		for d := last - 1; d >= 0; d-- {
			idx[d] = rem % shape[d]
			rem /= shape[d]
		}
		at := make([]int, len(strides))
		for k, s := range strides {
			for d := range last {
				at[k] += idx[d] * s[d]
			}
		}
		cur := make([]int, len(strides))
		for rr := r0; rr < r1; rr++ {
			copy(cur, at)
			row(rr*inner, inner, cur, step)
			for d := last - 1; d >= 0; d-- {
				idx[d]++
				for k, s := range strides {
					at[k] += s[d]
				}
				if idx[d] < shape[d] {
					break
				}
				for k, s := range strides {
					at[k] -= s[d] * shape[d]
				}
				idx[d] = 0
			}
		}
	})
}

// broadcastErr names the op, when there is one, in a broadcasting error.
func broadcastErr(op string, err error) error {
	if op == "" {
		return err
	}
	return fmt.Errorf("tensor: %s: %w", op, err)
}
