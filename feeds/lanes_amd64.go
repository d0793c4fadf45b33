//go:build amd64 && !purego

package feeds

import (
	"golang.org/x/sys/cpu"

	"github.com/pirdrr/drr/interp/tensor"
)

// laneState is the state the assembly reads and writes: the xoshiro256++ words s0…s3 of eight lanes (word-major,
// so that each word is one ZMM register), then each lane's offset in the destination, in elements.
type laneState [5][8]uint64

// laneParams holds the float64 constants of a lane draw, in the order normalLanesAVX512 reads them: the
// distribution (mean, std, lo, hi), 2^-53, -1/2, then the exponential's range reduction (log2 e, ln 2 split in a
// high and a low part), the decision margin 1±expMargin, the coefficients 1/k! (k = 0…8) of its polynomial, and
// 1.5·2^52, whose addition rounds to an integer and leaves it in the low bits (the power of two is built from them:
// VRNDSCALEPD and VSCALEFPD measured slower here).
type laneParams [21]float64

// normalLanesAVX512 draws up to n float32 normal values into each lane of st whose bit is set in mask, lane j's
// element i at dst[off_j+i], exactly as drawChunkInto draws them (see lanes.go). It returns how many it drew,
// fewer than n when a lane needs the tail or a decision its approximate exponential cannot make; st then holds
// every lane's state before that element.
//
//go:noescape
func normalLanesAVX512(st *laneState, dst *float32, n int, mask uint64, par *laneParams, zx, zf *float64) int

// lanesSupported reports whether this CPU runs the lane draws: AVX-512 with its doubleword/quadword instructions
// (the conversion of 64-bit integers to float64, the 8-bit mask instructions).
var lanesSupported = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

// drawLanes is the assembly lane draw when this machine runs it and the kernel path in use is avx512
// (tensor.Kernels: PIRDRR_KERNELS=go makes every draw take the portable loop too), else nil.
var drawLanes = func() func(st *laneState, dst []float32, n int, mask uint64, par *laneParams) int {
	if name, _ := tensor.Kernels(); !lanesSupported || name != "avx512" {
		return nil
	}
	return func(st *laneState, dst []float32, n int, mask uint64, par *laneParams) int {
		for j := range 8 {
			if mask&(1<<j) != 0 && int(st[4][j])+n > len(dst) {
				panic("feeds: lane draw out of bounds")
			}
		}
		if n == 0 {
			return 0
		}
		return normalLanesAVX512(st, &dst[0], n, mask, par, &zigX[0], &zigF[0])
	}
}()
