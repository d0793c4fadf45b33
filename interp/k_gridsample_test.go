package interp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGridSampleRowMatchesPointwise checks that the samples computed once per grid point give every channel the
// bits of the point-by-point formula grid_sample evaluated before (bilinear and nearest), for positions inside,
// on and past every border, a NaN position, and an Inf in the plane. It runs in float64, so that the bits show
// the order of the operations.
func TestGridSampleRowMatchesPointwise(t *testing.T) {
	const h, w = 6, 7
	r := rand.New(rand.NewPCG(5, 6))
	plane := make([]float64, h*w)
	for i := range plane {
		plane[i] = r.NormFloat64()
	}
	plane[3] = math.Inf(-1)
	at := func(yy, xx int) float64 {
		if yy < 0 || yy >= h || xx < 0 || xx >= w {
			return 0
		}
		return plane[yy*w+xx]
	}
	const pts = 700
	gx, gy := make([]float64, pts), make([]float64, pts)
	for i := range pts {
		gx[i], gy[i] = r.Float64()*(w+3)-1.5, r.Float64()*(h+3)-1.5
	}
	gx[0], gy[1] = math.NaN(), math.NaN()
	gx[2], gy[2] = 0, 0
	gx[3], gy[3] = w-1, h-1
	for _, nearest := range []bool{false, true} {
		smp := make([]gridSample, pts)
		for i := range smp {
			smp[i] = newGridSample(gx[i], gy[i], h, w, nearest)
		}
		got := make([]float64, pts)
		gridSampleRow(got, smp, plane)
		for i := range pts {
			var want float64
			if nearest {
				want = at(int(math.RoundToEven(gy[i])), int(math.RoundToEven(gx[i])))
			} else {
				x0, y0 := math.Floor(gx[i]), math.Floor(gy[i])
				dx, dy := gx[i]-x0, gy[i]-y0
				xi, yi := int(x0), int(y0)
				want = at(yi, xi)*(1-dx)*(1-dy) + at(yi, xi+1)*dx*(1-dy) + at(yi+1, xi)*(1-dx)*dy + at(yi+1, xi+1)*dx*dy
			}
			if math.IsNaN(want) {
				require.True(t, math.IsNaN(got[i]), "nearest %v, point %d: want NaN, got %v", nearest, i, got[i])
				continue
			}
			require.Equal(t, math.Float64bits(want), math.Float64bits(got[i]), "nearest %v, point %d (%v, %v): want %v, got %v", nearest, i, gx[i], gy[i], want, got[i])
		}
	}
}
