package tensor

import "fmt"

// Sum adds the elements of x over axes (negative values count from the end;
// duplicates are ignored). An empty axes list reduces over every axis. With
// keepdim the reduced axes stay as size-1 dimensions; otherwise they are
// removed, so a full reduction yields a 0-D tensor. Accumulation is in
// float64.
func Sum[T Float](x *Tensor[T], axes []int, keepdim bool) (*Tensor[T], error) {
	return reduce("sum", x, axes, keepdim, false)
}

// Mean averages the elements of x over axes with the same axis rules as Sum.
// Averaging over zero elements yields NaN.
func Mean[T Float](x *Tensor[T], axes []int, keepdim bool) (*Tensor[T], error) {
	return reduce("mean", x, axes, keepdim, true)
}

func reduce[T Float](op string, x *Tensor[T], axes []int, keepdim, mean bool) (*Tensor[T], error) {
	if err := x.validate(op); err != nil {
		return nil, err
	}
	r := len(x.Shape)
	red := make([]bool, r)
	if len(axes) == 0 {
		for i := range red {
			red[i] = true
		}
	}
	for _, a := range axes {
		if r == 0 {
			if a < -1 || a > 0 {
				return nil, fmt.Errorf("tensor: %s: axis %d invalid for a 0-D tensor", op, a)
			}
			continue
		}
		na, err := normAxis(op, a, r)
		if err != nil {
			return nil, err
		}
		red[na] = true
	}
	keptShape := make([]int, r) // output shape with reduced dims as 1
	outShape := []int{}
	count := 1
	for i, d := range x.Shape {
		if red[i] {
			keptShape[i] = 1
			count *= d
			if keepdim {
				outShape = append(outShape, 1)
			}
		} else {
			keptShape[i] = d
			outShape = append(outShape, d)
		}
	}
	out := newUnchecked[T](outShape)
	acc := make([]float64, len(out.Data))
	if len(x.Data) > 0 && r > 0 {
		ost := stridesOf(keptShape)
		st := make([]int, r)
		for i := range st {
			if !red[i] {
				st[i] = ost[i]
			}
		}
		last := r - 1
		inner, is := x.Shape[last], st[last]
		idx := make([]int, r)
		po := 0
		for o := 0; o < len(x.Data); o += inner {
			p := po
			for _, v := range x.Data[o : o+inner] {
				acc[p] += float64(v)
				p += is
			}
			for d := last - 1; d >= 0; d-- {
				idx[d]++
				po += st[d]
				if idx[d] < x.Shape[d] {
					break
				}
				po -= st[d] * x.Shape[d]
				idx[d] = 0
			}
		}
	} else if r == 0 {
		acc[0] = float64(x.Data[0])
	}
	for i, s := range acc {
		if mean {
			s /= float64(count)
		}
		out.Data[i] = T(s)
	}
	return out, nil
}
