package tensor

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func testReduceHand[T Float](t *testing.T) {
	// x[i][j][k] = 100*i + 10*j + k, shape [2, 3, 2]
	var d []float64
	for i := range 2 {
		for j := range 3 {
			for k := range 2 {
				d = append(d, float64(100*i+10*j+k))
			}
		}
	}
	x := mustT[T](t, []int{2, 3, 2}, d...)
	cases := []struct {
		name      string
		mean      bool
		axes      []int
		keep      bool
		wantShape []int
		want      []float64
	}{
		{"sum-all", false, nil, false, []int{}, []float64{726}},
		{"sum-all-keep", false, []int{}, true, []int{1, 1, 1}, []float64{726}},
		{"sum-axis0", false, []int{0}, false, []int{3, 2}, []float64{100, 102, 120, 122, 140, 142}},
		{"sum-axis-neg1-keep", false, []int{-1}, true, []int{2, 3, 1}, []float64{1, 21, 41, 201, 221, 241}},
		{"sum-axes-0-2", false, []int{0, 2}, false, []int{3}, []float64{202, 242, 282}},
		{"sum-duplicate-axes", false, []int{1, 1, -2}, false, []int{2, 2}, []float64{30, 33, 330, 333}},
		{"sum-every-axis", false, []int{0, 1, 2}, false, []int{}, []float64{726}},
		{"mean-all", true, nil, false, []int{}, []float64{60.5}},
		{"mean-axis1", true, []int{1}, false, []int{2, 2}, []float64{10, 11, 110, 111}},
		{"mean-axis1-keep", true, []int{1}, true, []int{2, 1, 2}, []float64{10, 11, 110, 111}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := Sum[T]
			if tc.mean {
				f = Mean[T]
			}
			got, err := f(x, tc.axes, tc.keep)
			require.NoError(t, err)
			requireExact(t, tc.wantShape, tc.want, got)
		})
	}
}

func TestReduceHandComputed(t *testing.T) {
	t.Run("float32", testReduceHand[float32])
	t.Run("float64", testReduceHand[float64])
}

func TestReduceRandomAgainstNaive(t *testing.T) {
	r := NewRand(21)
	for i := range 40 {
		rank := 1 + r.IntN(4)
		shape := make([]int, rank)
		for d := range shape {
			shape[d] = 1 + r.IntN(4)
		}
		var axes []int
		red := make([]bool, rank)
		for d := range rank {
			if r.IntN(2) == 0 {
				red[d] = true
				a := d
				if r.IntN(2) == 0 {
					a -= rank
				}
				axes = append(axes, a)
			}
		}
		if len(axes) == 0 {
			for d := range red {
				red[d] = true
			}
		}
		keep := r.IntN(2) == 0
		t.Run(fmt.Sprint(shape, axes, keep), func(t *testing.T) {
			x := randT[float64](t, uint64(i), shape...)
			want := map[string]float64{}
			count := map[string]int{}
			var outShape []int
			for d, n := range shape {
				if !red[d] {
					outShape = append(outShape, n)
				} else if keep {
					outShape = append(outShape, 1)
				}
			}
			if outShape == nil {
				outShape = []int{}
			}
			keys := []string{}
			for flat, v := range x.Data {
				rem := flat
				idx := make([]int, rank)
				for d := rank - 1; d >= 0; d-- {
					idx[d] = rem % shape[d]
					rem /= shape[d]
				}
				for d := range idx {
					if red[d] {
						idx[d] = 0
					}
				}
				k := fmt.Sprint(idx)
				if _, ok := count[k]; !ok {
					keys = append(keys, k)
				}
				want[k] += v
				count[k]++
			}
			sum, err := Sum(x, axes, keep)
			require.NoError(t, err)
			mean, err := Mean(x, axes, keep)
			require.NoError(t, err)
			ws, wm := make([]float64, len(keys)), make([]float64, len(keys))
			for j, k := range keys { // keys appear in row-major output order
				ws[j], wm[j] = want[k], want[k]/float64(count[k])
			}
			requireClose(t, ws, outShape, sum)
			requireClose(t, wm, outShape, mean)
		})
	}
}

func TestReduceEdgeCases(t *testing.T) {
	s, err := Sum(Scalar[float32](3), nil, false)
	require.NoError(t, err)
	requireExact(t, []int{}, []float64{3}, s)
	s, err = Mean(Scalar[float32](3), []int{-1}, true)
	require.NoError(t, err)
	requireExact(t, []int{}, []float64{3}, s)
	z := mustT[float64](t, []int{0, 3})
	zs, err := Sum(z, []int{0}, false)
	require.NoError(t, err)
	requireExact(t, []int{3}, []float64{0, 0, 0}, zs)
	m, err := Mean(z, []int{0}, false)
	require.NoError(t, err)
	require.True(t, math.IsNaN(m.Data[0]))
	_, err = Sum(z, []int{2}, false)
	require.ErrorContains(t, err, "axis")
	_, err = Mean[float64](nil, nil, false)
	require.ErrorIs(t, err, ErrNilTensor)
	_, err = Sum(Scalar[float64](1), []int{1}, false)
	require.Error(t, err)
	// float32 sums are accumulated in float64.
	big := make([]float64, 1<<20)
	for i := range big {
		big[i] = 0.1
	}
	bs, err := Sum(mustT[float32](t, []int{len(big)}, big...), nil, false)
	require.NoError(t, err)
	require.InDelta(t, 0.1*float64(len(big)), float64(bs.Data[0]), 0.02)
}

func TestCast(t *testing.T) {
	x := mustT[float64](t, []int{2, 2}, 1, 1.0/3, 1e300, -0.5)
	y, err := Cast[float32](x)
	require.NoError(t, err)
	require.Equal(t, []int{2, 2}, y.Shape)
	require.Equal(t, []float32{1, float32(1.0 / 3), float32(math.Inf(1)), -0.5}, y.Data)
	back, err := Cast[float64](y)
	require.NoError(t, err)
	require.Equal(t, float64(float32(1.0/3)), back.Data[1])
	same, err := Cast[float64](x)
	require.NoError(t, err)
	require.Equal(t, x, same)
	same.Data[0] = 9
	require.Equal(t, 1.0, x.Data[0], "Cast must copy")
	_, err = Cast[float32, float64](nil)
	require.ErrorIs(t, err, ErrNilTensor)
}
