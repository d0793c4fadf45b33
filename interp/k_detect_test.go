package interp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

func TestDetectionKernels(t *testing.T) {
	plane := fT(sh(1, 1, 4, 4), ramp(16, 1, 0)...) // value 4y + x: bilinear samples are exact
	cases := []opCase{
		{name: "roi_align averages bilinear samples", op: "pd_op.roi_align", in: []any{plane, fT(sh(1, 4), 0, 0, 3, 3), nil},
			attrs: []ir.NamedAttr{a(t, "sampling_ratio", 2)}, want: []*Tensor{fT(sh(1, 1, 1, 1), 7.5)}},
		{name: "roi_align aligned bins", op: "pd_op.roi_align", in: []any{plane, fT(sh(1, 4), 0.5, 0.5, 2.5, 2.5), i32T(sh(1), 1)},
			attrs: []ir.NamedAttr{a(t, "pooled_height", 2), a(t, "pooled_width", 2), a(t, "sampling_ratio", 1), a(t, "aligned", true)},
			want:  []*Tensor{fT(sh(1, 1, 2, 2), 2.5, 3.5, 6.5, 7.5)}},
		{name: "roi_align of an inverted aligned box is zero", op: "pd_op.roi_align", in: []any{plane, fT(sh(2, 4), 2.5, 0.5, 0.5, 2.5, 0.5, 2.5, 2.5, 0.5), nil},
			attrs: []ir.NamedAttr{a(t, "pooled_height", 2), a(t, "pooled_width", 2), a(t, "aligned", true)},
			want:  []*Tensor{fT(sh(2, 1, 2, 2), 0, 0, 0, 0, 0, 0, 0, 0)}},
		{name: "roi_align outside is zero", op: "pd_op.roi_align", in: []any{plane, fT(sh(1, 4), 10, 10, 12, 12), nil},
			attrs: []ir.NamedAttr{a(t, "sampling_ratio", 1)}, want: []*Tensor{fT(sh(1, 1, 1, 1), 0)}},
		{name: "roi_align box counts must match", op: "pd_op.roi_align", in: []any{plane, fT(sh(1, 4), 0, 0, 1, 1), i32T(sh(1), 2)},
			want: []*Tensor{fT(sh(1, 1, 1, 1))}, err: "box counts"},
		{name: "prior_box", op: "pd_op.prior_box", in: []any{fT(sh(1, 1, 1, 1), 0), fT(sh(1, 1, 10, 10), ramp(100, 0, 0)...)},
			attrs: []ir.NamedAttr{a(t, "min_sizes", []float32{4}), a(t, "max_sizes", []float32{9}), a(t, "aspect_ratios", []float32{2}),
				a(t, "variances", []float32{0.1, 0.1, 0.2, 0.2})},
			want: []*Tensor{fT(sh(1, 1, 4, 4),
				0.3, 0.3, 0.7, 0.7,
				// ratio 2: 2√2 wide, √2 high; ratio 1/2 the other way round.
				(5-2*math.Sqrt2)/10, (5-math.Sqrt2)/10, (5+2*math.Sqrt2)/10, (5+math.Sqrt2)/10,
				(5-math.Sqrt2)/10, (5-2*math.Sqrt2)/10, (5+math.Sqrt2)/10, (5+2*math.Sqrt2)/10,
				0.2, 0.2, 0.8, 0.8),
				fT(sh(1, 1, 4, 4), 0.1, 0.1, 0.2, 0.2, 0.1, 0.1, 0.2, 0.2, 0.1, 0.1, 0.2, 0.2, 0.1, 0.1, 0.2, 0.2)}, tol: 1e-7},
		{name: "yolo_box", op: "pd_op.yolo_box", in: []any{fT(sh(1, 6, 1, 1), 0, 0, 0, 0, 0, 0), i32T(sh(1, 2), 32, 32)},
			attrs: []ir.NamedAttr{a(t, "anchors", []int{10, 20}), a(t, "class_num", 1), a(t, "downsample_ratio", 32)},
			want:  []*Tensor{fT(sh(1, 1, 4), 11, 6, 21, 26), fT(sh(1, 1, 1), 0.25)}},
		{name: "yolo_box below threshold", op: "pd_op.yolo_box", in: []any{fT(sh(1, 6, 1, 1), 0, 0, 0, 0, 0, 0), i32T(sh(1, 2), 32, 32)},
			attrs: []ir.NamedAttr{a(t, "anchors", []int{10, 20}), a(t, "class_num", 1), a(t, "conf_thresh", float32(0.6))},
			want:  []*Tensor{fT(sh(1, 1, 4), 0, 0, 0, 0), fT(sh(1, 1, 1), 0)}},
		// Zero deltas decode each anchor to itself; the third anchor overlaps the first and is suppressed.
		{name: "generate_proposals", op: "pd_op.generate_proposals",
			in: []any{fT(sh(1, 1, 1, 3), 0.9, 0.8, 0.85), fT(sh(1, 4, 1, 3), make([]float64, 12)...), fT(sh(1, 2), 50, 50),
				fT(sh(3, 4), 0, 0, 9, 9, 20, 20, 29, 29, 1, 0, 10, 9), fT(sh(3, 4), ramp(12, 0, 1)...)},
			attrs: []ir.NamedAttr{a(t, "pre_nms_top_n", 10), a(t, "post_nms_top_n", 10), a(t, "nms_thresh", float32(0.7)),
				a(t, "min_size", float32(1)), a(t, "eta", float32(1))},
			want: []*Tensor{fT(sh(2, 4), 0, 0, 9, 9, 20, 20, 29, 29), fT(sh(2, 1), 0.9, 0.8), i32T(sh(1), 2)}},
	}
	runOpCases(t, cases)
}

