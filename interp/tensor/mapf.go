package tensor

import "math"

// Element-wise functions in float64 without a closure call per element on the hot paths: Map with a closure
// around a float64 function makes two indirect calls per element, and the activations built on exp (exp,
// sigmoid, swish) have loops of their own around ExpInPlace, and those built on erf (erf, gelu) around
// ErfInPlace. Every loop computes T(f(float64(v))), so the values are those of the closures they replace.

// mathFunc names a float64 function that mapMath calls directly.
type mathFunc uint8

const (
	fnExp mathFunc = iota
	fnSigmoid
	fnSwish
	fnErf
	fnGelu
)

// mapMath returns fn of every element of x, evaluated in float64, in a fresh tensor. The exponentials are taken
// a block at a time by ExpInPlace and the error functions by ErfInPlace (math.Exp's and math.Erf's bits, eight at
// once on the avx512 path), the rest of each function element by element, so every value is T(f(float64(v))) as
// before. (tanh is not among them: measured, such a loop around math.Tanh ran at half the speed of Map's closure,
// for a reason not found.)
func mapMath[T Float](x *Tensor[T], fn mathFunc) *Tensor[T] {
	out := newUnchecked[T](x.Shape)
	ParallelFor(len(x.Data), 32, func(lo, hi int) {
		if src, ok := any(x.Data).([]float32); ok && fn == fnGelu && geluVec != nil {
			geluF32(any(out.Data).([]float32)[lo:hi], src[lo:hi]) // float32 in and out of the assembly
			return
		}
		var buf [256]float64
		for lo < hi {
			src := x.Data[lo:min(lo+len(buf), hi)]
			dst, e := out.Data[lo:lo+len(src)], buf[:len(src)]
			switch fn {
			case fnExp, fnErf:
				for i, v := range src {
					e[i] = float64(v)
				}
			case fnGelu:
				for i, v := range src {
					e[i] = float64(v) / math.Sqrt2
				}
			default:
				for i, v := range src {
					e[i] = -float64(v)
				}
			}
			if fn == fnErf || fn == fnGelu {
				ErfInPlace(e)
			} else {
				ExpInPlace(e)
			}
			switch fn {
			case fnExp, fnErf:
				for i, v := range e {
					dst[i] = T(v)
				}
			case fnSigmoid: // sigmoid(v) = 1 / (1 + exp(-v))
				for i, v := range e {
					dst[i] = T(1 / (1 + v))
				}
			case fnSwish: // swish(v) = v · sigmoid(v)
				for i, v := range e {
					dst[i] = T(float64(src[i]) * (1 / (1 + v)))
				}
			case fnGelu: // gelu(v) = 0.5·v·(1 + erf(v/√2))
				for i, v := range e {
					dst[i] = T(0.5 * float64(src[i]) * (1 + v))
				}
			}
			lo += len(src)
		}
	})
	return out
}
