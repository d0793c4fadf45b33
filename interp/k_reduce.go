package interp

import (
	"fmt"
	"math"

	"github.com/pirdrr/drr/interp/tensor"
)

// Reductions. An empty axis list reduces over every axis (a 0-D result without keepdim).

func registerReduce[T tensor.Float](r registry[T]) {
	r["pd_op.mean"] = func(c *call[T]) ([]*value[T], error) {
		x, axes, err := c.reduceArgs()
		if err != nil {
			return nil, err
		}
		return c.one(tensor.Mean(x, axes, c.attrBool("keepdim", false)))
	}
	r["pd_op.sum"] = func(c *call[T]) ([]*value[T], error) {
		x, axes, err := c.reduceArgs()
		if err != nil {
			return nil, err
		}
		return c.one(tensor.Sum(x, axes, c.attrBool("keepdim", false)))
	}
	r["pd_op.max"] = extremum[T](math.Inf(-1), math.Max)
	r["pd_op.min"] = extremum[T](math.Inf(1), math.Min)
}

// reduceArgs returns x and the axes, from operand 1 when present, else the axis attribute.
func (c *call[T]) reduceArgs() (*tensor.Tensor[T], []int, error) {
	x, err := c.in(0)
	if err != nil {
		return nil, nil, err
	}
	axes, err := c.axes(1)
	if err != nil {
		return nil, nil, err
	}
	return x, axes, nil
}

// extremum is a max or min reduction.
func extremum[T tensor.Float](init float64, f func(a, b float64) float64) kernel[T] {
	return func(c *call[T]) ([]*value[T], error) {
		x, axes, err := c.reduceArgs()
		if err != nil {
			return nil, err
		}
		keep := c.attrBool("keepdim", false)
		r := len(x.Shape)
		red := make([]bool, r)
		for _, a := range axes {
			if a < 0 {
				a += r
			}
			if r > 0 && (a < 0 || a >= r) {
				return nil, fmt.Errorf("axis %d out of range for rank %d", a, r)
			}
			if r > 0 {
				red[a] = true
			}
		}
		if len(axes) == 0 {
			for i := range red {
				red[i] = true
			}
		}
		if len(x.Data) == 0 {
			return nil, fmt.Errorf("reducing an empty tensor")
		}
		outShape := []int{}
		keptDims := make([]int, r) // dims of the output with reduced axes as 1
		for i, d := range x.Shape {
			keptDims[i] = d
			if red[i] {
				keptDims[i] = 1
				if keep {
					outShape = append(outShape, 1)
				}
				continue
			}
			outShape = append(outShape, d)
		}
		n := 1
		for _, d := range keptDims {
			n *= d
		}
		acc := make([]float64, n)
		for i := range acc {
			acc[i] = init
		}
		idx := make([]int, r)
		for _, v := range x.Data {
			o := 0
			for d := range r {
				o = o*keptDims[d] + idx[d]*b2i(!red[d])
			}
			acc[o] = f(acc[o], float64(v))
			for d := r - 1; d >= 0; d-- {
				idx[d]++
				if idx[d] < x.Shape[d] {
					break
				}
				idx[d] = 0
			}
		}
		out := &tensor.Tensor[T]{Shape: outShape, Data: make([]T, n)}
		for i, v := range acc {
			out.Data[i] = T(v)
		}
		return c.one(out, nil)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
