package tensor

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

type poolCase struct {
	n, c, h, w     int
	kh, kw, sh, sw int
	pt, pb, pl, pr int
	ceil, excl     bool
	isMax          bool
	adaptive       bool // kh, kw are the output size
}

func (p poolCase) outHW() (int, int) {
	if p.adaptive {
		return p.kh, p.kw
	}
	f := func(in, k, a, b, s int) int {
		if p.ceil {
			return (in-k+a+b+s-1)/s + 1
		}
		return (in-k+a+b)/s + 1
	}
	return f(p.h, p.kh, p.pt, p.pb, p.sh), f(p.w, p.kw, p.pl, p.pr, p.sw)
}

// refPool enumerates kernel taps explicitly. Window placement uses the top
// and left paddings only, and the average divisor is Paddle's formula.
func refPool(p poolCase, x []float64) []float64 {
	oh, ow := p.outHW()
	out := make([]float64, p.n*p.c*oh*ow)
	for nc := range p.n * p.c {
		plane := x[nc*p.h*p.w : (nc+1)*p.h*p.w]
		for oy := range oh {
			for ox := range ow {
				var rows, cols []int
				if p.adaptive {
					for iy := int(math.Floor(float64(oy*p.h) / float64(oh))); iy < int(math.Ceil(float64((oy+1)*p.h)/float64(oh))); iy++ {
						rows = append(rows, iy)
					}
					for ix := int(math.Floor(float64(ox*p.w) / float64(ow))); ix < int(math.Ceil(float64((ox+1)*p.w)/float64(ow))); ix++ {
						cols = append(cols, ix)
					}
				} else {
					for ki := range p.kh {
						rows = append(rows, oy*p.sh-p.pt+ki)
					}
					for kj := range p.kw {
						cols = append(cols, ox*p.sw-p.pl+kj)
					}
				}
				best, sum := -math.MaxFloat32, 0.0
				for _, iy := range rows {
					for _, ix := range cols {
						if iy < 0 || iy >= p.h || ix < 0 || ix >= p.w {
							continue
						}
						v := plane[iy*p.w+ix]
						best = math.Max(best, v)
						sum += v
					}
				}
				var r float64
				switch {
				case p.isMax:
					r = best
				case p.adaptive:
					r = sum / float64(len(rows)*len(cols))
				default:
					// Paddle's divisor: the window clipped at h+pad_top
					// (w+pad_left), and also at the input when exclusive.
					hs, ws := rows[0], cols[0]
					he, we := min(hs+p.kh, p.h+p.pt), min(ws+p.kw, p.w+p.pl)
					if p.excl {
						hs, ws, he, we = max(hs, 0), max(ws, 0), min(he, p.h), min(we, p.w)
					}
					r = sum / float64((he-hs)*(we-ws))
				}
				out[(nc*oh+oy)*ow+ox] = r
			}
		}
	}
	return out
}

func testPoolRandom[T Float](t *testing.T) {
	r := NewRand(11)
	pick := func(lo, hi int) int { return lo + r.IntN(hi-lo+1) }
	valid := 0
	for i := range 300 {
		var c poolCase
		c.n, c.c = pick(1, 2), pick(1, 3)
		c.h, c.w = pick(1, 8), pick(1, 8)
		c.kh, c.kw = pick(1, 4), pick(1, 4)
		c.sh, c.sw = pick(1, 3), pick(1, 3)
		c.ceil, c.excl, c.isMax = r.IntN(2) == 0, r.IntN(2) == 0, r.IntN(2) == 0
		p := PoolParams{KernelSize: []int{c.kh, c.kw}, Strides: []int{c.sh, c.sw}, CeilMode: c.ceil, Exclusive: c.excl, PoolingType: "avg"}
		if c.isMax {
			p.PoolingType = "max"
		}
		if r.IntN(2) == 0 {
			p.Paddings = []int{pick(0, 2), pick(0, 2)}
			c.pt, c.pb, c.pl, c.pr = p.Paddings[0], p.Paddings[0], p.Paddings[1], p.Paddings[1]
		} else {
			p.Paddings = []int{pick(0, 2), pick(0, 2), pick(0, 2), pick(0, 2)}
			c.pt, c.pb, c.pl, c.pr = p.Paddings[0], p.Paddings[1], p.Paddings[2], p.Paddings[3]
		}
		switch r.IntN(6) {
		case 0:
			p.PaddingAlgorithm = "SAME"
			c.pt, c.pb = refSamePad(c.h, c.sh, c.kh)
			c.pl, c.pr = refSamePad(c.w, c.sw, c.kw)
		case 1:
			p.PaddingAlgorithm = "VALID"
			c.pt, c.pb, c.pl, c.pr = 0, 0, 0, 0
		case 2:
			p.GlobalPooling = true
			c.kh, c.kw = c.h, c.w
			c.pt, c.pb, c.pl, c.pr = 0, 0, 0, 0
		case 3:
			if !c.isMax {
				p.Adaptive = true
				c.adaptive = true
				c.pt, c.pb, c.pl, c.pr = 0, 0, 0, 0
			}
		}
		nhwc := r.IntN(2) == 0
		if nhwc {
			p.DataFormat = "NHWC"
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			x := randT[T](t, uint64(i), c.n, c.c, c.h, c.w)
			xd := f64s(x.Data)
			in := x
			if nhwc {
				in = mustT[T](t, []int{c.n, c.h, c.w, c.c}, refToNHWC(xd, c.n, c.c, c.h, c.w)...)
			}
			got, err := Pool2D(in, p)
			oh, ow := c.outHW()
			if oh <= 0 || ow <= 0 {
				require.Error(t, err, "%+v %+v", c, p)
				return
			}
			require.NoError(t, err, "%+v %+v", c, p)
			valid++
			want := refPool(c, xd)
			shape := []int{c.n, c.c, oh, ow}
			if nhwc {
				want = refToNHWC(want, c.n, c.c, oh, ow)
				shape = []int{c.n, oh, ow, c.c}
			}
			requireClose(t, want, shape, got, c, p)
			s, err := Pool2DOutputShape(in.Shape, p)
			require.NoError(t, err)
			require.Equal(t, shape, s)
		})
	}
	require.Greater(t, valid, 200)
}

