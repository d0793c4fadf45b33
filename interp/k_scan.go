package interp

import (
	"fmt"
	"math"
	"slices"

	"github.com/pirdrr/drr/interp/tensor"
)

// Scans, sorts and arg-extrema: cumsum, cumprod, cummax, cummin, logcumsumexp, argsort, topk, argmax and argmin.
func registerScan[T tensor.Float](r registry[T]) {
	r["pd_op.cumsum"] = scanKernel[T](false)
	r["pd_op.cumprod"] = scanKernel[T](true)
	r["pd_op.cummax"] = kCumExtremum[T](true)
	r["pd_op.cummin"] = kCumExtremum[T](false)
	r["pd_op.logcumsumexp"] = kLogCumSumExp[T]
	r["pd_op.argsort"] = kArgsort[T]
	r["pd_op.topk"] = kTopK[T]
	r["pd_op.argmax"] = argExtremum[T](true)
	r["pd_op.argmin"] = argExtremum[T](false)
}

// argExtremum is argmax/argmin along the axis argument (of the flattened tensor with flatten): the index of the
// first extreme element; NaN counts as the extreme, as in Paddle's comparators.
func argExtremum[T tensor.Float](largest bool) kernel[T] {
	return func(c *call[T]) ([]*value[T], error) {
		x, err := c.in(0)
		if err != nil {
			return nil, err
		}
		keep := c.attrBool("keepdims", false)
		var axes []int
		if !c.attrBool("flatten", false) {
			axis, ok, err := c.intScalarArg("axis", 1)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, fmt.Errorf("no axis operand or attribute")
			}
			axes = []int{axis}
		}
		if len(x.Data) == 0 {
			return nil, fmt.Errorf("arg-extremum of an empty tensor")
		}
		out, err := reduceAxes(x, axes, keep, func(run []T) float64 {
			best := 0
			for i := 1; i < len(run); i++ {
				a, b := float64(run[i]), float64(run[best])
				if math.IsNaN(b) {
					break
				}
				if math.IsNaN(a) || largest && a > b || !largest && a < b {
					best = i
				}
			}
			return float64(best)
		})
		if err != nil {
			return nil, err
		}
		if len(axes) == 0 && keep {
			out.Shape = make([]int, len(x.Shape))
			for i := range out.Shape {
				out.Shape[i] = 1
			}
		}
		return c.one(out, nil)
	}
}

// scanKernel is cumsum (axis operand, flatten) or cumprod (dim attribute) with exclusive and reverse, accumulated
// in float64.
func scanKernel[T tensor.Float](product bool) kernel[T] {
	return func(c *call[T]) ([]*value[T], error) {
		x, err := c.in(0)
		if err != nil {
			return nil, err
		}
		var axis int
		flatten := c.attrBool("flatten", false)
		if product {
			axis = c.attrInt("dim", 0)
		} else if !flatten {
			a, ok, err := c.intScalarArg("axis", 1)
			if err != nil {
				return nil, err
			}
			if !ok {
				a = -1
			}
			axis = a
		}
		shape := append([]int{}, x.Shape...)
		if flatten || len(shape) == 0 {
			shape = []int{len(x.Data)}
			axis = 0
		}
		if axis, err = normAxis(axis, len(shape)); err != nil {
			return nil, err
		}
		n, inner := shape[axis], 1
		for _, d := range shape[axis+1:] {
			inner *= d
		}
		outer := 1
		if n*inner > 0 {
			outer = len(x.Data) / (n * inner)
		}
		excl, rev := c.attrBool("exclusive", false), c.attrBool("reverse", false)
		out := make([]T, len(x.Data))
		tensor.ParallelFor(outer*inner, n, func(lo, hi int) {
			for line := lo; line < hi; line++ {
				base := (line/inner)*n*inner + line%inner
				acc := 0.0
				if product {
					acc = 1
				}
				for k := range n {
					i := k
					if rev {
						i = n - 1 - k
					}
					at := base + i*inner
					v := float64(x.Data[at])
					if excl {
						out[at] = T(acc)
					}
					if product {
						acc *= v
					} else {
						acc += v
					}
					if !excl {
						out[at] = T(acc)
					}
				}
			}
		})
		if flatten && len(x.Shape) != 1 {
			shape = []int{len(x.Data)}
		} else {
			shape = append([]int{}, x.Shape...)
		}
		return c.one(&tensor.Tensor[T]{Shape: shape, Data: out}, nil)
	}
}

// kTopK returns the k largest (smallest) elements along axis and their int64 indices, ordered by value (ties by
// index); NaN counts as larger than every number.
func kTopK[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	k, ok, err := c.intScalarArg("k", 1)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("no k operand or attribute")
	}
	shape := append([]int{}, x.Shape...)
	if len(shape) == 0 {
		shape = []int{1}
	}
	axis, err := normAxis(c.attrInt("axis", -1), len(shape))
	if err != nil {
		return nil, err
	}
	n := shape[axis]
	if k < 0 || k > n {
		return nil, fmt.Errorf("k %d out of range for a dimension of %d", k, n)
	}
	largest := c.attrBool("largest", true)
	inner := 1
	for _, d := range shape[axis+1:] {
		inner *= d
	}
	outer := 1
	for _, d := range shape[:axis] {
		outer *= d
	}
	oshape := append([]int{}, shape...)
	oshape[axis] = k
	vals := make([]T, outer*k*inner)
	idxs := make([]T, outer*k*inner)
	tensor.ParallelFor(outer*inner, n*8, func(lo, hi int) {
		var ord lineOrder
		idx := make([]int, k)
		for line := lo; line < hi; line++ {
			o, in := line/inner, line%inner
			base := o*n*inner + in
			orderLine(&ord, x.Data, base, n, inner, largest, idx)
			for j, i := range idx {
				at := o*k*inner + j*inner + in
				vals[at] = x.Data[base+i*inner]
				idxs[at] = T(i)
			}
		}
	})
	if len(x.Shape) == 0 {
		oshape = []int{}
	}
	return []*value[T]{c.out(&tensor.Tensor[T]{Shape: oshape, Data: vals}, 0),
		c.out(&tensor.Tensor[T]{Shape: append([]int{}, oshape...), Data: idxs}, 1)}, nil
}

