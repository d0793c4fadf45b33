//go:build amd64 && !purego && !amd64.v3

package tensor

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// erfLanesAVX512 is, eight elements at a time up to the first vector that holds a NaN, math.Erf of src[0:n]
// (float64) into dst (gelu false), or gelu of src[0:n] (float32) into dst (float32) by geluOf's operations (gelu
// true); it returns how many elements it did (erf_amd64.s).
//
//go:noescape
func erfLanesAVX512(dst, src unsafe.Pointer, n int, gelu bool) int

// archErfVec returns the assembly error function when it gives math.Erf's bits: on AVX-512 with math.Exp's FMA
// path (AVX and FMA), whose steps its exponentials repeat. (Built for GOAMD64=v3 or above, the compiler fuses
// math.Erf's multiply-adds, which the assembly does not: erf_other.go then leaves ErfInPlace to math.Erf.)
func archErfVec() func(x []float64) int {
	if !hasErfLanes() {
		return nil
	}
	return func(x []float64) int {
		if len(x) < 8 {
			return 0
		}
		return erfLanesAVX512(unsafe.Pointer(&x[0]), unsafe.Pointer(&x[0]), len(x), false)
	}
}

// archGeluVec returns the assembly gelu of float32 elements (the erf of archErfVec inside), nil where that is
// missing.
func archGeluVec() func(dst, src []float32) int {
	if !hasErfLanes() {
		return nil
	}
	return func(dst, src []float32) int {
		if len(src) < 8 {
			return 0
		}
		_ = dst[len(src)-1]
		return erfLanesAVX512(unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), len(src), true)
	}
}

func hasErfLanes() bool { return cpu.X86.HasAVX512F && cpu.X86.HasAVX && cpu.X86.HasFMA }
