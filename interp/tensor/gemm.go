package tensor

import "sync"

// Cache-blocked matrix multiplication in the style of Goto/BLIS: B is packed into kc×nc blocks of nr-wide column
// panels, A into mc×kc blocks of mr-tall row panels, and a register-blocked mr×nr micro-kernel (microKernel, of
// the kernel path in use: kernels.go) computes a tile of C from one panel of each. The sums of a tile are chains
// in k order over one kc block at a time, added to C block after block, so every element of C is computed by
// the same operations whatever the split of the work between goroutines.

// gemmFewRows is the row count below which a product with row-contiguous B runs as row AXPYs (gemmRowsAxpy)
// rather than on packed, zero-padded tiles.
const gemmFewRows = 4

// gemmMinChunk is the least extent (rows or columns) of C worth its own goroutine: each one packs the whole of the
// other operand, which costs about 15/extent of the products it computes.
const gemmMinChunk = 192

// matView describes a strided read-only matrix: element (i, j) is
// data[i*rs + j*cs]. Transposition is a swap of rs and cs.
type matView[T Float] struct {
	data   []T
	rs, cs int
}

// aPacker supplies blocks of A as packed panels.
type aPacker[T Float] interface {
	// panelsA returns A[i0:i0+mc, p0:p0+kc] as ceil(mc/mr) panels, each kc steps of mr values (rows past mc zero),
	// packed into buf or taken from storage of its own; i0 is a multiple of mr.
	panelsA(buf []T, i0, p0, mc, kc, mr int) []T
}

// bPacker supplies blocks of B as packed panels.
type bPacker[T Float] interface {
	// packB writes B[p0:p0+kc, j0:j0+nc] into dst as ceil(nc/mk.nr) panels, each kc steps of mk.nr values
	// (columns past nc zero).
	packB(dst []T, p0, j0, kc, nc int, mk *microKernel[T])
}

// gemm computes C = A·B on the kernel path in use, where A is m×k, B is k×n and C is row-major with leading
// dimension ldc (element (i, j) at c[i*ldc+j]); C's previous contents are overwritten. Products are accumulated
// in T. With par, the work is split across goroutines; every element is accumulated in the same order either
// way.
func gemm[T Float](m, n, k int, a, b matView[T], c []T, ldc int, par bool) {
	gemmOn(kernelFor[T](kernels), m, n, k, a, b, c, ldc, par)
}

// gemmOn is gemm on the micro-kernel mk.
func gemmOn[T Float](mk *microKernel[T], m, n, k int, a, b matView[T], c []T, ldc int, par bool) {
	if m > 0 && m < gemmFewRows && n > 0 && k > 0 && b.cs == 1 {
		if !par {
			gemmRowsAxpy(mk, m, 0, n, k, a, b, c, ldc)
			return
		}
		ParallelFor(n, 2*m*k, func(j0, j1 int) { gemmRowsAxpy(mk, m, j0, j1, k, a, b, c, ldc) })
		return
	}
	gemmPacked(mk, m, n, k, a, b, c, ldc, par)
}

// gemmPacked computes C = A·B with packed panels of A and B supplied by a and b (see gemm).
func gemmPacked[T Float](mk *microKernel[T], m, n, k int, a aPacker[T], b bPacker[T], c []T, ldc int, par bool) {
	if m <= 0 || n <= 0 {
		return
	}
	if k <= 0 {
		for i := range m {
			clear(c[i*ldc : i*ldc+n])
		}
		return
	}
	if !par {
		gemmBlock(mk, 0, m, 0, n, k, a, b, c, ldc)
		return
	}
	// Split the longer side of C at tile boundaries into chunks of at least gemmMinChunk; each chunk packs its own
	// panels. The split only decides which goroutine computes an element, not how.
	if n >= m {
		tiles := (n + mk.nr - 1) / mk.nr
		chunk := max(1, gemmMinChunk/mk.nr)
		ParallelFor((tiles+chunk-1)/chunk, 2*m*k*chunk*mk.nr, func(c0, c1 int) {
			gemmBlock(mk, 0, m, c0*chunk*mk.nr, min(c1*chunk*mk.nr, n), k, a, b, c, ldc)
		})
		return
	}
	tiles := (m + mk.mr - 1) / mk.mr
	chunk := max(1, gemmMinChunk/mk.mr)
	ParallelFor((tiles+chunk-1)/chunk, 2*n*k*chunk*mk.mr, func(c0, c1 int) {
		gemmBlock(mk, c0*chunk*mk.mr, min(c1*chunk*mk.mr, m), 0, n, k, a, b, c, ldc)
	})
}

// gemmBuffers are the packing buffers of one goroutine's block of a product.
type gemmBuffers[T Float] struct {
	a, b, tile []T
}

var (
	gemmPool32 sync.Pool
	gemmPool64 sync.Pool
)

func gemmPool[T Float]() *sync.Pool {
	var zero T
	if _, ok := any(zero).(float32); ok {
		return &gemmPool32
	}
	return &gemmPool64
}

// getBuffers returns packing buffers large enough for mk's blocks of a product with mRows rows, nCols columns and
// depth k.
func getBuffers[T Float](mk *microKernel[T], mRows, nCols, k int) *gemmBuffers[T] {
	buf, _ := gemmPool[T]().Get().(*gemmBuffers[T])
	if buf == nil {
		buf = &gemmBuffers[T]{}
	}
	grow := func(s []T, n int) []T {
		if cap(s) < n {
			return make([]T, n)
		}
		return s[:n]
	}
	kc := min(mk.kc, k)
	buf.a = grow(buf.a, min(mk.mc, roundUp(mRows, mk.mr))*kc)
	buf.b = grow(buf.b, kc*min(mk.nc, roundUp(nCols, mk.nr)))
	buf.tile = grow(buf.tile, mk.mr*mk.nr)
	return buf
}

