package interp

import (
	"fmt"
	"math"
	"slices"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// Element-wise arithmetic and activations. Inplace forms (relu_, add_, scale_, …) use these kernels; the machine
// writes the result into the inplace operand's buffer.

func registerElementwise[T tensor.Float](r registry[T]) {
	unaryKernels := map[string]func(*tensor.Tensor[T]) (*tensor.Tensor[T], error){
		"relu":      tensor.Relu[T],
		"relu6":     tensor.Relu6[T],
		"sigmoid":   tensor.Sigmoid[T],
		"swish":     tensor.Swish[T],
		"silu":      tensor.Swish[T],
		"tanh":      tensor.Tanh[T],
		"sqrt":      tensor.Sqrt[T],
		"exp":       tensor.Exp[T],
		"erf":       tensor.Erf[T],
		"hardswish": tensor.Hardswish[T],
	}
	for name, f := range unaryKernels {
		r["pd_op."+name] = func(c *call[T]) ([]*value[T], error) {
			x, err := c.in(0)
			if err != nil {
				return nil, err
			}
			return c.one(f(x))
		}
	}
	mathUnary := map[string]func(float64) float64{
		"rsqrt":      func(v float64) float64 { return 1 / math.Sqrt(v) },
		"log":        math.Log,
		"floor":      math.Floor,
		"ceil":       math.Ceil,
		"reciprocal": func(v float64) float64 { return 1 / v },
		"square":     func(v float64) float64 { return v * v },
		"sign":       sign,
		"sin":        math.Sin,
		"cos":        math.Cos,
	}
	for name, f := range mathUnary {
		r["pd_op."+name] = func(c *call[T]) ([]*value[T], error) {
			x, err := c.in(0)
			if err != nil {
				return nil, err
			}
			return c.one(mapUnary(x, f), nil)
		}
	}
	r["pd_op.abs"] = kAbs[T]
	r["pd_op.hardsigmoid"] = kHardsigmoid[T]
	r["pd_op.leaky_relu"] = kLeakyRelu[T]
	r["pd_op.elu"] = kElu[T]
	r["pd_op.gelu"] = kGelu[T]
	r["pd_op.scale"] = kScale[T]
	r["pd_op.pow"] = kPow[T]
	r["pd_op.clip"] = kClip[T]
	r["pd_op.increment"] = kIncrement[T]
	r["pd_op.softmax"] = kSoftmax[T]
	r["pd_op.add"] = binaryKernel(tensor.Add[T])
	r["pd_op.subtract"] = binaryKernel(tensor.Subtract[T])
	r["pd_op.multiply"] = binaryKernel(tensor.Multiply[T])
	r["pd_op.divide"] = kDivide[T]
	r["pd_op.log_softmax"] = kLogSoftmax[T]
}

func sign(v float64) float64 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return v // 0, -0 and NaN
}

