package tensor

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// refMatmul is a naive matmul following Paddle's documented rules.
func refMatmul(x []float64, xs []int, y []float64, ys []int, tx, ty bool) ([]float64, []int) {
	xVec, yVec := len(xs) == 1, len(ys) == 1
	if xVec {
		xs, tx = []int{1, xs[0]}, false
	}
	if yVec {
		ys, ty = []int{ys[0], 1}, false
	}
	xr, xc := xs[len(xs)-2], xs[len(xs)-1]
	yr, yc := ys[len(ys)-2], ys[len(ys)-1]
	xAt := func(base, i, k int) float64 {
		if tx {
			return x[base+k*xc+i]
		}
		return x[base+i*xc+k]
	}
	yAt := func(base, k, j int) float64 {
		if ty {
			return y[base+j*yc+k]
		}
		return y[base+k*yc+j]
	}
	m, kk := xr, xc
	if tx {
		m, kk = xc, xr
	}
	n := yc
	if ty {
		n = yr
	}
	xb, yb := xs[:len(xs)-2], ys[:len(ys)-2]
	batch, _ := BroadcastShape(xb, yb)
	nb := prod(batch)
	out := make([]float64, nb*m*n)
	for b := range nb {
		xo := refBroadcastIndex(b, batch, xb) * xr * xc
		yo := refBroadcastIndex(b, batch, yb) * yr * yc
		for i := range m {
			for j := range n {
				s := 0.0
				for k := range kk {
					s += xAt(xo, i, k) * yAt(yo, k, j)
				}
				out[(b*m+i)*n+j] = s
			}
		}
	}
	shape := append([]int{}, batch...)
	if !xVec {
		shape = append(shape, m)
	}
	if !yVec {
		shape = append(shape, n)
	}
	return out, shape
}

func testMatmulHand[T Float](t *testing.T) {
	a := mustT[T](t, []int{2, 3}, 1, 2, 3, 4, 5, 6)
	b := mustT[T](t, []int{3, 2}, 7, 8, 9, 10, 11, 12)
	v := mustT[T](t, []int{3}, 1, 2, 3)
	cases := []struct {
		name      string
		x, y      *Tensor[T]
		tx, ty    bool
		wantShape []int
		want      []float64
	}{
		{"2d", a, b, false, false, []int{2, 2}, []float64{58, 64, 139, 154}},
		{"2d-tt", b, a, true, true, []int{2, 2}, []float64{58, 139, 64, 154}},
		{"2d-tx", a, a, true, false, []int{3, 3}, []float64{17, 22, 27, 22, 29, 36, 27, 36, 45}},
		{"2d-ty", a, a, false, true, []int{2, 2}, []float64{14, 32, 32, 77}},
		{"dot", v, mustT[T](t, []int{3}, 4, 5, 6), false, false, []int{}, []float64{32}},
		{"dot-transpose-ignored", v, mustT[T](t, []int{3}, 4, 5, 6), true, true, []int{}, []float64{32}},
		{"vec-mat", v, b, false, false, []int{2}, []float64{58, 64}},
		{"vec-mat-tx-ignored", v, b, true, false, []int{2}, []float64{58, 64}},
		{"mat-vec", a, mustT[T](t, []int{3}, 1, 1, 1), false, false, []int{2}, []float64{6, 15}},
		{"mat-vec-ty-ignored", a, mustT[T](t, []int{3}, 1, 1, 1), false, true, []int{2}, []float64{6, 15}},
		{"vec-batched", mustT[T](t, []int{2}, 1, 1), mustT[T](t, []int{2, 2, 2}, 1, 2, 3, 4, 5, 6, 7, 8), false, false, []int{2, 2}, []float64{4, 6, 12, 14}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Matmul(tc.x, tc.y, tc.tx, tc.ty)
			require.NoError(t, err)
			requireExact(t, tc.wantShape, tc.want, got)
		})
	}
}

func TestMatmulHandComputed(t *testing.T) {
	t.Run("float32", testMatmulHand[float32])
	t.Run("float64", testMatmulHand[float64])
}

func testMatmulRandom[T Float](t *testing.T) {
	cases := []struct {
		xs, ys []int
		tx, ty bool
	}{
		{[]int{2, 1, 3, 4}, []int{5, 4, 2}, false, false},
		{[]int{2, 1, 4, 3}, []int{5, 2, 4}, true, true},
		{[]int{3, 5, 4}, []int{4, 6}, false, false},
		{[]int{7}, []int{3, 7, 2}, false, false},
		{[]int{3, 2, 7}, []int{7}, false, false},
		{[]int{1, 6, 5}, []int{4, 1, 5, 3}, false, false},
		{[]int{130, 300}, []int{300, 520}, false, false}, // crosses MC, KC and NC
		{[]int{300, 130}, []int{520, 300}, true, true},
		{[]int{1, 300}, []int{300, 9}, false, false},
		{[]int{9, 300}, []int{300, 1}, false, false},
		{[]int{3, 0}, []int{0, 4}, false, false},
		{[]int{0, 3}, []int{3, 4}, false, false},
	}
	for i, tc := range cases {
		t.Run(fmt.Sprint(tc.xs, tc.ys, tc.tx, tc.ty), func(t *testing.T) {
			x := randT[T](t, uint64(i), tc.xs...)
			y := randT[T](t, uint64(i)+50, tc.ys...)
			got, err := Matmul(x, y, tc.tx, tc.ty)
			require.NoError(t, err)
			want, shape := refMatmul(f64s(x.Data), tc.xs, f64s(y.Data), tc.ys, tc.tx, tc.ty)
			requireClose(t, want, shape, got)
		})
	}
}

