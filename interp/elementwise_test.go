package interp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/ir"
)

var actIn = []float64{-4, -1, 0, 0.5, 3, 7}

func f32(x float64) float64 { return float64(float32(x)) }

func sig(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func mapf(xs []float64, f func(float64) float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

func TestUnaryOps(t *testing.T) {
	pos := []float64{0.25, 1, 4, 9}
	tests := []struct {
		name  string
		in    []float64
		build func(b *progtest.Builder, x *ir.Value) *ir.Value
		want  []float64
	}{
		{"relu", actIn, nil, []float64{0, 0, 0, 0.5, 3, 7}},
		{"relu6", actIn, nil, []float64{0, 0, 0, 0.5, 3, 6}},
		{"sigmoid", actIn, nil, mapf(actIn, sig)},
		{"swish", actIn, nil, mapf(actIn, func(x float64) float64 { return x * sig(x) })},
		{"silu", actIn, nil, mapf(actIn, func(x float64) float64 { return x * sig(x) })},
		{"hardswish", actIn, nil, []float64{0, -1.0 / 3, 0, 0.5 * 3.5 / 6, 3, 7}},
		// The defaults are float32 attributes: slope 0.2f, offset 0.5f, negative_slope 0.02f.
		{"hardsigmoid", actIn, nil, mapf(actIn, func(x float64) float64 { return math.Min(1, math.Max(0, f32(0.2)*x+0.5)) })},
		{"hardsigmoid slope 1/6", actIn, func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.VA("pd_op.hardsigmoid", []*ir.Value{x}, progtest.Attr("slope", b.Ctx.Float(float32(1.0/6))), progtest.Attr("offset", b.Ctx.Float(0.5)))
		}, mapf(actIn, func(x float64) float64 { return math.Min(1, math.Max(0, float64(float32(1.0/6))*x+0.5)) })},
		{"leaky_relu", actIn, nil, []float64{-4 * f32(0.02), -f32(0.02), 0, 0.5, 3, 7}},
		{"leaky_relu slope 0.5", actIn, func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.VA("pd_op.leaky_relu", []*ir.Value{x}, progtest.Attr("negative_slope", b.Ctx.Float(0.5)))
		}, []float64{-2, -0.5, 0, 0.5, 3, 7}},
		{"tanh", actIn, nil, mapf(actIn, math.Tanh)},
		{"sqrt", pos, nil, []float64{0.5, 1, 2, 3}},
		{"rsqrt", pos, nil, []float64{2, 1, 0.5, 1.0 / 3}},
		{"exp", actIn, nil, mapf(actIn, math.Exp)},
		{"log", pos, nil, mapf(pos, math.Log)},
		{"abs", actIn, nil, []float64{4, 1, 0, 0.5, 3, 7}},
		{"floor", []float64{-1.5, 1.5}, nil, []float64{-2, 1}},
		{"ceil", []float64{-1.5, 1.5}, nil, []float64{-1, 2}},
		{"reciprocal", pos, nil, []float64{4, 1, 0.25, 1.0 / 9}},
		{"square", actIn, nil, []float64{16, 1, 0, 0.25, 9, 49}},
		{"sign", actIn, nil, []float64{-1, -1, 0, 1, 1, 1}},
		{"erf", actIn, nil, mapf(actIn, math.Erf)},
		{"sin", actIn, nil, mapf(actIn, math.Sin)},
		{"cos", actIn, nil, mapf(actIn, math.Cos)},
		{"elu", actIn, nil, mapf(actIn, func(x float64) float64 {
			if x > 0 {
				return x
			}
			return math.Exp(x) - 1
		})},
		{"gelu", actIn, nil, mapf(actIn, func(x float64) float64 { return 0.5 * x * (1 + math.Erf(x/math.Sqrt2)) })},
		{"gelu approximate", actIn, func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.VA("pd_op.gelu", []*ir.Value{x}, progtest.Attr("approximate", b.Ctx.Bool(true)))
		}, mapf(actIn, func(x float64) float64 {
			return 0.5 * x * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(x+0.044715*x*x*x)))
		})},
		{"scale", actIn, func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.VA("pd_op.scale", []*ir.Value{x, b.Full([]int64{1}, 2)}, progtest.Attr("bias", b.Ctx.Float(1)))
		}, mapf(actIn, func(x float64) float64 { return 2*x + 1 })},
		{"scale bias before", actIn, func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.VA("pd_op.scale", []*ir.Value{x, b.Full([]int64{1}, 2)}, progtest.Attr("bias", b.Ctx.Float(1)),
				progtest.Attr("bias_after_scale", b.Ctx.Bool(false)))
		}, mapf(actIn, func(x float64) float64 { return 2 * (x + 1) })},
		{"pow", actIn, func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.OpT("pd_op.pow", []*ir.Value{x}, []ir.Type{x.Type()}, progtest.Attr("y", b.Ctx.Float(3))).Result(0)
		}, mapf(actIn, func(x float64) float64 { return x * x * x })},
		{"clip", actIn, func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.V("pd_op.clip", x, b.Full([]int64{1}, -1), b.Full([]int64{1}, 2))
		}, []float64{-1, -1, 0, 0.5, 2, 2}},
		{"increment", actIn, func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.VA("pd_op.increment", []*ir.Value{x}, progtest.Attr("value", b.Ctx.Float(2)))
		}, mapf(actIn, func(x float64) float64 { return x + 2 })},
		{"assign", actIn, nil, actIn},
		{"logical_not", []float64{0, 1, 2}, func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.OpT("pd_op.logical_not", []*ir.Value{x}, []ir.Type{b.TensorT(ir.DTypeBool, 3)}).Result(0)
		}, []float64{1, 0, 0}},
		{"isnan", []float64{math.NaN(), 1}, func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.OpT("pd_op.isnan", []*ir.Value{x}, []ir.Type{b.TensorT(ir.DTypeBool, 2)}).Result(0)
		}, []float64{1, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := progtest.New(t)
			x := b.Data("x", int64(len(tc.in)))
			var y *ir.Value
			if tc.build != nil {
				y = tc.build(b, x)
			} else {
				y = b.V("pd_op."+tc.name, x)
			}
			b.Fetch(y, "out", 0)
			out := eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"x": host([]int{len(tc.in)}, tc.in...)}})
			require.Len(t, out["out"].Data, len(tc.want))
			for i, w := range tc.want {
				assert.InDelta(t, w, out["out"].Data[i], 1e-12, "element %d", i)
			}
		})
	}
}

