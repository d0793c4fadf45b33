package feeds

import (
	"math"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// Lane draws. The float32 normal draws — nearly every weight of a model drawn from GraphNet's statistics — take
// most of a transformer's verification, and one chunk's generator is a chain of dependent steps that the portable
// loop (drawChunkInto) runs at several nanoseconds a number. Chunks are independent streams, so eight of them can
// run side by side in the 64-bit lanes of AVX-512 registers (lanes_amd64.s): the generator, the layer's rectangle
// test and the clipping computed in the same float64 operations as the portable loop, in the same order (no fused
// multiply-add where the loop has none), so each lane draws exactly the numbers of its chunk. The lanes whose point
// falls outside its rectangle go on as normalOutside does: the wedge's second number, then exp(-z²/2) compared
// with it, and a fresh draw where the point lies above the curve. That exponential is 2^k times a polynomial of
// degree 8 (within about 3e-10 of the true value), not math.Exp; it decides only when the comparison is clear by
// expMargin (relative), far beyond the error of both, so the decision is math.Exp's. A lane that reaches the
// ziggurat's tail (about one draw in 1,800), or a comparison within the margin, ends the assembly's run before
// that element: Go draws it for every lane with the portable loop and the assembly resumes.
// TestLaneDrawsAreThePortableOnes checks the equality on many seeds, distributions and lengths.

// laneCount is the number of chunks the lane draws take at a time.
const laneCount = 8

// expMargin is the relative margin within which the lane draws leave the wedge's decision to math.Exp (a test
// passes a wider one to drawNormalLanes, sending many decisions to Go).
const expMargin = 1e-8

// newLaneParams returns the constants of normalLanesAVX512 for distribution d and decision margin margin.
func newLaneParams(d distribution, margin float64) *laneParams {
	p := &laneParams{d.mean, d.std, d.lo, d.hi, 0x1p-53, -0.5, math.Log2E, 0x1.62e42fee00000p-1, 0x1.a39ef35793c76p-33,
		1 + margin, 1 - margin}
	f := 1.0
	for k := range 9 {
		if k > 0 {
			f *= float64(k)
		}
		p[11+k] = 1 / f
	}
	p[20] = 0x1.8p52
	return p
}

// drawNormalLanes draws chunks [c0, c1) of dst, the float32 normal draw of distribution d from the tensor seed,
// eight full chunks at a time on the assembly lanes (drawLanes, not nil), leaving the wedge decisions within margin
// (relative; expMargin) to Go.
func drawNormalLanes(dst []float32, seed uint64, c0, c1 int, d distribution, margin float64) {
	if c1*tensor.DrawChunk > len(dst) {
		// A shorter last chunk takes the portable loop: on a lane it would hold the others to its length.
		c1--
		r := newStream(tensor.ChunkSeed(seed, c1))
		drawChunkInto(dst[c1*tensor.DrawChunk:], &r, ir.DTypeFloat32, d)
	}
	par := newLaneParams(d, margin)
	var st laneState
	var streams [8]stream
	for g := c0; g < c1; g += 8 {
		lanes := min(8, c1-g)
		base := g * tensor.DrawChunk
		var mask uint64
		for j := range 8 {
			c := g + min(j, lanes-1) // an absent lane runs a copy of the last present one, its output not stored
			streams[j] = newStream(tensor.ChunkSeed(seed, c))
			st[4][j] = uint64(min(j, lanes-1) * tensor.DrawChunk)
			if j < lanes {
				mask |= 1 << j
			}
		}
		out := dst[base:]
		for i, n := 0, tensor.DrawChunk; i < n; {
			for j, s := range streams {
				st[0][j], st[1][j], st[2][j], st[3][j] = s.s0, s.s1, s.s2, s.s3
			}
			i += drawLanes(&st, out[i:], n-i, mask, par)
			for j := range streams {
				streams[j] = stream{st[0][j], st[1][j], st[2][j], st[3][j]}
			}
			if i == n {
				break
			}
			// Element i of every lane, the tail or a close decision, drawn by the portable loop.
			for j := range streams {
				var one [1]float32
				drawChunkInto(one[:], &streams[j], ir.DTypeFloat32, d)
				if mask&(1<<j) != 0 {
					out[j*tensor.DrawChunk+i] = one[0]
				}
			}
			i++
		}
	}
}
