package tensor

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// withKernels runs f with every kernel path this machine runs in turn (the package's path in use swapped for the
// duration; such tests must not run in parallel).
func withKernels(t *testing.T, f func(t *testing.T)) {
	for _, p := range kernelPaths() {
		t.Run(p.name, func(t *testing.T) {
			saved := kernels
			kernels = p
			defer func() { kernels = saved }()
			f(t)
		})
	}
}

// testGemmBlocking drives the GEMM of one kernel path directly with sizes around every blocking boundary of that
// path, all transpose combinations and a leading dimension larger than n, checking against a float64 triple loop
// and that nothing outside the C block is written.
func testGemmBlocking[T Float](t *testing.T, mk *microKernel[T]) {
	ms := []int{1, 2, 3, gemmFewRows, mk.mr - 1, mk.mr, mk.mr + 1, mk.mc - 1, mk.mc, mk.mc + 1, 2*gemmMinChunk + 5}
	ns := []int{1, 2, 3, mk.nr - 1, mk.nr, mk.nr + 1, mk.nc - 1, mk.nc, mk.nc + 3}
	ks := []int{0, 1, 2, mk.kc - 1, mk.kc, mk.kc + 1}
	r := NewRand(99)
	for trial := range 48 {
		m, n, k := ms[r.IntN(len(ms))], ns[r.IntN(len(ns))], ks[r.IntN(len(ks))]
		for m*n*k > 1<<22 { // every size meets its boundaries, but not all the largest at once (the reference is naive)
			m, n, k = ms[r.IntN(len(ms))], ns[r.IntN(len(ns))], ks[r.IntN(len(ks))]
		}
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
			gemmOn(mk, m, n, k, av, bv, c, ldc, trial%2 == 0)
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
	for _, p := range kernelPaths() {
		t.Run(p.name+"/float32", func(t *testing.T) { testGemmBlocking(t, &p.f32) })
		t.Run(p.name+"/float64", func(t *testing.T) { testGemmBlocking(t, &p.f64) })
	}
}

// TestGemmDeterministic checks that every path gives the same bits whatever GOMAXPROCS and whether the product is
// split, that the paths agree with the portable one within the documented tolerance (see the package doc), and
// that the assembly paths, which compute the same FMA chains over the same k blocks, give the same bits.
func TestGemmDeterministic(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testGemmDeterministic[float32](t) })
	t.Run("float64", func(t *testing.T) { testGemmDeterministic[float64](t) })
}

func testGemmDeterministic[T Float](t *testing.T) {
	// Across the blocks of every path: k past two kc blocks, m past mc, n past nc, and the split's chunks.
	shapes := [][3]int{{1, 700, 300}, {3, 500, 77}, {37, 600, 520}, {450, 45, 300}, {130, 131, 270}}
	for _, s := range shapes {
		m, n, k := s[0], s[1], s[2]
		a := randT[T](t, 1, m, k)
		b := randT[T](t, 2, k, n)
		absSum := make([]float64, m*n) // Σ_p |a_ip·b_pj|, for the agreement bound
		for i := range m {
			for p := range k {
				ap := math.Abs(float64(a.Data[i*k+p]))
				for j, bv := range b.Data[p*n : (p+1)*n] {
					absSum[i*n+j] += ap * math.Abs(float64(bv))
				}
			}
		}
		ref := make([]T, m*n)
		gemmOn(kernelFor[T](goPath), m, n, k, matView[T]{data: a.Data, rs: k, cs: 1}, matView[T]{data: b.Data, rs: n, cs: 1}, ref, n, false)
		var asm []T
		for _, p := range kernelPaths() {
			mk := kernelFor[T](p)
			var first []T
			for _, procs := range []int{1, 2, 3} {
				prev := runtime.GOMAXPROCS(procs)
				c := make([]T, m*n)
				gemmOn(mk, m, n, k, matView[T]{data: a.Data, rs: k, cs: 1}, matView[T]{data: b.Data, rs: n, cs: 1}, c, n, true)
				runtime.GOMAXPROCS(prev)
				if first == nil {
					first = c
					continue
				}
				require.Equal(t, first, c, "%s %v: GOMAXPROCS %d changed the bits", p.name, s, procs)
			}
			serial := make([]T, m*n)
			gemmOn(mk, m, n, k, matView[T]{data: a.Data, rs: k, cs: 1}, matView[T]{data: b.Data, rs: n, cs: 1}, serial, n, false)
			require.Equal(t, first, serial, "%s %v: the split changed the bits", p.name, s)
			requirePathsAgree(t, ref, first, absSum, k, fmt.Sprintf("%s %v", p.name, s))
			if p != goPath {
				if asm == nil {
					asm = first
				}
				require.Equal(t, asm, first, "%s %v: the assembly paths differ", p.name, s)
			}
		}
	}
}

