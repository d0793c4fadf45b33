package tensor

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

var fusedActivations = []string{"identity", "relu", "relu6", "sigmoid", "swish", "tanh", "leaky_relu", "hardswish"}

// testFusedMatchesComposition compares the fused op with conv2d followed by
// separate bias add, residual add and activation kernels.
func testFusedMatchesComposition[T Float](t *testing.T) {
	for _, act := range fusedActivations {
		for _, nhwc := range []bool{false, true} {
			for _, withBias := range []bool{false, true} {
				for _, withRes := range []bool{false, true} {
					name := fmt.Sprintf("%s/nhwc=%v/bias=%v/residual=%v", act, nhwc, withBias, withRes)
					t.Run(name, func(t *testing.T) {
						p := ConvParams{Strides: []int{2, 1}, Paddings: []int{1, 0, 1, 2}, Groups: 2}
						inShape := []int{2, 4, 7, 6}
						if nhwc {
							p.DataFormat = "NHWC"
							inShape = []int{2, 7, 6, 4}
						}
						// Scale inputs so pre-activation values straddle the
						// relu6/hardswish kinks.
						x := randT[T](t, 1, inShape...)
						for i := range x.Data {
							x.Data[i] *= 3
						}
						w := randT[T](t, 2, 6, 2, 3, 3)
						var bias, res *Tensor[T]
						y, err := Conv2D(x, w, p)
						require.NoError(t, err)
						want := y
						if withBias {
							bias = randT[T](t, 3, 6)
							b := bias
							if !nhwc {
								b, err = Reshape(bias, []int{6, 1, 1})
								require.NoError(t, err)
							}
							want, err = Add(want, b)
							require.NoError(t, err)
						}
						if withRes {
							res = randT[T](t, 4, y.Shape...)
							want, err = Add(want, res)
							require.NoError(t, err)
						}
						want, err = ApplyActivation(want, act, 0.2)
						require.NoError(t, err)
						got, err := FusedConv2DAddAct(x, w, bias, res, p, act, 0.2)
						require.NoError(t, err)
						requireClose(t, f64s(want.Data), want.Shape, got)
					})
				}
			}
		}
	}
}

func TestFusedConv2DAddActMatchesComposition(t *testing.T) {
	t.Run("float32", testFusedMatchesComposition[float32])
	t.Run("float64", testFusedMatchesComposition[float64])
}

func TestFusedConv2DAddActHand(t *testing.T) {
	// 1x1 conv with weights [1, -1] on pixels [1, 2], bias [0.5, 1.5],
	// residual [0, 0, 0, -10]: pre-activation [1.5, 2.5, 0.5, -10.5].
	x := mustT[float64](t, []int{1, 1, 1, 2}, 1, 2)
	w := mustT[float64](t, []int{2, 1, 1, 1}, 1, -1)
	b := mustT[float64](t, []int{2}, 0.5, 1.5)
	res := mustT[float64](t, []int{1, 2, 1, 2}, 0, 0, 0, -10)
	cases := []struct {
		act   string
		alpha float64
		want  []float64
	}{
		{"identity", 0, []float64{1.5, 2.5, 0.5, -10.5}},
		{"relu", 0, []float64{1.5, 2.5, 0.5, 0}},
		{"leaky_relu", 0.1, []float64{1.5, 2.5, 0.5, -1.05}},
		{"relu6", 0, []float64{1.5, 2.5, 0.5, 0}},
	}
	for _, tc := range cases {
		got, err := FusedConv2DAddAct(x, w, b, res, ConvParams{}, tc.act, tc.alpha)
		require.NoError(t, err, tc.act)
		requireClose(t, tc.want, []int{1, 2, 1, 2}, got, tc.act)
	}
}

func TestFusedConv2DAddActErrors(t *testing.T) {
	x := randT[float32](t, 1, 1, 2, 5, 5)
	w := randT[float32](t, 2, 3, 2, 3, 3)
	out := []int{1, 3, 3, 3}
	cases := []struct {
		name        string
		x, w, b, r  *Tensor[float32]
		act         string
		wantContain string
	}{
		{"unknown-activation", x, w, nil, nil, "gelu", "unknown activation"},
		{"empty-activation", x, w, nil, nil, "", "unknown activation"},
		{"bias-shape", x, w, randT[float32](t, 3, 1, 3, 1, 1), nil, "relu", "bias shape"},
		{"bias-length", x, w, randT[float32](t, 3, 2), nil, "relu", "bias shape"},
		{"residual-shape", x, w, nil, randT[float32](t, 4, 1, 3, 3, 2), "relu", "residual shape"},
		{"residual-broken", x, w, nil, &Tensor[float32]{Shape: out, Data: nil}, "relu", "needs 27 elements"},
		{"nil-input", nil, w, nil, nil, "relu", "nil tensor"},
		{"conv-error", x, randT[float32](t, 5, 3, 3, 3, 3), nil, nil, "relu", "input channels"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FusedConv2DAddAct(tc.x, tc.w, tc.b, tc.r, ConvParams{}, tc.act, 0)
			require.ErrorContains(t, err, tc.wantContain)
			require.Nil(t, got)
		})
	}
}