func TestBinaryOpsBroadcast(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5, 6} // [2, 3]
	y := []float64{2, -1, 0.5}       // [3]
	b2f := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	zip := func(f func(a, b float64) float64) []float64 {
		out := make([]float64, 6)
		for i := range out {
			out[i] = f(x[i], y[i%3])
		}
		return out
	}
	tests := []struct {
		name string
		bool bool
		f    func(a, b float64) float64
	}{
		{"add", false, func(a, b float64) float64 { return a + b }},
		{"subtract", false, func(a, b float64) float64 { return a - b }},
		{"multiply", false, func(a, b float64) float64 { return a * b }},
		{"divide", false, func(a, b float64) float64 { return a / b }},
		{"maximum", false, math.Max},
		{"minimum", false, math.Min},
		{"elementwise_pow", false, math.Pow},
		{"equal", true, func(a, b float64) float64 { return b2f(a == b*2) }},
		{"not_equal", true, func(a, b float64) float64 { return b2f(a != b*2) }},
		{"less_than", true, func(a, b float64) float64 { return b2f(a < b*2) }},
		{"less_equal", true, func(a, b float64) float64 { return b2f(a <= b*2) }},
		{"greater_than", true, func(a, b float64) float64 { return b2f(a > b*2) }},
		{"greater_equal", true, func(a, b float64) float64 { return b2f(a >= b*2) }},
		{"logical_and", true, func(a, b float64) float64 { return b2f(a != 0 && b*2 != 0) }},
		{"logical_or", true, func(a, b float64) float64 { return b2f(a != 0 || b*2 != 0) }},
		{"logical_xor", true, func(a, b float64) float64 { return b2f((a != 0) != (b*2 != 0)) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := progtest.New(t)
			xv := b.Data("x", 2, 3)
			yv := b.Data("y", 3)
			yin := y
			if tc.bool {
				// Comparisons use y·2 = [4, -2, 1] so that some elements are equal.
				yin = []float64{4, -2, 1}
			}
			b.Fetch(b.V("pd_op."+tc.name, xv, yv), "out", 0)
			out := eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"x": host([]int{2, 3}, x...), "y": host([]int{3}, yin...)}})
			assert.Equal(t, []int{2, 3}, out["out"].Shape)
			want := zip(tc.f)
			for i := range want {
				assert.InDelta(t, want[i], out["out"].Data[i], 1e-12, "element %d", i)
			}
			if tc.bool {
				assert.Equal(t, ir.DTypeBool, out["out"].DType)
			}
		})
	}
}

