package tensor

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func testBatchNormHand[T Float](t *testing.T) {
	mean := mustT[T](t, []int{2}, 1, 2)
	variance := mustT[T](t, []int{2}, 4, 16)
	scale := mustT[T](t, []int{2}, 2, 4)
	bias := mustT[T](t, []int{2}, 1, -1)
	cases := []struct {
		name        string
		x           *Tensor[T]
		scale, bias *Tensor[T]
		format      string
		want        []float64
	}{
		{"nchw", mustT[T](t, []int{1, 2, 1, 2}, 1, 2, 3, 4), scale, bias, "NCHW", []float64{1, 2, 0, 1}},
		{"nhwc", mustT[T](t, []int{1, 1, 2, 2}, 1, 3, 2, 4), scale, bias, "NHWC", []float64{1, 0, 2, 1}},
		{"rank2-nchw-uses-axis1", mustT[T](t, []int{2, 2}, 1, 3, 2, 4), scale, bias, "NCHW", []float64{1, 0, 2, 1}},
		{"no-scale-bias", mustT[T](t, []int{1, 2, 1, 2}, 1, 3, 2, 8), nil, nil, "NCHW", []float64{0, 1, 0, 1.5}},
		{"ncdhw", mustT[T](t, []int{1, 2, 1, 1, 2}, 1, 2, 3, 4), scale, bias, "NCDHW", []float64{1, 2, 0, 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := BatchNormInference(tc.x, mean, variance, tc.scale, tc.bias, 0, tc.format)
			require.NoError(t, err)
			requireExact(t, tc.x.Shape, tc.want, got)
		})
	}
}

func TestBatchNormHandComputed(t *testing.T) {
	t.Run("float32", testBatchNormHand[float32])
	t.Run("float64", testBatchNormHand[float64])
}

// refBatchNorm evaluates the textbook (unfolded) formula with an explicit
// channel index function.
func refBatchNorm(x []float64, channel func(i int) int, mean, variance, scale, bias []float64, eps float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		c := channel(i)
		out[i] = (v-mean[c])/math.Sqrt(variance[c]+eps)*scale[c] + bias[c]
	}
	return out
}

func testBatchNormRandom[T Float](t *testing.T) {
	for i, shape := range [][]int{{2, 3, 4, 5}, {1, 7, 1, 1}, {3, 5}, {2, 4, 3}, {1, 2, 3, 2, 4}} {
		for _, nhwc := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v-nhwc=%v", shape, nhwc), func(t *testing.T) {
				r := len(shape)
				c := shape[1]
				format := "NCHW"
				if nhwc && r > 2 {
					c = shape[r-1]
					format = "NHWC"
				}
				x := randT[T](t, uint64(i), shape...)
				mean := randT[T](t, uint64(i)+1, c)
				variance := randT[T](t, uint64(i)+2, c)
				for j := range variance.Data {
					variance.Data[j] = variance.Data[j]*variance.Data[j] + 0.05
				}
				scale := randT[T](t, uint64(i)+3, c)
				bias := randT[T](t, uint64(i)+4, c)
				got, err := BatchNormInference(x, mean, variance, scale, bias, 1e-5, format)
				require.NoError(t, err)
				inner := prod(shape[2:])
				channel := func(j int) int { return (j / inner) % c }
				if format == "NHWC" || r == 2 {
					channel = func(j int) int { return j % c }
				}
				want := refBatchNorm(f64s(x.Data), channel, f64s(mean.Data), f64s(variance.Data), f64s(scale.Data), f64s(bias.Data), 1e-5)
				requireClose(t, want, shape, got)
			})
		}
	}
}

func TestBatchNormRandomAgainstFormula(t *testing.T) {
	t.Run("float32", testBatchNormRandom[float32])
	t.Run("float64", testBatchNormRandom[float64])
}

func TestBatchNormErrors(t *testing.T) {
	x := randT[float32](t, 1, 2, 3, 4, 4)
	c := randT[float32](t, 2, 3)
	bad := randT[float32](t, 3, 4)
	cases := []struct {
		name                           string
		x, mean, variance, scale, bias *Tensor[float32]
		format                         string
		want                           string
	}{
		{"nil-x", nil, c, c, c, c, "NCHW", "nil tensor"},
		{"nil-mean", x, nil, c, c, c, "NCHW", "nil tensor"},
		{"nil-variance", x, c, nil, c, c, "NCHW", "nil tensor"},
		{"mean-length", x, bad, c, c, c, "NCHW", "mean"},
		{"scale-length", x, c, c, bad, c, "NCHW", "scale"},
		{"bias-length-nhwc", x, c, c, c, c, "NHWC", "mean"},
		{"rank1", randT[float32](t, 1, 3), c, c, c, c, "NCHW", "rank 2 to 5"},
		{"rank6", randT[float32](t, 1, 1, 3, 1, 1, 1, 1), c, c, c, c, "NCHW", "rank 2 to 5"},
		{"format", x, c, c, c, c, "HWCN", "data_format"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := BatchNormInference(tc.x, tc.mean, tc.variance, tc.scale, tc.bias, 1e-5, tc.format)
			require.ErrorContains(t, err, tc.want)
		})
	}
}

