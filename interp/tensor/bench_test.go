package tensor

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func convFlops(out, filter []int) float64 {
	return 2 * float64(prod(out)) * float64(filter[1]*filter[2]*filter[3])
}

// benchKernels runs f as one sub-benchmark per kernel path this machine runs (kernels=avx512, kernels=go, …), so
// that one run measures every path: benchstat -col /kernels compares them.
func benchKernels(b *testing.B, f func(b *testing.B)) {
	for _, p := range kernelPaths() {
		b.Run("kernels="+p.name, func(b *testing.B) {
			saved := kernels
			kernels = p
			defer func() { kernels = saved }()
			f(b)
		})
	}
}

// reportFlops reports the rate of flops floating-point operations per iteration: GFLOP/s of wall time, and
// GFLOP/cpu-s of the process's CPU time, which on a machine shared with other jobs measures the kernels rather
// than their share of the cores (run with -cpu 1, so that the process computes on one core).
func reportFlops(b *testing.B, flops float64, cpu0 time.Duration) {
	total := flops * float64(b.N) / 1e9
	b.ReportMetric(total/b.Elapsed().Seconds(), "GFLOP/s")
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(total/cpu.Seconds(), "GFLOP/cpu-s")
	}
}

func benchConv[T Float](b *testing.B, in, filter []int, p ConvParams) {
	x := randT[T](b, 1, in...)
	w := randT[T](b, 2, filter...)
	out, err := ConvOutputShape(in, filter, p)
	require.NoError(b, err)
	flops := convFlops(out, filter)
	benchKernels(b, func(b *testing.B) {
		var cpu0 time.Duration
		for b.Loop() {
			if cpu0 == 0 {
				cpu0 = cpuTime() // b.Loop starts the timer at its first call
			}
			if _, err := Conv2D(x, w, p); err != nil {
				b.Fatal(err)
			}
		}
		reportFlops(b, flops, cpu0)
	})
}

var (
	resnet3x3  = ConvParams{Paddings: []int{1, 1}}
	resnetStem = ConvParams{Strides: []int{2, 2}, Paddings: []int{3, 3}}
)

// 1×64×56×56 ⊛ 64×64×3×3 (a ResNet layer1 convolution): 0.231 GFLOP.
func BenchmarkConv2DResNet3x3F32(b *testing.B) {
	benchConv[float32](b, []int{1, 64, 56, 56}, []int{64, 64, 3, 3}, resnet3x3)
}

func BenchmarkConv2DResNet3x3F64(b *testing.B) {
	benchConv[float64](b, []int{1, 64, 56, 56}, []int{64, 64, 3, 3}, resnet3x3)
}

func BenchmarkConv2DResNet3x3NHWCF32(b *testing.B) {
	p := resnet3x3
	p.DataFormat = "NHWC"
	benchConv[float32](b, []int{1, 56, 56, 64}, []int{64, 64, 3, 3}, p)
}

// 1×3×224×224 ⊛ 64×3×7×7, stride 2, padding 3 (the ResNet stem): 0.236 GFLOP.
func BenchmarkConv2DResNetStemF32(b *testing.B) {
	benchConv[float32](b, []int{1, 3, 224, 224}, []int{64, 3, 7, 7}, resnetStem)
}

func BenchmarkConv2DResNetStemF64(b *testing.B) {
	benchConv[float64](b, []int{1, 3, 224, 224}, []int{64, 3, 7, 7}, resnetStem)
}

// Depthwise 3×3 on 1×256×28×28 (MobileNet-like; GEMM with M = 1 per group).
func BenchmarkConv2DDepthwiseF32(b *testing.B) {
	benchConv[float32](b, []int{1, 256, 28, 28}, []int{256, 1, 3, 3}, ConvParams{Paddings: []int{1, 1}, Groups: 256})
}

// 1×16×160×160 ⊛ 16×16×3×3 and 1×96×160×160 ⊛ 24×96×1×1 (an OCR detector's narrow layers at 640×640): GEMMs with
// few rows and many columns, where packing B costs as much as the products.
func BenchmarkConv2DNarrowF32(b *testing.B) {
	benchConv[float32](b, []int{1, 16, 160, 160}, []int{16, 16, 3, 3}, resnet3x3)
}

func BenchmarkConv2DNarrow1x1F32(b *testing.B) {
	benchConv[float32](b, []int{1, 96, 160, 160}, []int{24, 96, 1, 1}, ConvParams{})
}

func benchMatmul[T Float](b *testing.B, m, k, n int) {
	x := randT[T](b, 1, m, k)
	y := randT[T](b, 2, k, n)
	benchKernels(b, func(b *testing.B) {
		var cpu0 time.Duration
		for b.Loop() {
			if cpu0 == 0 {
				cpu0 = cpuTime() // b.Loop starts the timer at its first call
			}
			if _, err := Matmul(x, y, false, false); err != nil {
				b.Fatal(err)
			}
		}
		reportFlops(b, 2*float64(m*n*k), cpu0)
	})
}

func BenchmarkMatmul512F32(b *testing.B) { benchMatmul[float32](b, 512, 512, 512) }

func BenchmarkMatmul512F64(b *testing.B) { benchMatmul[float64](b, 512, 512, 512) }

