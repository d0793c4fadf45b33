package tensor

// Convolution as a product with shifted views of the input. The input of one group is copied once into phase
// planes with its padding written out: for strides sh×sw, channel c has sh·sw planes, plane (ry, rx) holding the
// padded input at rows ry, ry+sh, … and columns rx, rx+sw, …, each hs×ws. Output position (oy, ox) then reads
// through kernel tap (ki, kj) of channel c the value at row oy + ki·dh/sh and column ox + kj·dw/sw of plane
// ((ki·dh) mod sh, (kj·dw) mod sw): with the output laid out ws columns wide (columns ow … ws-1 computed and
// thrown away), every row of the im2col matrix is one contiguous run of a plane, from an offset that depends on
// the row alone. Packing B is then a copy of runs of nr values, with no bounds to check, and no im2col matrix is
// ever built. The price is the ws-ow thrown-away columns per output row ((kw-1)·dw/sw of them), so geometries
// that throw away much (large dilations at small sizes) use convB instead.

// convShift is the layout of the phase planes of one group and the offset of each im2col row in them.
type convShift struct {
	hs, ws int   // plane rows and columns
	offs   []int // offset of im2col row (c, ki, kj) in the planes
	size   int   // values of the planes, with the slack the last rows read past their plane
}

// newConvShift lays out the phase planes of g.
func newConvShift(g *convGeom) *convShift {
	hp, wp := g.h+g.pt+g.pb, g.w+g.pl+g.pr
	// Every row and column an output reads lies inside its plane: with Paddle's truncating division a dilated
	// kernel may reach past the padded input (one output of a 7-tall kernel over 5 padded rows), and those taps
	// read the zeros below it, not the next plane.
	s := &convShift{
		hs: max((hp+g.sh-1)/g.sh, g.oh+(g.kh-1)*g.dh/g.sh),
		ws: max((wp+g.sw-1)/g.sw, g.ow+(g.kw-1)*g.dw/g.sw),
	}
	plane := s.hs * s.ws
	s.offs = make([]int, 0, g.kK)
	s.size = g.cinG * g.sh * g.sw * plane
	for c := range g.cinG {
		for ki := range g.kh {
			for kj := range g.kw {
				ry, rx := ki*g.dh%g.sh, kj*g.dw%g.sw
				off := (c*g.sh*g.sw+ry*g.sw+rx)*plane + ki*g.dh/g.sh*s.ws + kj*g.dw/g.sw
				s.offs = append(s.offs, off)
				s.size = max(s.size, off+g.oh*s.ws)
			}
		}
	}
	return s
}

// waste returns the fraction of computed output columns that are thrown away.
func (s *convShift) waste(g *convGeom) float64 {
	return float64(s.ws-g.ow) / float64(s.ws)
}

// fillShift writes the phase planes of src (cinG channels of h×w) into xs (s.size values), zero in the padding
// and the slack.
func fillShift[T Float](s *convShift, g *convGeom, xs, src []T) {
	plane := s.hs * s.ws
	hw := g.h * g.w
	for c := range g.cinG {
		in := src[c*hw : (c+1)*hw]
		for ry := range g.sh {
			for rx := range g.sw {
				dst := xs[(c*g.sh*g.sw+ry*g.sw+rx)*plane : (c*g.sh*g.sw+ry*g.sw+rx+1)*plane]
				// Plane columns j whose input column j·sw + rx - pl lies in [0, w).
				lo := max(0, (g.pl-rx+g.sw-1)/g.sw)
				hi := max(lo, min(s.ws, (g.w+g.pl-rx+g.sw-1)/g.sw))
				for i := range s.hs {
					d := dst[i*s.ws : (i+1)*s.ws]
					iy := i*g.sh + ry - g.pt
					if iy < 0 || iy >= g.h {
						clear(d)
						continue
					}
					row := in[iy*g.w : (iy+1)*g.w]
					clear(d[:lo])
					if g.sw == 1 {
						copy(d[lo:hi], row[lo-g.pl:hi-g.pl])
					} else {
						for j := lo; j < hi; j++ {
							d[j] = row[j*g.sw+rx-g.pl]
						}
					}
					clear(d[hi:])
				}
			}
		}
	}
	clear(xs[g.cinG*g.sh*g.sw*plane : s.size])
}

// shiftB is the im2col matrix of a band of output rows, read from phase planes (convShift): row p is xs from
// offs[p] + q0 on.
type shiftB[T Float] struct {
	xs   []T
	offs []int
	q0   int
}

// packB deals every row out to the panels (see bPacker).
func (b shiftB[T]) packB(dst []T, p0, j0, kc, nc int, mk *microKernel[T]) {
	for p := range kc {
		off := b.offs[p0+p] + b.q0 + j0
		dealRow(mk, dst, p, kc, b.xs[off:off+nc])
	}
}
