package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// convTrial is a random conv2d configuration: the attributes handed to the
// package and the explicit convolution the reference computes.
type convTrial struct {
	p    ConvParams
	cc   convCase
	nhwc bool
}

func (tr convTrial) String() string {
	return fmt.Sprintf("%+v nhwc=%v resolved=%+v", tr.p, tr.nhwc, tr.cc)
}

func randomConvTrial(r *rand.Rand) convTrial {
	pick := func(lo, hi int) int { return lo + r.IntN(hi-lo+1) }
	var tr convTrial
	c := &tr.cc
	c.n = pick(1, 2)
	switch r.IntN(5) {
	case 0, 1:
		c.groups = 1
	case 2:
		c.groups = 2
	case 3:
		c.groups = 3
	}
	if c.groups == 0 { // depthwise, optionally with a channel multiplier
		c.cin = pick(1, 5)
		c.groups = c.cin
		c.cout = c.cin * pick(1, 2)
	} else {
		c.cin = c.groups * pick(1, 3)
		c.cout = c.groups * pick(1, 3)
	}
	c.h, c.w = pick(1, 9), pick(1, 9)
	c.kh, c.kw = pick(1, 4), pick(1, 4)
	c.sh, c.sw = pick(1, 3), pick(1, 3)
	c.dh, c.dw = pick(1, 3), pick(1, 3)
	tr.p.Strides = []int{c.sh, c.sw}
	tr.p.Dilations = []int{c.dh, c.dw}
	if r.IntN(2) == 0 {
		ph, pw := pick(0, 3), pick(0, 3)
		tr.p.Paddings = []int{ph, pw}
		c.pt, c.pb, c.pl, c.pr = ph, ph, pw, pw
	} else {
		tr.p.Paddings = []int{pick(0, 3), pick(0, 3), pick(0, 3), pick(0, 3)}
		c.pt, c.pb, c.pl, c.pr = tr.p.Paddings[0], tr.p.Paddings[1], tr.p.Paddings[2], tr.p.Paddings[3]
	}
	switch r.IntN(5) {
	case 0:
		tr.p.PaddingAlgorithm = "SAME"
		c.pt, c.pb = refSamePad(c.h, c.sh, c.kh)
		c.pl, c.pr = refSamePad(c.w, c.sw, c.kw)
		c.dh, c.dw = 1, 1 // Paddle forces dilation 1 for SAME
	case 1:
		tr.p.PaddingAlgorithm = "VALID"
		c.pt, c.pb, c.pl, c.pr = 0, 0, 0, 0
	case 2:
		tr.p.PaddingAlgorithm = "" // defaults to EXPLICIT
	default:
		tr.p.PaddingAlgorithm = "EXPLICIT"
	}
	if r.IntN(3) != 0 || c.groups > 1 {
		tr.p.Groups = c.groups
	}
	if r.IntN(2) == 0 {
		tr.nhwc = true
		tr.p.DataFormat = "NHWC"
	} else if r.IntN(2) == 0 {
		tr.p.DataFormat = "NCHW"
	}
	return tr
}

func runConvTrial[T Float](t *testing.T, tr convTrial, seed uint64) (valid bool) {
	c := tr.cc
	x := randT[T](t, seed, c.n, c.cin, c.h, c.w)
	w := randT[T](t, seed+1, c.cout, c.cin/c.groups, c.kh, c.kw)
	xd := f64s(x.Data)
	in := x
	if tr.nhwc {
		var err error
		in, err = FromSlice([]int{c.n, c.h, c.w, c.cin}, convertSlice[T](refToNHWC(xd, c.n, c.cin, c.h, c.w)))
		require.NoError(t, err)
	}
	got, err := Conv2D(in, w, tr.p)
	oh, ow := c.outHW()
	if oh <= 0 || ow <= 0 {
		require.Error(t, err, "%v", tr)
		return false
	}
	require.NoError(t, err, "%v", tr)
	want := refConv2D(c, xd, f64s(w.Data))
	wantShape := []int{c.n, c.cout, oh, ow}
	if tr.nhwc {
		want = refToNHWC(want, c.n, c.cout, oh, ow)
		wantShape = []int{c.n, oh, ow, c.cout}
	}
	requireClose(t, want, wantShape, got, tr)
	shape, err := ConvOutputShape(in.Shape, w.Shape, tr.p)
	require.NoError(t, err)
	require.Equal(t, wantShape, shape)
	return true
}