// resnet18 is an unfused ResNet-18 forward pass (conv, batch_norm, relu,
// pooling, residual add, fc) built from this package's kernels. Parameters
// are generated on the first pass and reused afterwards.
type resnet18[T Float] struct {
	params []*Tensor[T]
	next   int
	flops  float64
}

// param returns the next parameter tensor; init adjusts a fresh one.
func (r *resnet18[T]) param(tb testing.TB, init func(*Tensor[T]), shape ...int) *Tensor[T] {
	if r.next == len(r.params) {
		p := randT[T](tb, uint64(1000+r.next), shape...)
		if init != nil {
			init(p)
		}
		r.params = append(r.params, p)
	}
	r.next++
	return r.params[r.next-1]
}

func (r *resnet18[T]) convBN(tb testing.TB, x *Tensor[T], cout, k, stride int, relu bool) *Tensor[T] {
	cin := x.Shape[1]
	w := r.param(tb, func(w *Tensor[T]) {
		for i := range w.Data {
			w.Data[i] *= T(3 / float64(cin*k*k)) // keep activations O(1)
		}
	}, cout, cin, k, k)
	p := ConvParams{Strides: []int{stride, stride}, Paddings: []int{k / 2, k / 2}}
	y, err := Conv2D(x, w, p)
	require.NoError(tb, err)
	r.flops += convFlops(y.Shape, w.Shape)
	variance := r.param(tb, func(v *Tensor[T]) {
		for i := range v.Data {
			v.Data[i] = v.Data[i]*v.Data[i] + 0.5
		}
	}, cout)
	y, err = BatchNormInference(y, r.param(tb, nil, cout), variance, r.param(tb, nil, cout), r.param(tb, nil, cout), 1e-5, "NCHW")
	require.NoError(tb, err)
	if relu {
		y, err = Relu(y)
		require.NoError(tb, err)
	}
	return y
}

func (r *resnet18[T]) block(tb testing.TB, x *Tensor[T], cout, stride int) *Tensor[T] {
	y := r.convBN(tb, x, cout, 3, stride, true)
	y = r.convBN(tb, y, cout, 3, 1, false)
	short := x
	if stride != 1 || x.Shape[1] != cout {
		short = r.convBN(tb, x, cout, 1, stride, false)
	}
	s, err := Add(y, short)
	require.NoError(tb, err)
	s, err = Relu(s)
	require.NoError(tb, err)
	return s
}

func (r *resnet18[T]) forward(tb testing.TB, x *Tensor[T]) *Tensor[T] {
	r.next, r.flops = 0, 0
	y := r.convBN(tb, x, 64, 7, 2, true)
	y, err := Pool2D(y, PoolParams{KernelSize: []int{3, 3}, Strides: []int{2, 2}, Paddings: []int{1, 1}, PoolingType: "max"})
	require.NoError(tb, err)
	for _, stage := range []struct{ c, s int }{{64, 1}, {128, 2}, {256, 2}, {512, 2}} {
		y = r.block(tb, y, stage.c, stage.s)
		y = r.block(tb, y, stage.c, 1)
	}
	y, err = Pool2D(y, PoolParams{KernelSize: []int{1, 1}, GlobalPooling: true, PoolingType: "avg", Exclusive: true})
	require.NoError(tb, err)
	y, err = Flatten(y, 1, -1)
	require.NoError(tb, err)
	fc := r.param(tb, nil, 512, 1000)
	y, err = Matmul(y, fc, false, false)
	require.NoError(tb, err)
	bias := r.param(tb, nil, 1000)
	y, err = Add(y, bias)
	require.NoError(tb, err)
	return y
}

// TestResNet18Forward runs an unfused ResNet-18 on a 1×3×64×64 input and
// logs the wall time (not asserted: timing under -race or a loaded machine
// is meaningless; see BenchmarkResNet18).
func TestResNet18Forward(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	var net resnet18[float32]
	x := randT[float32](t, 1, 1, 3, 64, 64)
	net.forward(t, x) // generate parameters
	start := time.Now()
	y := net.forward(t, x)
	elapsed := time.Since(start)
	require.Equal(t, []int{1, 1000}, y.Shape)
	nonzero := 0
	for _, v := range y.Data {
		require.False(t, math.IsNaN(float64(v)) || math.IsInf(float64(v), 0))
		if v != 0 {
			nonzero++
		}
	}
	require.Greater(t, nonzero, 900)
	t.Logf("ResNet-18 float32, 1x3x64x64: %.3f GFLOP of convolution in %v", net.flops/1e9, elapsed)
}

func BenchmarkResNet18x64F32(b *testing.B) {
	var net resnet18[float32]
	x := randT[float32](b, 1, 1, 3, 64, 64)
	net.forward(b, x) // generate parameters outside the timed loop
	for b.Loop() {
		net.forward(b, x)
	}
	b.ReportMetric(net.flops/1e9, "convGFLOP/op")
}

func BenchmarkResNet18x64F64(b *testing.B) {
	var net resnet18[float64]
	x := randT[float64](b, 1, 1, 3, 64, 64)
	net.forward(b, x) // generate parameters outside the timed loop
	for b.Loop() {
		net.forward(b, x)
	}
	b.ReportMetric(net.flops/1e9, "convGFLOP/op")
}