func TestDistributeFpnProposals(t *testing.T) {
	ctx := kctx(t)
	b := progtest.NewIn(t, ctx)
	rois := b.Data("rois", 3, 4)
	box := typeOf(ctx, fT(sh(-1, 4)))
	num := typeOf(ctx, i32T(sh(1)))
	levels := 4
	var boxTypes, numTypes []ir.Type
	for range levels {
		boxTypes = append(boxTypes, box)
		numTypes = append(numTypes, num)
	}
	op := b.OpT("pd_op.distribute_fpn_proposals", []*ir.Value{rois, nil},
		[]ir.Type{ctx.Vector(boxTypes...), ctx.Vector(numTypes...), typeOf(ctx, i32T(sh(3, 1)))},
		a(t, "min_level", 2), a(t, "max_level", 5), a(t, "refer_level", 4), a(t, "refer_scale", 224), a(t, "pixel_offset", true))
	lv := b.OpT("builtin.split", []*ir.Value{op.Result(0)}, boxTypes)
	for i := range levels {
		b.Fetch(lv.Result(i), string(rune('2'+i)), i)
	}
	b.Fetch(op.Result(2), "restore", levels)
	// Sizes 448, 32 and 224: levels 5, 2 (clamped from 1) and 4.
	out := eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"rois": fT(sh(3, 4), 0, 0, 447, 447, 0, 0, 31, 31, 0, 0, 223, 223)}})
	requireTensorClose(t, fT(sh(1, 4), 0, 0, 31, 31), out["2"], 0, "level 2")
	requireTensorClose(t, fT(sh(0, 4)), out["3"], 0, "level 3")
	requireTensorClose(t, fT(sh(1, 4), 0, 0, 223, 223), out["4"], 0, "level 4")
	requireTensorClose(t, fT(sh(1, 4), 0, 0, 447, 447), out["5"], 0, "level 5")
	requireTensorClose(t, i32T(sh(3, 1), 2, 0, 1), out["restore"], 0, "restore_index")
}

