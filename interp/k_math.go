package interp

import (
	"math"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// The long tail of element-wise functions: trigonometric, hyperbolic, logarithmic and special functions, and the
// activations with attributes, each as Paddle's phi functor defines it (activation_functor.h).

// unaryFunc is an element-wise function whose shape may depend on the call's attributes.
type unaryFunc[T tensor.Float] func(c *call[T]) (func(float64) float64, error)

// plain wraps an attribute-free function.
func plain[T tensor.Float](f func(float64) float64) unaryFunc[T] {
	return func(*call[T]) (func(float64) float64, error) { return f, nil }
}

func registerMath[T tensor.Float](r registry[T]) {
	fns := map[string]unaryFunc[T]{
		"acos":        plain[T](math.Acos),
		"acosh":       plain[T](math.Acosh),
		"asin":        plain[T](math.Asin),
		"asinh":       plain[T](math.Asinh),
		"atan":        plain[T](math.Atan),
		"atanh":       plain[T](math.Atanh),
		"cosh":        plain[T](math.Cosh),
		"sinh":        plain[T](math.Sinh),
		"tan":         plain[T](math.Tan),
		"expm1":       plain[T](math.Expm1),
		"log10":       plain[T](math.Log10),
		"log1p":       plain[T](math.Log1p),
		"log2":        plain[T](math.Log2),
		"trunc":       plain[T](math.Trunc),
		"digamma":     plain[T](digamma),
		"lgamma":      plain[T](lgamma),
		"gammaln":     plain[T](lgamma),
		"erfinv":      plain[T](math.Erfinv),
		"i0":          plain[T](besselI0),
		"softsign":    plain[T](func(v float64) float64 { return v / (1 + math.Abs(v)) }),
		"logsigmoid":  plain[T](logSigmoid),
		"tanh_shrink": plain[T](func(v float64) float64 { return v - math.Tanh(v) }),
		"round": func(c *call[T]) (func(float64) float64, error) {
			d := c.attrInt("decimals", 0)
			return func(v float64) float64 { return roundDecimals(v, d) }, nil
		},
		"logit": func(c *call[T]) (func(float64) float64, error) {
			eps := c.attrFloat("eps", 1e-6)
			return func(v float64) float64 {
				if eps >= 0 {
					v = min(max(v, eps), 1-eps)
				}
				return math.Log(v / (1 - v))
			}, nil
		},
		"thresholded_relu": func(c *call[T]) (func(float64) float64, error) {
			th, val := c.attrFloat("threshold", 1), c.attrFloat("value", 0)
			return func(v float64) float64 {
				if v > th {
					return v
				}
				return val
			}, nil
		},
		"hardtanh": func(c *call[T]) (func(float64) float64, error) {
			lo, hi := c.attrFloat("t_min", 0), c.attrFloat("t_max", 24)
			return func(v float64) float64 { return clampNaN(v, lo, hi) }, nil
		},
		"polygamma": func(c *call[T]) (func(float64) float64, error) {
			n := c.attrInt("n", 0)
			return func(v float64) float64 { return polygamma(n, v) }, nil
		},
		"softplus": func(c *call[T]) (func(float64) float64, error) {
			beta, th := c.attrFloat("beta", 1), c.attrFloat("threshold", 20)
			return func(v float64) float64 {
				if v*beta > th {
					return v
				}
				return math.Log1p(math.Exp(beta*v)) / beta
			}, nil
		},
		"mish": func(c *call[T]) (func(float64) float64, error) {
			th := c.attrFloat("lambda", 20)
			return func(v float64) float64 {
				sp := v
				if v <= th {
					sp = math.Log1p(math.Exp(v))
				}
				return v * math.Tanh(sp)
			}, nil
		},
		"selu": func(c *call[T]) (func(float64) float64, error) {
			scale, alpha := c.attrFloat("scale", 1.0507009873554805), c.attrFloat("alpha", 1.6732632423543772)
			return func(v float64) float64 {
				if v > 0 {
					return scale * v
				}
				return scale * alpha * (math.Exp(v) - 1)
			}, nil
		},
		"celu": func(c *call[T]) (func(float64) float64, error) {
			alpha := c.attrFloat("alpha", 1)
			return func(v float64) float64 { return max(0, v) + min(0, alpha*(math.Exp(v/alpha)-1)) }, nil
		},
		"softshrink": func(c *call[T]) (func(float64) float64, error) {
			th := c.attrFloat("threshold", 0.5)
			return func(v float64) float64 {
				switch {
				case v > th:
					return v - th
				case v < -th:
					return v + th
				}
				return 0
			}, nil
		},
		"hardshrink": func(c *call[T]) (func(float64) float64, error) {
			th := c.attrFloat("threshold", 0.5)
			return func(v float64) float64 {
				if v > th || v < -th {
					return v
				}
				return 0
			}, nil
		},
		"stanh": func(c *call[T]) (func(float64) float64, error) {
			a, b := c.attrFloat("scale_a", 0.67), c.attrFloat("scale_b", 1.7159)
			return func(v float64) float64 { return b * math.Tanh(a*v) }, nil
		},
	}
	for name, mk := range fns {
		r["pd_op."+name] = func(c *call[T]) ([]*value[T], error) {
			x, err := c.in(0)
			if err != nil {
				return nil, err
			}
			f, err := mk(c)
			if err != nil {
				return nil, err
			}
			return c.one(mapUnary(x, f), nil)
		}
	}
	r["pd_op.real"] = complexPart[T](0)
	r["pd_op.imag"] = complexPart[T](1)
}

func lgamma(v float64) float64 {
	l, _ := math.Lgamma(v)
	return l
}

// logSigmoid is log(1/(1+e^−x)), computed without overflow for large |x|.
func logSigmoid(v float64) float64 {
	if v < 0 {
		return v - math.Log1p(math.Exp(v))
	}
	return -math.Log1p(math.Exp(-v))
}

// roundDecimals is Paddle's round: half away from zero, at 10^−decimals.
func roundDecimals(v float64, decimals int) float64 {
	switch {
	case decimals == 0:
		return math.Round(v)
	case decimals > 0:
		p := math.Pow(10, float64(decimals))
		return math.Round(v*p) / p
	}
	p := math.Pow(10, float64(-decimals))
	return math.Round(v/p) * p
}

// clampNaN is min(max(v, lo), hi) with NaN propagated.
func clampNaN(v, lo, hi float64) float64 {
	switch {
	case v < lo:
		return lo
	case v > hi:
		return hi
	}
	return v
}

// complexPart returns the real (0) or imaginary (1) part of a complex tensor (a real tensor's imaginary part is
// zero).
func complexPart[T tensor.Float](part int) kernel[T] {
	return func(c *call[T]) ([]*value[T], error) {
		x, err := c.arg(0)
		if err != nil {
			return nil, err
		}
		n := x.NumElements()
		out := make([]T, n)
		if isComplex(x.dtype) {
			for i := range out {
				out[i] = x.buf.data[2*i+part]
			}
		} else if part == 0 {
			copy(out, x.buf.data)
		}
		return c.one(&tensor.Tensor[T]{Shape: append([]int{}, x.shape...), Data: out}, nil)
	}
}

// isComplex reports whether dt is a complex type (whose tensors hold real and imaginary parts interleaved).
func isComplex(dt ir.DType) bool { return dt == ir.DTypeComplex64 || dt == ir.DTypeComplex128 }
