package feeds

import (
	"math"
	"math/bits"

	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// Drawing random tensors. A tensor's values come from its own seed (the feed seed mixed with the tensor's name),
// in chunks of tensor.DrawChunk elements, chunk k from a generator seeded with tensor.ChunkSeed(tensor seed, k):
// chunks are drawn in parallel and the numbers do not depend on the number of goroutines, on map order or on the
// machine. Every value is rounded to the tensor's element type (roundDraw: a float16 number is the float32 number
// rounded), so a tensor is the same whether it is fed directly, stored in ir.Variable.Data, or drawn straight into
// a float32 buffer.

// distKind is the family of a distribution.
type distKind uint8

const (
	// distUniform: floats uniformly in [lo, hi).
	distUniform distKind = iota
	// distNormal: mean + std·N(0, 1), clipped to [lo, hi] (GraphNet's recorded statistics).
	distNormal
	// distInts: integers uniformly in {lo, …, hi}.
	distInts
	// distBool: 1 with probability mean, else 0.
	distBool
)

// distribution describes how the elements of one tensor are drawn.
type distribution struct {
	kind      distKind
	lo, hi    float64
	mean, std float64
	constant  bool // every element is mean (a recorded tensor whose values are all equal)
}

// defaultDist is the distribution of a tensor without statistics: floats in [lo, hi), integers in {0, …, 7},
// booleans 0 or 1 with equal probability.
func defaultDist(dt ir.DType, lo, hi float64) distribution {
	switch {
	case dt == ir.DTypeBool:
		return distribution{kind: distBool, mean: 0.5}
	case dt.IsInteger():
		return distribution{kind: distInts, lo: 0, hi: 7}
	}
	return distribution{kind: distUniform, lo: lo, hi: hi}
}

// statsDist is the distribution of a tensor GraphNet recorded statistics of: floats normal with the recorded mean
// and standard deviation, clipped to the recorded minimum and maximum (a constant when they are equal; uniform
// between them when no deviation was recorded, as GraphNet's harness draws them); integers uniform over the
// recorded range; booleans 1 with the recorded mean as probability.
func statsDist(dt ir.DType, s *ir.TensorStats) distribution {
	lo, hi := s.Min, s.Max
	if lo > hi || math.IsNaN(lo) || math.IsNaN(hi) {
		lo, hi = math.Inf(-1), math.Inf(1)
	}
	switch {
	case dt == ir.DTypeBool:
		return distribution{kind: distBool, mean: min(max(s.Mean, 0), 1)}
	case dt.IsInteger():
		l, h := math.Ceil(lo), math.Floor(hi)
		if math.IsInf(l, 0) || math.IsInf(h, 0) || l > h {
			l, h = 0, 7
		}
		return distribution{kind: distInts, lo: l, hi: h}
	}
	mean := s.Mean
	if math.IsNaN(mean) || math.IsInf(mean, 0) {
		mean = 0
	}
	d := distribution{kind: distNormal, lo: lo, hi: hi, mean: mean, std: s.Std}
	switch {
	case lo == hi || math.IsInf(s.Std, 0):
		d.constant = true
		d.mean = min(max(mean, lo), hi)
	case !(s.Std > 0) && !math.IsInf(lo, 0) && !math.IsInf(hi, 0):
		// No deviation with distinct bounds: GraphNet did not record mean and std (a recorded deviation of 0
		// means min = max), and its harness then draws uniformly from [min, max].
		return distribution{kind: distUniform, lo: lo, hi: hi}
	case !(s.Std > 0):
		d.constant = true
		d.mean = min(max(mean, lo), hi)
	}
	return d
}

// sample draws one value from r.
func (d distribution) sample(r *stream) float64 {
	switch d.kind {
	case distNormal:
		if d.constant {
			return d.mean
		}
		// The conversion rounds the product, so that no platform fuses it into a multiply-add (Go allows FMA
		// fusion otherwise) and every machine draws the same numbers.
		return clamp(d.mean+float64(d.std*r.normal()), d.lo, d.hi)
	case distInts:
		n := d.hi - d.lo + 1
		if n > 1<<62 || n < 1 {
			return d.lo + math.Floor(float64(r.float64()*n))
		}
		return d.lo + float64(r.intN(uint64(n)))
	case distBool:
		if r.float64() < d.mean {
			return 1
		}
		return 0
	}
	return d.lo + float64((d.hi-d.lo)*r.float64())
}

// drawInto fills dst with values of d rounded to dt, from the tensor seed.
func drawInto[E tensor.Float](dst []E, seed uint64, dt ir.DType, d distribution) {
	chunks := (len(dst) + tensor.DrawChunk - 1) / tensor.DrawChunk
	if drawLanes != nil && (dt == ir.DTypeFloat32 || dt == ir.DTypeFloat16) && d.kind == distNormal && !d.constant {
		// The lane draws take eight chunks at a time: goroutines get whole groups of eight, so that the ranges
		// ParallelFor splits off (several per goroutine) do not leave lanes empty. A float16 tensor gets the
		// float32 numbers rounded to float16 (roundDraw); a float64 destination (a float32 weight in a float64
		// evaluation) gets the numbers widened, as drawChunkInto stores them.
		f32, ok := any(dst).([]float32)
		if !ok {
			f32 = make([]float32, len(dst))
		}
		groups := (chunks + laneCount - 1) / laneCount
		tensor.ParallelFor(groups, tensor.DrawChunk*laneCount*8, func(g0, g1 int) {
			c0, c1 := g0*laneCount, min(g1*laneCount, chunks)
			drawNormalLanes(f32, seed, c0, c1, d, expMargin)
			lo, hi := c0*tensor.DrawChunk, min(c1*tensor.DrawChunk, len(dst))
			if dt == ir.DTypeFloat16 {
				roundHalves(f32[lo:hi])
			}
			if !ok {
				for i, v := range f32[lo:hi] {
					dst[lo+i] = E(v)
				}
			}
		})
		return
	}
	tensor.ParallelFor(chunks, tensor.DrawChunk*8, func(c0, c1 int) {
		for c := c0; c < c1; c++ {
			r := newStream(tensor.ChunkSeed(seed, c))
			drawChunkInto(dst[c*tensor.DrawChunk:min((c+1)*tensor.DrawChunk, len(dst))], &r, dt, d)
		}
	})
}

// drawChunkInto fills one chunk from r. The float32 and float16 normal draws and the float32 uniform ones, nearly
// all of a model's weights and inputs, have loops of their own without a switch per element; every other case
// goes through sample and roundDraw, and all give the same numbers as sample and roundDraw would.
func drawChunkInto[E tensor.Float](dst []E, r *stream, dt ir.DType, d distribution) {
	switch {
	case (dt == ir.DTypeFloat32 || dt == ir.DTypeFloat16) && d.kind == distNormal && !d.constant:
		// stream.next and normal's common case written out on local state, which stays in registers (through the
		// pointer, each number cost four loads and four stores in a chain); the rare rest goes to normalOutside.
		mean, std, lo, hi := d.mean, d.std, d.lo, d.hi
		s0, s1, s2, s3 := r.s0, r.s1, r.s2, r.s3
		for i := range dst {
			u := bits.RotateLeft64(s0+s3, 23) + s0
			t := s1 << 17
			s2 ^= s0
			s3 ^= s1
			s1 ^= s2
			s0 ^= s3
			s2 ^= t
			s3 = bits.RotateLeft64(s3, 45)
			layer := u & (zigLayers - 1)
			z := float64(int64(u>>11)) * 0x1p-53 * zigX[layer]
			if z < zigX[layer+1] {
				z = withSign(z, u)
			} else {
				r.s0, r.s1, r.s2, r.s3 = s0, s1, s2, s3
				z = r.normalOutside(u, layer, z)
				s0, s1, s2, s3 = r.s0, r.s1, r.s2, r.s3
			}
			if v := float32(clamp(mean+float64(std*z), lo, hi)); dt == ir.DTypeFloat32 {
				dst[i] = E(v)
			} else {
				dst[i] = E(roundHalf(v)) // float16: LLaMA-7B's 6.7 billion weights
			}
		}
		r.s0, r.s1, r.s2, r.s3 = s0, s1, s2, s3
		return
	case dt == ir.DTypeFloat32 && d.kind == distUniform:
		lo, width := d.lo, d.hi-d.lo
		for i := range dst {
			v := float64(float32(lo + float64(width*r.float64())))
			if v >= d.hi && d.hi > d.lo {
				v = uniformCeiling(dt, d)
			}
			dst[i] = E(v)
		}
		return
	}
	for i := range dst {
		v := roundDraw(dt, d.sample(r))
		if d.kind == distUniform && v >= d.hi && d.hi > d.lo {
			v = uniformCeiling(dt, d)
		}
		dst[i] = E(v)
	}
}

// roundDraw rounds a drawn number to the element type dt: interp.RoundTo, but a float16 number is the float32
// number rounded to float16 (rounded twice, which differs from rounding once only when the float32 number lands
// on a tie between two halves), so that float16 weights are the float32 draws of the lane draws (lanes.go)
// rounded, at a fraction of the cost of drawing them.
func roundDraw(dt ir.DType, v float64) float64 {
	if dt == ir.DTypeFloat16 {
		return float64(roundHalf(float32(v)))
	}
	return interp.RoundTo(dt, v)
}

// roundHalf returns the float16 value nearest x (ties to even), as a float32; it is interp.RoundTo(float16, x)
// on float32 bits: a normal half keeps the 10 leading fraction bits, rounded by the 13 below them; below the
// smallest normal half (2^-14) the halves are the multiples of 2^-24, to which adding and taking away 1/2 rounds
// (the float32 numbers in [1/2, 1) are those multiples); from 65520 up the half is infinite. NaN stays NaN.
func roundHalf(x float32) float32 {
	b := math.Float32bits(x)
	sign, a := b&(1<<31), b&^(1<<31)
	switch {
	case a >= 0x38800000 && a < 0x477ff000: // [2^-14, 65520)
		a += 0xfff + (a>>13)&1
		return math.Float32frombits(sign | a&^0x1fff)
	case a < 0x38800000:
		r := math.Float32frombits(a) + 0.5
		r -= 0.5
		return math.Float32frombits(sign | math.Float32bits(r))
	case a <= 0x7f800000:
		return math.Float32frombits(sign | 0x7f800000)
	}
	return x
}

// roundHalves rounds every element of xs to float16 precision (roundHalf), with the F16C conversions where the
// machine has them (roundHalvesAsm).
func roundHalves(xs []float32) {
	if roundHalvesAsm != nil {
		roundHalvesAsm(xs)
		return
	}
	for i, x := range xs {
		xs[i] = roundHalf(x)
	}
}

// clamp returns v limited to [lo, hi], for v, lo and hi that are not NaN: two comparisons, where min and max
// (which order NaNs and signed zeros) take most of the time of a draw.
func clamp(v, lo, hi float64) float64 {
	if v < lo {
		v = lo
	}
	if v > hi {
		v = hi
	}
	return v
}

// uniformCeiling is what a uniform draw that rounding to the element type carried to the open upper bound becomes:
// the largest value of the type below the bound, or the lower bound when the type has none between them.
func uniformCeiling(dt ir.DType, d distribution) float64 {
	v := roundDraw(dt, math.Nextafter(d.hi, d.lo))
	if v >= d.hi {
		v = d.lo
	}
	return v
}

// drawTensor draws a host tensor.
func drawTensor(seed uint64, dt ir.DType, shape []int, d distribution) *interp.Tensor {
	n := 1
	for _, x := range shape {
		n *= x
	}
	t := &interp.Tensor{DType: dt, Shape: append([]int{}, shape...), Data: make([]float64, n)}
	drawInto(t.Data, seed, dt, d)
	return t
}