func TestDeformableConv(t *testing.T) {
	x := randHost(1, []int{1, 2, 5, 6}...)
	w := randHost(2, []int{4, 1, 3, 3}...)
	convPad := func(in *Tensor, pads []int) *Tensor {
		it := &tensor.Tensor[float64]{Shape: in.Shape, Data: in.Data}
		wt := &tensor.Tensor[float64]{Shape: w.Shape, Data: w.Data}
		y, err := tensor.Conv2D(it, wt, tensor.ConvParams{Strides: []int{1, 1}, Paddings: pads, Dilations: []int{1, 1}, Groups: 2})
		require.NoError(t, err)
		return fT(y.Shape, y.Data...)
	}
	conv := func(in *Tensor) *Tensor { return convPad(in, []int{1, 1}) }
	zeros := fT(sh(1, 18, 5, 6))
	zeros.Data = make([]float64, 18*30)
	ones := fT(sh(1, 9, 5, 6))
	ones.Data = make([]float64, 9*30)
	for i := range ones.Data {
		ones.Data[i] = 1
	}
	// Δx = +1 on every tap samples one column to the right: a convolution padded 0 on the left and 2 on the right.
	shift := fT(sh(1, 18, 5, 6))
	shift.Data = make([]float64, 18*30)
	for tap := range 9 {
		for p := range 30 {
			shift.Data[(2*tap+1)*30+p] = 1
		}
	}
	attrs := []ir.NamedAttr{a(t, "strides", []int{1, 1}), a(t, "paddings", []int{1, 1}), a(t, "dilations", []int{1, 1}),
		a(t, "deformable_groups", 1), a(t, "groups", 2), a(t, "im2col_step", 1)}
	halfMask := fT(ones.Shape)
	halfMask.Data = make([]float64, len(ones.Data))
	for i := range halfMask.Data {
		halfMask.Data[i] = 0.5
	}
	half := conv(x)
	for i := range half.Data {
		half.Data[i] *= 0.5
	}
	runOpCases(t, []opCase{
		{name: "zero offsets are a convolution", op: "pd_op.deformable_conv", in: []any{x, zeros, w, nil}, attrs: attrs, want: []*Tensor{conv(x)}, tol: 1e-12, tol32: 1e-5},
		{name: "the mask scales the samples", op: "pd_op.deformable_conv", in: []any{x, zeros, w, halfMask}, attrs: attrs, want: []*Tensor{half}, tol: 1e-12, tol32: 1e-5},
		{name: "integer offsets shift the input", op: "pd_op.deformable_conv", in: []any{x, shift, w, ones}, attrs: attrs, want: []*Tensor{convPad(x, []int{1, 1, 0, 2})}, tol: 1e-12, tol32: 1e-5},
	})
}

