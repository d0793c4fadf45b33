package tensor

// convB is the im2col matrix of one group of one image, read in place (implicit GEMM): row (c, ki, kj) — c of
// cinG channels, (ki, kj) a kernel tap — and column oy·ow + ox hold the input value that output position (oy, ox)
// reads through that tap of channel c, or zero where the tap falls into the padding. Packing its panels straight
// from the image saves writing and reading back a matrix kh·kw times the size of the input.
type convB[T Float] struct {
	src []T // cinG planes of h×w
	g   *convGeom
}

// packB writes im2col[p0:p0+kc, j0:j0+nc] into dst as nr-column panels (see bPacker): for each row, every output
// row the columns cross is one run of input values (strided by sw), copied in pieces that stay inside a panel.
func (b convB[T]) packB(dst []T, p0, j0, kc, nc int, mk *microKernel[T]) {
	g, nr := b.g, mk.nr
	taps := g.kh * g.kw
	hw := g.h * g.w
	panelStride := nr * kc
	// put writes the values of destination columns [q, q+n) of row p: zeros when src is nil, else src[s], src[s+sw], ….
	put := func(p, q, n int, src []T, s int) {
		for n > 0 {
			panel, lane := q/nr, q%nr
			l := min(nr-lane, n)
			d := dst[panel*panelStride+p*nr+lane : panel*panelStride+p*nr+lane+l]
			switch {
			case src == nil:
				clear(d)
			case g.sw == 1:
				copy(d, src[s:s+l])
			default:
				for t := range d {
					d[t] = src[s+t*g.sw]
				}
			}
			q += l
			n -= l
			s += l * g.sw
		}
	}
	for p := range kc {
		row := p0 + p
		c, t := row/taps, row%taps
		ki, kj := t/g.kw, t%g.kw
		plane := b.src[c*hw : (c+1)*hw]
		ix0 := kj*g.dw - g.pl
		// Output columns whose input column is inside [0, w).
		lo := 0
		if ix0 < 0 {
			lo = min((-ix0+g.sw-1)/g.sw, g.ow)
		}
		hi := lo
		if g.w-ix0 > 0 {
			hi = max(min((g.w-ix0+g.sw-1)/g.sw, g.ow), lo)
		}
		oy, ox := j0/g.ow, j0%g.ow
		for q := 0; q < nc; {
			run := min(g.ow-ox, nc-q) // columns ox … ox+run-1 of output row oy
			iy := oy*g.sh - g.pt + ki*g.dh
			if iy < 0 || iy >= g.h {
				put(p, q, run, nil, 0)
			} else {
				a, e := max(ox, lo), min(ox+run, hi)
				if a >= e {
					put(p, q, run, nil, 0)
				} else {
					put(p, q, a-ox, nil, 0)
					put(p, q+a-ox, e-a, plane[iy*g.w:(iy+1)*g.w], a*g.sw+ix0)
					put(p, q+e-ox, ox+run-e, nil, 0)
				}
			}
			q += run
			oy, ox = oy+1, 0
		}
	}
	// Columns past nc in the last panel are zero.
	if full := nc % nr; full != 0 {
		last := dst[(nc/nr)*panelStride : (nc/nr+1)*panelStride]
		for p := range kc {
			clear(last[p*nr+full : (p+1)*nr])
		}
	}
}
