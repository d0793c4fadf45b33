package feeds

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// portableDraw is drawInto without the lane draws: every chunk through drawChunkInto.
func portableDraw(n int, seed uint64, dt ir.DType, d distribution) []float32 {
	dst := make([]float32, n)
	for c := 0; c*tensor.DrawChunk < n; c++ {
		r := newStream(tensor.ChunkSeed(seed, c))
		drawChunkInto(dst[c*tensor.DrawChunk:min((c+1)*tensor.DrawChunk, n)], &r, dt, d)
	}
	return dst
}

// TestLaneDrawsAreThePortableOnes: the assembly lane draws give, bit for bit, the numbers of the portable loop,
// for tensors of every shape of chunk grouping (one chunk, a shorter last chunk, eight lanes, a group with absent
// lanes), clipped and unclipped distributions, and with a margin so wide that most wedge decisions go to Go; into
// float32 and, widened, into float64.
func TestLaneDrawsAreThePortableOnes(t *testing.T) {
	if drawLanes == nil {
		t.Skip("this machine (or kernel path) has no lane draws")
	}
	const c = tensor.DrawChunk
	dists := []distribution{
		{kind: distNormal, lo: math.Inf(-1), hi: math.Inf(1), std: 1},
		{kind: distNormal, lo: -0.3, hi: 0.4, mean: 0.05, std: 0.1},
		{kind: distNormal, lo: -1, hi: 1, std: 0.02},
		{kind: distNormal, lo: 0, hi: 1e-3, mean: 1e-4, std: 1e-3},
	}
	for _, margin := range []float64{expMargin, 0.3} {
		t.Run(fmt.Sprintf("margin=%g", margin), func(t *testing.T) {
			for _, n := range []int{1, 100, c, c + 7, 8 * c, 8*c + 1, 11 * c, 19*c - 3} {
				for _, d := range dists {
					for seed := range uint64(3) {
						want := portableDraw(n, seed, ir.DTypeFloat32, d)
						got := make([]float32, n)
						if margin == expMargin {
							drawInto(got, seed, ir.DTypeFloat32, d) // as verify draws: groups of chunks on goroutines
						} else {
							drawNormalLanes(got, seed, 0, (n+c-1)/c, d, margin)
						}
						for i := range want {
							if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
								require.Failf(t, "lane draw differs", "n %d, %+v, seed %d, margin %g: element %d (chunk %d, index %d): %v, want %v",
									n, d, seed, margin, i, i/c, i%c, got[i], want[i])
							}
						}
						if margin == expMargin {
							// A float64 evaluation draws the same float32 numbers, widened.
							got64 := make([]float64, n)
							drawInto(got64, seed, ir.DTypeFloat32, d)
							for i := range want {
								if math.Float64bits(float64(want[i])) != math.Float64bits(got64[i]) {
									require.Failf(t, "lane draw into float64 differs", "n %d, %+v, seed %d: element %d: %v, want %v",
										n, d, seed, i, got64[i], want[i])
								}
							}
						}
					}
				}
			}
		})
	}
}

// TestHalfLaneDrawsAreThePortableOnes: float16 weights drawn on the lanes (the float32 numbers, rounded) are the
// portable loop's, bit for bit, into float32 and, widened, into float64.
func TestHalfLaneDrawsAreThePortableOnes(t *testing.T) {
	if drawLanes == nil {
		t.Skip("this machine (or kernel path) has no lane draws")
	}
	const c = tensor.DrawChunk
	for _, d := range []distribution{
		{kind: distNormal, lo: -1, hi: 1, std: 0.02},
		{kind: distNormal, lo: -1, hi: 1, std: 1e-4},                    // float16 subnormals
		{kind: distNormal, lo: math.Inf(-1), hi: math.Inf(1), std: 3e4}, // beyond 65504: infinities
	} {
		for _, n := range []int{1, c + 7, 8*c + 1, 19*c - 3} {
			want := portableDraw(n, 5, ir.DTypeFloat16, d)
			got := make([]float32, n)
			drawInto(got, 5, ir.DTypeFloat16, d)
			got64 := make([]float64, n)
			drawInto(got64, 5, ir.DTypeFloat16, d)
			for i := range want {
				if math.Float32bits(want[i]) != math.Float32bits(got[i]) || math.Float64bits(float64(want[i])) != math.Float64bits(got64[i]) {
					require.Failf(t, "float16 lane draw differs", "n %d, %+v: element %d: %v and %v, want %v", n, d, i, got[i], got64[i], want[i])
				}
			}
		}
	}
}
