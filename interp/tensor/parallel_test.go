package tensor

import (
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParallelForCoversEveryIndexOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, n := range []int{0, 1, 3, 17, 1000} {
		for _, work := range []int{1, 1 << 20} {
			hits := make([]int32, n)
			ParallelFor(n, work, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					atomic.AddInt32(&hits[i], 1)
				}
			})
			for i, h := range hits {
				require.EqualValues(t, 1, h, "n %d work %d index %d", n, work, i)
			}
		}
	}
}

func TestParallelForRaisesWorkerPanicsOnTheCaller(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	assert.PanicsWithValue(t, "boom", func() {
		ParallelFor(64, 1<<20, func(lo, hi int) {
			if lo == 0 {
				panic("boom")
			}
		})
	})
}

// The kernels split their work across goroutines; the split must not change a single bit of the results.
func TestKernelsAreIdenticalForEveryGOMAXPROCS(t *testing.T) {
	type run func() []float32
	x := randT[float32](t, 1, 3, 5, 70, 40)
	w := randT[float32](t, 2, 7, 5, 3, 3)
	dw := randT[float32](t, 3, 5, 1, 3, 3)
	a := randT[float32](t, 4, 2, 67, 300)
	b := randT[float32](t, 5, 300, 129)
	v := randT[float32](t, 6, 1, 300)
	cases := map[string]run{
		"conv2d": func() []float32 {
			y, err := Conv2D(x, w, ConvParams{Strides: []int{1, 1}, Paddings: []int{1, 1}, Dilations: []int{1, 1}, Groups: 1})
			require.NoError(t, err)
			return y.Data
		},
		"depthwise conv2d": func() []float32 {
			y, err := Conv2D(x, dw, ConvParams{Strides: []int{2, 2}, Paddings: []int{1, 1}, Dilations: []int{1, 1}, Groups: 5})
			require.NoError(t, err)
			return y.Data
		},
		"conv2d_transpose": func() []float32 {
			wt := &Tensor[float32]{Shape: []int{5, 2, 3, 3}, Data: w.Data[:5*2*9]}
			y, err := Conv2DTranspose(x, wt, ConvTransposeParams{Strides: []int{2, 2}, Paddings: []int{1, 1}, Dilations: []int{1, 1}, Groups: 1})
			require.NoError(t, err)
			return y.Data
		},
		"batched matmul": func() []float32 {
			y, err := Matmul(a, b, false, false)
			require.NoError(t, err)
			return y.Data
		},
		"vector-matrix": func() []float32 {
			y, err := Matmul(v, b, false, false)
			require.NoError(t, err)
			return y.Data
		},
	}
	for name, f := range cases {
		prev := runtime.GOMAXPROCS(1)
		want := f()
		for _, procs := range []int{2, 3, 8} {
			runtime.GOMAXPROCS(procs)
			assert.Equal(t, want, f(), "%s with GOMAXPROCS %d", name, procs)
		}
		runtime.GOMAXPROCS(prev)
	}
}