func convertSlice[T Float](d []float64) []T {
	out := make([]T, len(d))
	for i, v := range d {
		out[i] = T(v)
	}
	return out
}

func testConv2DRandom[T Float](t *testing.T) {
	r := NewRand(42)
	valid := 0
	for i := range 400 {
		tr := randomConvTrial(r)
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if runConvTrial[T](t, tr, uint64(1000+i)) {
				valid++
			}
		})
	}
	// Most trials must produce an output (the rest check the error path).
	require.Greater(t, valid, 300)
}

func TestConv2DRandomAgainstDirect(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		t.Run("float32", testConv2DRandom[float32])
		t.Run("float64", testConv2DRandom[float64])
	})
}

// TestConv2DPackingsAreBitIdentical computes random convolutions wide enough for the GEMM (four or more output
// channels per group) with every way of packing the im2col matrix — phase planes, the image read with bounds, and
// an im2col matrix built first (the few-rows path's bands, here through the GEMM) — in bands of one row and
// whole, and requires the very same bits on every kernel path: they feed the micro-kernels the same values in the
// same order.
func TestConv2DPackingsAreBitIdentical(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		r := NewRand(7)
		valid := 0
		for i := range 60 {
			tr := randomConvTrial(r)
			c := &tr.cc
			mult := 4 + r.IntN(13)
			c.cout = c.groups * mult
			c.h, c.w = c.h+r.IntN(30), c.w+r.IntN(30)
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				x := randT[float32](t, uint64(i), c.n, c.cin, c.h, c.w)
				w := randT[float32](t, uint64(i)+1, c.cout, c.cin/c.groups, c.kh, c.kw)
				if tr.nhwc {
					tr.p.DataFormat = ""
				}
				g, err := resolveConv("conv2d", x.Shape, w.Shape, tr.p)
				if err != nil {
					return // geometry without output
				}
				valid++
				mk := kernelFor[float32](kernels)
				ref := newUnchecked[float32]([]int{g.n, g.cout, g.oh, g.ow})
				conv2dIm2col(mk, x, w, g, ref)
				for _, force := range []string{"shift", "bounds"} {
					for _, budget := range []int{1, 1 << 22} {
						convForce, convShiftBudget, convColBudget = force, budget, budget
						got := newUnchecked[float32]([]int{g.n, g.cout, g.oh, g.ow})
						conv2dGemm(mk, x, w, g, got)
						convForce, convShiftBudget, convColBudget = "", 1<<22, 1<<22
						for j := range ref.Data {
							if math.Float32bits(ref.Data[j]) != math.Float32bits(got.Data[j]) {
								require.FailNowf(t, "packings differ", "%v: %s, band budget %d: value %d is %v, im2col gives %v",
									tr, force, budget, j, got.Data[j], ref.Data[j])
							}
						}
					}
				}
			})
		}
		require.Greater(t, valid, 40)
	})
}

