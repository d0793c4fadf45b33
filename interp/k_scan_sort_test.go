package interp

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

// stableOrder is the reference order of topk and argsort: a stable sort of the indices by value, NaN first when
// largest and last otherwise.
func stableOrder(vals []float64, largest bool) []int {
	want := make([]int, len(vals))
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
	return want
}

// TestOrderLineIsStableSort: orderLine gives the first k of the order a stable sort by topk's and argsort's
// comparison gives (NaN first descending and last ascending, ties and ±0 in index order), for float32 lines (packed
// keys, selection) and float64 lines, strided, on lines full of ties and NaNs, for k from 0 to the whole line.
func TestOrderLineIsStableSort(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	tests := []struct {
		name string
		gen  func() float64
	}{
		{"distinct", func() float64 { return r.NormFloat64() }},
		{"ties", func() float64 { return float64(r.IntN(5)) }},
		{"signed zeros and NaNs", func() float64 {
			return []float64{0, math.Copysign(0, -1), math.NaN(), 1, -1, math.Inf(1), math.Inf(-1), 1e-40, -1e-40}[r.IntN(9)]
		}},
	}
	for _, tc := range tests {
		for _, largest := range []bool{true, false} {
			for _, n := range []int{0, 1, 2, 7, 17, 100, 3000} {
				const inner = 3
				vals := make([]float64, n)
				f32 := make([]float32, n*inner)
				f64 := make([]float64, n*inner)
				for i := range vals {
					vals[i] = float64(float32(tc.gen()))
					f32[1+i*inner], f64[1+i*inner] = float32(vals[i]), vals[i]
				}
				want := stableOrder(vals, largest)
				for _, k := range []int{0, 1, n / 4, n / 2, n - 1, n} {
					if k < 0 || k > n {
						continue
					}
					var o lineOrder
					got := make([]int, k)
					orderLine(&o, f32, 1, n, inner, largest, got)
					require.Equal(t, want[:k], got, "float32 %s, largest %v, n %d, k %d", tc.name, largest, n, k)
					orderLine(&o, f64, 1, n, inner, largest, got)
					require.Equal(t, want[:k], got, "float64 %s, largest %v, n %d, k %d", tc.name, largest, n, k)
				}
			}
		}
	}
}

// TestSelectFirst: selectFirst leaves the k smallest keys in a[:k] on inputs that defeat naive pivots (sorted,
// reversed, organ pipe, few distinct high words), for every k of short inputs and many k of long ones.
func TestSelectFirst(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	gens := map[string]func(i, n int) uint64{
		"random":     func(int, int) uint64 { return r.Uint64() },
		"sorted":     func(i, _ int) uint64 { return uint64(i) },
		"reversed":   func(i, n int) uint64 { return uint64(n - i) },
		"organ pipe": func(i, n int) uint64 { return uint64(min(i, n-i))<<32 | uint64(i) },
		"few ranks":  func(i, _ int) uint64 { return uint64(r.IntN(3))<<32 | uint64(i) },
	}
	for name, gen := range gens {
		for _, n := range []int{1, 5, 16, 17, 40, 1000, 5000} {
			a := make([]uint64, n)
			for i := range a {
				a[i] = gen(i, n)
			}
			sorted := slices.Sorted(slices.Values(a))
			for k := 0; k <= n; k += max(1, n/37) {
				b := slices.Clone(a)
				selectFirst(b, k)
				slices.Sort(b[:k])
				require.Equal(t, sorted[:k], b[:k], "%s n %d k %d", name, n, k)
				require.Equal(t, sorted, slices.Sorted(slices.Values(b)), "%s n %d k %d: a permutation", name, n, k)
			}
		}
	}
}
