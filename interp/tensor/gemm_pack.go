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
func (b matView[T]) packB(dst []T, p0, j0, kc, nc int, mk *microKernel[T]) {
	nr := mk.nr
	if b.cs == 1 {
		// Row-contiguous B (im2col matrices, 1×1 convolutions, untransposed matmuls): read each row once, in order,
		// and deal its runs of nr out to the panels.
		for p := range kc {
			dealRow(mk, dst, p, kc, b.data[(p0+p)*b.rs+j0:(p0+p)*b.rs+j0+nc])
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

// dealRow writes row (nc values of B's row p of a kc-deep block) into its place in the nr-wide panels of dst:
// runs of nr values, the last one zero-padded.
func dealRow[T Float](mk *microKernel[T], dst []T, p, kc int, row []T) {
	nr := mk.nr
	full := len(row) / nr
	if full > 0 {
		mk.deal(dst[p*nr:], nr*kc, row[:full*nr], full)
	}
	if rest := row[full*nr:]; len(rest) > 0 {
		d := dst[full*nr*kc+p*nr : full*nr*kc+(p+1)*nr]
		n := copy(d, rest)
		clear(d[n:])
	}
}

// goDeal copies chunks runs of len(src)/chunks values from src to dst, stride values apart in dst (microKernel.deal).
func goDeal[T Float](dst []T, stride int, src []T, chunks int) {
	nr := len(src) / max(chunks, 1)
	for c := range chunks {
		d, s := dst[c*stride:c*stride+nr], src[c*nr:(c+1)*nr]
		if nr == 2 {
			d[0], d[1] = s[0], s[1] // memmove's call costs more than two values
			continue
		}
		copy(d, s)
	}
}
