package interp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSoftmaxRowsAreSoftmaxRow: softmaxRows gives softmaxRow's bits row by row, and rowMax the builtin max's
// result (NaN when a value is, +0 for a largest zero), on rows with NaNs, infinities, signed zeros and ties.
func TestSoftmaxRowsAreSoftmaxRow(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	specials := []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), float32(math.Inf(1)),
		float32(math.Inf(-1)), -1, 1e-40}
	gens := []struct {
		name string
		gen  func() float32
	}{
		{"normal", func() float32 { return float32(r.NormFloat64() * 4) }},
		{"specials", func() float32 { return specials[r.IntN(len(specials))] }},
		{"mostly normal", func() float32 {
			if r.IntN(50) == 0 {
				return specials[r.IntN(len(specials))]
			}
			return float32(r.NormFloat64())
		}},
		{"zeros and negatives", func() float32 { return []float32{0, float32(math.Copysign(0, -1)), -3}[r.IntN(3)] }},
		{"minus infinity", func() float32 { return float32(math.Inf(-1)) }},
	}
	for _, g := range gens {
		for _, n := range []int{1, 3, 8, 9, 100, 1025} {
			src := make([]float32, softmaxGroup*n)
			for i := range src {
				src[i] = g.gen()
			}
			want := make([]float32, len(src))
			e := make([]float64, len(src))
			for row := range softmaxGroup {
				in := src[row*n : (row+1)*n]
				m := math.Inf(-1)
				for _, v := range in {
					m = max(m, float64(v))
				}
				got := rowMax(in)
				require.Equal(t, math.Float64bits(m), math.Float64bits(got), "%s n %d row %d: max", g.name, n, row)
				softmaxRow(want[row*n:(row+1)*n], in, e)
			}
			got := make([]float32, len(src))
			softmaxRows(got, src, e, n)
			for i := range want {
				require.Equal(t, math.Float32bits(want[i]), math.Float32bits(got[i]), "%s n %d element %d", g.name, n, i)
			}
		}
	}
}
