//go:build amd64 && !purego

package tensor

import "golang.org/x/sys/cpu"

//go:generate go run gen_kernels.go

// The assembly kernels of kernels_amd64.s (printed by gen_kernels.go). A GEMM kernel computes one full MR×NR tile
// (see gemmTile); an axpy kernel adds a·x to y over n elements. They read and write exactly the memory the
// wrappers below check, so a wrong call panics in Go instead of writing outside a slice.

//go:noescape
func gemmF32AVX2(k int, a, b, c *float32, ldc int, acc int)

//go:noescape
func gemmF64AVX2(k int, a, b, c *float64, ldc int, acc int)

//go:noescape
func gemmF32AVX512(k int, a, b, c *float32, ldc int, acc int)

//go:noescape
func gemmF64AVX512(k int, a, b, c *float64, ldc int, acc int)

//go:noescape
func gemmF32AVX2RowA(k int, a *float32, lda int, b, c *float32, ldc int, acc int)

//go:noescape
func gemmF64AVX2RowA(k int, a *float64, lda int, b, c *float64, ldc int, acc int)

//go:noescape
func gemmF32AVX512RowA(k int, a *float32, lda int, b, c *float32, ldc int, acc int)

//go:noescape
func gemmF64AVX512RowA(k int, a *float64, lda int, b, c *float64, ldc int, acc int)

//go:noescape
func dealF32AVX2(dst *float32, stride int, src *float32, chunks int)

//go:noescape
func dealF64AVX2(dst *float64, stride int, src *float64, chunks int)

//go:noescape
func dealF32AVX512(dst *float32, stride int, src *float32, chunks int)

//go:noescape
func dealF64AVX512(dst *float64, stride int, src *float64, chunks int)

//go:noescape
func axpyF32AVX2(a float32, x, y *float32, n int)

//go:noescape
func axpyF64AVX2(a float64, x, y *float64, n int)

//go:noescape
func axpyF32AVX512(a float32, x, y *float32, n int)

//go:noescape
func axpyF64AVX512(a float64, x, y *float64, n int)

// asmTile wraps an assembly GEMM kernel of an mr×nr tile as a gemmTile, checking the extent of every operand.
func asmTile[T Float](mr, nr int, kern func(k int, a, b, c *T, ldc int, acc int)) func(kc int, a, b, c []T, ldc int, acc bool) {
	return func(kc int, a, b, c []T, ldc int, acc bool) {
		if kc <= 0 || len(a) < kc*mr || len(b) < kc*nr || ldc < nr || len(c) < (mr-1)*ldc+nr {
			panic("tensor: gemm kernel called out of bounds")
		}
		flag := 0
		if acc {
			flag = 1
		}
		kern(kc, &a[0], &b[0], &c[0], ldc, flag)
	}
}

// asmTileRowA wraps an assembly GEMM kernel that reads A in place (mr rows lda apart) as a gemmTileRowA,
// checking the extent of every operand.
func asmTileRowA[T Float](mr, nr int, kern func(k int, a *T, lda int, b, c *T, ldc int, acc int)) func(kc int, a []T, lda int, b, c []T, ldc int, acc bool) {
	return func(kc int, a []T, lda int, b, c []T, ldc int, acc bool) {
		if kc <= 0 || lda < kc || len(a) < (mr-1)*lda+kc || len(b) < kc*nr || ldc < nr || len(c) < (mr-1)*ldc+nr {
			panic("tensor: gemm kernel called out of bounds")
		}
		flag := 0
		if acc {
			flag = 1
		}
		kern(kc, &a[0], lda, &b[0], &c[0], ldc, flag)
	}
}

// asmDeal wraps an assembly deal kernel copying runs of nr values, checking the extent of dst and src.
func asmDeal[T Float](nr int, kern func(dst *T, stride int, src *T, chunks int)) func(dst []T, stride int, src []T, chunks int) {
	return func(dst []T, stride int, src []T, chunks int) {
		if chunks <= 0 {
			return
		}
		if stride < nr || len(src) < chunks*nr || len(dst) < (chunks-1)*stride+nr {
			panic("tensor: deal kernel called out of bounds")
		}
		kern(&dst[0], stride, &src[0], chunks)
	}
}

// asmAxpy wraps an assembly axpy kernel, checking that y is as long as x.
func asmAxpy[T Float](kern func(a T, x, y *T, n int)) func(a T, x, y []T) {
	return func(a T, x, y []T) {
		if len(x) == 0 {
			return
		}
		if len(y) < len(x) {
			panic("tensor: axpy called out of bounds")
		}
		kern(a, &x[0], &y[0], len(x))
	}
}

// Blocking of the assembly paths, by measurement on an AMD EPYC (Zen 4: 32 KiB L1d, 1 MiB L2 per core): a kc×nr
// micro-panel of B stays in L1 while the MR-row panels of A stream through it, an mc×kc block of A stays in L2.
func archKernelPaths() []*kernelPath {
	var paths []*kernelPath
	if cpu.X86.HasAVX512F {
		paths = append(paths, &kernelPath{
			name: "avx512",
			f32: microKernel[float32]{mr: 12, nr: 32, kc: 256, mc: 96, nc: 512,
				tile: asmTile(12, 32, gemmF32AVX512), tileA: asmTileRowA(12, 32, gemmF32AVX512RowA), axpy: asmAxpy(axpyF32AVX512), deal: asmDeal(32, dealF32AVX512)},
			f64: microKernel[float64]{mr: 12, nr: 16, kc: 256, mc: 96, nc: 256,
				tile: asmTile(12, 16, gemmF64AVX512), tileA: asmTileRowA(12, 16, gemmF64AVX512RowA), axpy: asmAxpy(axpyF64AVX512), deal: asmDeal(16, dealF64AVX512)},
		})
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		paths = append(paths, &kernelPath{
			name: "avx2",
			f32: microKernel[float32]{mr: 6, nr: 16, kc: 256, mc: 96, nc: 512,
				tile: asmTile(6, 16, gemmF32AVX2), tileA: asmTileRowA(6, 16, gemmF32AVX2RowA), axpy: asmAxpy(axpyF32AVX2), deal: asmDeal(16, dealF32AVX2)},
			f64: microKernel[float64]{mr: 6, nr: 8, kc: 256, mc: 96, nc: 256,
				tile: asmTile(6, 8, gemmF64AVX2), tileA: asmTileRowA(6, 8, gemmF64AVX2RowA), axpy: asmAxpy(axpyF64AVX2), deal: asmDeal(8, dealF64AVX2)},
		})
	}
	return paths
}
