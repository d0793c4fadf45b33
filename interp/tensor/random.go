package tensor

import (
	"math"
	"math/rand/v2"
)

// rngStream is the fixed second PCG word; the seed passed by callers is the
// first. Changing it would change every generated tensor.
const rngStream = 0x9e3779b97f4a7c15

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
