package tensor

// Cache-blocked matrix multiplication in pure Go (no assembly), in the style
// of Goto/BLIS: B is packed into KC×NC blocks of
// NR-wide column panels, A into MC×KC blocks of MR-tall row panels, and a
// register-blocked MR×NR micro-kernel accumulates into scalar locals. The
// micro-tile shape was chosen by measurement: with amd64's 15 usable
// floating-point registers, 8 accumulators beat larger tiles that spill.

const (
	gemmMR = 4   // rows of the micro-tile
	gemmNR = 2   // columns of the micro-tile
	gemmKC = 256 // depth of a packed block
	gemmMC = 128 // rows of a packed A block (multiple of gemmMR)
	gemmNC = 512 // columns of a packed B block (multiple of gemmNR)
)

// matView describes a strided read-only matrix: element (i, j) is
// data[i*rs + j*cs]. Transposition is a swap of rs and cs.
type matView[T Float] struct {
	data   []T
	rs, cs int
}

// gemm computes C = A·B, where A is m×k, B is k×n and C is row-major with
// leading dimension ldc (element (i, j) at c[i*ldc+j]); C's previous contents
// are overwritten. Products are accumulated in T. With par, rows (or, for a
// product with fewer rows than a micro-tile, columns) are split across
// goroutines; every element is accumulated in the same order either way.
func gemm[T Float](m, n, k int, a, b matView[T], c []T, ldc int, par bool) {
	if m <= 0 || n <= 0 {
		return
	}
	if k <= 0 {
		for i := range m {
			clear(c[i*ldc : i*ldc+n])
		}
		return
	}
	if m < gemmMR && b.cs == 1 {
		if !par {
			gemmFewRows(m, 0, n, k, a, b, c, ldc)
			return
		}
		ParallelFor(n, 2*m*k, func(j0, j1 int) { gemmFewRows(m, j0, j1, k, a, b, c, ldc) })
		return
	}
	if !par {
		gemmRows(0, m, n, k, a, b, c, ldc)
		return
	}
	// Split at micro-tile boundaries, so that every row is computed by the blocked kernel as without the split.
	tiles := (m + gemmMR - 1) / gemmMR
	ParallelFor(tiles, 2*gemmMR*n*k, func(t0, t1 int) {
		gemmRows(t0*gemmMR, min(t1*gemmMR, m), n, k, a, b, c, ldc)
	})
}

// gemmRows computes rows [i0, i1) of C = A·B with the blocked kernel.
func gemmRows[T Float](i0, i1, n, k int, a, b matView[T], c []T, ldc int) {
	m := i1 - i0
	kcMax := min(gemmKC, k)
	mcMax := min(gemmMC, roundUp(m, gemmMR))
	ncMax := min(gemmNC, roundUp(n, gemmNR))
	packA := make([]T, mcMax*kcMax)
	packB := make([]T, kcMax*ncMax)
	for jc := 0; jc < n; jc += gemmNC {
		nc := min(gemmNC, n-jc)
		for pc := 0; pc < k; pc += gemmKC {
			kc := min(gemmKC, k-pc)
			packPanelsB(packB, b, pc, jc, kc, nc)
			overwrite := pc == 0 // the first K block stores, later ones add
			for ic := i0; ic < i1; ic += gemmMC {
				mc := min(gemmMC, i1-ic)
				packPanelsA(packA, a, ic, pc, mc, kc)
				for jr := 0; jr < nc; jr += gemmNR {
					nr := min(gemmNR, nc-jr)
					bp := packB[jr*kc : (jr+gemmNR)*kc]
					for ir := 0; ir < mc; ir += gemmMR {
						mr := min(gemmMR, mc-ir)
						ap := packA[ir*kc : (ir+gemmMR)*kc]
						off := (ic+ir)*ldc + jc + jr
						microKernel(kc, ap, bp, c[off:], ldc, mr, nr, overwrite)
					}
				}
			}
		}
	}
}

func roundUp(v, m int) int { return (v + m - 1) / m * m }

// packPanelsA copies A[i0:i0+mc, p0:p0+kc] into dst as MR-row panels, each
// stored k-major (MR consecutive values per k), zero-padding partial panels.
func packPanelsA[T Float](dst []T, a matView[T], i0, p0, mc, kc int) {
	for ir := 0; ir < mc; ir += gemmMR {
		panel := dst[ir*kc : (ir+gemmMR)*kc]
		rows := min(gemmMR, mc-ir)
		for i := range gemmMR {
			if i >= rows {
				for p := range kc {
					panel[p*gemmMR+i] = 0
				}
				continue
			}
			base := (i0+ir+i)*a.rs + p0*a.cs
			if a.cs == 1 {
				src := a.data[base : base+kc]
				for p, v := range src {
					panel[p*gemmMR+i] = v
				}
			} else {
				for p := range kc {
					panel[p*gemmMR+i] = a.data[base+p*a.cs]
				}
			}
		}
	}
}

