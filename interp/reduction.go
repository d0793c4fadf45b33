package interp

import (
	"fmt"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// Reductions over a set of axes by one helper: the reduced axes are moved to the end (a transpose), so that each
// output element reduces a contiguous run of the data, and runs are reduced in parallel.

// normAxis resolves a possibly negative axis against a rank.
func normAxis(axis, rank int) (int, error) {
	a := axis
	if a < 0 {
		a += rank
	}
	if a < 0 || a >= rank {
		return 0, fmt.Errorf("axis %d out of range for rank %d", axis, rank)
	}
	return a, nil
}

// reducePlan is a reduction of a tensor over some axes.
type reducePlan[T tensor.Float] struct {
	// data holds the input with the reduced axes last: output element i reduces data[i*n : (i+1)*n].
	data []T
	// outs is the number of output elements, n the length of each reduction.
	outs, n int
	// shape is the output shape (reduced axes kept as 1 with keepdim, else removed).
	shape []int
}

// planReduce moves the reduced axes of x to the end. An empty axes list reduces over every axis (Paddle's
// convention); duplicate axes count once.
func planReduce[T tensor.Float](x *tensor.Tensor[T], axes []int, keepdim bool) (*reducePlan[T], error) {
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
				return nil, fmt.Errorf("axis %d out of range for a 0-D tensor", a)
			}
			continue
		}
		na, err := normAxis(a, r)
		if err != nil {
			return nil, err
		}
		red[na] = true
	}
	var perm, shape []int
	n := 1
	for i, d := range x.Shape {
		if !red[i] {
			perm = append(perm, i)
			shape = append(shape, d)
		} else if keepdim {
			shape = append(shape, 1)
		}
	}
	for i, d := range x.Shape {
		if red[i] {
			perm = append(perm, i)
			n *= d
		}
	}
	if shape == nil {
		shape = []int{}
	}
	data := x.Data
	if !isIdentity(perm) {
		t, err := tensor.Transpose(x, perm)
		if err != nil {
			return nil, err
		}
		data = t.Data
	}
	outs := 1
	for i, d := range x.Shape {
		if !red[i] {
			outs *= d
		}
	}
	return &reducePlan[T]{data: data, outs: outs, n: n, shape: shape}, nil
}

func isIdentity(perm []int) bool {
	for i, p := range perm {
		if i != p {
			return false
		}
	}
	return true
}

// reduce computes each output element from its run, in parallel.
func (p *reducePlan[T]) reduce(f func(run []T) float64) *tensor.Tensor[T] {
	out := &tensor.Tensor[T]{Shape: p.shape, Data: make([]T, p.outs)}
	tensor.ParallelFor(p.outs, p.n+1, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out.Data[i] = T(f(p.data[i*p.n : (i+1)*p.n]))
		}
	})
	return out
}

// reduceAxes is planReduce followed by reduce.
func reduceAxes[T tensor.Float](x *tensor.Tensor[T], axes []int, keepdim bool, f func(run []T) float64) (*tensor.Tensor[T], error) {
	p, err := planReduce(x, axes, keepdim)
	if err != nil {
		return nil, err
	}
	return p.reduce(f), nil
}

// declaredScalar reshapes a one-element result to the rank result j declares: Paddle has spelled scalar results
// both as 0-D and as [1] over its versions.
func (c *call[T]) declaredScalar(t *tensor.Tensor[T], j int) *tensor.Tensor[T] {
	if len(t.Data) != 1 || j >= c.op.NumResults() {
		return t
	}
	if tt := ir.TensorOf(c.op.Result(j).Type()); tt != nil && len(tt.Dims) != len(t.Shape) {
		shape := make([]int, len(tt.Dims))
		for i := range shape {
			shape[i] = 1
		}
		t.Shape = shape
	}
	return t
}
