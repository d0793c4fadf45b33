package interp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

func toT(h *Tensor) *tensor.Tensor[float64] {
	return &tensor.Tensor[float64]{Shape: h.Shape, Data: h.Data}
}

func assertClose(t *testing.T, want *tensor.Tensor[float64], got *Tensor, tol float64) {
	t.Helper()
	require.Equal(t, want.Shape, got.Shape)
	for i := range want.Data {
		if math.Abs(want.Data[i]-got.Data[i]) > tol {
			t.Fatalf("element %d: want %v, got %v", i, want.Data[i], got.Data[i])
		}
	}
}

func TestConv2DHandComputed(t *testing.T) {
	b := progtest.New(t)
	x := b.Data("x", 1, 1, 3, 3)
	w := b.Param("w", 1, 1, 2, 2)
	b.Fetch(b.V("pd_op.conv2d", x, w), "out", 0)
	setData(t, b.P, "w", host([]int{1, 1, 2, 2}, 1, 1, 1, 1))
	out := eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"x": host([]int{1, 1, 3, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 9)}})
	assert.Equal(t, []float64{12, 16, 24, 28}, out["out"].Data)
	assert.Equal(t, []int{1, 1, 2, 2}, out["out"].Shape)
}

func TestConvAgainstKernels(t *testing.T) {
	tests := []struct {
		name    string
		op      string
		in, w   []int
		strides []int64
		pads    []int64
		dil     []int64
		groups  int64
		algo    string
		format  string
	}{
		{"plain", "pd_op.conv2d", []int{2, 3, 9, 9}, []int{4, 3, 3, 3}, nil, nil, nil, 1, "", ""},
		{"stride pad", "pd_op.conv2d", []int{1, 3, 10, 9}, []int{5, 3, 3, 3}, []int64{2, 2}, []int64{1, 1}, nil, 1, "", ""},
		{"4 paddings", "pd_op.conv2d", []int{1, 2, 7, 8}, []int{3, 2, 3, 2}, []int64{1, 2}, []int64{0, 1, 2, 1}, nil, 1, "", ""},
		{"dilation", "pd_op.conv2d", []int{1, 2, 11, 11}, []int{2, 2, 3, 3}, nil, []int64{2, 2}, []int64{2, 2}, 1, "", ""},
		{"groups", "pd_op.conv2d", []int{1, 4, 6, 6}, []int{6, 2, 3, 3}, nil, []int64{1, 1}, nil, 2, "", ""},
		{"SAME", "pd_op.conv2d", []int{1, 3, 7, 8}, []int{4, 3, 3, 3}, []int64{2, 2}, []int64{5, 5}, nil, 1, "SAME", ""},
		{"VALID", "pd_op.conv2d", []int{1, 3, 7, 8}, []int{4, 3, 3, 3}, nil, []int64{5, 5}, nil, 1, "VALID", ""},
		{"NHWC", "pd_op.conv2d", []int{2, 7, 6, 3}, []int{4, 3, 3, 3}, []int64{2, 1}, []int64{1, 1}, nil, 1, "", "NHWC"},
		{"depthwise", "pd_op.depthwise_conv2d", []int{1, 8, 9, 9}, []int{8, 1, 3, 3}, []int64{2, 2}, []int64{1, 1}, nil, 8, "", ""},
		{"depthwise NHWC", "pd_op.depthwise_conv2d", []int{1, 9, 9, 8}, []int{8, 1, 3, 3}, nil, []int64{1, 1}, nil, 8, "", "NHWC"},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := progtest.New(t)
			x := b.Data("x", toI64(tc.in)...)
			w := b.Param("w", toI64(tc.w)...)
			attrs := []ir.NamedAttr{progtest.Attr("groups", b.Ctx.Int32(int32(tc.groups)))}
			p := tensor.ConvParams{Groups: int(tc.groups), PaddingAlgorithm: tc.algo, DataFormat: tc.format}
			if tc.strides != nil {
				attrs = append(attrs, progtest.Attr("strides", b.I32s(tc.strides...)))
				p.Strides = toInt(tc.strides)
			}
			if tc.pads != nil {
				attrs = append(attrs, progtest.Attr("paddings", b.I32s(tc.pads...)))
				p.Paddings = toInt(tc.pads)
			}
			if tc.dil != nil {
				attrs = append(attrs, progtest.Attr("dilations", b.I32s(tc.dil...)))
				p.Dilations = toInt(tc.dil)
			}
			if tc.algo != "" {
				attrs = append(attrs, progtest.Attr("padding_algorithm", b.Ctx.Str(tc.algo)))
			}
			if tc.format != "" {
				attrs = append(attrs, progtest.Attr("data_format", b.Ctx.Str(tc.format)))
			}
			b.Fetch(b.VA(tc.op, []*ir.Value{x, w}, attrs...), "out", 0)
			xin, win := randHost(uint64(i), tc.in...), randHost(uint64(100+i), tc.w...)
			out := eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"x": xin}, Params: map[string]*Tensor{"w": win}})
			want, err := tensor.Conv2D(toT(xin), toT(win), p)
			require.NoError(t, err)
			assertClose(t, want, out["out"], 0)
		})
	}
}