func TestPool2DRandomAgainstTaps(t *testing.T) {
	t.Run("float32", testPoolRandom[float32])
	t.Run("float64", testPoolRandom[float64])
}

func testPoolHand[T Float](t *testing.T) {
	x4 := mustT[T](t, []int{1, 1, 4, 4}, iota64(16)...)
	x3 := mustT[T](t, []int{1, 1, 3, 3}, img3x3...)
	x5 := mustT[T](t, []int{1, 1, 5, 5}, iota64(25)...)
	m, nan := math.MaxFloat32, math.NaN()
	cases := []struct {
		name      string
		x         *Tensor[T]
		p         PoolParams
		wantShape []int
		want      []float64
	}{
		{"max2x2", x4, PoolParams{KernelSize: []int{2, 2}, Strides: []int{2, 2}, PoolingType: "max"}, []int{1, 1, 2, 2}, []float64{5, 7, 13, 15}},
		{"avg2x2", x4, PoolParams{KernelSize: []int{2, 2}, Strides: []int{2, 2}, PoolingType: "avg"}, []int{1, 1, 2, 2}, []float64{2.5, 4.5, 10.5, 12.5}},
		{"avg-pad-exclusive", x3, PoolParams{KernelSize: []int{3, 3}, Paddings: []int{1, 1}, Exclusive: true, PoolingType: "avg"}, []int{1, 1, 3, 3},
			[]float64{3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7}},
		{"avg-pad-inclusive", x3, PoolParams{KernelSize: []int{3, 3}, Paddings: []int{1, 1}, PoolingType: "avg"}, []int{1, 1, 3, 3},
			[]float64{12.0 / 9, 21.0 / 9, 16.0 / 9, 27.0 / 9, 5, 33.0 / 9, 24.0 / 9, 39.0 / 9, 28.0 / 9}},
		{"ceil-mode", x5, PoolParams{KernelSize: []int{2, 2}, Strides: []int{2, 2}, CeilMode: true, PoolingType: "max"}, []int{1, 1, 3, 3},
			[]float64{6, 8, 9, 16, 18, 19, 21, 23, 24}},
		{"floor-mode", x5, PoolParams{KernelSize: []int{2, 2}, Strides: []int{2, 2}, PoolingType: "max"}, []int{1, 1, 2, 2},
			[]float64{6, 8, 16, 18}},
		// Bottom/right paddings only grow the output; windows are clipped
		// at h+pad_top, so the last window covers a single row/column and
		// the inclusive average divides by 1, 2 or 4 accordingly.
		{"asymmetric-pads-avg", x3, PoolParams{KernelSize: []int{2, 2}, Strides: []int{2, 2}, Paddings: []int{0, 1, 0, 1}, PoolingType: "avg"}, []int{1, 1, 2, 2},
			[]float64{3, 4.5, 7.5, 9}},
		{"asymmetric-pads-max", x3, PoolParams{KernelSize: []int{2, 2}, Strides: []int{2, 2}, Paddings: []int{0, 1, 0, 1}, PoolingType: "max"}, []int{1, 1, 2, 2},
			[]float64{5, 6, 8, 9}},
		{"same", x3, PoolParams{KernelSize: []int{2, 2}, Strides: []int{2, 2}, PaddingAlgorithm: "SAME", PoolingType: "max"}, []int{1, 1, 2, 2},
			[]float64{5, 6, 8, 9}},
		{"global-avg", mustT[T](t, []int{1, 2, 2, 2}, 1, 2, 3, 4, 5, 6, 7, 8), PoolParams{KernelSize: []int{1, 1}, GlobalPooling: true, Paddings: []int{3, 3}, PoolingType: "avg"},
			[]int{1, 2, 1, 1}, []float64{2.5, 6.5}},
		{"global-max-nhwc", mustT[T](t, []int{1, 2, 2, 2}, 1, 5, 2, 6, 3, 7, 4, 8), PoolParams{KernelSize: []int{1, 1}, GlobalPooling: true, PoolingType: "max", DataFormat: "NHWC"},
			[]int{1, 1, 1, 2}, []float64{4, 8}},
		{"adaptive-avg", mustT[T](t, []int{1, 1, 1, 5}, iota64(5)...), PoolParams{KernelSize: []int{1, 3}, Adaptive: true, PoolingType: "avg"},
			[]int{1, 1, 1, 3}, []float64{0.5, 2, 3.5}},
		{"max-all-padding", mustT[T](t, []int{1, 1, 1, 1}, -5), PoolParams{KernelSize: []int{1, 1}, Paddings: []int{1, 1}, PoolingType: "max"},
			[]int{1, 1, 3, 3}, []float64{-m, -m, -m, -m, -5, -m, -m, -m, -m}},
		{"avg-all-padding-exclusive", mustT[T](t, []int{1, 1, 1, 1}, -5), PoolParams{KernelSize: []int{1, 1}, Paddings: []int{1, 1}, Exclusive: true, PoolingType: "avg"},
			[]int{1, 1, 3, 3}, []float64{nan, nan, nan, nan, -5, nan, nan, nan, nan}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Pool2D(tc.x, tc.p)
			require.NoError(t, err)
			requireClose(t, tc.want, tc.wantShape, got)
		})
	}
}

