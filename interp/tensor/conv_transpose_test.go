package tensor

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

type convTCase struct {
	n, cin, h, w   int
	coutG, kh, kw  int
	sh, sw, dh, dw int
	pt, pb, pl, pr int
	groups         int
	extraH, extraW int // output_padding or output_size - inferred
}

func (c convTCase) outHW() (int, int) {
	oh := (c.h-1)*c.sh - c.pt - c.pb + c.dh*(c.kh-1) + 1 + c.extraH
	ow := (c.w-1)*c.sw - c.pl - c.pr + c.dw*(c.kw-1) + 1 + c.extraW
	return oh, ow
}

// refConvTranspose scatters every input element through every filter tap.
func refConvTranspose(c convTCase, x, w []float64) []float64 {
	oh, ow := c.outHW()
	cinG := c.cin / c.groups
	cout := c.coutG * c.groups
	out := make([]float64, c.n*cout*oh*ow)
	for n := 0; n < c.n; n++ {
		for ic := 0; ic < c.cin; ic++ {
			g := ic / cinG
			for iy := 0; iy < c.h; iy++ {
				for ix := 0; ix < c.w; ix++ {
					xv := x[((n*c.cin+ic)*c.h+iy)*c.w+ix]
					for oc := 0; oc < c.coutG; oc++ {
						for ki := 0; ki < c.kh; ki++ {
							for kj := 0; kj < c.kw; kj++ {
								oy := iy*c.sh - c.pt + ki*c.dh
								ox := ix*c.sw - c.pl + kj*c.dw
								if oy < 0 || oy >= oh || ox < 0 || ox >= ow {
									continue
								}
								wv := w[((ic*c.coutG+oc)*c.kh+ki)*c.kw+kj]
								out[((n*cout+g*c.coutG+oc)*oh+oy)*ow+ox] += xv * wv
							}
						}
					}
				}
			}
		}
	}
	return out
}

func testConvTransposeRandom[T Float](t *testing.T) {
	r := NewRand(7)
	pick := func(lo, hi int) int { return lo + r.IntN(hi-lo+1) }
	valid := 0
	for i := range 250 {
		var c convTCase
		c.n = pick(1, 2)
		c.groups = pick(1, 3)
		c.cin = c.groups * pick(1, 3)
		c.coutG = pick(1, 3)
		c.h, c.w = pick(1, 6), pick(1, 6)
		c.kh, c.kw = pick(1, 4), pick(1, 4)
		c.sh, c.sw = pick(1, 3), pick(1, 3)
		c.dh, c.dw = pick(1, 3), pick(1, 3)
		p := ConvTransposeParams{Strides: []int{c.sh, c.sw}, Dilations: []int{c.dh, c.dw}, Groups: c.groups}
		if r.IntN(2) == 0 {
			p.Paddings = []int{pick(0, 2), pick(0, 2)}
			c.pt, c.pb, c.pl, c.pr = p.Paddings[0], p.Paddings[0], p.Paddings[1], p.Paddings[1]
		} else {
			p.Paddings = []int{pick(0, 2), pick(0, 2), pick(0, 2), pick(0, 2)}
			c.pt, c.pb, c.pl, c.pr = p.Paddings[0], p.Paddings[1], p.Paddings[2], p.Paddings[3]
		}
		switch r.IntN(4) {
		case 0:
			p.PaddingAlgorithm = "SAME"
			c.pt, c.pb = refSamePad(c.h, c.sh, c.kh)
			c.pl, c.pr = refSamePad(c.w, c.sw, c.kw)
			c.dh, c.dw = 1, 1
		case 1:
			p.PaddingAlgorithm = "VALID"
			c.pt, c.pb, c.pl, c.pr = 0, 0, 0, 0
		}
		switch r.IntN(3) {
		case 0:
			c.extraH, c.extraW = r.IntN(max(c.sh, c.dh)), r.IntN(max(c.sw, c.dw))
			p.OutputPadding = []int{c.extraH, c.extraW}
		case 1:
			c.extraH, c.extraW = r.IntN(c.sh), r.IntN(c.sw)
			oh, ow := c.outHW()
			p.OutputSize = []int{oh, ow}
		}
		nhwc := r.IntN(2) == 0
		if nhwc {
			p.DataFormat = "NHWC"
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			x := randT[T](t, uint64(i), c.n, c.cin, c.h, c.w)
			w := randT[T](t, uint64(i)+500, c.cin, c.coutG, c.kh, c.kw)
			xd := f64s(x.Data)
			in := x
			if nhwc {
				in = mustT[T](t, []int{c.n, c.h, c.w, c.cin}, refToNHWC(xd, c.n, c.cin, c.h, c.w)...)
			}
			got, err := Conv2DTranspose(in, w, p)
			oh, ow := c.outHW()
			if oh <= 0 || ow <= 0 {
				require.Error(t, err, "%+v %+v", c, p)
				return
			}
			require.NoError(t, err, "%+v %+v", c, p)
			valid++
			cout := c.coutG * c.groups
			want := refConvTranspose(c, xd, f64s(w.Data))
			shape := []int{c.n, cout, oh, ow}
			if nhwc {
				want = refToNHWC(want, c.n, cout, oh, ow)
				shape = []int{c.n, oh, ow, cout}
			}
			requireClose(t, want, shape, got, c, p)
		})
	}
	require.Greater(t, valid, 150)
}

