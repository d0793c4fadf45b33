package tensor

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// tolFor returns an element-wise tolerance suited to T: |got-want| must be
// at most tol*(1+|want|).
func tolFor[T Float]() float64 {
	var z T
	if _, ok := any(z).(float32); ok {
		return 2e-5
	}
	return 1e-11
}

// requireClose checks shapes and element-wise closeness against a float64
// reference.
func requireClose[T Float](t testing.TB, want []float64, wantShape []int, got *Tensor[T], msgAndArgs ...any) {
	t.Helper()
	require.NotNil(t, got, msgAndArgs...)
	require.Equal(t, wantShape, got.Shape, msgAndArgs...)
	require.Len(t, got.Data, len(want), msgAndArgs...)
	tol := tolFor[T]()
	for i, w := range want {
		g := float64(got.Data[i])
		if math.IsNaN(w) {
			require.True(t, math.IsNaN(g), "element %d: want NaN, got %v %v", i, g, fmt.Sprint(msgAndArgs...))
			continue
		}
		if math.Abs(g-w) > tol*(1+math.Abs(w)) {
			require.FailNowf(t, "mismatch", "element %d (of %d): got %v want %v (tol %g) %v", i, len(want), g, w, tol, fmt.Sprint(msgAndArgs...))
		}
	}
}

// requireExact checks shape and exact values.
func requireExact[T Float](t testing.TB, wantShape []int, want []float64, got *Tensor[T], msgAndArgs ...any) {
	t.Helper()
	require.NotNil(t, got, msgAndArgs...)
	require.Equal(t, wantShape, got.Shape, msgAndArgs...)
	g := make([]float64, len(got.Data))
	for i, v := range got.Data {
		g[i] = float64(v)
	}
	require.Equal(t, want, g, msgAndArgs...)
}

func mustT[T Float](t testing.TB, shape []int, data ...float64) *Tensor[T] {
	t.Helper()
	d := make([]T, len(data))
	for i, v := range data {
		d[i] = T(v)
	}
	x, err := FromSlice(shape, d)
	require.NoError(t, err)
	return x
}

func randT[T Float](t testing.TB, seed uint64, shape ...int) *Tensor[T] {
	t.Helper()
	x, err := RandUniform[T](seed, shape...)
	require.NoError(t, err)
	return x
}

func f64s[T Float](d []T) []float64 {
	out := make([]float64, len(d))
	for i, v := range d {
		out[i] = float64(v)
	}
	return out
}

func iota64(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(i)
	}
	return out
}

func prod(s []int) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// refToNHWC converts NCHW data to NHWC with explicit index arithmetic.
func refToNHWC(d []float64, n, c, h, w int) []float64 {
	out := make([]float64, len(d))
	for in := range n {
		for ch := range c {
			for y := range h {
				for x := range w {
					out[((in*h+y)*w+x)*c+ch] = d[((in*c+ch)*h+y)*w+x]
				}
			}
		}
	}
	return out
}

// convCase is a fully explicit convolution used by the reference
// implementations (NCHW, paddings already resolved).
type convCase struct {
	n, cin, h, w   int
	cout, kh, kw   int
	sh, sw, dh, dw int
	pt, pb, pl, pr int
	groups         int
}

func (c convCase) outHW() (int, int) {
	oh := (c.h+c.pt+c.pb-(c.dh*(c.kh-1)+1))/c.sh + 1
	ow := (c.w+c.pl+c.pr-(c.dw*(c.kw-1)+1))/c.sw + 1
	return oh, ow
}

// refConv2D is the obviously-correct 7-loop direct convolution in float64.
func refConv2D(c convCase, x, w []float64) []float64 {
	oh, ow := c.outHW()
	cinG, coutG := c.cin/c.groups, c.cout/c.groups
	out := make([]float64, c.n*c.cout*oh*ow)
	for n := 0; n < c.n; n++ {
		for oc := 0; oc < c.cout; oc++ {
			g := oc / coutG
			for oy := 0; oy < oh; oy++ {
				for ox := 0; ox < ow; ox++ {
					s := 0.0
					for ic := 0; ic < cinG; ic++ {
						for ki := 0; ki < c.kh; ki++ {
							for kj := 0; kj < c.kw; kj++ {
								iy := oy*c.sh - c.pt + ki*c.dh
								ix := ox*c.sw - c.pl + kj*c.dw
								if iy < 0 || iy >= c.h || ix < 0 || ix >= c.w {
									continue
								}
								xv := x[((n*c.cin+g*cinG+ic)*c.h+iy)*c.w+ix]
								wv := w[((oc*cinG+ic)*c.kh+ki)*c.kw+kj]
								s += xv * wv
							}
						}
					}
					out[((n*c.cout+oc)*oh+oy)*ow+ox] = s
				}
			}
		}
	}
	return out
}

// refSamePad computes "SAME" padding for one axis independently of the
// package: output ceil(in/stride), total padding split with the extra
// element at the end.
func refSamePad(in, stride, k int) (int, int) {
	out := int(math.Ceil(float64(in) / float64(stride)))
	total := (out-1)*stride + k - in
	if total < 0 {
		total = 0
	}
	return total / 2, total - total/2
}
