package tensor

import "math"

// expVec is the vector exponential of the avx512 kernel path (exp_amd64.s), nil on other paths: it computes
// the elements of x from the start in place, eight at a time, exactly as math.Exp, and returns how many it did,
// stopping before eight that hold a value math.Exp treats specially.
var expVec = func() func(x []float64) int {
	if kernels.name != "avx512" {
		return nil
	}
	return archExpVec()
}()

// ExpInPlace sets every x[i] to math.Exp(x[i]), the same bits, eight at a time in assembly on the avx512 kernel
// path (softmax's exponentials, a sixth of a vision transformer's verify time, were one call each).
func ExpInPlace(x []float64) {
	i := 0
	if expVec != nil {
		for len(x)-i >= 8 {
			i += expVec(x[i:])
			if len(x)-i >= 8 {
				for k := i; k < i+8; k++ { // the vector the assembly left: a special value among them
					x[k] = math.Exp(x[k])
				}
				i += 8
			}
		}
	}
	for ; i < len(x); i++ {
		x[i] = math.Exp(x[i])
	}
}