func TestConv2DTransposeRandomAgainstScatter(t *testing.T) {
	t.Run("float32", testConvTransposeRandom[float32])
	t.Run("float64", testConvTransposeRandom[float64])
}

func testConvTransposeHand[T Float](t *testing.T) {
	x := mustT[T](t, []int{1, 1, 2, 2}, 1, 2, 3, 4)
	ones := mustT[T](t, []int{1, 1, 2, 2}, 1, 1, 1, 1)
	cases := []struct {
		name      string
		p         ConvTransposeParams
		wantShape []int
		want      []float64
	}{
		{"stride2", ConvTransposeParams{Strides: []int{2, 2}}, []int{1, 1, 4, 4},
			[]float64{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}},
		{"stride1", ConvTransposeParams{}, []int{1, 1, 3, 3}, []float64{1, 3, 2, 4, 10, 6, 3, 7, 4}},
		{"pad1", ConvTransposeParams{Paddings: []int{1, 1}}, []int{1, 1, 1, 1}, []float64{10}},
		{"output-padding", ConvTransposeParams{Strides: []int{2, 2}, OutputPadding: []int{1, 0}}, []int{1, 1, 5, 4},
			[]float64{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4, 0, 0, 0, 0}},
		{"output-size", ConvTransposeParams{Strides: []int{2, 2}, OutputSize: []int{4, 5}}, []int{1, 1, 4, 5},
			[]float64{1, 1, 2, 2, 0, 1, 1, 2, 2, 0, 3, 3, 4, 4, 0, 3, 3, 4, 4, 0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Conv2DTranspose(x, ones, tc.p)
			require.NoError(t, err)
			requireExact(t, tc.wantShape, tc.want, got)
		})
	}
}

func TestConv2DTransposeHandComputed(t *testing.T) {
	t.Run("float32", testConvTransposeHand[float32])
	t.Run("float64", testConvTransposeHand[float64])
}