// TestConv2DFewRowsPackingsAreBitIdentical is TestConv2DPackingsAreBitIdentical for groups of fewer than
// gemmFewRows output channels (depthwise convolutions, with a channel multiplier of 1 to 3): row AXPYs over the
// phase planes and over im2col bands give the same bits, whole and in bands of one row.
func TestConv2DFewRowsPackingsAreBitIdentical(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		r := NewRand(8)
		valid := 0
		for i := range 60 {
			tr := randomConvTrial(r)
			c := &tr.cc
			c.cout = c.groups * (1 + r.IntN(gemmFewRows-1))
			c.h, c.w = c.h+r.IntN(30), c.w+r.IntN(30)
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				x := randT[float32](t, uint64(i), c.n, c.cin, c.h, c.w)
				w := randT[float32](t, uint64(i)+1, c.cout, c.cin/c.groups, c.kh, c.kw)
				if tr.nhwc {
					tr.p.DataFormat = ""
				}
				g, err := resolveConv("conv2d", x.Shape, w.Shape, tr.p)
				if err != nil {
					return // geometry without output
				}
				valid++
				mk := kernelFor[float32](kernels)
				var ref *Tensor[float32]
				for _, force := range []string{"bounds", "shift"} {
					for _, budget := range []int{1 << 22, 1} {
						convForce, convShiftBudget, convColBudget = force, budget, budget
						got := newUnchecked[float32]([]int{g.n, g.cout, g.oh, g.ow})
						conv2dFewRows(mk, x, w, g, got)
						convForce, convShiftBudget, convColBudget = "", 1<<22, 1<<22
						if ref == nil {
							ref = got
							continue
						}
						for j := range ref.Data {
							if math.Float32bits(ref.Data[j]) != math.Float32bits(got.Data[j]) {
								require.FailNowf(t, "packings differ", "%v: %s, band budget %d: value %d is %v, im2col bands give %v",
									tr, force, budget, j, got.Data[j], ref.Data[j])
							}
						}
					}
				}
			})
		}
		require.Greater(t, valid, 40)
	})
}

// conv2dIm2col is the plain convolution the packings are checked against: im2col matrices of the whole output
// and a GEMM.
func conv2dIm2col[T Float](mk *microKernel[T], x, filter *Tensor[T], g *convGeom, out *Tensor[T]) {
	ohw, hw := g.oh*g.ow, g.h*g.w
	col := make([]T, g.kK*ohw)
	for j := range g.n * g.groups {
		b, gr := j/g.groups, j%g.groups
		src := x.Data[(b*g.cin+gr*g.cinG)*hw : (b*g.cin+(gr+1)*g.cinG)*hw]
		im2col(col, src, g, 0, g.oh)
		am := matView[T]{data: filter.Data[gr*g.coutG*g.kK : (gr+1)*g.coutG*g.kK], rs: g.kK, cs: 1}
		gemmPacked(mk, g.coutG, ohw, g.kK, am, matView[T]{data: col, rs: ohw, cs: 1}, out.Data[(b*g.cout+gr*g.coutG)*ohw:], ohw, false)
	}
}

// TestConv2DLargeBlocks crosses every GEMM blocking boundary (M > MC,
// K > KC, N > NC) so that partial blocks and accumulation across K blocks
// are exercised.
func TestConv2DLargeBlocks(t *testing.T) {
	c := convCase{n: 1, cin: 30, h: 23, w: 23, cout: 132, kh: 3, kw: 3, sh: 1, sw: 1, dh: 1, dw: 1, pt: 1, pb: 1, pl: 1, pr: 1, groups: 1}
	tr := convTrial{p: ConvParams{Paddings: []int{1, 1}}, cc: c}
	t.Run("float32", func(t *testing.T) { runConvTrial[float32](t, tr, 7) })
	t.Run("float64", func(t *testing.T) { runConvTrial[float64](t, tr, 7) })
	tr.nhwc, tr.p.DataFormat = true, "NHWC"
	t.Run("float64/NHWC", func(t *testing.T) { runConvTrial[float64](t, tr, 8) })
}

// TestConv2DKernelPastPaddedInput: with Paddle's truncating division, a dilated kernel taller than the padded
// input still makes one output row (7 rows of kernel over 5 padded rows, stride 3); its taps below the input read
// zeros. Through the GEMM (6 output channels per group) and the row AXPYs (1 per group), on every path.
func TestConv2DKernelPastPaddedInput(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		for _, coutG := range []int{1, 6} {
			c := convCase{n: 1, cin: 6, h: 1, w: 4, cout: 2 * coutG, kh: 4, kw: 1, sh: 3, sw: 1, dh: 2, dw: 3, pt: 1, pb: 3, pl: 0, pr: 1, groups: 2}
			tr := convTrial{p: ConvParams{Strides: []int{3, 1}, Paddings: []int{1, 3, 0, 1}, Dilations: []int{2, 3}, Groups: 2}, cc: c}
			oh, _ := c.outHW()
			require.Equal(t, 1, oh)
			t.Run(fmt.Sprint(coutG), func(t *testing.T) {
				require.True(t, runConvTrial[float32](t, tr, 5))
				require.True(t, runConvTrial[float64](t, tr, 6))
			})
		}
	})
}

