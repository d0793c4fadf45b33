package interp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

func TestInterpolationKernels(t *testing.T) {
	sq := fT(sh(1, 1, 2, 2), 1, 2, 3, 4)
	attrs := func(kv ...any) []ir.NamedAttr {
		var out []ir.NamedAttr
		for i := 0; i+1 < len(kv); i += 2 {
			out = append(out, a(t, kv[i].(string), kv[i+1]))
		}
		return out
	}
	cases := []opCase{
		{name: "linear half-pixel (align_mode 0)", op: "pd_op.linear_interp", in: []any{fT(sh(1, 1, 2), 0, 10), nil, nil, nil},
			attrs: attrs("out_w", 4, "interp_method", "linear", "align_corners", false, "align_mode", 0, "data_format", "NCW"),
			want:  []*Tensor{fT(sh(1, 1, 4), 0, 2.5, 7.5, 10)}},
		{name: "linear NWC", op: "pd_op.linear_interp", in: []any{fT(sh(1, 2, 2), 0, 100, 10, 110), nil, nil, nil},
			attrs: attrs("out_w", 4, "interp_method", "linear", "align_corners", false, "align_mode", 0, "data_format", "NWC"),
			want:  []*Tensor{fT(sh(1, 4, 2), 0, 100, 2.5, 102.5, 7.5, 107.5, 10, 110)}},
		{name: "linear scale attribute", op: "pd_op.linear_interp", in: []any{fT(sh(1, 1, 2), 0, 10), nil, nil, nil},
			attrs: attrs("scale", []float32{1.5}, "interp_method", "linear", "align_corners", true, "data_format", "NCW"),
			want:  []*Tensor{fT(sh(1, 1, 3), 0, 5, 10)}},
		{name: "bilinear align_corners", op: "pd_op.bilinear_interp", in: []any{sq, nil, nil, nil},
			attrs: attrs("out_h", 3, "out_w", 3, "interp_method", "bilinear", "align_corners", true),
			want:  []*Tensor{fT(sh(1, 1, 3, 3), 1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4)}},
		{name: "bilinear one scale value is ignored in 2-D", op: "pd_op.bilinear_interp", in: []any{sq, nil, nil, nil},
			attrs: attrs("out_h", 3, "out_w", 3, "scale", []float32{2}, "interp_method", "bilinear", "align_corners", true),
			want:  []*Tensor{fT(sh(1, 1, 3, 3), 1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4)}},
		{name: "bilinear size_tensor wins", op: "pd_op.bilinear_interp", in: []any{sq, nil, []*Tensor{i64T(sh(), 3), i64T(sh(), 3)}, nil},
			attrs: attrs("out_h", 8, "out_w", 8, "interp_method", "bilinear", "align_corners", true),
			want:  []*Tensor{fT(sh(1, 1, 3, 3), 1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4)}},
		{name: "bilinear scale_tensor, NHWC", op: "pd_op.bilinear_interp", in: []any{fT(sh(1, 2, 1, 1), 5, 7), nil, nil, fT(sh(1), 2)},
			attrs: attrs("interp_method", "bilinear", "align_corners", false, "data_format", "NHWC"),
			// align_mode 1 (the default): source int(k/2), weight k/2 − int(k/2).
			want: []*Tensor{fT(sh(1, 4, 2, 1), 5, 5, 6, 6, 7, 7, 7, 7)}},
		{name: "same size is a copy", op: "pd_op.bilinear_interp", in: []any{sq, nil, nil, nil},
			attrs: attrs("out_h", 2, "out_w", 2, "interp_method", "bilinear", "align_corners", false, "align_mode", 0),
			want:  []*Tensor{sq}},
		{name: "bicubic keys convolution", op: "pd_op.bicubic_interp", in: []any{fT(sh(1, 1, 1, 4), 0, 1, 4, 9), nil, nil, nil},
			attrs: attrs("out_h", 1, "out_w", 7, "interp_method", "bicubic", "align_corners", true),
			want:  []*Tensor{fT(sh(1, 1, 1, 7), 0, 0.21875, 1, 2.125, 4, 6.78125, 9)}},
		{name: "trilinear centre", op: "pd_op.trilinear_interp", in: []any{fT(sh(1, 1, 2, 2, 2), 0, 1, 2, 3, 4, 5, 6, 7), nil, nil, nil},
			attrs: attrs("out_d", 3, "out_h", 3, "out_w", 3, "interp_method", "trilinear", "align_corners", true, "data_format", "NCDHW"),
			want: []*Tensor{fT(sh(1, 1, 3, 3, 3), 0, 0.5, 1, 1, 1.5, 2, 2, 2.5, 3, 2, 2.5, 3, 3, 3.5, 4, 4, 4.5, 5,
				4, 4.5, 5, 5, 5.5, 6, 6, 6.5, 7)}},
		{name: "nearest 3-D", op: "pd_op.nearest_interp", in: []any{fT(sh(1, 1, 1, 1, 2), 1, 2), nil, nil, nil},
			attrs: attrs("out_d", 1, "out_h", 1, "out_w", 4, "interp_method", "nearest", "align_corners", false, "data_format", "NCDHW"),
			want:  []*Tensor{fT(sh(1, 1, 1, 1, 4), 1, 1, 2, 2)}},
		{name: "method for another rank", op: "pd_op.bilinear_interp", in: []any{fT(sh(1, 1, 2), 1, 2), nil, nil, nil},
			attrs: attrs("out_w", 4, "interp_method", "bilinear"), want: []*Tensor{fT(sh(1, 1, 4))}, err: `interp_method "bilinear" on a rank-3 input`},
		// grid_sample: (−1, −1) and (1, 1) are the corner pixel centres with align_corners, their outer edges without.
		{name: "grid_sample bilinear aligned", op: "pd_op.grid_sample", in: []any{sq, fT(sh(1, 1, 3, 2), -1, -1, 1, 1, 0, 0)},
			attrs: attrs("mode", "bilinear", "padding_mode", "zeros", "align_corners", true), want: []*Tensor{fT(sh(1, 1, 1, 3), 1, 4, 2.5)}},
		{name: "grid_sample zeros outside", op: "pd_op.grid_sample", in: []any{sq, fT(sh(1, 1, 1, 2), -1, -1)},
			attrs: attrs("mode", "bilinear", "padding_mode", "zeros", "align_corners", false), want: []*Tensor{fT(sh(1, 1, 1, 1), 0.25)}},
		{name: "grid_sample border", op: "pd_op.grid_sample", in: []any{sq, fT(sh(1, 1, 1, 2), -1, -1)},
			attrs: attrs("mode", "bilinear", "padding_mode", "border", "align_corners", false), want: []*Tensor{fT(sh(1, 1, 1, 1), 1)}},
		// x = 2 is 1.5 pixels: reflected at the last pixel centre (1) to 0.5.
		{name: "grid_sample reflection", op: "pd_op.grid_sample", in: []any{sq, fT(sh(1, 1, 1, 2), 2, -1)},
			attrs: attrs("mode", "bilinear", "padding_mode", "reflection", "align_corners", true), want: []*Tensor{fT(sh(1, 1, 1, 1), 1.5)}},
		{name: "grid_sample nearest", op: "pd_op.grid_sample", in: []any{sq, fT(sh(1, 1, 1, 2), 0.6, -1)},
			attrs: attrs("mode", "nearest", "padding_mode", "zeros", "align_corners", true), want: []*Tensor{fT(sh(1, 1, 1, 1), 2)}},
	}
	runOpCases(t, cases)
}

