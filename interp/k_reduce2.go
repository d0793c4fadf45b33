package interp

import (
	"fmt"
	"math"
	"sort"

	"github.com/pirdrr/drr/interp/tensor"
)

// More reductions (prod, all, any, norms, logsumexp, arg-extrema), scans (cumsum, cumprod) and topk.

func registerReduce2[T tensor.Float](r registry[T]) {
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
	r["pd_op.identity_loss"] = kIdentityLoss[T]
	r["pd_op.argmax"] = argExtremum[T](true)
	r["pd_op.argmin"] = argExtremum[T](false)
	r["pd_op.cumsum"] = scanKernel[T](false)
	r["pd_op.cumprod"] = scanKernel[T](true)
	r["pd_op.topk"] = kTopK[T]
	r["pd_op.renorm"] = kRenorm[T]
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

// kIdentityLoss reduces x by reduction: 0 sum, 1 mean, 2 none (a copy).
func kIdentityLoss[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	red := c.attrInt("reduction", 1)
	if red == 2 {
		return c.one(x.Clone(), nil)
	}
	if red != 0 && red != 1 {
		return nil, fmt.Errorf("identity_loss reduction %d (want 0 sum, 1 mean or 2 none)", red)
	}
	out, err := reduceAxes(x, nil, false, func(run []T) float64 {
		s := 0.0
		for _, v := range run {
			s += float64(v)
		}
		if red == 1 {
			s /= float64(len(run))
		}
		return s
	})
	if err != nil {
		return nil, err
	}
	return c.one(c.declaredScalar(out, 0), nil)
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
	less := func(a, b float64) bool { // a ranks before b
		an, bn := math.IsNaN(a), math.IsNaN(b)
		if largest {
			return an && !bn || !an && !bn && a > b
		}
		return bn && !an || !an && !bn && a < b
	}
	tensor.ParallelFor(outer*inner, n*8, func(lo, hi int) {
		order := make([]int, n)
		for line := lo; line < hi; line++ {
			o, in := line/inner, line%inner
			base := o*n*inner + in
			for i := range order {
				order[i] = i
			}
			sort.SliceStable(order, func(i, j int) bool {
				return less(float64(x.Data[base+order[i]*inner]), float64(x.Data[base+order[j]*inner]))
			})
			for j := range k {
				at := o*k*inner + j*inner + in
				vals[at] = x.Data[base+order[j]*inner]
				idxs[at] = T(order[j])
			}
		}
	})
	if len(x.Shape) == 0 {
		oshape = []int{}
	}
	return []*value[T]{c.out(&tensor.Tensor[T]{Shape: oshape, Data: vals}, 0),
		c.out(&tensor.Tensor[T]{Shape: append([]int{}, oshape...), Data: idxs}, 1)}, nil
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
