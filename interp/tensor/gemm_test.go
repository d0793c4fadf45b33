package tensor

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// testGemmBlocking drives the internal GEMM directly with sizes around every
// blocking boundary, all transpose combinations and a leading dimension
// larger than n, checking against a naive triple loop and that nothing
// outside the C block is written.
func testGemmBlocking[T Float](t *testing.T) {
	ms := []int{1, 2, 3, 4, 5, gemmMC - 1, gemmMC, gemmMC + 1}
	ns := []int{1, 2, 3, gemmNC - 1, gemmNC, gemmNC + 3}
	ks := []int{0, 1, 2, gemmKC - 1, gemmKC, gemmKC + 1}
	r := NewRand(99)
	for trial := range 48 {
		m, n, k := ms[r.IntN(len(ms))], ns[r.IntN(len(ns))], ks[r.IntN(len(ks))]
		ta, tb := r.IntN(2) == 0, r.IntN(2) == 0
		ldc := n + r.IntN(3)
		t.Run(fmt.Sprintf("m%d-n%d-k%d-ta%v-tb%v-ldc%d", m, n, k, ta, tb, ldc), func(t *testing.T) {
			a := randT[T](t, uint64(trial), m*k)
			b := randT[T](t, uint64(trial)+1, k*n)
			av := matView[T]{data: a.Data, rs: k, cs: 1}
			if ta { // A stored as k×m
				av = matView[T]{data: a.Data, rs: 1, cs: m}
			}
			bv := matView[T]{data: b.Data, rs: n, cs: 1}
			if tb { // B stored as n×k
				bv = matView[T]{data: b.Data, rs: 1, cs: k}
			}
			const sentinel = 12345
			c := make([]T, m*ldc)
			for i := range c {
				c[i] = sentinel
			}
			gemm(m, n, k, av, bv, c, ldc, trial%2 == 0)
			tol := tolFor[T]()
			for i := range m {
				for j := range ldc {
					got := float64(c[i*ldc+j])
					if j >= n {
						require.Equal(t, float64(sentinel), got, "wrote outside C at (%d,%d)", i, j)
						continue
					}
					want := 0.0
					for p := range k {
						want += float64(av.data[i*av.rs+p*av.cs]) * float64(bv.data[p*bv.rs+j*bv.cs])
					}
					if d := got - want; d > tol*(1+abs(want)) || -d > tol*(1+abs(want)) {
						require.FailNowf(t, "mismatch", "(%d,%d): got %v want %v", i, j, got, want)
					}
				}
			}
		})
	}
}

func TestGemmBlockingBoundaries(t *testing.T) {
	t.Run("float32", testGemmBlocking[float32])
	t.Run("float64", testGemmBlocking[float64])
}