func TestPool2DHandComputed(t *testing.T) {
	t.Run("float32", testPoolHand[float32])
	t.Run("float64", testPoolHand[float64])
}

func TestPool2DOutputShapeAndErrors(t *testing.T) {
	ok := []struct {
		name  string
		input []int
		p     PoolParams
		want  []int
	}{
		{"resnet-maxpool", []int{1, 64, 112, 112}, PoolParams{KernelSize: []int{3, 3}, Strides: []int{2, 2}, Paddings: []int{1, 1}, PoolingType: "max"}, []int{1, 64, 56, 56}},
		{"unknown", []int{-1, 64, -1, 112}, PoolParams{KernelSize: []int{3, 3}, Strides: []int{2, 2}, Paddings: []int{1, 1}, PoolingType: "max"}, []int{-1, 64, -1, 56}},
		{"adaptive", []int{1, 8, 7, 7}, PoolParams{KernelSize: []int{2, 3}, Adaptive: true, PoolingType: "avg"}, []int{1, 8, 2, 3}},
		{"global-nhwc", []int{2, 7, 7, 512}, PoolParams{KernelSize: []int{7, 7}, GlobalPooling: true, PoolingType: "avg", DataFormat: "NHWC"}, []int{2, 1, 1, 512}},
		{"ceil", []int{1, 1, 6, 6}, PoolParams{KernelSize: []int{3, 3}, Strides: []int{2, 2}, CeilMode: true, PoolingType: "max"}, []int{1, 1, 3, 3}},
	}
	for _, tc := range ok {
		got, err := Pool2DOutputShape(tc.input, tc.p)
		require.NoError(t, err, tc.name)
		require.Equal(t, tc.want, got, tc.name)
	}
	bad := []struct {
		name  string
		input []int
		p     PoolParams
		want  string
	}{
		{"adaptive-max", []int{1, 1, 4, 4}, PoolParams{KernelSize: []int{2, 2}, Adaptive: true, PoolingType: "max"}, "adaptive max"},
		{"type", []int{1, 1, 4, 4}, PoolParams{KernelSize: []int{2, 2}, PoolingType: "sum"}, "pooling_type"},
		{"kernel-len", []int{1, 1, 4, 4}, PoolParams{KernelSize: []int{2}, PoolingType: "max"}, "kernel_size"},
		{"kernel-zero", []int{1, 1, 4, 4}, PoolParams{KernelSize: []int{0, 2}, PoolingType: "max"}, "kernel_size"},
		{"too-small", []int{1, 1, 2, 2}, PoolParams{KernelSize: []int{3, 3}, PoolingType: "max"}, "non-positive"},
		{"rank", []int{1, 4, 4}, PoolParams{KernelSize: []int{2, 2}, PoolingType: "max"}, "4-D"},
		{"paddings", []int{1, 1, 4, 4}, PoolParams{KernelSize: []int{2, 2}, Paddings: []int{1}, PoolingType: "max"}, "paddings"},
		{"format", []int{1, 1, 4, 4}, PoolParams{KernelSize: []int{2, 2}, PoolingType: "max", DataFormat: "HW"}, "data_format"},
		{"strides", []int{1, 1, 4, 4}, PoolParams{KernelSize: []int{2, 2}, Strides: []int{0, 0}, PoolingType: "max"}, "strides"},
	}
	for _, tc := range bad {
		_, err := Pool2DOutputShape(tc.input, tc.p)
		require.ErrorContains(t, err, tc.want, tc.name)
		_, err = Pool2D(randT[float32](t, 1, tc.input...), tc.p)
		require.Error(t, err, tc.name)
	}
	_, err := Pool2D[float32](nil, PoolParams{KernelSize: []int{2, 2}, PoolingType: "max"})
	require.ErrorIs(t, err, ErrNilTensor)
}
