package tensor

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

var actInput = []float64{-4, -1, 0, 0.5, 3, 7}

func testActivationsHand[T Float](t *testing.T) {
	x := mustT[T](t, []int{2, 3}, actInput...)
	type fn func(*Tensor[T]) (*Tensor[T], error)
	cases := []struct {
		name string
		f    fn
		want []float64
	}{
		{"identity", Identity[T], actInput},
		{"relu", Relu[T], []float64{0, 0, 0, 0.5, 3, 7}},
		{"relu6", Relu6[T], []float64{0, 0, 0, 0.5, 3, 6}},
		{"sigmoid", Sigmoid[T], []float64{0.01798620996209156, 0.2689414213699951, 0.5, 0.6224593312018546, 0.9525741268224334, 0.9990889488055994}},
		{"swish", Swish[T], []float64{-0.07194483984836623, -0.2689414213699951, 0, 0.3112296656009273, 2.8577223804673, 6.993622641639195}},
		{"hardswish", Hardswish[T], []float64{0, -1.0 / 3, 0, 0.2916666666666667, 3, 7}},
		{"tanh", Tanh[T], []float64{-0.999329299739067, -0.7615941559557649, 0, 0.46211715726000974, 0.9950547536867305, 0.9999983369439447}},
		{"hardsigmoid", func(x *Tensor[T]) (*Tensor[T], error) { return Hardsigmoid(x, 0.2, 0.5) }, []float64{0, 0.3, 0.5, 0.6, 1, 1}},
		{"leaky_relu", func(x *Tensor[T]) (*Tensor[T], error) { return LeakyRelu(x, 0.1) }, []float64{-0.4, -0.1, 0, 0.5, 3, 7}},
		{"exp", Exp[T], []float64{math.Exp(-4), math.Exp(-1), 1, math.Exp(0.5), math.Exp(3), math.Exp(7)}},
		{"sqrt", Sqrt[T], []float64{math.NaN(), math.NaN(), 0, math.Sqrt(0.5), math.Sqrt(3), math.Sqrt(7)}},
		{"scale-after", func(x *Tensor[T]) (*Tensor[T], error) { return Scale(x, 2, 3, true) }, []float64{-5, 1, 3, 4, 9, 17}},
		{"scale-before", func(x *Tensor[T]) (*Tensor[T], error) { return Scale(x, 2, 3, false) }, []float64{-2, 4, 6, 7, 12, 20}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.f(x)
			require.NoError(t, err)
			requireClose(t, tc.want, []int{2, 3}, got)
			requireExact(t, []int{2, 3}, actInput, x, "input must not change")
			_, err = tc.f(nil)
			require.ErrorIs(t, err, ErrNilTensor)
		})
	}
}

func TestActivationsHandComputed(t *testing.T) {
	t.Run("float32", testActivationsHand[float32])
	t.Run("float64", testActivationsHand[float64])
}

func TestApplyActivationMatchesDedicatedKernels(t *testing.T) {
	x := randT[float64](t, 9, 4, 5)
	for i := range x.Data {
		x.Data[i] *= 8
	}
	dedicated := map[string]func(*Tensor[float64]) (*Tensor[float64], error){
		"identity":   Identity[float64],
		"relu":       Relu[float64],
		"relu6":      Relu6[float64],
		"sigmoid":    Sigmoid[float64],
		"swish":      Swish[float64],
		"tanh":       Tanh[float64],
		"hardswish":  Hardswish[float64],
		"leaky_relu": func(x *Tensor[float64]) (*Tensor[float64], error) { return LeakyRelu(x, 0.3) },
	}
	require.Len(t, dedicated, len(fusedActivations))
	for _, name := range fusedActivations {
		want, err := dedicated[name](x)
		require.NoError(t, err)
		got, err := ApplyActivation(x, name, 0.3)
		require.NoError(t, err)
		require.Equal(t, want, got, name)
	}
	for _, bad := range []string{"", "gelu", "RELU", "hard_swish"} {
		_, err := ApplyActivation(x, bad, 0)
		require.ErrorContains(t, err, "unknown activation", bad)
	}
}

func TestActivationsPropagateNaN(t *testing.T) {
	x := mustT[float64](t, []int{1}, math.NaN())
	for _, name := range fusedActivations {
		got, err := ApplyActivation(x, name, 0.1)
		require.NoError(t, err)
		require.True(t, math.IsNaN(got.Data[0]), name)
	}
}

func TestIdentityCopies(t *testing.T) {
	x := mustT[float32](t, []int{2}, 1, 2)
	y, err := Identity(x)
	require.NoError(t, err)
	y.Data[0] = 5
	require.Equal(t, float32(1), x.Data[0])
}

// TestReluZerosAndNaN: relu and relu6 clamp without a branch and agree on the special values on every path — the
// float32 and float64 kernels, the float64 function fused ops apply, and fused_conv2d_add_act's epilogue (a 1×1
// convolution by the identity): NaN stays NaN, -0 and negatives become +0, +Inf stays (relu) or becomes 6 (relu6).
func TestReluZerosAndNaN(t *testing.T) {
	in := []float64{math.Copysign(0, -1), 0, -1e-30, -5, math.NaN(), math.Inf(1), math.Inf(-1), 2}
	want := map[string][]float64{
		ActRelu:  {0, 0, 0, 0, math.NaN(), math.Inf(1), 0, 2},
		ActRelu6: {0, 0, 0, 0, math.NaN(), 6, 0, 2},
	}
	check := func(t *testing.T, name string, got []float64) {
		t.Helper()
		for i, w := range want[name] {
			if math.IsNaN(w) {
				require.True(t, math.IsNaN(got[i]), "%s(%v) = %v, want NaN", name, in[i], got[i])
				continue
			}
			require.Equal(t, math.Float64bits(w), math.Float64bits(got[i]), "%s(%v) = %v, want %v", name, in[i], got[i], w)
		}
	}
	for _, name := range []string{ActRelu, ActRelu6} {
		t.Run(name, func(t *testing.T) {
			f64 := mustT[float64](t, []int{len(in)}, in...)
			got, err := ApplyActivation(f64, name, 0)
			require.NoError(t, err)
			check(t, name, got.Data)
			dedicated := map[string]func(*Tensor[float32]) (*Tensor[float32], error){ActRelu: Relu[float32], ActRelu6: Relu6[float32]}[name]
			got32, err := dedicated(mustT[float32](t, []int{len(in)}, in...))
			require.NoError(t, err)
			check(t, name, toF64(got32.Data))
			x := mustT[float32](t, []int{1, 1, 1, len(in)}, in...)
			one := mustT[float32](t, []int{1, 1, 1, 1}, 1)
			fused, err := FusedConv2DAddAct(x, one, nil, nil, ConvParams{Strides: []int{1, 1}, Paddings: []int{0, 0}, Dilations: []int{1, 1}, Groups: 1}, name, 0)
			require.NoError(t, err)
			check(t, name, toF64(fused.Data))
		})
	}
}

func toF64(xs []float32) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}