// TestConv2DTransposeIsAdjoint checks <conv(x, w), y> == <x, convT(y, w)>:
// conv2d_transpose with the same filter array is the adjoint of conv2d.
func TestConv2DTransposeIsAdjoint(t *testing.T) {
	for i, tc := range []struct {
		groups, cin, cout, h, w, k, s, d, p int
	}{
		{1, 3, 4, 7, 6, 3, 2, 1, 1},
		{2, 4, 6, 9, 8, 3, 1, 2, 2},
		{3, 3, 3, 5, 5, 2, 3, 1, 0},
	} {
		x := randT[float64](t, uint64(i), 2, tc.cin, tc.h, tc.w)
		w := randT[float64](t, uint64(i)+10, tc.cout, tc.cin/tc.groups, tc.k, tc.k)
		cp := ConvParams{Strides: []int{tc.s, tc.s}, Paddings: []int{tc.p, tc.p}, Dilations: []int{tc.d, tc.d}, Groups: tc.groups}
		y, err := Conv2D(x, w, cp)
		require.NoError(t, err)
		v := randT[float64](t, uint64(i)+20, y.Shape...)
		xt, err := Conv2DTranspose(v, w, ConvTransposeParams{Strides: cp.Strides, Paddings: cp.Paddings, Dilations: cp.Dilations,
			Groups: tc.groups, OutputSize: []int{tc.h, tc.w}})
		require.NoError(t, err)
		require.Equal(t, x.Shape, xt.Shape)
		lhs, rhs := 0.0, 0.0
		for j := range y.Data {
			lhs += y.Data[j] * v.Data[j]
		}
		for j := range x.Data {
			rhs += x.Data[j] * xt.Data[j]
		}
		require.InDelta(t, lhs, rhs, 1e-9*(1+abs(lhs)), "case %d", i)
	}
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

func TestConvTransposeOutputShape(t *testing.T) {
	cases := []struct {
		name          string
		input, filter []int
		p             ConvTransposeParams
		want          []int
		wantErr       string
	}{
		{"upsample2x", []int{1, 16, 8, 8}, []int{16, 8, 4, 4}, ConvTransposeParams{Strides: []int{2, 2}, Paddings: []int{1, 1}}, []int{1, 8, 16, 16}, ""},
		{"groups", []int{1, 16, 8, 8}, []int{16, 8, 4, 4}, ConvTransposeParams{Strides: []int{2, 2}, Paddings: []int{1, 1}, Groups: 2}, []int{1, 16, 16, 16}, ""},
		{"output-padding", []int{1, 16, 8, 8}, []int{16, 8, 3, 3}, ConvTransposeParams{Strides: []int{2, 2}, Paddings: []int{1, 1}, OutputPadding: []int{1, 1}}, []int{1, 8, 16, 16}, ""},
		{"output-size", []int{1, 16, 8, 8}, []int{16, 8, 3, 3}, ConvTransposeParams{Strides: []int{2, 2}, Paddings: []int{1, 1}, OutputSize: []int{16, 15}}, []int{1, 8, 16, 15}, ""},
		{"nhwc-unknown", []int{-1, -1, 8, 16}, []int{16, 8, 3, 3}, ConvTransposeParams{DataFormat: "NHWC"}, []int{-1, -1, 10, 8}, ""},
		{"output-size-too-big", []int{1, 16, 8, 8}, []int{16, 8, 3, 3}, ConvTransposeParams{Strides: []int{2, 2}, Paddings: []int{1, 1}, OutputSize: []int{17, 15}}, nil, "output_size"},
		{"output-padding-too-big", []int{1, 16, 8, 8}, []int{16, 8, 3, 3}, ConvTransposeParams{Strides: []int{2, 2}, OutputPadding: []int{2, 0}}, nil, "output_padding"},
		{"channel-mismatch", []int{1, 15, 8, 8}, []int{16, 8, 3, 3}, ConvTransposeParams{}, nil, "input channels"},
		{"groups-not-dividing", []int{1, 16, 8, 8}, []int{16, 8, 3, 3}, ConvTransposeParams{Groups: 3}, nil, "divisible"},
		{"non-positive", []int{1, 1, 1, 1}, []int{1, 1, 1, 1}, ConvTransposeParams{Paddings: []int{1, 1}}, nil, "non-positive"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ConvTransposeOutputShape(tc.input, tc.filter, tc.p)
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestConv2DTransposeErrors(t *testing.T) {
	x := randT[float32](t, 1, 1, 4, 3, 3)
	w := randT[float32](t, 2, 4, 2, 3, 3)
	_, err := Conv2DTranspose(nil, w, ConvTransposeParams{})
	require.ErrorIs(t, err, ErrNilTensor)
	_, err = Conv2DTranspose(x, nil, ConvTransposeParams{})
	require.ErrorIs(t, err, ErrNilTensor)
	_, err = Conv2DTranspose(randT[float32](t, 1, 4, 3, 3), w, ConvTransposeParams{})
	require.ErrorContains(t, err, "4-D")
	_, err = Conv2DTranspose(x, w, ConvTransposeParams{DataFormat: "CHWN"})
	require.ErrorContains(t, err, "data_format")
	_, err = Conv2DTranspose(x, w, ConvTransposeParams{OutputPadding: []int{1}})
	require.ErrorContains(t, err, "output_padding")
}
