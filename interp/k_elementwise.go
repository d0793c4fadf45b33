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
		e := make([]float64, softmaxGroup*n)
		for r := lo; r < hi; r++ {
			if inner == 1 {
				// The last axis (attention scores): the row is contiguous, the same operations in slices, on
				// softmaxGroup rows at a time where there are as many.
				if hi-r >= softmaxGroup {
					softmaxRows(out.Data[r*n:(r+softmaxGroup)*n], x.Data[r*n:(r+softmaxGroup)*n], e, n)
					r += softmaxGroup - 1
				} else {
					softmaxRow(out.Data[r*n:(r+1)*n], x.Data[r*n:(r+1)*n], e)
				}
				continue
			}
			e := e[:n]
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

// softmaxGroup is the number of rows softmaxRows computes at once (its four sums are written out).
const softmaxGroup = 4

// softmaxRows is softmaxRow on softmaxGroup contiguous rows of n values (e as long as they are): each row's
// operations are softmaxRow's, in the same order (the same bits), but the rows' sums run side by side, four chains
// of dependent additions that the processor overlaps where one row's chain waited on each addition.
func softmaxRows[T tensor.Float](dst, src []T, e []float64, n int) {
	dst, src, e = dst[:4*n], src[:4*n], e[:4*n]
	for r := range 4 {
		row, er := src[r*n:(r+1)*n], e[r*n:(r+1)*n]
		er = er[:len(row)]
		m := rowMax(row)
		for k, v := range row {
			er[k] = float64(v) - m
		}
	}
	tensor.ExpInPlace(e) // element by element: the same values as four calls
	e0, e1, e2, e3 := e[:n], e[n:2*n], e[2*n:3*n], e[3*n:]
	e1, e2, e3 = e1[:len(e0)], e2[:len(e0)], e3[:len(e0)]
	var s0, s1, s2, s3 float64
	for k, v := range e0 {
		s0 += v
		s1 += e1[k]
		s2 += e2[k]
		s3 += e3[k]
	}
	for r, s := range [4]float64{s0, s1, s2, s3} {
		row, er := dst[r*n:(r+1)*n], e[r*n:(r+1)*n]
		er = er[:len(row)]
		for k := range row {
			row[k] = T(er[k] / s)
		}
	}
}

// rowMax returns the largest of the values of src, as max(max(-Inf, src[0]), src[1])… does (NaN when one is, +0
// when the largest is a zero and one of them +0), in a loop whose running maximum is no chain of dependent instructions: the
// builtin max, which orders NaNs and signed zeros, took a dozen cycles a value, three fifths of a softmax.
func rowMax[T tensor.Float](src []T) float64 {
	m, nan := math.Inf(-1), false
	for _, v := range src {
		f := float64(v)
		if f > m {
			m = f
		}
		nan = nan || f != f
	}
	if nan || m == 0 {
		// The builtin's NaN, or its zero's sign (+0 when a +0 is among the zeros).
		m = math.Inf(-1)
		for _, v := range src {
			m = max(m, float64(v))
		}
	}
	return m
}

// softmaxRow writes the softmax of the contiguous row src to dst (len(src)), with e (as long) as scratch: the
// exponentials of x − max in float64, summed in order, each divided by the sum.
func softmaxRow[T tensor.Float](dst, src []T, e []float64) {
	dst, e = dst[:len(src)], e[:len(src)]
	m := rowMax(src)
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