func toI64(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

func toInt(v []int64) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}

func TestConv2DTranspose(t *testing.T) {
	b := progtest.New(t)
	x := b.Data("x", 1, 2, 4, 4)
	w := b.Param("w", 2, 3, 3, 3)
	b.Fetch(b.VA("pd_op.conv2d_transpose", []*ir.Value{x, w, b.Ints()}, progtest.Attr("strides", b.I32s(2, 2)),
		progtest.Attr("paddings", b.I32s(1, 1))), "out", 0)
	xin, win := randHost(1, 1, 2, 4, 4), randHost(2, 2, 3, 3, 3)
	out := eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"x": xin}, Params: map[string]*Tensor{"w": win}})
	want, err := tensor.Conv2DTranspose(toT(xin), toT(win), tensor.ConvTransposeParams{Strides: []int{2, 2}, Paddings: []int{1, 1}})
	require.NoError(t, err)
	assertClose(t, want, out["out"], 0)
}

func TestFusedConv2DAddAct(t *testing.T) {
	for _, act := range []string{"identity", "relu", "sigmoid", "swish", "leaky_relu"} {
		t.Run(act, func(t *testing.T) {
			b := progtest.New(t)
			x := b.Data("x", 1, 3, 6, 6)
			w := b.Param("w", 4, 3, 3, 3)
			bias := b.Param("bias", 1, 4, 1, 1)
			res := b.Data("r", 1, 4, 6, 6)
			op := b.Op("pd_op.fused_conv2d_add_act", []*ir.Value{x, w, bias, res}, progtest.Attr("paddings", b.I32s(1, 1)),
				progtest.Attr("activation", b.Ctx.Str(act)), progtest.Attr("fuse_alpha", b.Ctx.Float(0.25)))
			b.Fetch(op.Result(0), "out", 0)
			// The same math unfused: act(add(add(conv2d(x, w), bias), r)).
			conv := b.VA("pd_op.conv2d", []*ir.Value{x, w}, progtest.Attr("paddings", b.I32s(1, 1)))
			sum := b.V("pd_op.add", b.V("pd_op.add", conv, bias), res)
			switch act {
			case "identity":
			case "leaky_relu":
				sum = b.VA("pd_op.leaky_relu", []*ir.Value{sum}, progtest.Attr("negative_slope", b.Ctx.Float(0.25)))
			default:
				sum = b.V("pd_op."+act, sum)
			}
			b.Fetch(sum, "ref", 1)
			feed := &Feed{Inputs: map[string]*Tensor{"x": randHost(1, 1, 3, 6, 6), "r": randHost(2, 1, 4, 6, 6)},
				Params: map[string]*Tensor{"w": randHost(3, 4, 3, 3, 3), "bias": randHost(4, 1, 4, 1, 1)}}
			out := eval(t, b.P, feed)
			assertClose(t, toT(out["ref"]), out["out"], 1e-12)
		})
	}
}

func TestFusedConvRefusesSplitChannels(t *testing.T) {
	b := progtest.New(t)
	x := b.Data("x", 1, 3, 6, 6)
	w := b.Param("w", 4, 3, 3, 3)
	b.Fetch(b.VA("pd_op.fused_conv2d_add_act", []*ir.Value{x, w, nil, nil}, progtest.Attr("split_channels", b.I32s(2, 2))), "out", 0)
	_, err := Evaluate(b.P, &Feed{Inputs: map[string]*Tensor{"x": randHost(1, 1, 3, 6, 6)},
		Params: map[string]*Tensor{"w": randHost(3, 4, 3, 3, 3)}}, Options{})
	require.ErrorIs(t, err, ErrUnsupported)
	assert.EqualError(t, err, "cannot evaluate pd_op.fused_conv2d_add_act at (new op): split_channels [2 2]")
}