// TestRNN checks the rnn op against the cell equations written out for one hidden unit.
func TestRNN(t *testing.T) {
	ctx := kctx(t)
	sig := func(v float64) float64 { return 1 / (1 + math.Exp(-v)) }
	xs := []float64{0.5, -1, 2}
	run := func(mode string, gates int, bidi bool, seq []float64) (*Tensor, *Tensor) {
		b := progtest.NewIn(t, ctx)
		dirs := 1
		if bidi {
			dirs = 2
		}
		x := b.Data("x", 3, 1, 1)
		var states []*ir.Value
		nStates := 1
		if mode == "LSTM" {
			nStates = 2
		}
		feed := &Feed{Inputs: map[string]*Tensor{"x": fT(sh(3, 1, 1), xs...)}}
		for k := range nStates {
			name := string(rune('h' + k))
			states = append(states, b.Data(name, int64(dirs), 1, 1))
			feed.Inputs[name] = fT(sh(dirs, 1, 1), make([]float64, dirs)...)
			feed.Inputs[name].Data[0] = 0.3
		}
		var ws []*ir.Value
		for i := range 4 * dirs {
			name := "w" + string(rune('0'+i))
			rows := []int64{int64(gates), 1}
			data := ramp(gates, 0.2, 0.1*float64(i)-0.3)
			if i >= 2*dirs {
				rows = []int64{int64(gates)}
			}
			ws = append(ws, b.Data(name, rows...))
			feed.Inputs[name] = fT(toInts(rows), data...)
		}
		combine := func(vs []*ir.Value) *ir.Value {
			var ts []ir.Type
			for _, v := range vs {
				ts = append(ts, v.Type())
			}
			return b.OpT("builtin.combine", vs, []ir.Type{ctx.Vector(ts...)}).Result(0)
		}
		var sl *ir.Value
		if seq != nil {
			sl = b.DataT("len", ir.DTypeInt32, 1)
			feed.Inputs["len"] = i32T(sh(1), seq...)
		}
		ds := b.DataT("ds", ir.DTypeUint8)
		feed.Inputs["ds"] = tt(ir.DTypeUint8, sh(), 0)
		stT := typeOf(ctx, fT(sh(dirs, 1, 1)))
		var stTypes []ir.Type
		for range nStates {
			stTypes = append(stTypes, stT)
		}
		// The GRU case declares the dropout state it does not keep as an empty float32, as PP-OCRv3's
		// recognizer does (operand: 0-d uint8, result: 0xf32); the others pass the operand's type through.
		dsOut := ds.Type()
		if mode == "GRU" {
			dsOut = typeOf(ctx, fT(sh(0)))
		}
		op := b.OpT("pd_op.rnn", []*ir.Value{x, combine(states), combine(ws), sl, ds},
			[]ir.Type{typeOf(ctx, fT(sh(3, 1, dirs))), dsOut, ctx.Vector(stTypes...), typeOf(ctx, fT(sh(0)))},
			a(t, "mode", mode), a(t, "num_layers", 1), a(t, "hidden_size", 1), a(t, "input_size", 1), a(t, "is_bidirec", bidi), a(t, "is_test", true))
		b.Fetch(op.Result(0), "out", 0)
		st := b.OpT("builtin.split", []*ir.Value{op.Result(2)}, stTypes)
		b.Fetch(st.Result(0), "h", 1)
		b.Fetch(op.Result(1), "state", 2)
		out := eval(t, b.P, feed)
		if mode == "GRU" {
			requireTensorClose(t, fT(sh(0)), out["state"], 0, "dropout state")
		}
		return out["out"], out["h"]
	}
	// w_ih, w_hh (forward), [w_ih, w_hh backward], then the biases: element k of tensor i is 0.2k + 0.1i − 0.3.
	wv := func(i, k int) float64 { return 0.2*float64(k) + 0.1*float64(i) - 0.3 }
	t.Run("LSTM", func(t *testing.T) {
		h, c := 0.3, 0.3
		var want []float64
		for _, x := range xs {
			g := func(k int) float64 { return wv(0, k)*x + wv(2, k) + wv(1, k)*h + wv(3, k) }
			c = sig(g(1))*c + sig(g(0))*math.Tanh(g(2))
			h = sig(g(3)) * math.Tanh(c)
			want = append(want, h)
		}
		out, hn := run("LSTM", 4, false, nil)
		requireTensorClose(t, fT(sh(3, 1, 1), want...), out, 1e-12, "out")
		requireTensorClose(t, fT(sh(1, 1, 1), h), hn, 1e-12, "h_n")
	})
	t.Run("GRU", func(t *testing.T) {
		h := 0.3
		var want []float64
		for _, x := range xs {
			gx := func(k int) float64 { return wv(0, k)*x + wv(2, k) }
			gh := func(k int) float64 { return wv(1, k)*h + wv(3, k) }
			r, z := sig(gx(0)+gh(0)), sig(gx(1)+gh(1))
			n := math.Tanh(gx(2) + r*gh(2))
			h = (h-n)*z + n
			want = append(want, h)
		}
		out, _ := run("GRU", 3, false, nil)
		requireTensorClose(t, fT(sh(3, 1, 1), want...), out, 1e-12, "out")
	})
	t.Run("bidirectional RNN_TANH with a sequence length", func(t *testing.T) {
		// Forward: steps 0 and 1; backward: from step 1 down to 0 (length 2); step 2 outputs 0.
		step := func(dir int, x, h float64) float64 {
			return math.Tanh(wv(2*dir, 0)*x + wv(2*dir+4, 0) + wv(2*dir+1, 0)*h + wv(2*dir+5, 0))
		}
		f0 := step(0, xs[0], 0.3)
		f1 := step(0, xs[1], f0)
		b1 := step(1, xs[1], 0)
		b0 := step(1, xs[0], b1)
		out, hn := run("RNN_TANH", 1, true, []float64{2})
		requireTensorClose(t, fT(sh(3, 1, 2), f0, b0, f1, b1, 0, 0), out, 1e-12, "out")
		requireTensorClose(t, fT(sh(2, 1, 1), f1, b0), hn, 1e-12, "h_n")
	})
}

func toInts(d []int64) []int {
	out := make([]int, len(d))
	for i, v := range d {
		out[i] = int(v)
	}
	return out
}
