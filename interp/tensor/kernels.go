package tensor

import (
	"fmt"
	"os"
	"strings"
)

// Kernel paths. The matrix products under matmul, the convolutions and the other GEMM-shaped kernels run on one
// of several sets of micro-kernels: Go assembly for AVX-512 and for AVX2+FMA on amd64, and portable Go everywhere.
// The fastest set the CPU supports is chosen once, when the process starts; the environment variable
// PIRDRR_KERNELS (KernelsEnv) forces one by name, to compare paths or chase a difference between machines.
//
// Each path is deterministic on its own (bit-identical for every GOMAXPROCS, since work is split only between
// output elements, never inside a sum); the paths agree with each other within rounding, since they sum in the same
// order but the assembly kernels round once per multiply-add (FMA) where Go rounds the product and the sum (see the
// package documentation for the tolerance).

// KernelsEnv is the environment variable that forces a kernel path: "go", "avx2" or "avx512". Package feeds
// draws normal weights on AVX-512 lanes only on the avx512 path (the same numbers as its portable loop).
const KernelsEnv = "PIRDRR_KERNELS"

// kernelPath is one set of micro-kernels with its blocking, for both element types.
type kernelPath struct {
	name string
	f32  microKernel[float32]
	f64  microKernel[float64]
}

// microKernel is a GEMM micro-kernel and the blocking of the products that use it: tile computes an mr×nr tile of
// C from kc steps of packed A (mr values a step) and packed B (nr values a step), storing it (acc false) or adding
// it to C (acc true), rows ldc apart; blocks of kc×nc of B and mc×kc of A are packed at a time; axpy adds a·x to
// y.
type microKernel[T Float] struct {
	mr, nr     int
	kc, mc, nc int
	tile       func(kc int, a, b, c []T, ldc int, acc bool)
	// tileA, when not nil, is tile with A read in place: mr rows of a row-major matrix, lda apart, kc values each
	// (the same values in the same order as tile reads from a packed panel, so the same bits).
	tileA func(kc int, a []T, lda int, b, c []T, ldc int, acc bool)
	axpy  func(a T, x, y []T)
	// deal copies chunks runs of nr values from src (contiguous) to dst, stride values apart: one row of B into
	// its place in every panel.
	deal func(dst []T, stride int, src []T, chunks int)
}

// goPath is the portable path: a 4×2 tile accumulated in scalar locals (with amd64's 15 usable floating-point
// registers, 8 accumulators beat larger tiles that spill).
var goPath = &kernelPath{
	name: "go",
	f32:  microKernel[float32]{mr: 4, nr: 2, kc: 256, mc: 128, nc: 512, tile: goTile[float32], axpy: goAxpy[float32], deal: goDeal[float32]},
	f64:  microKernel[float64]{mr: 4, nr: 2, kc: 256, mc: 128, nc: 512, tile: goTile[float64], axpy: goAxpy[float64], deal: goDeal[float64]},
}

// kernelPaths lists the paths this machine runs, fastest first; the portable path is last.
func kernelPaths() []*kernelPath {
	return append(archKernelPaths(), goPath)
}

// kernels is the path in use, and kernelsErr the reason it is not the one PIRDRR_KERNELS asked for.
var kernels, kernelsErr = selectKernels(os.Getenv(KernelsEnv))

// selectKernels returns the path named by want ("" for the fastest), or the fastest with an error when this
// machine has no path of that name.
func selectKernels(want string) (*kernelPath, error) {
	paths := kernelPaths()
	want = strings.TrimSpace(want)
	if want == "" {
		return paths[0], nil
	}
	var names []string
	for _, p := range paths {
		if p.name == want {
			return p, nil
		}
		names = append(names, p.name)
	}
	return paths[0], fmt.Errorf("%s=%q: this machine runs the kernel paths %s; using %s",
		KernelsEnv, want, strings.Join(names, ", "), paths[0].name)
}

// Kernels returns the name of the kernel path in use ("avx512", "avx2" or "go") and, when PIRDRR_KERNELS named a
// path this machine cannot run, an error saying so (the fastest path is used then).
func Kernels() (string, error) {
	return kernels.name, kernelsErr
}

// KernelPaths returns the names of the kernel paths this machine can run, fastest first ("go" is always last).
func KernelPaths() []string {
	var names []string
	for _, p := range kernelPaths() {
		names = append(names, p.name)
	}
	return names
}

// kernelFor returns the micro-kernel of path p for T.
func kernelFor[T Float](p *kernelPath) *microKernel[T] {
	var zero T
	if _, ok := any(zero).(float32); ok {
		return any(&p.f32).(*microKernel[T])
	}
	return any(&p.f64).(*microKernel[T])
}

// goTile is the portable micro-kernel: a 4×2 tile (microKernel's mr and nr for goPath).
func goTile[T Float](kc int, ap, bp []T, c []T, ldc int, acc bool) {
	var c00, c01, c10, c11, c20, c21, c30, c31 T
	ap = ap[:kc*4]
	bp = bp[:kc*2]
	j := 0
	for i := 0; i+3 < len(ap) && j+1 < len(bp); i += 4 {
		b0, b1 := bp[j], bp[j+1]
		a0 := ap[i]
		c00 += a0 * b0
		c01 += a0 * b1
		a1 := ap[i+1]
		c10 += a1 * b0
		c11 += a1 * b1
		a2 := ap[i+2]
		c20 += a2 * b0
		c21 += a2 * b1
		a3 := ap[i+3]
		c30 += a3 * b0
		c31 += a3 * b1
		j += 2
	}
	r0 := c[0:2:2]
	r1 := c[ldc : ldc+2 : ldc+2]
	r2 := c[2*ldc : 2*ldc+2 : 2*ldc+2]
	r3 := c[3*ldc : 3*ldc+2 : 3*ldc+2]
	if !acc {
		r0[0], r0[1] = c00, c01
		r1[0], r1[1] = c10, c11
		r2[0], r2[1] = c20, c21
		r3[0], r3[1] = c30, c31
		return
	}
	r0[0] += c00
	r0[1] += c01
	r1[0] += c10
	r1[1] += c11
	r2[0] += c20
	r2[1] += c21
	r3[0] += c30
	r3[1] += c31
}

// goAxpy adds a·x to y (len(y) >= len(x)).
func goAxpy[T Float](a T, x, y []T) {
	y = y[:len(x)]
	for j, v := range x {
		y[j] += a * v
	}
}