// TestResample2DMatchesResample: the 2-D loop gives the very bits of the recursive resample, for linear, nearest
// and cubic taps, upsampling and downsampling.
func TestResample2DMatchesResample(t *testing.T) {
	r := tensor.NewRand(3)
	for trial := range 30 {
		in := []int{1 + r.IntN(9), 1 + r.IntN(9)}
		out := []int{1 + r.IntN(13), 1 + r.IntN(13)}
		ax := make([]taps, 2)
		for i := range ax {
			ratio := float32(in[i]) / float32(out[i])
			switch trial % 3 {
			case 0:
				ax[i] = linearTaps(in[i], out[i], ratio, trial%2 == 0)
			case 1:
				ax[i] = nearestTaps(in[i], out[i], ratio, false)
			default:
				ax[i] = cubicTaps(in[i], out[i], ratio, false)
			}
		}
		const planes = 3
		src := make([]float32, planes*in[0]*in[1])
		for i := range src {
			src[i] = float32(r.NormFloat64())
		}
		got := make([]float32, planes*out[0]*out[1])
		resample2D(src, got, planes, in, out, ax)
		for p := range planes {
			for oy := range out[0] {
				for ox := range out[1] {
					want := float32(resample(src[p*in[0]*in[1]:(p+1)*in[0]*in[1]], in, ax, []int{oy, ox}, 0, 0))
					g := got[(p*out[0]+oy)*out[1]+ox]
					require.Equal(t, math.Float32bits(want), math.Float32bits(g), "trial %d plane %d (%d, %d)", trial, p, oy, ox)
				}
			}
		}
	}
}