var img3x3 = []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}

func testConv2DHand[T Float](t *testing.T) {
	ones2x2 := mustT[T](t, []int{1, 1, 2, 2}, 1, 1, 1, 1)
	x := mustT[T](t, []int{1, 1, 3, 3}, img3x3...)
	cases := []struct {
		name      string
		x, w      *Tensor[T]
		p         ConvParams
		wantShape []int
		want      []float64
	}{
		{"default", x, ones2x2, ConvParams{}, []int{1, 1, 2, 2}, []float64{12, 16, 24, 28}},
		{"pad1-stride2", x, ones2x2, ConvParams{Strides: []int{2, 2}, Paddings: []int{1, 1}}, []int{1, 1, 2, 2}, []float64{1, 5, 11, 28}},
		{"same-stride2", x, ones2x2, ConvParams{Strides: []int{2, 2}, PaddingAlgorithm: "SAME"}, []int{1, 1, 2, 2}, []float64{12, 9, 15, 9}},
		{"asymmetric-pads", x, ones2x2, ConvParams{Paddings: []int{0, 1, 1, 0}}, []int{1, 1, 3, 3},
			[]float64{5, 12, 16, 11, 24, 28, 7, 15, 17}},
		{"dilation2", x, ones2x2, ConvParams{Dilations: []int{2, 2}}, []int{1, 1, 1, 1}, []float64{20}},
		{"same-forces-dilation1", x, ones2x2, ConvParams{Dilations: []int{2, 2}, PaddingAlgorithm: "SAME"}, []int{1, 1, 3, 3},
			[]float64{12, 16, 9, 24, 28, 15, 15, 17, 9}},
		{"valid-ignores-paddings", x, ones2x2, ConvParams{Paddings: []int{5, 5}, PaddingAlgorithm: "VALID"}, []int{1, 1, 2, 2}, []float64{12, 16, 24, 28}},
		{"groups2", mustT[T](t, []int{1, 2, 2, 2}, 1, 2, 3, 4, 10, 20, 30, 40), mustT[T](t, []int{2, 1, 1, 1}, 2, 3),
			ConvParams{Groups: 2}, []int{1, 2, 2, 2}, []float64{2, 4, 6, 8, 30, 60, 90, 120}},
		{"nhwc", mustT[T](t, []int{1, 2, 2, 2}, 1, 10, 2, 20, 3, 30, 4, 40), mustT[T](t, []int{1, 2, 1, 1}, 1, 0.5),
			ConvParams{DataFormat: "NHWC"}, []int{1, 2, 2, 1}, []float64{6, 12, 18, 24}},
		{"two-out-channels", x, mustT[T](t, []int{2, 1, 1, 1}, 1, -1), ConvParams{Strides: []int{2, 2}}, []int{1, 2, 2, 2},
			[]float64{1, 3, 7, 9, -1, -3, -7, -9}},
		// (2 - 3)/2 + 1 == 1 with C++ truncating division: Paddle yields one
		// output whose window hangs past the input (read as zero).
		{"window-past-input", mustT[T](t, []int{1, 1, 2, 2}, 1, 2, 3, 4), mustT[T](t, []int{1, 1, 3, 3}, 1, 1, 1, 1, 1, 1, 1, 1, 1),
			ConvParams{Strides: []int{2, 2}}, []int{1, 1, 1, 1}, []float64{10}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Conv2D(tc.x, tc.w, tc.p)
			require.NoError(t, err)
			requireExact(t, tc.wantShape, tc.want, got)
		})
	}
}

func TestConv2DHandComputed(t *testing.T) {
	t.Run("float32", testConv2DHand[float32])
	t.Run("float64", testConv2DHand[float64])
}