// lines splits shape around axis: the count of lines along it (outer·inner), its length n and the stride inner.
func lines(shape []int, axis int) (outer, n, inner int) {
	outer, n, inner = 1, shape[axis], 1
	for _, d := range shape[:axis] {
		outer *= d
	}
	for _, d := range shape[axis+1:] {
		inner *= d
	}
	return outer, n, inner
}

// kCumExtremum is cummax/cummin along axis: the running extreme and the index where it was last reached (a
// later equal element takes over, as Paddle's greater_equal / less_equal comparison does); a NaN becomes the
// extreme and stays.
func kCumExtremum[T tensor.Float](largest bool) kernel[T] {
	return func(c *call[T]) ([]*value[T], error) {
		x, err := c.in(0)
		if err != nil {
			return nil, err
		}
		shape := x.Shape
		if len(shape) == 0 {
			shape = []int{1}
		}
		axis, err := normAxis(c.attrInt("axis", -1), len(shape))
		if err != nil {
			return nil, err
		}
		outer, n, inner := lines(shape, axis)
		vals, idxs := make([]T, len(x.Data)), make([]T, len(x.Data))
		for line := range outer * inner {
			base := (line/inner)*n*inner + line%inner
			if n == 0 {
				continue
			}
			best, at := float64(x.Data[base]), 0
			for k := range n {
				v := float64(x.Data[base+k*inner])
				if math.IsNaN(v) || !math.IsNaN(best) && (largest && v >= best || !largest && v <= best) {
					best, at = v, k
				}
				vals[base+k*inner], idxs[base+k*inner] = T(best), T(at)
			}
		}
		return []*value[T]{c.out(&tensor.Tensor[T]{Shape: slices.Clone(x.Shape), Data: vals}, 0),
			c.out(&tensor.Tensor[T]{Shape: slices.Clone(x.Shape), Data: idxs}, 1)}, nil
	}
}

// kLogCumSumExp is log Σ exp over a running prefix along axis (the flattened tensor with flatten), with cumsum's
// exclusive and reverse; the empty prefix of an exclusive scan is −∞.
func kLogCumSumExp[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	shape, axis := x.Shape, c.attrInt("axis", -1)
	if c.attrBool("flatten", false) || len(shape) == 0 {
		shape, axis = []int{len(x.Data)}, 0
	}
	if axis, err = normAxis(axis, len(shape)); err != nil {
		return nil, err
	}
	outer, n, inner := lines(shape, axis)
	excl, rev := c.attrBool("exclusive", false), c.attrBool("reverse", false)
	out := make([]T, len(x.Data))
	logAdd := func(a, b float64) float64 {
		if math.IsInf(a, -1) {
			return b
		}
		if math.IsInf(b, -1) {
			return a
		}
		m := math.Max(a, b)
		return m + math.Log(math.Exp(a-m)+math.Exp(b-m))
	}
	for line := range outer * inner {
		base := (line/inner)*n*inner + line%inner
		acc := math.Inf(-1)
		for k := range n {
			i := k
			if rev {
				i = n - 1 - k
			}
			at := base + i*inner
			if excl {
				out[at] = T(acc)
			}
			acc = logAdd(acc, float64(x.Data[at]))
			if !excl {
				out[at] = T(acc)
			}
		}
	}
	oshape := slices.Clone(x.Shape)
	if c.attrBool("flatten", false) {
		oshape = []int{len(x.Data)}
	}
	return c.one(&tensor.Tensor[T]{Shape: oshape, Data: out}, nil)
}

// kArgsort sorts along axis (stably, so that equal elements keep their order whatever stable says) and returns
// the sorted values and their indices; NaN sorts last ascending and first descending, as in Paddle's comparators.
func kArgsort[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	shape := x.Shape
	if len(shape) == 0 {
		shape = []int{1}
	}
	axis, err := normAxis(c.attrInt("axis", -1), len(shape))
	if err != nil {
		return nil, err
	}
	desc := c.attrBool("descending", false)
	outer, n, inner := lines(shape, axis)
	vals, idxs := make([]T, len(x.Data)), make([]T, len(x.Data))
	tensor.ParallelFor(outer*inner, n*8, func(lo, hi int) {
		var ord lineOrder
		idx := make([]int, n)
		for line := lo; line < hi; line++ {
			base := (line/inner)*n*inner + line%inner
			orderLine(&ord, x.Data, base, n, inner, desc, idx)
			for k, i := range idx {
				vals[base+k*inner] = x.Data[base+i*inner]
				idxs[base+k*inner] = T(i)
			}
		}
	})
	return []*value[T]{c.out(&tensor.Tensor[T]{Shape: slices.Clone(x.Shape), Data: vals}, 0),
		c.out(&tensor.Tensor[T]{Shape: slices.Clone(x.Shape), Data: idxs}, 1)}, nil
}