// requirePathsAgree checks the documented agreement between kernel paths (see the package doc): every element of
// C = A·B within 2·γ(k)·Σ_p|a_ip|·|b_pj| of the portable path's, γ(k) = k·u/(1-k·u).
// absSum holds Σ_p |a_ip·b_pj| per element of C.
func requirePathsAgree[T Float](t *testing.T, ref, got []T, absSum []float64, k int, what string) {
	t.Helper()
	u := math.Pow(2, -53)
	var zero T
	if _, ok := any(zero).(float32); ok {
		u = math.Pow(2, -24)
	}
	gamma := float64(k) * u / (1 - float64(k)*u)
	for i := range ref {
		if d := math.Abs(float64(got[i]) - float64(ref[i])); d > 2*gamma*absSum[i] {
			require.FailNowf(t, "kernel paths disagree", "%s: element %d: %v against the portable path's %v (difference %g > %g)",
				what, i, got[i], ref[i], d, 2*gamma*absSum[i])
		}
	}
}

func TestSelectKernels(t *testing.T) {
	names := KernelPaths()
	require.Equal(t, "go", names[len(names)-1])
	for _, n := range names {
		p, err := selectKernels(n)
		require.NoError(t, err)
		require.Equal(t, n, p.name)
	}
	p, err := selectKernels("")
	require.NoError(t, err)
	require.Equal(t, names[0], p.name)
	p, err = selectKernels("sse9")
	require.ErrorContains(t, err, `PIRDRR_KERNELS="sse9"`)
	require.Equal(t, names[0], p.name)
}

// TestGemmRowAMatchesPacked: the kernels that read a row-major A in place give the very bits of the kernels that
// read it packed, on every shape class (full and partial row panels, several k blocks, a leading dimension larger
// than k).
func TestGemmRowAMatchesPacked(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testGemmRowAMatchesPacked[float32](t) })
	t.Run("float64", func(t *testing.T) { testGemmRowAMatchesPacked[float64](t) })
}

func testGemmRowAMatchesPacked[T Float](t *testing.T) {
	for _, p := range kernelPaths() {
		mk := kernelFor[T](p)
		if mk.tileA == nil {
			continue
		}
		packed := *mk
		packed.tileA = nil
		for _, s := range [][3]int{{mk.mr, mk.nr, 7}, {5*mk.mr + 3, 3*mk.nr + 5, mk.kc + 9}, {mk.mc + 7, 40, 2*mk.kc + 1}} {
			m, n, k := s[0], s[1], s[2]
			lda := k + 3
			a := randT[T](t, 1, m*lda)
			b := randT[T](t, 2, k*n)
			av := matView[T]{data: a.Data[:(m-1)*lda+k], rs: lda, cs: 1}
			bv := matView[T]{data: b.Data, rs: n, cs: 1}
			want := make([]T, m*n)
			gemmOn(&packed, m, n, k, av, bv, want, n, false)
			got := make([]T, m*n)
			gemmOn(mk, m, n, k, av, bv, got, n, true)
			require.Equal(t, want, got, "%s %v", p.name, s)
		}
	}
}