// packPanelsB copies B[p0:p0+kc, j0:j0+nc] into dst as NR-column panels,
// each stored k-major (NR consecutive values per k), zero-padding partial
// panels.
func packPanelsB[T Float](dst []T, b matView[T], p0, j0, kc, nc int) {
	if b.cs == 1 && gemmNR == 2 {
		// Row-contiguous B (im2col matrices, 1×1 convolutions, untransposed matmuls): read each row once, in
		// order, and deal its pairs out to the panels, rather than walking kc rows per panel.
		full := nc / gemmNR * gemmNR
		for p := range kc {
			row := b.data[(p0+p)*b.rs+j0 : (p0+p)*b.rs+j0+nc]
			o := p * gemmNR
			for jr := 0; jr < full; jr += gemmNR {
				d := dst[jr*kc+o : jr*kc+o+2]
				d[0], d[1] = row[jr], row[jr+1]
			}
			if full < nc {
				d := dst[full*kc+o : full*kc+o+2]
				d[0], d[1] = row[full], 0
			}
		}
		return
	}
	for jr := 0; jr < nc; jr += gemmNR {
		panel := dst[jr*kc : (jr+gemmNR)*kc]
		cols := min(gemmNR, nc-jr)
		for j := range gemmNR {
			if j >= cols {
				for p := range kc {
					panel[p*gemmNR+j] = 0
				}
				continue
			}
			base := p0*b.rs + (j0+jr+j)*b.cs
			if b.rs == 1 {
				src := b.data[base : base+kc]
				for p, v := range src {
					panel[p*gemmNR+j] = v
				}
			} else {
				for p := range kc {
					panel[p*gemmNR+j] = b.data[base+p*b.rs]
				}
			}
		}
	}
}

// microKernel multiplies an MR×kc packed A panel by a kc×NR packed B panel
// and stores (overwrite) or adds the valid mr×nr corner into c, whose rows
// are ldc apart.
func microKernel[T Float](kc int, ap, bp []T, c []T, ldc, mr, nr int, overwrite bool) {
	var c00, c01, c10, c11, c20, c21, c30, c31 T
	ap = ap[:kc*gemmMR]
	bp = bp[:kc*gemmNR]
	j := 0
	for i := 0; i+3 < len(ap) && j+1 < len(bp); i += gemmMR {
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
		j += gemmNR
	}
	acc := [gemmMR][gemmNR]T{{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}}
	if mr == gemmMR && nr == gemmNR {
		r0 := c[0:2:2]
		r1 := c[ldc : ldc+2 : ldc+2]
		r2 := c[2*ldc : 2*ldc+2 : 2*ldc+2]
		r3 := c[3*ldc : 3*ldc+2 : 3*ldc+2]
		if overwrite {
			r0[0], r0[1] = c00, c01
			r1[0], r1[1] = c10, c11
			r2[0], r2[1] = c20, c21
			r3[0], r3[1] = c30, c31
		} else {
			r0[0] += c00
			r0[1] += c01
			r1[0] += c10
			r1[1] += c11
			r2[0] += c20
			r2[1] += c21
			r3[0] += c30
			r3[1] += c31
		}
		return
	}
	for i := range mr {
		row := c[i*ldc : i*ldc+nr]
		for j := range row {
			if overwrite {
				row[j] = acc[i][j]
			} else {
				row[j] += acc[i][j]
			}
		}
	}
}

// gemmFewRows handles A with fewer rows than a micro-tile (vector-matrix
// products, depthwise convolutions) as a sequence of row AXPYs over a
// row-contiguous B, avoiding packing and zero-padded micro-tiles. It computes
// columns [j0, j1) of C.
func gemmFewRows[T Float](m, j0, j1, k int, a, b matView[T], c []T, ldc int) {
	for i := range m {
		row := c[i*ldc+j0 : i*ldc+j1]
		clear(row)
		for p := range k {
			av := a.data[i*a.rs+p*a.cs]
			src := b.data[p*b.rs+j0 : p*b.rs+j1]
			for j, bv := range src {
				row[j] += av * bv
			}
		}
	}
}
