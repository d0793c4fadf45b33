package tensor

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBroadcastShape(t *testing.T) {
	cases := []struct {
		a, b, want []int
		err        bool
	}{
		{[]int{2, 3}, []int{2, 3}, []int{2, 3}, false},
		{[]int{2, 3}, []int{3}, []int{2, 3}, false},
		{[]int{2, 1}, []int{1, 3}, []int{2, 3}, false},
		{[]int{8, 1, 6, 1}, []int{7, 1, 5}, []int{8, 7, 6, 5}, false},
		{[]int{}, []int{4, 5}, []int{4, 5}, false},
		{[]int{}, []int{}, []int{}, false},
		{[]int{0, 3}, []int{1, 3}, []int{0, 3}, false},
		{[]int{5, 1}, []int{0}, []int{5, 0}, false},
		{[]int{2, 3}, []int{2}, nil, true},
		{[]int{4, 3}, []int{3, 3}, nil, true},
		{[]int{0}, []int{2}, nil, true},
		{[]int{-1}, []int{2}, nil, true},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.a, tc.b), func(t *testing.T) {
			got, err := BroadcastShape(tc.a, tc.b)
			if tc.err {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			rev, err := BroadcastShape(tc.b, tc.a)
			require.NoError(t, err)
			require.Equal(t, tc.want, rev, "broadcast must be symmetric")
		})
	}
}

func testElementwiseHand[T Float](t *testing.T) {
	x := mustT[T](t, []int{2, 3}, 1, 2, 3, 4, 5, 6)
	row := mustT[T](t, []int{3}, 10, 20, 30)
	col := mustT[T](t, []int{2, 1}, 2, 4)
	s := Scalar[T](2)
	type fn func(a, b *Tensor[T]) (*Tensor[T], error)
	cases := []struct {
		name      string
		f         fn
		a, b      *Tensor[T]
		wantShape []int
		want      []float64
	}{
		{"add-row", Add[T], x, row, []int{2, 3}, []float64{11, 22, 33, 14, 25, 36}},
		{"add-row-first", Add[T], row, x, []int{2, 3}, []float64{11, 22, 33, 14, 25, 36}},
		{"subtract-col", Subtract[T], x, col, []int{2, 3}, []float64{-1, 0, 1, 0, 1, 2}},
		{"subtract-from-col", Subtract[T], col, x, []int{2, 3}, []float64{1, 0, -1, 0, -1, -2}},
		{"multiply-scalar", Multiply[T], x, s, []int{2, 3}, []float64{2, 4, 6, 8, 10, 12}},
		{"divide-outer", Divide[T], col, row, []int{2, 3}, []float64{0.2, 0.1, 2.0 / 30, 0.4, 0.2, 4.0 / 30}},
		{"divide-same", Divide[T], x, x, []int{2, 3}, []float64{1, 1, 1, 1, 1, 1}},
		{"scalar-scalar", Add[T], s, s, []int{}, []float64{4}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.f(tc.a, tc.b)
			require.NoError(t, err)
			requireClose(t, tc.want, tc.wantShape, got)
		})
	}
	_, err := Add(x, mustT[T](t, []int{2}, 1, 2))
	require.ErrorContains(t, err, "incompatible")
	_, err = Multiply(nil, x)
	require.ErrorIs(t, err, ErrNilTensor)
	got, err := Divide(mustT[T](t, []int{3}, 1, -1, 0), Scalar[T](0))
	require.NoError(t, err)
	require.True(t, math.IsInf(float64(got.Data[0]), 1))
	require.True(t, math.IsInf(float64(got.Data[1]), -1))
	require.True(t, math.IsNaN(float64(got.Data[2])))
}

func TestElementwiseHandComputed(t *testing.T) {
	t.Run("float32", testElementwiseHand[float32])
	t.Run("float64", testElementwiseHand[float64])
}

// refBroadcastIndex maps a flat output index to the flat index of an input
// of shape in, right-aligned against out, by decoding the multi-index.
func refBroadcastIndex(flat int, out, in []int) int {
	idx := make([]int, len(out))
	for d := len(out) - 1; d >= 0; d-- {
		idx[d] = flat % out[d]
		flat /= out[d]
	}
	off := len(out) - len(in)
	res := 0
	for d := range in {
		v := idx[off+d]
		if in[d] == 1 {
			v = 0
		}
		res = res*in[d] + v
	}
	return res
}

func TestElementwiseRandomBroadcast(t *testing.T) {
	r := NewRand(3)
	ops := []struct {
		name string
		f    func(a, b *Tensor[float64]) (*Tensor[float64], error)
		ref  func(a, b float64) float64
	}{
		{"add", Add[float64], func(a, b float64) float64 { return a + b }},
		{"subtract", Subtract[float64], func(a, b float64) float64 { return a - b }},
		{"multiply", Multiply[float64], func(a, b float64) float64 { return a * b }},
		{"divide", Divide[float64], func(a, b float64) float64 { return a / b }},
	}
	for i := range 60 {
		rank := 1 + r.IntN(5)
		out := make([]int, rank)
		for d := range out {
			out[d] = 1 + r.IntN(4)
		}
		mk := func() []int {
			drop := r.IntN(rank + 1)
			s := append([]int{}, out[drop:]...)
			for d := range s {
				if r.IntN(3) == 0 {
					s[d] = 1
				}
			}
			return s
		}
		as, bs := mk(), mk()
		want, err := BroadcastShape(as, bs)
		require.NoError(t, err)
		a := randT[float64](t, uint64(i), as...)
		b := randT[float64](t, uint64(i)+99, bs...)
		for _, op := range ops {
			got, err := op.f(a, b)
			require.NoError(t, err)
			ref := make([]float64, prod(want))
			for j := range ref {
				ref[j] = op.ref(a.Data[refBroadcastIndex(j, want, as)], b.Data[refBroadcastIndex(j, want, bs)])
			}
			requireExact(t, want, ref, got, op.name, as, bs)
		}
	}
}
