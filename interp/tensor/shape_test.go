package tensor

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestReshapePaddleSemantics(t *testing.T) {
	x := mustT[float32](t, []int{2, 3, 4}, iota64(24)...)
	cases := []struct {
		target, want []int
		err          string
	}{
		{[]int{6, 4}, []int{6, 4}, ""},
		{[]int{-1}, []int{24}, ""},
		{[]int{0, -1}, []int{2, 12}, ""},
		{[]int{0, 0, 2, 2}, []int{2, 3, 2, 2}, ""},
		{[]int{-1, 0, 4}, []int{2, 3, 4}, ""},
		{[]int{4, 0, -1}, []int{4, 3, 2}, ""},
		{[]int{1, 1, 24}, []int{1, 1, 24}, ""},
		{[]int{-1, -1}, nil, "more than one -1"},
		{[]int{5, -1}, nil, "cannot reshape"},
		{[]int{7}, nil, "cannot reshape"},
		{[]int{0, 0, 0, 0}, nil, "has 0 at index 3"},
		{[]int{-2, 12}, nil, "invalid dimension"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.target), func(t *testing.T) {
			got, err := Reshape(x, tc.target)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			requireExact(t, tc.want, iota64(24), got)
			got.Data[0] = 100
			require.Equal(t, float32(0), x.Data[0], "Reshape must copy")
		})
	}
	s, err := Reshape(Scalar[float64](3), []int{1, 1})
	require.NoError(t, err)
	require.Equal(t, []int{1, 1}, s.Shape)
	s, err = Reshape(mustT[float64](t, []int{1}, 3), []int{})
	require.NoError(t, err)
	require.Equal(t, []int{}, s.Shape)
	_, err = Reshape(mustT[float64](t, []int{3, 0}), []int{-1, 0})
	require.ErrorContains(t, err, "cannot infer")
	_, err = Reshape[float64](nil, []int{1})
	require.ErrorIs(t, err, ErrNilTensor)
}

// refTranspose decodes every output index explicitly.
func refTranspose(d []float64, shape, perm []int) ([]float64, []int) {
	outShape := make([]int, len(perm))
	for i, p := range perm {
		outShape[i] = shape[p]
	}
	out := make([]float64, len(d))
	inSt := make([]int, len(shape))
	s := 1
	for i := len(shape) - 1; i >= 0; i-- {
		inSt[i] = s
		s *= shape[i]
	}
	for o := range out {
		rem, src := o, 0
		for i := len(outShape) - 1; i >= 0; i-- {
			src += (rem % outShape[i]) * inSt[perm[i]]
			rem /= outShape[i]
		}
		out[o] = d[src]
	}
	return out, outShape
}

func TestTranspose(t *testing.T) {
	x := mustT[float64](t, []int{2, 3}, 1, 2, 3, 4, 5, 6)
	got, err := Transpose(x, []int{1, 0})
	require.NoError(t, err)
	requireExact(t, []int{3, 2}, []float64{1, 4, 2, 5, 3, 6}, got)
	got, err = Transpose(x, []int{-1, -2})
	require.NoError(t, err)
	requireExact(t, []int{3, 2}, []float64{1, 4, 2, 5, 3, 6}, got)

	r := NewRand(5)
	for i := range 40 {
		rank := 1 + r.IntN(5)
		shape := make([]int, rank)
		for d := range shape {
			shape[d] = 1 + r.IntN(4)
		}
		perm := r.Perm(rank)
		x := randT[float32](t, uint64(i), shape...)
		got, err := Transpose(x, perm)
		require.NoError(t, err)
		want, wantShape := refTranspose(f64s(x.Data), shape, perm)
		requireExact(t, wantShape, want, got, shape, perm)
	}
	s, err := Transpose(Scalar[float32](2), []int{})
	require.NoError(t, err)
	requireExact(t, []int{}, []float64{2}, s)
	z, err := Transpose(mustT[float32](t, []int{2, 0}), []int{1, 0})
	require.NoError(t, err)
	require.Equal(t, []int{0, 2}, z.Shape)

	for _, perm := range [][]int{{0}, {0, 0}, {0, 2}, {1, 0, 2}} {
		_, err := Transpose(x, perm)
		require.Error(t, err, perm)
	}
}

func TestFlatten(t *testing.T) {
	x := mustT[float32](t, []int{2, 3, 4, 5}, make([]float64, 120)...)
	cases := []struct {
		start, stop int
		want        []int
		err         bool
	}{
		{1, 3, []int{2, 60}, false},
		{0, -1, []int{120}, false},
		{1, 2, []int{2, 12, 5}, false},
		{2, 2, []int{2, 3, 4, 5}, false},
		{-3, -2, []int{2, 12, 5}, false},
		{2, 1, nil, true},
		{0, 4, nil, true},
		{-5, 0, nil, true},
	}
	for _, tc := range cases {
		got, err := Flatten(x, tc.start, tc.stop)
		if tc.err {
			require.Error(t, err, tc)
			continue
		}
		require.NoError(t, err, tc)
		require.Equal(t, tc.want, got.Shape, tc)
		require.Len(t, got.Data, 120)
	}
	s, err := Flatten(Scalar[float32](7), 0, -1)
	require.NoError(t, err)
	requireExact(t, []int{1}, []float64{7}, s)
	_, err = Flatten(Scalar[float32](7), 1, 1)
	require.Error(t, err)
}