func TestMatmulRandomAgainstNaive(t *testing.T) {
	t.Run("float32", testMatmulRandom[float32])
	t.Run("float64", testMatmulRandom[float64])
}

func TestMatmulErrors(t *testing.T) {
	a := randT[float32](t, 1, 2, 3)
	cases := []struct {
		name   string
		x, y   *Tensor[float32]
		tx, ty bool
		want   string
	}{
		{"k-mismatch", a, a, false, false, "contraction"},
		{"k-mismatch-vec", a, randT[float32](t, 2, 2), false, false, "contraction"},
		{"batch", randT[float32](t, 3, 2, 2, 3), randT[float32](t, 4, 3, 3, 2), false, false, "batch"},
		{"scalar", Scalar[float32](1), a, false, false, "rank >= 1"},
		{"nil", nil, a, false, false, "nil tensor"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Matmul(tc.x, tc.y, tc.tx, tc.ty)
			require.ErrorContains(t, err, tc.want)
		})
	}
}

// TestMatmulSharedYIsPerBatch: a product of batched x with one y (its batches run as the rows of one product) gives
// the bits of the product of each batch on its own, for sizes around the tile height and the k block, on every
// kernel path, and keeps the per-batch products where they take another route (transposed x, fewer than
// gemmFewRows rows, batched y).
func TestMatmulSharedYIsPerBatch(t *testing.T) {
	tests := []struct {
		name   string
		xs, ys []int
		tx, ty bool
	}{
		{"linear layer", []int{3, 7, 40}, []int{40, 33}, false, false},
		{"NHWC pointwise", []int{1, 5, 9, 16}, []int{16, 48}, false, false},
		{"k past the k block", []int{2, 13, 600}, []int{600, 20}, false, false},
		{"y transposed", []int{4, 12, 31}, []int{19, 31}, false, true},
		{"y with unit batch dims", []int{2, 3, 8, 5}, []int{1, 1, 5, 7}, false, false},
		{"few rows", []int{6, 3, 50}, []int{50, 40}, false, false},
		{"x transposed", []int{3, 50, 6}, []int{50, 9}, true, false},
		{"batched y", []int{3, 8, 5}, []int{3, 5, 4}, false, false},
	}
	withKernels(t, func(t *testing.T) {
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				x := randT[float32](t, 11, tc.xs...)
				y := randT[float32](t, 12, tc.ys...)
				got, err := Matmul(x, y, tc.tx, tc.ty)
				require.NoError(t, err)
				r, c := tc.xs[len(tc.xs)-2], tc.xs[len(tc.xs)-1]
				yr, yc := tc.ys[len(tc.ys)-2], tc.ys[len(tc.ys)-1]
				ym := &Tensor[float32]{Shape: []int{yr, yc}}
				per := len(got.Data) / (len(x.Data) / (r * c))
				for b := range len(x.Data) / (r * c) {
					xb := &Tensor[float32]{Shape: []int{r, c}, Data: x.Data[b*r*c : (b+1)*r*c]}
					ym.Data = y.Data[(b*yr*yc)%len(y.Data):][:yr*yc]
					want, err := Matmul(xb, ym, tc.tx, tc.ty)
					require.NoError(t, err)
					require.Equal(t, want.Data, got.Data[b*per:(b+1)*per], "batch %d", b)
				}
			})
		}
	})
}

// BenchmarkMatmulSharedY measures ConvNeXt's pointwise layer, [56, 56, 128]·[128, 512] in float32, as one product
// (path=shared, what Matmul does) and as one product per batch (path=perbatch, what it did): benchstat -col /path.
func BenchmarkMatmulSharedY(b *testing.B) {
	x := randT[float32](b, 1, 56, 56, 128)
	y := randT[float32](b, 2, 128, 512)
	b.Run("path=perbatch", func(b *testing.B) {
		for b.Loop() {
			for i := range 56 {
				xb := &Tensor[float32]{Shape: []int{56, 128}, Data: x.Data[i*56*128 : (i+1)*56*128]}
				if _, err := Matmul(xb, y, false, false); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("path=shared", func(b *testing.B) {
		for b.Loop() {
			if _, err := Matmul(x, y, false, false); err != nil {
				b.Fatal(err)
			}
		}
	})
}
