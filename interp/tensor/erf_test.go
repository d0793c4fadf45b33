package tensor

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// erfBoundaries are the edges of math.Erf's ranges (|x| = 2⁻²⁸'s neighbourhood, VeryTiny, 0.84375, 1.25, 1/0.35,
// 6) with their neighbours, of both signs.
func erfBoundaries() []float64 {
	var xs []float64
	for _, b := range []float64{0x1p-28, 2.848094538889218e-306, 0.84375, 1.25, 1 / 0.35, 6} {
		for _, v := range []float64{b, math.Nextafter(b, 0), math.Nextafter(b, 10)} {
			xs = append(xs, v, -v)
		}
	}
	return xs
}

// TestErfInPlaceIsMathErf: ErfInPlace gives math.Erf's bits in every range of math.Erf, at its boundaries, for
// the specials (±0, ±Inf, NaN, denormals), at every offset of a vector and for lengths not a multiple of eight.
func TestErfInPlaceIsMathErf(t *testing.T) {
	if erfVec == nil {
		t.Log("no vector error function on this machine or kernel path: ErfInPlace calls math.Erf")
	}
	r := rand.New(rand.NewPCG(3, 4))
	var xs []float64
	for range 200000 {
		xs = append(xs, r.NormFloat64()*2) // gelu's arguments: every range, mixed within vectors
	}
	ranges := [][2]float64{{0, 0x1p-28}, {0x1p-28, 0.84375}, {0.84375, 1.25}, {1.25, 1 / 0.35}, {1 / 0.35, 6}, {6, 30}}
	for range 20000 {
		for _, rg := range ranges {
			v := rg[0] + r.Float64()*(rg[1]-rg[0])
			if r.IntN(2) == 0 {
				v = -v
			}
			xs = append(xs, v)
		}
		xs = append(xs, r.NormFloat64()*1e-310, math.Ldexp(r.Float64(), -1000-r.IntN(74)), r.NormFloat64()*1e300)
	}
	xs = append(xs, erfBoundaries()...)
	xs = append(xs, 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, -5e-324,
		math.SmallestNonzeroFloat64*3, math.MaxFloat64, -math.MaxFloat64, 1, -1)
	for i := range 64 {
		xs = append(xs, float64(i)/8-4, math.Ldexp(1, i-60))
	}
	for _, off := range []int{0, 1, 7} {
		for _, end := range []int{len(xs), len(xs) - 3} {
			got := append([]float64{}, xs[off:end]...)
			ErfInPlace(got)
			for i, x := range xs[off:end] {
				want := math.Erf(x)
				if math.Float64bits(got[i]) != math.Float64bits(want) && !(math.IsNaN(want) && math.IsNaN(got[i])) {
					require.Failf(t, "erf differs", "erf(%v) = %v, want %v (offset %d)", x, got[i], want, off)
				}
			}
		}
	}
}

// TestErfInPlaceNaNVectors: a vector holding a NaN is computed by math.Erf, and the vectors after it are computed
// again by the assembly.
func TestErfInPlaceNaNVectors(t *testing.T) {
	tests := []struct {
		name string
		nan  []int // indices of NaNs in 32 elements
	}{
		{"none", nil},
		{"first lane", []int{0}},
		{"last lane of the first vector", []int{7}},
		{"second vector", []int{9, 14}},
		{"every vector", []int{3, 11, 19, 27}},
		{"the tail", []int{31}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x := make([]float64, 32)
			for i := range x {
				x[i] = float64(i)/4 - 4
			}
			for _, i := range tc.nan {
				x[i] = math.NaN()
			}
			got := append([]float64{}, x...)
			ErfInPlace(got)
			for i, v := range x {
				if math.IsNaN(v) {
					require.True(t, math.IsNaN(got[i]), "erf(NaN) at %d", i)
					continue
				}
				require.Equal(t, math.Float64bits(math.Erf(v)), math.Float64bits(got[i]), "erf(%v) at %d", v, i)
			}
		})
	}
}

// BenchmarkErfInPlace measures ErfInPlace on gelu's arguments (v/√2 of normally distributed v), calling math.Erf
// (path=go) and on the assembly when this machine has it (path=vec).
func BenchmarkErfInPlace(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	src := make([]float64, 4096)
	for i := range src {
		src[i] = r.NormFloat64() / math.Sqrt2
	}
	paths := map[string]func(x []float64) int{"go": nil}
	if erfVec != nil {
		paths["vec"] = erfVec
	}
	defer func(v func(x []float64) int) { erfVec = v }(erfVec)
	for _, name := range []string{"go", "vec"} {
		vec, ok := paths[name]
		if !ok {
			continue
		}
		b.Run("path="+name, func(b *testing.B) {
			erfVec = vec
			x := make([]float64, len(src))
			b.SetBytes(int64(8 * len(x)))
			for b.Loop() {
				copy(x, src)
				ErfInPlace(x)
			}
		})
	}
}

// TestGeluF32IsGeluOf: geluF32 gives float32(geluOf(float64(v))) to the bit for float32 values in every range of
// erf's argument, the specials and lengths not a multiple of eight, with the assembly and without.
func TestGeluF32IsGeluOf(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var src []float32
	for range 100000 {
		src = append(src, float32(r.NormFloat64()*3), float32(r.NormFloat64()*1e-20))
	}
	for _, b := range erfBoundaries() {
		src = append(src, float32(b*math.Sqrt2), math.Nextafter32(float32(b*math.Sqrt2), 100))
	}
	src = append(src, 0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, math.MaxFloat32, -math.MaxFloat32)
	defer func(v func(dst, src []float32) int) { geluVec = v }(geluVec)
	for _, vec := range []func(dst, src []float32) int{geluVec, nil} {
		geluVec = vec
		for _, end := range []int{len(src), len(src) - 5, 13, 3} {
			got := make([]float32, end)
			geluF32(got, src[:end])
			for i, v := range src[:end] {
				want := float32(geluOf(float64(v)))
				if math.Float32bits(got[i]) != math.Float32bits(want) && !(want != want && got[i] != got[i]) {
					require.Failf(t, "gelu differs", "gelu(%v) = %v, want %v (assembly %v)", v, got[i], want, vec != nil)
				}
			}
		}
	}
}