// gemmBlock computes rows [i0, i1) and columns [j0, j1) of C = A·B (i0 a multiple of mk.mr, j0 of mk.nr).
func gemmBlock[T Float](mk *microKernel[T], i0, i1, j0, j1, k int, a aPacker[T], b bPacker[T], c []T, ldc int) {
	buf := getBuffers(mk, i1-i0, j1-j0, k)
	defer gemmPool[T]().Put(buf)
	// A row-major A is read in place by a kernel that can (no packing: a transposition, which for a product with
	// few columns costs as much as the product), but for a last panel of fewer than mr rows.
	rowA, inPlace := a.(matView[T])
	inPlace = inPlace && rowA.cs == 1 && mk.tileA != nil
	for jc := j0; jc < j1; jc += mk.nc {
		nc := min(mk.nc, j1-jc)
		for pc := 0; pc < k; pc += mk.kc {
			kc := min(mk.kc, k-pc)
			bp := buf.b[:roundUp(nc, mk.nr)*kc]
			b.packB(bp, pc, jc, kc, nc, mk)
			for ic := i0; ic < i1; ic += mk.mc {
				mc := min(mk.mc, i1-ic)
				// The first k block stores, later ones add.
				if inPlace {
					gemmMacroRowA(mk, rowA, ic, pc, mc, nc, kc, bp, c[ic*ldc+jc:], ldc, pc > 0, buf)
					continue
				}
				ap := a.panelsA(buf.a, ic, pc, mc, kc, mk.mr)
				gemmMacro(mk, mc, nc, kc, ap, bp, c[ic*ldc+jc:], ldc, pc > 0, buf.tile)
			}
		}
	}
}

// gemmMacroRowA is gemmMacro with the mc×kc block of A at rows ic…, columns pc… of a read in place by mk.tileA;
// a last panel of fewer than mr rows is packed (zero-padded) and goes to mk.tile.
func gemmMacroRowA[T Float](mk *microKernel[T], a matView[T], ic, pc, mc, nc, kc int, bp, c []T, ldc int, acc bool, buf *gemmBuffers[T]) {
	mr, nr := mk.mr, mk.nr
	full := mc / mr * mr
	var last []T
	if full < mc {
		last = a.panelsA(buf.a, ic+full, pc, mc-full, kc, mr)
	}
	for jr := 0; jr < nc; jr += nr {
		b := bp[jr*kc : (jr+nr)*kc]
		cols := min(nr, nc-jr)
		for ir := 0; ir < mc; ir += mr {
			off := ir*ldc + jr
			if ir < full && cols == nr {
				mk.tileA(kc, a.data[(ic+ir)*a.rs+pc:], a.rs, b, c[off:], ldc, acc)
				continue
			}
			if ir < full {
				mk.tileA(kc, a.data[(ic+ir)*a.rs+pc:], a.rs, b, buf.tile, nr, false)
			} else {
				mk.tile(kc, last, b, buf.tile, nr, false)
			}
			rows := min(mr, mc-ir)
			for i := range rows {
				dst := c[off+i*ldc : off+i*ldc+cols]
				src := buf.tile[i*nr : i*nr+cols]
				if acc {
					for j, v := range src {
						dst[j] += v
					}
				} else {
					copy(dst, src)
				}
			}
		}
	}
}

// gemmMacro multiplies packed panels of an mc×kc block of A by those of a kc×nc block of B into C (rows ldc
// apart), storing or, with acc, adding. Full tiles go to the micro-kernel directly; partial tiles are computed
// into tile and their valid corner stored or added, which is the same arithmetic.
func gemmMacro[T Float](mk *microKernel[T], mc, nc, kc int, ap, bp, c []T, ldc int, acc bool, tile []T) {
	mr, nr := mk.mr, mk.nr
	for jr := 0; jr < nc; jr += nr {
		b := bp[jr*kc : (jr+nr)*kc]
		cols := min(nr, nc-jr)
		for ir := 0; ir < mc; ir += mr {
			a := ap[ir*kc : (ir+mr)*kc]
			rows := min(mr, mc-ir)
			off := ir*ldc + jr
			if rows == mr && cols == nr {
				mk.tile(kc, a, b, c[off:], ldc, acc)
				continue
			}
			mk.tile(kc, a, b, tile, nr, false)
			for i := range rows {
				dst := c[off+i*ldc : off+i*ldc+cols]
				src := tile[i*nr : i*nr+cols]
				if acc {
					for j, v := range src {
						dst[j] += v
					}
				} else {
					copy(dst, src)
				}
			}
		}
	}
}

func roundUp(v, m int) int { return (v + m - 1) / m * m }

// gemmRowsAxpy handles A with fewer rows than gemmFewRows (vector-matrix products, depthwise convolutions) as a
// sequence of row AXPYs over a row-contiguous B, avoiding packing and zero-padded tiles. It computes columns
// [j0, j1) of C.
func gemmRowsAxpy[T Float](mk *microKernel[T], m, j0, j1, k int, a, b matView[T], c []T, ldc int) {
	for i := range m {
		row := c[i*ldc+j0 : i*ldc+j1]
		clear(row)
		for p := range k {
			mk.axpy(a.data[i*a.rs+p*a.cs], b.data[p*b.rs+j0:p*b.rs+j1], row)
		}
	}
}
