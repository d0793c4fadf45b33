package tensor

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
)

// rngStream is the fixed second PCG word; the seed passed by callers is the
// first. Changing it would change every generated tensor.
const rngStream = 0x9e3779b97f4a7c15

// DrawChunk is the number of elements of a randomly drawn tensor that come from one generator: chunk k of a
// tensor drawn from a seed comes from a generator seeded with ChunkSeed(seed, k), so that chunks can be drawn in
// parallel and the numbers do not depend on the number of goroutines. The random ops of the interpreter and the
// random feeds (package feeds) draw in such chunks.
const DrawChunk = 1 << 14

// ChunkSeed returns the seed of chunk k of a tensor drawn from seed (see DrawChunk).
func ChunkSeed(seed uint64, k int) uint64 { return SplitMix(seed ^ SplitMix(uint64(k)+0x51ed2701)) }

// NamedSeed derives the seed of one named stream (a tensor of a random feed, a random op of a program) from a
// feed's seed: FNV-1a of the name, mixed with the seed by SplitMix.
func NamedSeed(seed uint64, name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return SplitMix(seed ^ SplitMix(h.Sum64()))
}

// SplitMix is the finalizer of Steele, Lea and Flood's splitmix64: a bijection of uint64 that scatters nearby
// seeds.
func SplitMix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// NewRand returns a deterministic PCG-backed generator for the given seed.
// Equal seeds always produce equal streams; no global state is involved.
func NewRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, rngStream))
}

// FillUniform overwrites every element of t with a sample drawn uniformly
// from [-1, 1), consuming r in element order.
func (t *Tensor[T]) FillUniform(r *rand.Rand) {
	for i := range t.Data {
		v := T(2*r.Float64() - 1) // exact in float64, always < 1
		if v >= 1 {               // rounding to float32 can reach 1
			v = T(math.Nextafter32(1, 0))
		}
		t.Data[i] = v
	}
}

// FillNormal overwrites every element of t with a standard normal sample
// (mean 0, standard deviation 1), consuming r in element order.
func (t *Tensor[T]) FillNormal(r *rand.Rand) {
	for i := range t.Data {
		t.Data[i] = T(r.NormFloat64())
	}
}

// RandUniform returns a tensor of the given shape filled by FillUniform from
// a generator seeded with seed.
func RandUniform[T Float](seed uint64, shape ...int) (*Tensor[T], error) {
	t, err := New[T](shape...)
	if err != nil {
		return nil, err
	}
	t.FillUniform(NewRand(seed))
	return t, nil
}

// RandNormal returns a tensor of the given shape filled by FillNormal from a
// generator seeded with seed.
func RandNormal[T Float](seed uint64, shape ...int) (*Tensor[T], error) {
	t, err := New[T](shape...)
	if err != nil {
		return nil, err
	}
	t.FillNormal(NewRand(seed))
	return t, nil
}