func TestSqueezeUnsqueeze(t *testing.T) {
	x := mustT[float64](t, []int{1, 3, 1, 2}, 1, 2, 3, 4, 5, 6)
	squeezes := []struct {
		axes, want []int
		err        bool
	}{
		{nil, []int{3, 2}, false},
		{[]int{0}, []int{3, 1, 2}, false},
		{[]int{-2}, []int{1, 3, 2}, false},
		{[]int{1}, []int{1, 3, 1, 2}, false}, // size 3: silently kept, as in Paddle
		{[]int{0, 2, 0}, []int{3, 2}, false},
		{[]int{4}, nil, true},
		{[]int{-5}, nil, true},
	}
	for _, tc := range squeezes {
		got, err := Squeeze(x, tc.axes)
		if tc.err {
			require.Error(t, err, tc.axes)
			continue
		}
		require.NoError(t, err, tc.axes)
		requireExact(t, tc.want, []float64{1, 2, 3, 4, 5, 6}, got, tc.axes)
	}
	s, err := Squeeze(Scalar[float64](1), []int{-1})
	require.NoError(t, err)
	require.Equal(t, []int{}, s.Shape)

	y := mustT[float64](t, []int{3, 2}, 1, 2, 3, 4, 5, 6)
	unsqueezes := []struct {
		axes, want []int
		err        bool
	}{
		{[]int{0}, []int{1, 3, 2}, false},
		{[]int{-1}, []int{3, 2, 1}, false},
		{[]int{0, 2}, []int{1, 3, 1, 2}, false},
		{[]int{0, -1}, []int{1, 3, 2, 1}, false}, // -1 is relative to rank 3 after the first insert
		{[]int{2, 0}, []int{1, 3, 2, 1}, false},
		{[]int{1, 1}, []int{3, 1, 1, 2}, false},
		{[]int{3}, nil, true},
		{[]int{-4}, nil, true},
	}
	for _, tc := range unsqueezes {
		got, err := Unsqueeze(y, tc.axes)
		if tc.err {
			require.Error(t, err, tc.axes)
			continue
		}
		require.NoError(t, err, tc.axes)
		requireExact(t, tc.want, []float64{1, 2, 3, 4, 5, 6}, got, tc.axes)
	}
	u, err := Unsqueeze(Scalar[float64](1), []int{0, -1})
	require.NoError(t, err)
	require.Equal(t, []int{1, 1}, u.Shape)
}

func TestConcatSplit(t *testing.T) {
	a := mustT[float64](t, []int{2, 2}, 1, 2, 3, 4)
	b := mustT[float64](t, []int{2, 1}, 5, 6)
	c := mustT[float64](t, []int{1, 2}, 7, 8)
	got, err := Concat(1, a, b)
	require.NoError(t, err)
	requireExact(t, []int{2, 3}, []float64{1, 2, 5, 3, 4, 6}, got)
	got, err = Concat(-2, a, c, a)
	require.NoError(t, err)
	requireExact(t, []int{5, 2}, []float64{1, 2, 3, 4, 7, 8, 1, 2, 3, 4}, got)
	_, err = Concat(0, a, b)
	require.ErrorContains(t, err, "incompatible")
	_, err = Concat(2, a, b)
	require.ErrorContains(t, err, "axis")
	_, err = Concat[float64](0)
	require.ErrorContains(t, err, "no inputs")
	_, err = Concat(0, Scalar[float64](1), Scalar[float64](2))
	require.Error(t, err)
	_, err = Concat(0, a, mustT[float64](t, []int{4}, 1, 2, 3, 4))
	require.ErrorContains(t, err, "rank")

	x := mustT[float64](t, []int{2, 5}, iota64(10)...)
	parts, err := Split(x, []int{2, -1, 1}, 1)
	require.NoError(t, err)
	require.Len(t, parts, 3)
	requireExact(t, []int{2, 2}, []float64{0, 1, 5, 6}, parts[0])
	requireExact(t, []int{2, 2}, []float64{2, 3, 7, 8}, parts[1])
	requireExact(t, []int{2, 1}, []float64{4, 9}, parts[2])
	back, err := Concat(1, parts...)
	require.NoError(t, err)
	require.Equal(t, x, back)

	parts, err = Split(x, []int{1, 1}, -2)
	require.NoError(t, err)
	requireExact(t, []int{1, 5}, []float64{5, 6, 7, 8, 9}, parts[1])
	parts, err = Split(x, []int{0, 5}, 1)
	require.NoError(t, err)
	require.Equal(t, []int{2, 0}, parts[0].Shape)

	for _, secs := range [][]int{{2, 2}, {-1, -1}, {6, -1}, {-2, 7}, {}} {
		_, err := Split(x, secs, 1)
		require.Error(t, err, secs)
	}
	_, err = Split(x, []int{5}, 2)
	require.Error(t, err)

	parts, err = SplitNum(x, 5, 1)
	require.NoError(t, err)
	require.Len(t, parts, 5)
	requireExact(t, []int{2, 1}, []float64{3, 8}, parts[3])
	_, err = SplitNum(x, 3, 1)
	require.ErrorContains(t, err, "divisible")
	_, err = SplitNum(x, 0, 1)
	require.ErrorContains(t, err, "num must be")
	_, err = SplitNum(Scalar[float64](1), 1, 0)
	require.Error(t, err)
}
