//go:build amd64 && !purego

package tensor

import "golang.org/x/sys/cpu"

// expF64AVX512 is math.Exp of x[0:n] in place, eight at a time, up to the first vector that holds a value math.Exp
// treats specially; it returns how many elements it did (exp_amd64.s).
//
//go:noescape
func expF64AVX512(x *float64, n int) int

// archExpVec returns the assembly exponential when it gives math.Exp's bits: on AVX-512, where math.Exp takes its
// FMA path (the standard library's useFMA: AVX and FMA), which the assembly repeats.
func archExpVec() func(x []float64) int {
	// KORTESTB (exp_amd64.s) is an AVX512DQ instruction.
	if !cpu.X86.HasAVX512F || !cpu.X86.HasAVX512DQ || !cpu.X86.HasAVX || !cpu.X86.HasFMA {
		return nil
	}
	return func(x []float64) int {
		if len(x) < 8 {
			return 0
		}
		return expF64AVX512(&x[0], len(x))
	}
}
