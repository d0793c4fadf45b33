package interp

import (
	"fmt"
	"math"

	"github.com/pirdrr/drr/interp/tensor"
)

// Reductions (sums, means, extrema, products, logical all/any, logsumexp, norms). An empty axis list reduces over
// every axis (a 0-D result without keepdim). Scans and arg-extrema are in k_scan.go.

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
	r["pd_op.prod"] = reduceKernel[T](func(run []T) float64 {
		p := 1.0
		for _, v := range run {
			p *= float64(v)
		}
		return p
	})
	r["pd_op.all"] = reduceKernel[T](func(run []T) float64 {
		for _, v := range run {
			if v == 0 {
				return 0
			}
		}
		return 1
	})
	r["pd_op.any"] = reduceKernel[T](func(run []T) float64 {
		for _, v := range run {
			if v != 0 {
				return 1
			}
		}
		return 0
	})
	r["pd_op.logsumexp"] = reduceKernel[T](func(run []T) float64 {
		m := math.Inf(-1)
		for _, v := range run {
			m = max(m, float64(v))
		}
		if math.IsInf(m, 0) {
			return m
		}
		s := 0.0
		for _, v := range run {
			s += math.Exp(float64(v) - m)
		}
		return m + math.Log(s)
	})
	r["pd_op.mean_all"] = kMeanAll[T]
	r["pd_op.p_norm"] = kPNorm[T]
	r["pd_op.l1_norm"] = kL1Norm[T]
	r["pd_op.renorm"] = kRenorm[T]
	r["pd_op.amax"] = extremum[T](math.Inf(-1), math.Max)
	r["pd_op.amin"] = extremum[T](math.Inf(1), math.Min)
	r["pd_op.squared_l2_norm"] = kSquaredL2Norm[T]
	r["pd_op.frobenius_norm"] = kFrobeniusNorm[T]
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

// reduceAxesArg reads the axes of a reduction: the axis operand or attribute (reduce_all, or an empty list,
// meaning every axis).
func (c *call[T]) reduceAxesArg() ([]int, error) {
	if c.attrBool("reduce_all", false) {
		return nil, nil
	}
	axes, ok, err := c.intArrayArg("axis", 1, "axis", "dim")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, nil
	}
	return axes, nil
}

// reduceKernel is a reduction over the axis argument with keepdim.
func reduceKernel[T tensor.Float](f func(run []T) float64) kernel[T] {
	return func(c *call[T]) ([]*value[T], error) {
		x, err := c.in(0)
		if err != nil {
			return nil, err
		}
		axes, err := c.reduceAxesArg()
		if err != nil {
			return nil, err
		}
		keep := c.attrBool("keepdim", false) || c.attrBool("keep_dim", false)
		return c.one(reduceAxes(x, axes, keep, f))
	}
}

// kMeanAll is the mean of every element, as a scalar.
func kMeanAll[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	out, err := reduceAxes(x, nil, false, func(run []T) float64 {
		s := 0.0
		for _, v := range run {
			s += float64(v)
		}
		return s / float64(len(run))
	})
	if err != nil {
		return nil, err
	}
	return c.one(c.declaredScalar(out, 0), nil)
}

// kPNorm is the porder-norm along axis (of every element with asvector): max|x| for +∞, min|x| for −∞, the count
// of non-zeros for 0, else (Σ|x|^p)^(1/p).
func kPNorm[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	p := c.attrFloat("porder", 2)
	var axes []int
	if !c.attrBool("asvector", false) {
		axes = []int{c.attrInt("axis", -1)}
	}
	out, err := reduceAxes(x, axes, c.attrBool("keepdim", false), func(run []T) float64 {
		switch {
		case math.IsInf(p, 1):
			m := 0.0
			for _, v := range run {
				m = max(m, math.Abs(float64(v)))
			}
			return m
		case math.IsInf(p, -1):
			m := math.Inf(1)
			for _, v := range run {
				m = min(m, math.Abs(float64(v)))
			}
			return m
		case p == 0:
			n := 0.0
			for _, v := range run {
				if v != 0 {
					n++
				}
			}
			return n
		}
		s := 0.0
		for _, v := range run {
			s += math.Pow(math.Abs(float64(v)), p)
		}
		return math.Pow(s, 1/p)
	})
	if err != nil {
		return nil, err
	}
	if len(axes) == 0 {
		out = c.declaredScalar(out, 0)
	}
	return c.one(out, nil)
}

// kL1Norm is Σ|x| as a scalar.
func kL1Norm[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	out, err := reduceAxes(x, nil, false, func(run []T) float64 {
		s := 0.0
		for _, v := range run {
			s += math.Abs(float64(v))
		}
		return s
	})
	if err != nil {
		return nil, err
	}
	return c.one(c.declaredScalar(out, 0), nil)
}

// kRenorm rescales each slice x[…, i, …] along axis whose p-norm exceeds max_norm to max_norm/(norm + 1e-7)
// times itself.
func kRenorm[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	axis, err := normAxis(c.attrInt("axis", 0), max(len(x.Shape), 1))
	if err != nil {
		return nil, err
	}
	p, maxNorm := c.attrFloat("p", 2), c.attrFloat("max_norm", 1)
	shape := x.Shape
	if len(shape) == 0 {
		shape = []int{1}
	}
	n, inner := shape[axis], 1
	for _, d := range shape[axis+1:] {
		inner *= d
	}
	outer := 1
	for _, d := range shape[:axis] {
		outer *= d
	}
	out := x.Clone()
	for i := range n {
		s := 0.0
		for o := range outer {
			for k := range inner {
				s += math.Pow(math.Abs(float64(x.Data[(o*n+i)*inner+k])), p)
			}
		}
		norm := math.Pow(s, 1/p)
		if norm <= maxNorm {
			continue
		}
		scale := maxNorm / (norm + 1e-7)
		for o := range outer {
			for k := range inner {
				at := (o*n+i)*inner + k
				out.Data[at] = T(float64(x.Data[at]) * scale)
			}
		}
	}
	return c.one(out, nil)
}

// kSquaredL2Norm is Σx² over every element, of shape [1].
func kSquaredL2Norm[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	s := 0.0
	for _, v := range x.Data {
		s += float64(v) * float64(v)
	}
	return c.one(c.declaredScalar(&tensor.Tensor[T]{Shape: []int{1}, Data: []T{T(s)}}, 0), nil)
}

// kFrobeniusNorm is √Σx² over the axis operand (every axis with reduce_all), with keep_dim.
func kFrobeniusNorm[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	axes, err := c.ints(1)
	if err != nil {
		return nil, err
	}
	if c.attrBool("reduce_all", false) {
		axes = nil
	}
	out, err := reduceAxes(x, axes, c.attrBool("keep_dim", false), func(run []T) float64 {
		s := 0.0
		for _, v := range run {
			s += float64(v) * float64(v)
		}
		return math.Sqrt(s)
	})
	if err != nil {
		return nil, err
	}
	return c.one(c.declaredScalar(out, 0), nil)
}