// pair returns operands 0 and 1.
func (c *call[T]) pair() (*tensor.Tensor[T], *tensor.Tensor[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, nil, err
	}
	y, err := c.in(1)
	if err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

func binaryKernel[T tensor.Float](f func(x, y *tensor.Tensor[T]) (*tensor.Tensor[T], error)) kernel[T] {
	return func(c *call[T]) ([]*value[T], error) {
		x, y, err := c.pair()
		if err != nil {
			return nil, err
		}
		return c.one(f(x, y))
	}
}

// kDivide is x / y; integer division truncates toward zero (by the declared dtype) and fails on a zero divisor,
// as Paddle's integer kernel does.
func kDivide[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, y, err := c.pair()
	if err != nil {
		return nil, err
	}
	if dt := c.outDType(0); dt.IsInteger() {
		for _, v := range y.Data {
			if v == 0 {
				return nil, fmt.Errorf("integer division by zero")
			}
		}
	}
	return c.one(tensor.Divide(x, y))
}

func kHardsigmoid[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	return c.one(tensor.Hardsigmoid(x, c.attrFloat("slope", 0.2), c.attrFloat("offset", 0.5)))
}

func kLeakyRelu[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	return c.one(tensor.LeakyRelu(x, c.attrFloat("negative_slope", 0.02)))
}

func kElu[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	alpha := c.attrFloat("alpha", 1)
	return c.one(mapUnary(x, func(v float64) float64 {
		if v > 0 {
			return v
		}
		return alpha * (math.Exp(v) - 1)
	}), nil)
}

// kGelu is x·Φ(x) (exact, with erf) or its tanh approximation when approximate is set.
func kGelu[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	if c.attrBool("approximate", false) {
		k := math.Sqrt(2 / math.Pi)
		return c.one(mapUnary(x, func(v float64) float64 {
			return 0.5 * v * (1 + math.Tanh(k*(v+0.044715*v*v*v)))
		}), nil)
	}
	return c.one(tensor.Gelu(x)) // 0.5·v·(1 + erf(v/√2)), the erf eight at a time on the avx512 path
}

// kScale is scale·x + bias (bias_after_scale) or scale·(x + bias); the scale comes from operand 1 (a one-element
// tensor, usually a pd_op.full) or, in older programs, from the scale attribute.
func kScale[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	var s float64
	if len(c.args) > 1 && c.args[1] != nil {
		if s, err = c.scalar(1); err != nil {
			return nil, err
		}
	} else if v, ok := ir.AsFloat(c.op.Attr("scale")); ok {
		s = v
	} else {
		return nil, fmt.Errorf("no scale operand or attribute")
	}
	return c.one(tensor.Scale(x, s, c.attrFloat("bias", 0), c.attrBool("bias_after_scale", true)))
}

// kPow is x**y with the exponent from operand 1 (Scalar) or the y attribute.
func kPow[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	var y float64
	if len(c.args) > 1 && c.args[1] != nil {
		if y, err = c.scalar(1); err != nil {
			return nil, err
		}
	} else if v, ok := ir.AsFloat(c.op.Attr("y")); ok {
		y = v
	} else {
		return nil, fmt.Errorf("no exponent operand or attribute")
	}
	return c.one(mapUnary(x, func(v float64) float64 { return math.Pow(v, y) }), nil)
}

// kClip is min(max(x, lo), hi) with the bounds from operands 1 and 2.
func kClip[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	lo, err := c.scalar(1)
	if err != nil {
		return nil, err
	}
	hi, err := c.scalar(2)
	if err != nil {
		return nil, err
	}
	return c.one(mapUnary(x, func(v float64) float64 {
		switch {
		case v < lo:
			return lo
		case v > hi:
			return hi
		}
		return v
	}), nil)
}

// kIncrement is x + value.
func kIncrement[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	d := c.attrFloat("value", 1)
	return c.one(mapUnary(x, func(v float64) float64 { return v + d }), nil)
}

// kSoftmax is exp(x − max) / sum(exp(x − max)) along the axis attribute (default -1), in float64.
func kSoftmax[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	r := len(x.Shape)
	axis := c.attrInt("axis", -1)
	if r == 0 {
		return c.one(mapUnary(x, func(float64) float64 { return 1 }), nil)
	}
	if axis < 0 {
		axis += r
	}
	if axis < 0 || axis >= r {
		return nil, fmt.Errorf("axis %d out of range for rank %d", c.attrInt("axis", -1), r)
	}
	n, inner := x.Shape[axis], 1
	for _, d := range x.Shape[axis+1:] {
		inner *= d
	}
	out := &tensor.Tensor[T]{Shape: append([]int{}, x.Shape...), Data: make([]T, len(x.Data))}
	if n == 0 || len(x.Data) == 0 {
		return c.one(out, nil)
	}
	// Rows (one per outer and inner index) are independent: split across goroutines, each row computed alike.
	outer := len(x.Data) / (n * inner)
	tensor.ParallelFor(outer*inner, 8*n, func(lo, hi int) {
		e := make([]float64, n)
		for r := lo; r < hi; r++ {
			if inner == 1 {
				// The last axis (attention scores): the row is contiguous, the same operations in slices.
				softmaxRow(out.Data[r*n:(r+1)*n], x.Data[r*n:(r+1)*n], e)
				continue
			}
			base := r/inner*n*inner + r%inner
			m := math.Inf(-1)
			for k := range n {
				m = max(m, float64(x.Data[base+k*inner]))
			}
			for k := range n {
				e[k] = float64(x.Data[base+k*inner]) - m
			}
			tensor.ExpInPlace(e)
			s := 0.0
			for _, v := range e {
				s += v
			}
			for k := range n {
				out.Data[base+k*inner] = T(e[k] / s)
			}
		}
	})
	return c.one(out, nil)
}

// softmaxRow writes the softmax of the contiguous row src to dst (len(src)), with e (as long) as scratch: the
// exponentials of x − max in float64, summed in order, each divided by the sum.
func softmaxRow[T tensor.Float](dst, src []T, e []float64) {
	dst, e = dst[:len(src)], e[:len(src)]
	m := math.Inf(-1)
	for _, v := range src {
		m = max(m, float64(v))
	}
	for k, v := range src {
		e[k] = float64(v) - m
	}
	tensor.ExpInPlace(e) // math.Exp's bits, eight at a time where the kernel path has a vector exponential
	s := 0.0
	for _, v := range e {
		s += v
	}
	for k, v := range e {
		dst[k] = T(v / s)
	}
}

// kAbs is |x|; of a complex tensor, the modulus √(re² + im²) (a real tensor).
func kAbs[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.arg(0)
	if err != nil {
		return nil, err
	}
	if !isComplex(x.dtype) {
		return c.one(mapUnary(x.tensor(), math.Abs), nil)
	}
	out := make([]T, x.NumElements())
	for i := range out {
		out[i] = T(math.Hypot(float64(x.buf.data[2*i]), float64(x.buf.data[2*i+1])))
	}
	return c.one(&tensor.Tensor[T]{Shape: append([]int{}, x.shape...), Data: out}, nil)
}

// kLogSoftmax is x − max − log Σ exp(x − max) along axis, computed in float64 per line.
func kLogSoftmax[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	if len(x.Shape) == 0 {
		return c.one(mapUnary(x, func(float64) float64 { return 0 }), nil)
	}
	axis, err := normAxis(c.attrInt("axis", -1), len(x.Shape))
	if err != nil {
		return nil, err
	}
	outer, n, inner := lines(x.Shape, axis)
	out := make([]T, len(x.Data))
	tensor.ParallelFor(outer*inner, 4*n, func(lo, hi int) {
		for line := lo; line < hi; line++ {
			base := (line/inner)*n*inner + line%inner
			m := math.Inf(-1)
			for k := range n {
				m = math.Max(m, float64(x.Data[base+k*inner]))
			}
			s := 0.0
			for k := range n {
				s += math.Exp(float64(x.Data[base+k*inner]) - m)
			}
			ls := math.Log(s)
			for k := range n {
				out[base+k*inner] = T(float64(x.Data[base+k*inner]) - m - ls)
			}
		}
	})
	return c.one(&tensor.Tensor[T]{Shape: slices.Clone(x.Shape), Data: out}, nil)
}