func TestConvOutputShape(t *testing.T) {
	cases := []struct {
		name          string
		input, filter []int
		p             ConvParams
		want          []int
		wantErr       string
	}{
		{"resnet-stem", []int{1, 3, 224, 224}, []int{64, 3, 7, 7}, ConvParams{Strides: []int{2, 2}, Paddings: []int{3, 3}}, []int{1, 64, 112, 112}, ""},
		{"nhwc-unknown-batch", []int{-1, 224, 224, 3}, []int{64, 3, 7, 7}, ConvParams{Strides: []int{2, 2}, Paddings: []int{3, 3}, DataFormat: "NHWC"}, []int{-1, 112, 112, 64}, ""},
		{"unknown-height", []int{1, 3, -1, 224}, []int{64, 3, 7, 7}, ConvParams{Strides: []int{2, 2}, Paddings: []int{3, 3}}, []int{1, 64, -1, 112}, ""},
		{"unknown-channels-skip-check", []int{1, -1, 8, 8}, []int{4, 3, 3, 3}, ConvParams{}, []int{1, 4, 6, 6}, ""},
		{"unknown-filter-count", []int{1, 3, 8, 8}, []int{-1, 3, 3, 3}, ConvParams{}, []int{1, -1, 6, 6}, ""},
		{"same", []int{1, 3, 225, 225}, []int{64, 3, 3, 3}, ConvParams{Strides: []int{2, 2}, PaddingAlgorithm: "SAME"}, []int{1, 64, 113, 113}, ""},
		{"same-unknown", []int{1, 3, -1, 225}, []int{64, 3, 3, 3}, ConvParams{Strides: []int{2, 2}, PaddingAlgorithm: "SAME"}, []int{1, 64, -1, 113}, ""},
		{"valid", []int{1, 3, 224, 224}, []int{64, 3, 7, 7}, ConvParams{Strides: []int{2, 2}, Paddings: []int{3, 3}, PaddingAlgorithm: "VALID"}, []int{1, 64, 109, 109}, ""},
		{"four-paddings", []int{1, 3, 10, 10}, []int{8, 3, 3, 3}, ConvParams{Paddings: []int{0, 2, 1, 0}}, []int{1, 8, 10, 9}, ""},
		{"dilated", []int{1, 3, 10, 10}, []int{8, 3, 3, 3}, ConvParams{Dilations: []int{2, 3}}, []int{1, 8, 6, 4}, ""},
		{"depthwise", []int{2, 32, 14, 14}, []int{32, 1, 3, 3}, ConvParams{Groups: 32, Paddings: []int{1, 1}}, []int{2, 32, 14, 14}, ""},
		{"truncating-division", []int{1, 1, 2, 2}, []int{1, 1, 3, 3}, ConvParams{Strides: []int{2, 2}}, []int{1, 1, 1, 1}, ""},
		{"channel-mismatch", []int{1, 4, 8, 8}, []int{8, 3, 3, 3}, ConvParams{}, nil, "input channels"},
		{"nhwc-channel-mismatch", []int{1, 8, 8, 4}, []int{8, 8, 3, 3}, ConvParams{DataFormat: "NHWC"}, nil, "input channels"},
		{"groups-not-dividing-out", []int{1, 4, 8, 8}, []int{3, 2, 3, 3}, ConvParams{Groups: 2}, nil, "divisible"},
		{"negative-groups", []int{1, 4, 8, 8}, []int{4, 4, 3, 3}, ConvParams{Groups: -1}, nil, "groups"},
		{"three-paddings", []int{1, 3, 8, 8}, []int{4, 3, 3, 3}, ConvParams{Paddings: []int{1, 1, 1}}, nil, "paddings"},
		{"negative-padding", []int{1, 3, 8, 8}, []int{4, 3, 3, 3}, ConvParams{Paddings: []int{-1, 0}}, nil, "paddings"},
		{"zero-stride", []int{1, 3, 8, 8}, []int{4, 3, 3, 3}, ConvParams{Strides: []int{0, 1}}, nil, "strides"},
		{"one-dilation", []int{1, 3, 8, 8}, []int{4, 3, 3, 3}, ConvParams{Dilations: []int{2}}, nil, "dilations"},
		{"bad-format", []int{1, 3, 8, 8}, []int{4, 3, 3, 3}, ConvParams{DataFormat: "NCWH"}, nil, "data_format"},
		{"bad-algorithm", []int{1, 3, 8, 8}, []int{4, 3, 3, 3}, ConvParams{PaddingAlgorithm: "FULL"}, nil, "padding_algorithm"},
		{"rank3", []int{3, 8, 8}, []int{4, 3, 3, 3}, ConvParams{}, nil, "4-D"},
		{"output-too-small", []int{1, 1, 2, 2}, []int{1, 1, 5, 5}, ConvParams{}, nil, "non-positive"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ConvOutputShape(tc.input, tc.filter, tc.p)
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestConv2DErrors(t *testing.T) {
	x := randT[float32](t, 1, 1, 3, 8, 8)
	w := randT[float32](t, 2, 4, 3, 3, 3)
	cases := []struct {
		name string
		x, w *Tensor[float32]
		p    ConvParams
		want string
	}{
		{"nil-input", nil, w, ConvParams{}, "nil tensor"},
		{"nil-filter", x, nil, ConvParams{}, "nil tensor"},
		{"data-length", &Tensor[float32]{Shape: []int{1, 3, 8, 8}, Data: make([]float32, 10)}, w, ConvParams{}, "needs 192 elements"},
		{"negative-dim", &Tensor[float32]{Shape: []int{1, -3, 8, 8}}, w, ConvParams{}, "negative dimension"},
		{"zero-dim", &Tensor[float32]{Shape: []int{0, 3, 8, 8}}, w, ConvParams{}, "positive"},
		{"rank3", randT[float32](t, 1, 3, 8, 8), w, ConvParams{}, "4-D"},
		{"channels", randT[float32](t, 1, 1, 2, 8, 8), w, ConvParams{}, "input channels"},
		{"groups", x, w, ConvParams{Groups: 3}, "input channels"},
		{"stride", x, w, ConvParams{Strides: []int{1, -2}}, "strides"},
		{"format", x, w, ConvParams{DataFormat: "nchw"}, "data_format"},
		{"too-small", randT[float32](t, 1, 1, 3, 2, 2), w, ConvParams{}, "non-positive"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Conv2D(tc.x, tc.w, tc.p)
			require.ErrorContains(t, err, tc.want)
			require.Nil(t, out)
		})
	}
}

func TestConv2DDoesNotModifyInputs(t *testing.T) {
	x := randT[float64](t, 1, 1, 4, 5, 5)
	w := randT[float64](t, 2, 6, 2, 3, 3)
	xc, wc := x.Clone(), w.Clone()
	_, err := Conv2D(x, w, ConvParams{Groups: 2, DataFormat: "NCHW", Paddings: []int{1, 1}})
	require.NoError(t, err)
	require.Equal(t, xc, x)
	require.Equal(t, wc, w)
}

// TestConv2DBandsAreBitIdentical forces im2col bands of one output row (and of a few rows) and requires the very
// bits of the unbanded result, with strides, dilations, padding and groups.
func TestConv2DBandsAreBitIdentical(t *testing.T) {
	x := randT[float32](t, 3, 2, 300, 17, 19)
	w := randT[float32](t, 4, 6, 150, 5, 3)
	p := ConvParams{Strides: []int{2, 1}, Paddings: []int{2, 1}, Dilations: []int{1, 2}, Groups: 2}
	whole, err := Conv2D(x, w, p)
	require.NoError(t, err)
	saved := convColBudget
	defer func() { convColBudget = saved }()
	for _, budget := range []int{1, 150 * 15 * 19 * 3} {
		convColBudget = budget
		banded, err := Conv2D(x, w, p)
		require.NoError(t, err)
		require.Equal(t, whole.Shape, banded.Shape)
		for i := range whole.Data {
			require.Equal(t, math.Float32bits(whole.Data[i]), math.Float32bits(banded.Data[i]), "budget %d, value %d", budget, i)
		}
	}
}