func TestPool2D(t *testing.T) {
	tests := []struct {
		name string
		k    []int64
		p    tensor.PoolParams
	}{
		{"max 3x3 s2 p1", []int64{3, 3}, tensor.PoolParams{Strides: []int{2, 2}, Paddings: []int{1, 1}, PoolingType: "max", Exclusive: true}},
		{"avg exclusive", []int64{3, 3}, tensor.PoolParams{Strides: []int{2, 2}, Paddings: []int{1, 1}, PoolingType: "avg", Exclusive: true}},
		{"avg inclusive", []int64{3, 3}, tensor.PoolParams{Strides: []int{2, 2}, Paddings: []int{1, 1}, PoolingType: "avg"}},
		{"avg ceil", []int64{2, 2}, tensor.PoolParams{Strides: []int{2, 2}, CeilMode: true, PoolingType: "avg", Exclusive: true}},
		{"global", []int64{1, 1}, tensor.PoolParams{GlobalPooling: true, PoolingType: "avg", Exclusive: true}},
		{"adaptive", []int64{2, 3}, tensor.PoolParams{Adaptive: true, PoolingType: "avg", Exclusive: true}},
		{"NHWC", []int64{2, 2}, tensor.PoolParams{Strides: []int{2, 2}, PoolingType: "max", DataFormat: "NHWC", Exclusive: true}},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := progtest.New(t)
			shape := []int{2, 3, 7, 7}
			x := b.Data("x", toI64(shape)...)
			c := b.Ctx
			str := func(s string, def string) ir.Attribute {
				if s == "" {
					s = def
				}
				return c.Str(s)
			}
			pair := func(v []int, def int64) ir.Attribute {
				if v == nil {
					return b.I32s(def, def)
				}
				return b.I32s(toI64(v)...)
			}
			b.Fetch(b.VA("pd_op.pool2d", []*ir.Value{x, b.Ints(tc.k...)},
				progtest.Attr("strides", pair(tc.p.Strides, 1)), progtest.Attr("paddings", pair(tc.p.Paddings, 0)),
				progtest.Attr("ceil_mode", c.Bool(tc.p.CeilMode)), progtest.Attr("exclusive", c.Bool(tc.p.Exclusive)),
				progtest.Attr("data_format", str(tc.p.DataFormat, "NCHW")), progtest.Attr("pooling_type", c.Str(tc.p.PoolingType)),
				progtest.Attr("global_pooling", c.Bool(tc.p.GlobalPooling)), progtest.Attr("adaptive", c.Bool(tc.p.Adaptive)),
				progtest.Attr("padding_algorithm", c.Str("EXPLICIT"))), "out", 0)
			xin := randHost(uint64(i), shape...)
			out := eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"x": xin}})
			tc.p.KernelSize = toInt(tc.k)
			want, err := tensor.Pool2D(toT(xin), tc.p)
			require.NoError(t, err)
			assertClose(t, want, out["out"], 0)
		})
	}
}

func TestPoolExclusiveDefaultsToTrue(t *testing.T) {
	// pool2d's attributes have no schema defaults; a missing exclusive means Paddle's default, true.
	b := progtest.New(t)
	x := b.Data("x", 1, 1, 2, 2)
	op := b.OpT("pd_op.pool2d", []*ir.Value{x, b.Ints(2, 2)}, []ir.Type{b.TensorT(ir.DTypeFloat32, 1, 1, 3, 3)},
		progtest.Attr("paddings", b.I32s(1, 1)), progtest.Attr("pooling_type", b.Ctx.Str("avg")))
	b.Fetch(op.Result(0), "out", 0)
	out := eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"x": host([]int{1, 1, 2, 2}, 1, 2, 3, 4)}})
	// Top-left window covers only x[0,0] (the rest is padding): exclusive average 1.
	assert.Equal(t, 1.0, out["out"].Data[0])
}

