package tensor

import "math"

// erfVec is the vector error function of the avx512 kernel path (erf_amd64.s), nil on other paths: it computes
// the elements of x from the start in place, eight at a time, exactly as math.Erf, and returns how many it did,
// stopping before eight that hold a NaN.
var erfVec = func() func(x []float64) int {
	if kernels.name != "avx512" {
		return nil
	}
	return archErfVec()
}()

// ErfInPlace sets every x[i] to math.Erf(x[i]), the same bits, eight at a time in assembly on the avx512 kernel
// path (gelu's erf, a tenth to a third of a vision transformer's verify time, was one call each).
func ErfInPlace(x []float64) {
	i := 0
	if erfVec != nil {
		for len(x)-i >= 8 {
			i += erfVec(x[i:])
			if len(x)-i >= 8 {
				for k := i; k < i+8; k++ { // the vector the assembly left: a NaN among them
					x[k] = math.Erf(x[k])
				}
				i += 8
			}
		}
	}
	for ; i < len(x); i++ {
		x[i] = math.Erf(x[i])
	}
}

// geluVec is the float32 gelu of the avx512 kernel path (erf_amd64.s), nil on other paths: it writes gelu of the
// elements of src from the start into dst, eight at a time, exactly as float32(geluOf(float64(v))), and returns
// how many it did, stopping before eight that hold a NaN.
var geluVec = func() func(dst, src []float32) int {
	if kernels.name != "avx512" {
		return nil
	}
	return archGeluVec()
}()

// geluOf is GELU's exact form, 0.5·v·(1 + erf(v/√2)), in float64.
func geluOf(v float64) float64 { return 0.5 * v * (1 + math.Erf(v/math.Sqrt2)) }

// geluF32 writes float32(geluOf(float64(v))) of every element of src into dst (as long), the same bits, eight at
// a time in assembly on the avx512 kernel path, with no float64 buffer between the steps.
func geluF32(dst, src []float32) {
	i := 0
	if geluVec != nil {
		for len(src)-i >= 8 {
			i += geluVec(dst[i:], src[i:])
			if len(src)-i >= 8 {
				for k := i; k < i+8; k++ { // the vector the assembly left: a NaN among them
					dst[k] = float32(geluOf(float64(src[k])))
				}
				i += 8
			}
		}
	}
	for ; i < len(src); i++ {
		dst[i] = float32(geluOf(float64(src[i])))
	}
}
