package interp

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSortLineIsStableSort: sortLine orders lines as a stable sort by topk's and argsort's comparison does (NaN
// first descending and last ascending, ties and ±0 in index order), on lines full of ties and NaNs.
func TestSortLineIsStableSort(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	tests := []struct {
		name string
		gen  func() float64
	}{
		{"distinct", func() float64 { return r.NormFloat64() }},
		{"ties", func() float64 { return float64(r.IntN(5)) }},
		{"signed zeros and NaNs", func() float64 {
			return []float64{0, math.Copysign(0, -1), math.NaN(), 1, -1, math.Inf(1), math.Inf(-1)}[r.IntN(7)]
		}},
	}
	for _, tc := range tests {
		for _, largest := range []bool{true, false} {
			for _, n := range []int{0, 1, 2, 7, 100, 3000} {
				vals := make([]float64, n)
				keys := make([]lineKey, n)
				for i := range vals {
					vals[i] = tc.gen()
					keys[i] = lineKey{vals[i], i}
				}
				want := make([]int, n)
				for i := range want {
					want[i] = i
				}
				sort.SliceStable(want, func(i, j int) bool {
					a, b := vals[want[i]], vals[want[j]]
					an, bn := math.IsNaN(a), math.IsNaN(b)
					if largest {
						return an && !bn || !an && !bn && a > b
					}
					return bn && !an || !an && !bn && a < b
				})
				sortLine(keys, largest)
				got := make([]int, n)
				for i, k := range keys {
					got[i] = k.i
				}
				require.Equal(t, want, got, "%s, largest %v, n %d", tc.name, largest, n)
			}
		}
	}
}