func TestMatmulAndFC(t *testing.T) {
	b := progtest.New(t)
	x := b.Data("x", 2, 3)
	y := b.Data("y", 4, 3)
	b.Fetch(b.VA("pd_op.matmul", []*ir.Value{x, y}, progtest.Attr("transpose_y", b.Ctx.Bool(true))), "mm", 0)
	w := b.Param("w", 3, 4)
	bias := b.Param("bias", 4)
	b.Fetch(b.OpT("pd_op.fc", []*ir.Value{x, w, bias}, []ir.Type{b.TensorT(ir.DTypeFloat32, 2, 4)},
		progtest.Attr("activation_type", b.Ctx.Str("relu"))).Result(0), "fc", 1)
	xin, yin := randHost(1, 2, 3), randHost(2, 4, 3)
	win, bin := randHost(3, 3, 4), randHost(4, 4)
	out := eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"x": xin, "y": yin}, Params: map[string]*Tensor{"w": win, "bias": bin}})
	want, err := tensor.Matmul(toT(xin), toT(yin), false, true)
	require.NoError(t, err)
	assertClose(t, want, out["mm"], 1e-15)
	mm, err := tensor.Matmul(toT(xin), toT(win), false, false)
	require.NoError(t, err)
	sum, err := tensor.Add(mm, toT(bin))
	require.NoError(t, err)
	fc, err := tensor.Relu(sum)
	require.NoError(t, err)
	assertClose(t, fc, out["fc"], 1e-15)
}

// bnProgram builds x → batch_norm_ → fetch, with the statistics outputs fetched too.
func bnProgram(t *testing.T, isTest, global bool, format string, xdims ...int64) *progtest.Builder {
	b := progtest.New(t)
	x := b.Data("x", xdims...)
	c := xdims[1]
	if format == "NHWC" {
		c = xdims[len(xdims)-1]
	}
	mean, vr := b.Param("mean", c), b.Param("var", c)
	scale, bias := b.Param("scale", c), b.Param("bias", c)
	bn := b.Op("pd_op.batch_norm_", []*ir.Value{x, mean, vr, scale, bias},
		progtest.Attr("is_test", b.Ctx.Bool(isTest)), progtest.Attr("momentum", b.Ctx.Float(0.9)), progtest.Attr("epsilon", b.Ctx.Float(1e-5)),
		progtest.Attr("data_format", b.Ctx.Str(format)), progtest.Attr("use_global_stats", b.Ctx.Bool(global)),
		progtest.Attr("trainable_statistics", b.Ctx.Bool(false)))
	b.Fetch(bn.Result(0), "y", 0)
	b.Fetch(bn.Result(1), "mean_out", 1)
	b.Fetch(bn.Result(2), "var_out", 2)
	b.Fetch(bn.Result(3), "saved_mean", 3)
	// Reading the parameters again shows whether the running statistics were written.
	b.Fetch(b.V("pd_op.assign", b.Param("mean", c)), "mean_after", 4)
	return b
}

func TestBatchNormInference(t *testing.T) {
	for _, tc := range []struct {
		name   string
		isTest bool
		global bool
	}{{"is_test", true, false}, {"use_global_stats", false, true}} {
		t.Run(tc.name, func(t *testing.T) {
			b := bnProgram(t, tc.isTest, tc.global, "NCHW", 1, 2, 1, 2)
			eps := float64(float32(1e-5))
			feed := &Feed{Inputs: map[string]*Tensor{"x": host([]int{1, 2, 1, 2}, 1, 3, 10, 20)},
				Params: map[string]*Tensor{"mean": host([]int{2}, 2, 10), "var": host([]int{2}, 4, 25),
					"scale": host([]int{2}, 1, 2), "bias": host([]int{2}, 0, 1)}}
			out := eval(t, b.P, feed)
			want := []float64{(1 - 2) / math.Sqrt(4+eps), (3 - 2) / math.Sqrt(4+eps),
				1 + 2*0/math.Sqrt(25+eps), 1 + 2*(20-10)/math.Sqrt(25+eps)}
			for i := range want {
				assert.InDelta(t, want[i], out["y"].Data[i], 1e-12)
			}
			assert.Equal(t, []float64{2, 10}, out["mean_out"].Data)
			assert.Equal(t, []float64{4, 25}, out["var_out"].Data)
			assert.Equal(t, []float64{2, 10}, out["mean_after"].Data, "inference leaves the running mean alone")
		})
	}
}

