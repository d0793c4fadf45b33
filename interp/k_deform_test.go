package interp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// bilinearRef samples a plane at (y, x) bilinearly, neighbours outside the plane reading 0, one point at a time:
// the formula deformable_conv evaluated per channel before the samples were shared by the channels of a group.
func bilinearRef(plane []float64, h, w int, y, x float64) float64 {
	if !(y > -1 && x > -1 && y < float64(h) && x < float64(w)) {
		return 0
	}
	y0, x0 := math.Floor(y), math.Floor(x)
	yl, xl := int(y0), int(x0)
	ly, lx := y-y0, x-x0
	at := func(yy, xx int) float64 {
		if yy < 0 || xx < 0 || yy >= h || xx >= w {
			return 0
		}
		return float64(plane[yy*w+xx])
	}
	return (1-ly)*(1-lx)*at(yl, xl) + (1-ly)*lx*at(yl, xl+1) + ly*(1-lx)*at(yl+1, xl) + ly*lx*at(yl+1, xl+1)
}

// TestDeformSamplesMatchPointwise checks that the samples computed once per (group, tap) give every channel the
// bits the point-by-point formula gives, for fractional offsets that reach past every border, with and without
// a mask, including an Inf in the plane next to points outside it (an outside neighbour reads 0, not 0·Inf). It
// runs in float64, so that the bits show the order of the operations (float32 results would round most
// reorderings away).
func TestDeformSamplesMatchPointwise(t *testing.T) {
	tests := []struct {
		name           string
		h, w, oh, ow   int
		sy, sx, ty, tx int
		masked         bool
	}{
		{name: "stride 1, padded", h: 7, w: 9, oh: 7, ow: 9, sy: 1, sx: 1, ty: -1, tx: -1, masked: true},
		{name: "stride 2, unmasked", h: 8, w: 6, oh: 4, ow: 3, sy: 2, sx: 2, ty: 1, tx: 0},
		{name: "dilated tap", h: 5, w: 5, oh: 5, ow: 5, sy: 1, sx: 1, ty: 2, tx: -2, masked: true},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ohw := tc.oh * tc.ow
			dy, dx, m := make([]float64, ohw), make([]float64, ohw), make([]float64, ohw)
			for p := range ohw {
				dy[p], dx[p], m[p] = r.NormFloat64()*3, r.NormFloat64()*3, r.Float64()
			}
			dy[0], dx[0] = math.NaN(), 0 // a NaN offset samples nothing
			plane := make([]float64, tc.h*tc.w)
			for i := range plane {
				plane[i] = r.NormFloat64()
			}
			plane[0] = math.Inf(1)
			var mask []float64
			if tc.masked {
				mask = m
			}
			smp := make([]deformSample, ohw)
			deformSamples(smp, dy, dx, mask, tc.h, tc.w, tc.ow, tc.sy, tc.sx, tc.ty, tc.tx)
			row := make([]float64, ohw)
			deformRow(row, smp, plane, tc.masked)
			for p := range ohw {
				py := float64(p/tc.ow*tc.sy+tc.ty) + float64(dy[p])
				px := float64(p%tc.ow*tc.sx+tc.tx) + float64(dx[p])
				want := bilinearRef(plane, tc.h, tc.w, py, px)
				if tc.masked {
					want *= m[p]
				}
				require.Equal(t, math.Float64bits(want), math.Float64bits(row[p]), "position %d: want %v, got %v", p, want, row[p])
			}
		})
	}
}
