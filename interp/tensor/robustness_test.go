package tensor

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// fuzzer produces small, frequently invalid arguments.
type fuzzer struct{ r *rand.Rand }

func (f fuzzer) int() int {
	switch f.r.IntN(10) {
	case 0:
		return -1 - f.r.IntN(3)
	case 1:
		return 0
	case 2:
		return 1 << 40
	default:
		return 1 + f.r.IntN(4)
	}
}

func (f fuzzer) ints(maxLen int) []int {
	if f.r.IntN(8) == 0 {
		return nil
	}
	s := make([]int, f.r.IntN(maxLen+1))
	for i := range s {
		s[i] = f.int()
	}
	return s
}

func (f fuzzer) str(choices ...string) string {
	if f.r.IntN(6) == 0 {
		return "bogus"
	}
	return choices[f.r.IntN(len(choices))]
}

// tensor returns a random tensor of rank 0-5 with small dims; sometimes nil,
// sometimes with an inconsistent Data length or a negative dimension.
func (f fuzzer) tensor() *Tensor[float32] {
	switch f.r.IntN(20) {
	case 0:
		return nil
	case 1:
		return &Tensor[float32]{Shape: []int{2, 3}, Data: make([]float32, 5)}
	case 2:
		return &Tensor[float32]{Shape: []int{2, -3}}
	}
	shape := make([]int, f.r.IntN(6))
	for i := range shape {
		shape[i] = f.r.IntN(4)
		if f.r.IntN(3) != 0 {
			shape[i]++
		}
	}
	t, _ := RandUniform[float32](f.r.Uint64(), shape...)
	return t
}

// TestKernelsNeverPanic throws random, mostly invalid arguments at every
// kernel: each call must return normally (a result or an error).
func TestKernelsNeverPanic(t *testing.T) {
	f := fuzzer{NewRand(2024)}
	algos := []string{"", "EXPLICIT", "SAME", "VALID"}
	formats := []string{"", "NCHW", "NHWC"}
	acts := append([]string{}, fusedActivations...)
	convP := func() ConvParams {
		return ConvParams{Strides: f.ints(3), Paddings: f.ints(5), PaddingAlgorithm: f.str(algos...),
			Dilations: f.ints(3), Groups: f.int(), DataFormat: f.str(formats...)}
	}
	calls := []func(){
		func() { _, _ = Conv2D(f.tensor(), f.tensor(), convP()) },
		func() { _, _ = ConvOutputShape(f.ints(5), f.ints(5), convP()) },
		func() {
			_, _ = FusedConv2DAddAct(f.tensor(), f.tensor(), f.tensor(), f.tensor(), convP(), f.str(acts...), 0.1)
		},
		func() {
			p := ConvTransposeParams{Strides: f.ints(3), Paddings: f.ints(5), PaddingAlgorithm: f.str(algos...), Dilations: f.ints(3),
				Groups: f.int(), DataFormat: f.str(formats...), OutputPadding: f.ints(3), OutputSize: f.ints(3)}
			_, _ = Conv2DTranspose(f.tensor(), f.tensor(), p)
			_, _ = ConvTransposeOutputShape(f.ints(5), f.ints(5), p)
		},
		func() {
			p := PoolParams{KernelSize: f.ints(3), Strides: f.ints(3), Paddings: f.ints(5), CeilMode: f.r.IntN(2) == 0,
				Exclusive: f.r.IntN(2) == 0, GlobalPooling: f.r.IntN(4) == 0, Adaptive: f.r.IntN(4) == 0,
				PaddingAlgorithm: f.str(algos...), PoolingType: f.str("max", "avg"), DataFormat: f.str(formats...)}
			_, _ = Pool2D(f.tensor(), p)
			_, _ = Pool2DOutputShape(f.ints(5), p)
		},
		func() {
			_, _ = BatchNormInference(f.tensor(), f.tensor(), f.tensor(), f.tensor(), f.tensor(), 1e-5, f.str("NCHW", "NHWC", ""))
		},
		func() { _, _ = Matmul(f.tensor(), f.tensor(), f.r.IntN(2) == 0, f.r.IntN(2) == 0) },
		func() { _, _ = Add(f.tensor(), f.tensor()) },
		func() { _, _ = Divide(f.tensor(), f.tensor()) },
		func() { _, _ = BroadcastShape(f.ints(4), f.ints(4)) },
		func() { _, _ = Reshape(f.tensor(), f.ints(5)) },
		func() {
			if x := f.tensor(); x != nil {
				_, _ = x.Reshape(f.ints(5)...)
				_, _ = x.At(f.ints(5)...)
				_ = x.Set(1, f.ints(5)...)
			}
		},
		func() { _, _ = Transpose(f.tensor(), f.ints(5)) },
		func() { _, _ = Flatten(f.tensor(), f.int(), f.int()) },
		func() { _, _ = Squeeze(f.tensor(), f.ints(4)) },
		func() { _, _ = Unsqueeze(f.tensor(), f.ints(4)) },
		func() { _, _ = Concat(f.int(), f.tensor(), f.tensor(), f.tensor()) },
		func() { _, _ = Split(f.tensor(), f.ints(4), f.int()) },
		func() { _, _ = SplitNum(f.tensor(), f.int(), f.int()) },
		func() { _, _ = Sum(f.tensor(), f.ints(4), f.r.IntN(2) == 0) },
		func() { _, _ = Mean(f.tensor(), f.ints(4), f.r.IntN(2) == 0) },
		func() { _, _ = Cast[float64](f.tensor()) },
		func() { _, _ = ApplyActivation(f.tensor(), f.str(acts...), 0.1) },
		func() { _, _ = Scale(f.tensor(), 2, 1, f.r.IntN(2) == 0) },
		func() { _, _ = Hardsigmoid(f.tensor(), 0.2, 0.5) },
		func() { _, _, _ = MaxRelDiff(f.tensor(), f.tensor()) },
		func() { _, _ = New[float32](f.r.IntN(5)-1, f.r.IntN(5)-1) },
		func() { _, _ = FromSlice([]int{f.r.IntN(5) - 1, 2}, make([]float32, f.r.IntN(10))) },
	}
	for i := range 20000 {
		call := calls[i%len(calls)]
		require.NotPanics(t, call, "call %d", i)
	}
}

func TestHugeAttributesAreErrors(t *testing.T) {
	x := randT[float32](t, 1, 1, 1, 4, 4)
	w := randT[float32](t, 2, 1, 1, 3, 3)
	_, err := Conv2D(x, w, ConvParams{Paddings: []int{1 << 40, 1}})
	require.ErrorContains(t, err, "paddings")
	_, err = Conv2D(x, w, ConvParams{Strides: []int{1 << 40, 1}})
	require.ErrorContains(t, err, "strides")
	_, err = Pool2D(x, PoolParams{KernelSize: []int{1 << 40, 1}, PoolingType: "max"})
	require.ErrorContains(t, err, "kernel_size")
	_, err = ConvOutputShape([]int{1 << 40, 1, 1 << 40, 1 << 40}, []int{1 << 20, 1, 1, 1}, ConvParams{})
	require.NoError(t, err, "shape inference alone allocates nothing")
	_, err = Conv2D(&Tensor[float32]{Shape: []int{1 << 40, 1 << 40, 1 << 40, 1}}, w, ConvParams{})
	require.ErrorContains(t, err, "too many elements")
}
