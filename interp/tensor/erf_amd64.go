//go:build amd64 && !purego && !amd64.v3

package tensor

import "golang.org/x/sys/cpu"

// erfF64AVX512 is math.Erf of x[0:n] in place, eight at a time, up to the first vector that holds a NaN; it
// returns how many elements it did (erf_amd64.s).
//
//go:noescape
func erfF64AVX512(x *float64, n int) int

// archErfVec returns the assembly error function when it gives math.Erf's bits: on AVX-512 with math.Exp's FMA
// path (AVX and FMA), whose steps its exponentials repeat. (Built for GOAMD64=v3 or above, the compiler fuses
// math.Erf's multiply-adds, which the assembly does not: erf_other.go then leaves ErfInPlace to math.Erf.)
func archErfVec() func(x []float64) int {
	if !cpu.X86.HasAVX512F || !cpu.X86.HasAVX || !cpu.X86.HasFMA {
		return nil
	}
	return func(x []float64) int {
		if len(x) < 8 {
			return 0
		}
		return erfF64AVX512(&x[0], len(x))
	}
}
