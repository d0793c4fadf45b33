package tensor

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestConstructors(t *testing.T) {
	x, err := New[float32](2, 3)
	require.NoError(t, err)
	require.Equal(t, []int{2, 3}, x.Shape)
	require.Equal(t, make([]float32, 6), x.Data)
	require.Equal(t, 6, x.Numel())
	require.Equal(t, 2, x.Rank())

	s, err := New[float64]()
	require.NoError(t, err)
	require.Equal(t, []int{}, s.Shape)
	require.Equal(t, []float64{0}, s.Data)
	require.Equal(t, 1, s.Numel())
	require.Equal(t, Scalar(0.0), s)

	z, err := New[float64](3, 0)
	require.NoError(t, err)
	require.Equal(t, 0, z.Numel())
	require.Empty(t, z.Data)

	_, err = New[float64](2, -1)
	require.ErrorContains(t, err, "negative")
	_, err = New[float64](1<<40, 1<<40)
	require.ErrorContains(t, err, "too many")

	f, err := Full(float32(2.5), 2, 2)
	require.NoError(t, err)
	require.Equal(t, []float32{2.5, 2.5, 2.5, 2.5}, f.Data)

	shape := []int{2, 2}
	data := []float64{1, 2, 3, 4}
	fs, err := FromSlice(shape, data)
	require.NoError(t, err)
	shape[0], data[0] = 9, 9
	require.Equal(t, []int{2, 2}, fs.Shape, "FromSlice must copy the shape")
	require.Equal(t, 1.0, fs.Data[0], "FromSlice must copy the data")
	_, err = FromSlice([]int{2, 2}, []float64{1})
	require.ErrorContains(t, err, "needs 4 elements")

	require.Equal(t, "Tensor[float32][2 3]", x.String())
	var nilT *Tensor[float32]
	require.Equal(t, "Tensor(nil)", nilT.String())
	require.Nil(t, nilT.Clone())
}

func TestAtSetOffset(t *testing.T) {
	x := mustT[float64](t, []int{2, 3}, 0, 1, 2, 3, 4, 5)
	v, err := x.At(1, 2)
	require.NoError(t, err)
	require.Equal(t, 5.0, v)
	off, err := x.Offset(1, 0)
	require.NoError(t, err)
	require.Equal(t, 3, off)
	require.NoError(t, x.Set(42, 0, 1))
	require.Equal(t, 42.0, x.Data[1])

	for _, idx := range [][]int{{2, 0}, {0, 3}, {-1, 0}, {0}, {0, 0, 0}} {
		_, err := x.At(idx...)
		require.Error(t, err, idx)
		require.Error(t, x.Set(1, idx...), idx)
	}
	s := Scalar[float32](7)
	v32, err := s.At()
	require.NoError(t, err)
	require.Equal(t, float32(7), v32)
	broken := &Tensor[float32]{Shape: []int{2}, Data: []float32{1}}
	_, err = broken.At(1)
	require.Error(t, err, "index beyond short Data must not panic")
}

func TestReshapeViewAndClone(t *testing.T) {
	x := mustT[float32](t, []int{2, 3}, 0, 1, 2, 3, 4, 5)
	v, err := x.Reshape(3, -1)
	require.NoError(t, err)
	require.Equal(t, []int{3, 2}, v.Shape)
	v.Data[0] = 10
	require.Equal(t, float32(10), x.Data[0], "Reshape method is a view")
	_, err = x.Reshape(4, -1)
	require.Error(t, err)
	_, err = x.Reshape(0, 6)
	require.Error(t, err, "0 is a literal zero for the view, not a copy")
	_, err = x.Reshape(-1, -1)
	require.Error(t, err)
	var nilT *Tensor[float32]
	_, err = nilT.Reshape(1)
	require.ErrorIs(t, err, ErrNilTensor)

	c := x.Clone()
	c.Data[1] = 99
	c.Shape[0] = 7
	require.Equal(t, float32(1), x.Data[1])
	require.Equal(t, []int{2, 3}, x.Shape)
}

