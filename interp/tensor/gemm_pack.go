package tensor

// Packing of matrix operands into the panels the micro-kernels read (gemm.go).

// panelsA packs A[i0:i0+mc, p0:p0+kc] into buf as mr-row panels, each stored k-major (mr consecutive values per
// k), zero-padding partial panels.
func (a matView[T]) panelsA(buf []T, i0, p0, mc, kc, mr int) []T {
	dst := buf[:roundUp(mc, mr)*kc]
	for ir := 0; ir < mc; ir += mr {
		panel := dst[ir*kc : (ir+mr)*kc]
		rows := min(mr, mc-ir)
		for i := range mr {
			if i >= rows {
				for p := range kc {
					panel[p*mr+i] = 0
				}
				continue
			}
			base := (i0+ir+i)*a.rs + p0*a.cs
			if a.cs == 1 {
				for p, v := range a.data[base : base+kc] {
					panel[p*mr+i] = v
				}
				continue
			}
			for p := range kc {
				panel[p*mr+i] = a.data[base+p*a.cs]
			}
		}
	}
	return dst
}

// packB packs B[p0:p0+kc, j0:j0+nc] into dst as nr-column panels, each stored k-major (nr consecutive values per
// k), zero-padding partial panels.
func (b matView[T]) packB(dst []T, p0, j0, kc, nc, nr int) {
	full := nc / nr * nr
	if b.cs == 1 {
		// Row-contiguous B (im2col matrices, 1×1 convolutions, untransposed matmuls): read each row once, in order,
		// and deal its runs of nr out to the panels.
		for p := range kc {
			row := b.data[(p0+p)*b.rs+j0 : (p0+p)*b.rs+j0+nc]
			o := p * nr
			for jr := 0; jr < full; jr += nr {
				copyRun(dst[jr*kc+o:jr*kc+o+nr], row[jr:jr+nr])
			}
			if full < nc {
				d := dst[full*kc+o : full*kc+o+nr]
				n := copy(d, row[full:])
				clear(d[n:])
			}
		}
		return
	}
	for jr := 0; jr < nc; jr += nr {
		panel := dst[jr*kc : (jr+nr)*kc]
		cols := min(nr, nc-jr)
		for j := range nr {
			if j >= cols {
				for p := range kc {
					panel[p*nr+j] = 0
				}
				continue
			}
			base := p0*b.rs + (j0+jr+j)*b.cs
			if b.rs == 1 {
				for p, v := range b.data[base : base+kc] {
					panel[p*nr+j] = v
				}
				continue
			}
			for p := range kc {
				panel[p*nr+j] = b.data[base+p*b.rs]
			}
		}
	}
}

// packedA is a matrix A packed once for all products with it (a convolution's filter, used for every image and
// group): for each kc block of columns, all rows as mr-row panels.
type packedA[T Float] struct {
	data       []T
	m, k       int
	mr, kc     int
	rowsPadded int
}

// packAll packs the m×k matrix a for micro-kernel mk.
func packAll[T Float](mk *microKernel[T], a matView[T], m, k int) *packedA[T] {
	pa := &packedA[T]{m: m, k: k, mr: mk.mr, kc: mk.kc, rowsPadded: roundUp(m, mk.mr)}
	pa.data = make([]T, pa.rowsPadded*k)
	for pc := 0; pc < k; pc += mk.kc {
		kc := min(mk.kc, k-pc)
		a.panelsA(pa.data[pc*pa.rowsPadded:], 0, pc, m, kc, mk.mr)
	}
	return pa
}

// panelsA returns the stored panels of A[i0:i0+mc, p0:p0+kc]; p0 must start one of the kc blocks it was packed
// with and kc be that block's depth.
func (pa *packedA[T]) panelsA(_ []T, i0, p0, mc, kc, mr int) []T {
	if mr != pa.mr || p0%pa.kc != 0 || kc != min(pa.kc, pa.k-p0) || i0%mr != 0 {
		panic("tensor: packed A read with another blocking")
	}
	off := p0*pa.rowsPadded + i0*kc
	return pa.data[off : off+roundUp(mc, mr)*kc]
}

// copyRun copies src into dst (of equal length): a loop for the short runs of the portable path's 2-wide panels,
// where calling memmove costs more than the copy, else copy.
func copyRun[T Float](dst, src []T) {
	if len(src) > 4 {
		copy(dst, src)
		return
	}
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = v
	}
}
