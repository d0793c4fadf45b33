package feeds

import (
	"math"
	"math/bits"
)

// The generator of random feeds. Verify draws every weight of a model afresh for each run (a 110-million-parameter
// BERT takes 330 million draws for three runs), and with math/rand/v2 (PCG behind the Source interface,
// NormFloat64's ziggurat, a switch on the distribution and the element type per element) the draws were 85 % of a
// transformer's verify time. A stream is xoshiro256++ (Blackman and Vigna), a concrete type the compiler inlines,
// and normal variates come from a ziggurat of our own tables (Marsaglia and Tsang's method, 128 layers), each
// draw taking one 64-bit number in the common case: its low 7 bits choose the layer, bit 7 the sign, the top 53
// the position in the layer.

// stream is a xoshiro256++ generator.
type stream struct{ s0, s1, s2, s3 uint64 }

// newStream returns the stream of a seed, its state filled by splitmix64 (never all zero).
func newStream(seed uint64) stream {
	s := stream{}
	x := seed
	for _, p := range []*uint64{&s.s0, &s.s1, &s.s2, &s.s3} {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		*p = z ^ z>>31
	}
	if s.s0|s.s1|s.s2|s.s3 == 0 {
		s.s0 = 1
	}
	return s
}

// next returns the next 64 random bits.
func (s *stream) next() uint64 {
	r := bits.RotateLeft64(s.s0+s.s3, 23) + s.s0
	t := s.s1 << 17
	s.s2 ^= s.s0
	s.s3 ^= s.s1
	s.s1 ^= s.s2
	s.s0 ^= s.s3
	s.s2 ^= t
	s.s3 = bits.RotateLeft64(s.s3, 45)
	return r
}

// float64 returns a float64 uniformly in [0, 1), a multiple of 2^-53.
func (s *stream) float64() float64 { return float64(int64(s.next()>>11)) * 0x1p-53 }

// open returns a float64 uniformly in (0, 1], for logarithms.
func (s *stream) open() float64 { return float64(int64(s.next()>>11+1)) * 0x1p-53 }

// intN returns an integer uniformly in [0, n), n > 0, without bias (Lemire's multiply-and-reject).
func (s *stream) intN(n uint64) uint64 {
	hi, lo := bits.Mul64(s.next(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(s.next(), n)
		}
	}
	return hi
}

// The ziggurat of the standard normal density f(x) = exp(-x²/2) (unnormalized) in zigLayers layers of equal area
// zigArea: layer i spans [0, zigX[i]) horizontally and [f(zigX[i]), f(zigX[i+1])) vertically, zigX[1] = zigR is
// where the tail starts, zigX[zigLayers] = 0, and the base layer 0 is the strip under f(zigR) together with the
// tail beyond zigR, given the width zigX[0] = zigArea / f(zigR) of a rectangle of its area.
const (
	zigLayers = 128
	zigR      = 3.442619855899
	zigArea   = 9.91256303526217e-3
)

var zigX, zigF [zigLayers + 1]float64

func init() {
	f := func(x float64) float64 { return math.Exp(-0.5 * x * x) }
	zigX[0] = zigArea / f(zigR)
	zigX[1] = zigR
	for i := 1; i < zigLayers-1; i++ {
		zigX[i+1] = math.Sqrt(-2 * math.Log(zigArea/zigX[i]+f(zigX[i])))
	}
	zigX[zigLayers] = 0
	for i := range zigF {
		zigF[i] = f(zigX[i])
	}
}

// normal returns a standard normal variate.
func (s *stream) normal() float64 {
	u := s.next()
	i := u & (zigLayers - 1)
	z := float64(int64(u>>11)) * 0x1p-53 * zigX[i]
	if z < zigX[i+1] {
		// Inside the rectangle that lies wholly under the curve: the common case (about 98.8 %). The sign goes
		// on without a branch (a random branch mispredicts half the time).
		return withSign(z, u)
	}
	return s.normalOutside(u, i, z)
}

// normalOutside finishes a draw of normal whose point z (from the number u, in layer i) fell outside the layer's
// inner rectangle: into the tail, into the wedge under the curve, or above the curve, where normal draws again.
// Loops that inline normal's common case (drawChunkInto) call it for the rest, so they draw the same numbers.
func (s *stream) normalOutside(u, i uint64, z float64) float64 {
	if i == 0 {
		// The tail beyond zigR (Marsaglia's method): exact, and rare (about 0.1 % of draws).
		for {
			a := -math.Log(s.open()) / zigR
			b := -math.Log(s.open())
			if 2*b > a*a {
				return withSign(zigR+a, u)
			}
		}
	}
	// The conversion rounds the product, as everywhere in the draws, so that no build fuses it into a
	// multiply-add (Go may, with GOAMD64=v3) and the lane draws (lanes.go) decide alike.
	if zigF[i]+float64(s.float64()*(zigF[i+1]-zigF[i])) >= math.Exp(-0.5*z*z) {
		return s.normal() // above the curve in the wedge: draw again
	}
	return withSign(z, u)
}

// withSign returns z ≥ 0 negated when bit 7 of u (the bit after the layer's) is set.
func withSign(z float64, u uint64) float64 {
	return math.Float64frombits(math.Float64bits(z) ^ (u&zigLayers)<<(63-7))
}