func TestRandomDeterministic(t *testing.T) {
	a := randT[float32](t, 5, 100)
	b := randT[float32](t, 5, 100)
	c := randT[float32](t, 6, 100)
	require.Equal(t, a, b)
	require.NotEqual(t, a, c)

	n1, err := RandNormal[float64](5, 1000)
	require.NoError(t, err)
	n2, err := RandNormal[float64](5, 1000)
	require.NoError(t, err)
	require.Equal(t, n1, n2)

	// Filling consumes one shared stream in element order.
	r := NewRand(8)
	x, _ := New[float64](3)
	y, _ := New[float64](3)
	x.FillUniform(r)
	y.FillUniform(r)
	both, _ := New[float64](6)
	both.FillUniform(NewRand(8))
	require.Equal(t, both.Data, append(x.Data, y.Data...))
}

func TestRandomDistributions(t *testing.T) {
	u := randT[float32](t, 1, 100000)
	umin, umax, usum := math.Inf(1), math.Inf(-1), 0.0
	for _, v := range u.Data {
		f := float64(v)
		umin, umax, usum = min(umin, f), max(umax, f), usum+f
	}
	require.GreaterOrEqual(t, umin, -1.0)
	require.Less(t, umax, 1.0)
	require.Less(t, umin, -0.999)
	require.Greater(t, umax, 0.999)
	require.InDelta(t, 0, usum/float64(len(u.Data)), 0.01)

	n, err := RandNormal[float64](2, 100000)
	require.NoError(t, err)
	mean, sq := 0.0, 0.0
	for _, v := range n.Data {
		mean += v
		sq += v * v
	}
	mean /= float64(len(n.Data))
	std := math.Sqrt(sq/float64(len(n.Data)) - mean*mean)
	require.InDelta(t, 0, mean, 0.02)
	require.InDelta(t, 1, std, 0.02)

	_, err = RandUniform[float32](1, -2)
	require.Error(t, err)
	_, err = RandNormal[float32](1, -2)
	require.Error(t, err)
}

func TestMaxDiffs(t *testing.T) {
	a := mustT[float64](t, []int{2, 2}, 1, 2, 0, 100)
	b := mustT[float64](t, []int{2, 2}, 1, 2.5, 0, 101)
	d, at, err := MaxAbsDiff(a, b)
	require.NoError(t, err)
	require.Equal(t, 1.0, d)
	require.Equal(t, 3, at)
	d, at, err = MaxRelDiff(a, b)
	require.NoError(t, err)
	require.InDelta(t, 0.2, d, 1e-15) // |2-2.5|/2.5
	require.Equal(t, 1, at)

	// Two zeros compare equal; a zero against a tiny value is fully relative.
	z := mustT[float64](t, []int{2}, 0, 0)
	e := mustT[float64](t, []int{2}, 0, 1e-40)
	d, at, err = MaxRelDiff(z, e)
	require.NoError(t, err)
	require.InDelta(t, 1e-10, d, 1e-20) // 1e-40 / RelDiffFloor
	require.Equal(t, 1, at)
	d, _, err = MaxRelDiff(z, z)
	require.NoError(t, err)
	require.Equal(t, 0.0, d)

	nan, inf := math.NaN(), math.Inf(1)
	p := mustT[float64](t, []int{4}, nan, inf, -inf, 1)
	q := mustT[float64](t, []int{4}, nan, inf, -inf, 1)
	d, _, err = MaxRelDiff(p, q)
	require.NoError(t, err)
	require.Equal(t, 0.0, d, "equal NaNs and infinities compare equal")
	q.Data[3] = nan
	d, at, err = MaxAbsDiff(p, q)
	require.NoError(t, err)
	require.True(t, math.IsInf(d, 1))
	require.Equal(t, 3, at)
	q.Data[3], q.Data[1] = 1, -inf
	d, at, err = MaxRelDiff(p, q)
	require.NoError(t, err)
	require.True(t, math.IsInf(d, 1))
	require.Equal(t, 1, at)

	_, at, err = MaxAbsDiff(mustT[float32](t, []int{0}), mustT[float32](t, []int{0}))
	require.NoError(t, err)
	require.Equal(t, -1, at)
	_, _, err = MaxAbsDiff(a, mustT[float64](t, []int{4}, 1, 2, 3, 4))
	require.ErrorContains(t, err, "shape mismatch")
	_, _, err = MaxRelDiff(nil, a)
	require.ErrorIs(t, err, ErrNilTensor)
}