func TestIntegerSemantics(t *testing.T) {
	b := progtest.New(t)
	x := b.DataT("x", ir.DTypeInt64, 4)
	y := b.DataT("y", ir.DTypeInt64, 4)
	b.Fetch(b.V("pd_op.divide", x, y), "div", 0)
	f := b.DataT("f", ir.DTypeFloat32, 4)
	b.Fetch(b.VA("pd_op.cast", []*ir.Value{f}, progtest.Attr("dtype", b.Ctx.DataType(ir.DTypeInt32))), "cast", 1)
	b.Fetch(b.VA("pd_op.cast", []*ir.Value{f}, progtest.Attr("dtype", b.Ctx.DataType(ir.DTypeBool))), "bool", 2)
	feed := &Feed{Inputs: map[string]*Tensor{
		"x": {DType: ir.DTypeInt64, Shape: []int{4}, Data: []float64{7, -7, 6, 1}},
		"y": {DType: ir.DTypeInt64, Shape: []int{4}, Data: []float64{2, 2, 3, 5}},
		"f": host([]int{4}, 1.7, -1.7, 0, 0.2),
	}}
	out := eval(t, b.P, feed)
	assert.Equal(t, []float64{3, -3, 2, 0}, out["div"].Data, "integer division truncates toward zero")
	assert.Equal(t, []float64{1, -1, 0, 0}, out["cast"].Data)
	assert.Equal(t, ir.DTypeInt32, out["cast"].DType)
	assert.Equal(t, []float64{1, 1, 0, 1}, out["bool"].Data)

	feed.Inputs["y"].Data[0] = 0
	_, err := Evaluate(b.P, feed, Options{})
	assert.ErrorContains(t, err, "integer division by zero")
}

func TestFloat32Precision(t *testing.T) {
	b := progtest.New(t)
	x := b.Data("x", 1)
	b.Fetch(b.V("pd_op.add", x, b.Full([]int64{1}, 1e-9)), "out", 0)
	feed := &Feed{Inputs: map[string]*Tensor{"x": host([]int{1}, 1)}}
	r64, err := Evaluate(b.P, feed, Options{})
	require.NoError(t, err)
	r32, err := Evaluate(b.P, feed, Options{Precision: Float32})
	require.NoError(t, err)
	assert.Equal(t, 1+1e-9, r64.Outputs[0].Value.Data[0])
	assert.Equal(t, 1.0, r32.Outputs[0].Value.Data[0], "1+1e-9 rounds to 1 in float32")
	assert.Equal(t, "float32", Float32.String())
	assert.Equal(t, "float64", Float64.String())
}
