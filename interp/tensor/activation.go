package tensor

import (
	"fmt"
	"math"
)

// Element-wise functions are evaluated in float64 and rounded to T. NaN
// inputs propagate to NaN outputs (the clamping activations do not hide
// them).

func unary[T Float](op string, x *Tensor[T], f func(float64) float64) (*Tensor[T], error) {
	if err := x.validate(op); err != nil {
		return nil, err
	}
	return Map(x, func(v T) T { return T(f(float64(v))) }), nil
}

// unaryMath is unary for the functions mapMath has loops for.
func unaryMath[T Float](op string, x *Tensor[T], fn mathFunc) (*Tensor[T], error) {
	if err := x.validate(op); err != nil {
		return nil, err
	}
	return mapMath(x, fn), nil
}

// relu and relu6 clamp with the min and max builtins, which compile to no branch (a branch on the sign of
// activations is mispredicted half the time: five times the cost of the clamping); a NaN stays NaN and -0 becomes
// 0, as Paddle's `x > 0 ? x : 0` gives it.
func relu(v float64) float64 { return max(v, 0) }

func relu6(v float64) float64 { return min(max(v, 0), 6) }

func sigmoid(v float64) float64 { return 1 / (1 + math.Exp(-v)) }

func swish(v float64) float64 { return v * sigmoid(v) }

func hardswish(v float64) float64 { return v * relu6(v+3) / 6 }

func leakyRelu(alpha float64) func(float64) float64 {
	return func(v float64) float64 {
		if v < 0 {
			return alpha * v
		}
		return v
	}
}

func hardsigmoid(slope, offset float64) func(float64) float64 {
	return func(v float64) float64 {
		y := slope*v + offset
		switch {
		case y < 0:
			return 0
		case y > 1:
			return 1
		}
		return y
	}
}

// Identity returns a copy of x.
func Identity[T Float](x *Tensor[T]) (*Tensor[T], error) {
	if err := x.validate("identity"); err != nil {
		return nil, err
	}
	return x.Clone(), nil
}

// Relu returns max(x, 0).
func Relu[T Float](x *Tensor[T]) (*Tensor[T], error) {
	if err := x.validate("relu"); err != nil {
		return nil, err
	}
	// relu in T directly (the same values as relu through float64): the activation of every convolution block,
	// where two indirect calls per element cost more than the clamping.
	out := newUnchecked[T](x.Shape)
	ParallelFor(len(x.Data), 2, func(lo, hi int) {
		dst := out.Data[lo:hi]
		for i, v := range x.Data[lo:hi] {
			dst[i] = max(v, 0)
		}
	})
	return out, nil
}

// Relu6 returns min(max(x, 0), 6) (Paddle's relu6, threshold 6).
func Relu6[T Float](x *Tensor[T]) (*Tensor[T], error) { return unary("relu6", x, relu6) }

// Sigmoid returns 1 / (1 + exp(-x)).
func Sigmoid[T Float](x *Tensor[T]) (*Tensor[T], error) { return unaryMath("sigmoid", x, fnSigmoid) }

// Swish returns x * sigmoid(x) (Paddle's swish/silu with beta = 1).
func Swish[T Float](x *Tensor[T]) (*Tensor[T], error) { return unaryMath("swish", x, fnSwish) }

// Hardswish returns x * min(max(x+3, 0), 6) / 6 (Paddle's defaults:
// offset 3, threshold 6, scale 6).
func Hardswish[T Float](x *Tensor[T]) (*Tensor[T], error) {
	return unary("hardswish", x, hardswish)
}

// Hardsigmoid returns max(0, min(1, slope*x + offset)). Paddle's defaults are
// slope = 1/6 (0.1666667) and offset = 0.5.
func Hardsigmoid[T Float](x *Tensor[T], slope, offset float64) (*Tensor[T], error) {
	return unary("hardsigmoid", x, hardsigmoid(slope, offset))
}

// LeakyRelu returns x for x >= 0 and negativeSlope*x otherwise.
func LeakyRelu[T Float](x *Tensor[T], negativeSlope float64) (*Tensor[T], error) {
	return unary("leaky_relu", x, leakyRelu(negativeSlope))
}

// Tanh returns the hyperbolic tangent of x.
func Tanh[T Float](x *Tensor[T]) (*Tensor[T], error) { return unary("tanh", x, math.Tanh) }

// Sqrt returns the square root of x (NaN for negative elements).
func Sqrt[T Float](x *Tensor[T]) (*Tensor[T], error) { return unary("sqrt", x, math.Sqrt) }

// Exp returns e**x.
func Exp[T Float](x *Tensor[T]) (*Tensor[T], error) { return unaryMath("exp", x, fnExp) }

// Erf returns the error function of x (math.Erf's bits, eight at a time on the avx512 path).
func Erf[T Float](x *Tensor[T]) (*Tensor[T], error) { return unaryMath("erf", x, fnErf) }

// Gelu returns GELU of x, exact form: 0.5·x·(1 + erf(x/√2)) in float64 (the erf by ErfInPlace).
func Gelu[T Float](x *Tensor[T]) (*Tensor[T], error) { return unaryMath("gelu", x, fnGelu) }

// Scale implements Paddle's scale op: scale*x + bias when biasAfterScale,
// otherwise scale*(x + bias).
func Scale[T Float](x *Tensor[T], scale, bias float64, biasAfterScale bool) (*Tensor[T], error) {
	if err := x.validate("scale"); err != nil {
		return nil, err
	}
	// Loops of their own: attention scales every score, and a call per element cost more than the arithmetic.
	out := newUnchecked[T](x.Shape)
	ParallelFor(len(x.Data), 4, func(lo, hi int) {
		src, dst := x.Data[lo:hi], out.Data[lo:hi]
		dst = dst[:len(src)]
		if biasAfterScale {
			for i, v := range src {
				dst[i] = T(scale*float64(v) + bias)
			}
			return
		}
		for i, v := range src {
			dst[i] = T(scale * (float64(v) + bias))
		}
	})
	return out, nil
}

// Activation names accepted by ApplyActivation and FusedConv2DAddAct.
const (
	ActIdentity  = "identity"
	ActRelu      = "relu"
	ActRelu6     = "relu6"
	ActSigmoid   = "sigmoid"
	ActSwish     = "swish"
	ActTanh      = "tanh"
	ActLeakyRelu = "leaky_relu"
	ActHardswish = "hardswish"
)

// activationFunc returns the scalar function for a fused-activation name;
// alpha is the negative slope of leaky_relu and ignored otherwise.
func activationFunc(name string, alpha float64) (func(float64) float64, error) {
	switch name {
	case ActIdentity:
		return nil, nil
	case ActRelu:
		return relu, nil
	case ActRelu6:
		return relu6, nil
	case ActSigmoid:
		return sigmoid, nil
	case ActSwish:
		return swish, nil
	case ActTanh:
		return math.Tanh, nil
	case ActLeakyRelu:
		return leakyRelu(alpha), nil
	case ActHardswish:
		return hardswish, nil
	}
	return nil, fmt.Errorf("tensor: unknown activation %q (want identity, relu, relu6, sigmoid, swish, tanh, leaky_relu or hardswish)", name)
}

// ApplyActivation applies the named activation (one of the Act* constants)
// to x; alpha is the negative slope used by leaky_relu. Unknown names are an
// error.
func ApplyActivation[T Float](x *Tensor[T], name string, alpha float64) (*Tensor[T], error) {
	f, err := activationFunc(name, alpha)
	if err != nil {
		return nil, err
	}
	if f == nil {
		return Identity(x)
	}
	return unary(name, x, f)
}