// foldBatchNorm returns conv weights and bias with an inference batch norm
// folded in: w' = w * s, b' = bias - mean*s with s = scale/sqrt(var+eps),
// computed with this package's own element-wise kernels.
func foldBatchNorm[T Float](t *testing.T, w, mean, variance, scale, bias *Tensor[T], eps float64) (*Tensor[T], *Tensor[T]) {
	t.Helper()
	ve, err := Scale(variance, 1, eps, true)
	require.NoError(t, err)
	std, err := Sqrt(ve)
	require.NoError(t, err)
	s, err := Divide(scale, std)
	require.NoError(t, err)
	s4, err := Reshape(s, []int{-1, 1, 1, 1})
	require.NoError(t, err)
	wf, err := Multiply(w, s4)
	require.NoError(t, err)
	ms, err := Multiply(mean, s)
	require.NoError(t, err)
	bf, err := Subtract(bias, ms)
	require.NoError(t, err)
	return wf, bf
}

// testConvBNFold is the property behind conv+bn fusion: batch_norm(conv(x,
// w)) == conv(x, w') + b' (optionally followed by the same activation).
func testConvBNFold[T Float](t *testing.T, check func(t *testing.T, want, got *Tensor[T])) {
	configs := []struct {
		p           ConvParams
		n, cin, h   int
		cout, k     int
		activation  string
		channelLast bool
	}{
		{ConvParams{Paddings: []int{1, 1}}, 2, 8, 9, 16, 3, "identity", false},
		{ConvParams{Paddings: []int{1, 1}, DataFormat: "NHWC"}, 2, 8, 9, 16, 3, "identity", true},
		{ConvParams{Strides: []int{2, 2}, PaddingAlgorithm: "SAME", Groups: 2}, 1, 6, 11, 4, 3, "relu", false},
		{ConvParams{Strides: []int{2, 2}, Paddings: []int{0, 1, 2, 1}, DataFormat: "NHWC", Groups: 4}, 1, 4, 10, 8, 3, "relu", true},
		{ConvParams{Dilations: []int{2, 2}, Paddings: []int{2, 2}, DataFormat: "NHWC", Groups: 5}, 1, 5, 8, 5, 3, "hardswish", true},
		{ConvParams{}, 1, 64, 6, 32, 1, "identity", false},
	}
	for i, cfg := range configs {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			seed := uint64(100 * i)
			inShape := []int{cfg.n, cfg.cin, cfg.h, cfg.h}
			format := "NCHW"
			if cfg.channelLast {
				inShape = []int{cfg.n, cfg.h, cfg.h, cfg.cin}
				format = "NHWC"
			}
			x := randT[T](t, seed, inShape...)
			w := randT[T](t, seed+1, cfg.cout, cfg.cin/max(cfg.p.Groups, 1), cfg.k, cfg.k)
			mean := randT[T](t, seed+2, cfg.cout)
			variance := randT[T](t, seed+3, cfg.cout)
			for j := range variance.Data {
				variance.Data[j] = variance.Data[j]*variance.Data[j] + 0.1
			}
			scale := randT[T](t, seed+4, cfg.cout)
			bias := randT[T](t, seed+5, cfg.cout)
			const eps = 1e-5

			y, err := Conv2D(x, w, cfg.p)
			require.NoError(t, err)
			want, err := BatchNormInference(y, mean, variance, scale, bias, eps, format)
			require.NoError(t, err)
			want, err = ApplyActivation(want, cfg.activation, 0)
			require.NoError(t, err)

			wf, bf := foldBatchNorm(t, w, mean, variance, scale, bias, eps)
			got, err := FusedConv2DAddAct(x, wf, bf, nil, cfg.p, cfg.activation, 0)
			require.NoError(t, err)
			check(t, want, got)
		})
	}
}

func TestConvBatchNormFoldProperty(t *testing.T) {
	t.Run("float64/elementwise-relative", func(t *testing.T) {
		testConvBNFold(t, func(t *testing.T, want, got *Tensor[float64]) {
			d, at, err := MaxRelDiff(want, got)
			require.NoError(t, err)
			require.Less(t, d, 1e-5, "max relative diff at %d: want %v got %v", at, want.Data[at], got.Data[at])
			t.Logf("max element-wise relative diff %.3g", d)
		})
	})
	// In float32 an element that cancels to nearly zero carries absolute,
	// not relative, rounding error; compare relative to the output's scale.
	t.Run("float32/scale-relative", func(t *testing.T) {
		testConvBNFold(t, func(t *testing.T, want, got *Tensor[float32]) {
			d, at, err := MaxAbsDiff(want, got)
			require.NoError(t, err)
			ref := 0.0
			for _, v := range want.Data {
				ref = max(ref, math.Abs(float64(v)))
			}
			require.Less(t, d/ref, 1e-5, "max abs diff %g at %d (scale %g)", d, at, ref)
			rel, _, err := MaxRelDiff(want, got)
			require.NoError(t, err)
			t.Logf("max abs diff / max |y| = %.3g (element-wise relative %.3g)", d/ref, rel)
		})
	})
}