func TestBatchNormTraining(t *testing.T) {
	for _, format := range []string{"NCHW", "NHWC"} {
		t.Run(format, func(t *testing.T) {
			var b *progtest.Builder
			var xin *Tensor
			if format == "NCHW" {
				b = bnProgram(t, false, false, format, 2, 2, 1, 2)
				// channel 0: 1, 3, 5, 7; channel 1: 2, 2, 6, 6
				xin = host([]int{2, 2, 1, 2}, 1, 3, 2, 2, 5, 7, 6, 6)
			} else {
				b = bnProgram(t, false, false, format, 2, 1, 2, 2)
				xin = host([]int{2, 1, 2, 2}, 1, 2, 3, 2, 5, 6, 7, 6)
			}
			eps := float64(float32(1e-5))
			mom := float64(float32(0.9))
			feed := &Feed{Inputs: map[string]*Tensor{"x": xin},
				Params: map[string]*Tensor{"mean": host([]int{2}, 0, 0), "var": host([]int{2}, 1, 1),
					"scale": host([]int{2}, 1, 1), "bias": host([]int{2}, 0, 0)}}
			out := eval(t, b.P, feed)
			// Batch statistics: channel 0 mean 4, biased var 5; channel 1 mean 4, var 4.
			s0, s1 := math.Sqrt(5+eps), math.Sqrt(4+eps)
			var want []float64
			if format == "NCHW" {
				want = []float64{-3 / s0, -1 / s0, -2 / s1, -2 / s1, 1 / s0, 3 / s0, 2 / s1, 2 / s1}
			} else {
				want = []float64{-3 / s0, -2 / s1, -1 / s0, -2 / s1, 1 / s0, 2 / s1, 3 / s0, 2 / s1}
			}
			for i := range want {
				assert.InDelta(t, want[i], out["y"].Data[i], 1e-12, "y[%d]", i)
			}
			assert.InDeltaSlice(t, []float64{4 * (1 - mom), 4 * (1 - mom)}, out["mean_out"].Data, 1e-12)
			assert.InDeltaSlice(t, []float64{mom + 5*(1-mom), mom + 4*(1-mom)}, out["var_out"].Data, 1e-12)
			assert.Equal(t, []float64{4, 4}, out["saved_mean"].Data)
			assert.InDeltaSlice(t, out["mean_out"].Data, out["mean_after"].Data, 0,
				"training writes the running mean into the parameter")
		})
	}
}

func TestBatchNormTrainingSingleElement(t *testing.T) {
	b := bnProgram(t, false, false, "NCHW", 1, 2, 1, 1)
	feed := &Feed{Inputs: map[string]*Tensor{"x": host([]int{1, 2, 1, 1}, 3, -4)},
		Params: map[string]*Tensor{"mean": host([]int{2}, 1, 1), "var": host([]int{2}, 1, 1),
			"scale": host([]int{2}, 2, 2), "bias": host([]int{2}, 0, 0)}}
	out := eval(t, b.P, feed)
	assert.Equal(t, []float64{3, -4}, out["y"].Data, "Paddle copies x when each channel has one element")
	assert.Equal(t, []float64{1, 1}, out["mean_after"].Data)
}

func TestBatchNormNonInplaceTrainingWritesThroughView(t *testing.T) {
	b := progtest.New(t)
	x := b.Data("x", 2, 1)
	mean, vr := b.Param("mean", 1), b.Param("var", 1)
	bn := b.Op("pd_op.batch_norm", []*ir.Value{x, mean, vr, nil, nil},
		progtest.Attr("is_test", b.Ctx.Bool(false)), progtest.Attr("momentum", b.Ctx.Float(0.5)), progtest.Attr("epsilon", b.Ctx.Float(0)),
		progtest.Attr("data_format", b.Ctx.Str("NCHW")), progtest.Attr("use_global_stats", b.Ctx.Bool(false)),
		progtest.Attr("trainable_statistics", b.Ctx.Bool(false)))
	b.Fetch(bn.Result(0), "y", 0)
	b.Fetch(b.V("pd_op.assign", mean), "mean_after", 1)
	out := eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"x": host([]int{2, 1}, 1, 3)},
		Params: map[string]*Tensor{"mean": host([]int{1}, 0), "var": host([]int{1}, 1)}})
	assert.Equal(t, []float64{-1, 1}, out["y"].Data, "no scale and bias mean 1 and 0")
	assert.Equal(t, []float64{1}, out["mean_after"].Data, "0.5·0 + 0.5·2")
}
