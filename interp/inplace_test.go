package interp_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
)

// TestInplaceVariants checks, for every inplace op evaluated through its non-inplace kernel, that X_ computes what
// X computes AND writes it into its operand's buffer: a view of the operand taken before X_ sees the result.
func TestInplaceVariants(t *testing.T) {
	mixed := []float64{-0.5, 1, 2, 3, 4, 5}
	positive := []float64{0.5, 1, 2, 3, 4, 5}
	unary := func(name string) func(b *progtest.Builder, a *ir.Value, suffix string) *ir.Value {
		return func(b *progtest.Builder, a *ir.Value, suffix string) *ir.Value { return b.V(name+suffix, a) }
	}
	withY := func(name string) func(b *progtest.Builder, a *ir.Value, suffix string) *ir.Value {
		return func(b *progtest.Builder, a *ir.Value, suffix string) *ir.Value {
			return b.V(name+suffix, a, b.Full([]int64{3}, 1.5))
		}
	}
	tests := []struct {
		name  string
		build func(b *progtest.Builder, a *ir.Value, suffix string) *ir.Value
	}{
		{"relu", unary("pd_op.relu")},
		{"sigmoid", unary("pd_op.sigmoid")},
		{"tanh", unary("pd_op.tanh")},
		{"sqrt", unary("pd_op.sqrt")},
		{"rsqrt", unary("pd_op.rsqrt")},
		{"exp", unary("pd_op.exp")},
		{"log", unary("pd_op.log")},
		{"abs", unary("pd_op.abs")},
		{"floor", unary("pd_op.floor")},
		{"ceil", unary("pd_op.ceil")},
		{"reciprocal", unary("pd_op.reciprocal")},
		{"erf", unary("pd_op.erf")},
		{"sin", unary("pd_op.sin")},
		{"cos", unary("pd_op.cos")},
		{"assign", unary("pd_op.assign")},
		{"leaky_relu", func(b *progtest.Builder, a *ir.Value, s string) *ir.Value {
			return b.VA("pd_op.leaky_relu"+s, []*ir.Value{a}, progtest.Attr("negative_slope", b.Ctx.Float(0.1)))
		}},
		{"elu", func(b *progtest.Builder, a *ir.Value, s string) *ir.Value {
			return b.VA("pd_op.elu"+s, []*ir.Value{a}, progtest.Attr("alpha", b.Ctx.Float(0.5)))
		}},
		{"scale", func(b *progtest.Builder, a *ir.Value, s string) *ir.Value {
			return b.VA("pd_op.scale"+s, []*ir.Value{a, b.Full([]int64{1}, -2)}, progtest.Attr("bias", b.Ctx.Float(0.5)))
		}},
		{"pow", func(b *progtest.Builder, a *ir.Value, s string) *ir.Value {
			return b.OpT("pd_op.pow"+s, []*ir.Value{a}, []ir.Type{a.Type()}, progtest.Attr("y", b.Ctx.Float(2))).Result(0)
		}},
		{"clip", func(b *progtest.Builder, a *ir.Value, s string) *ir.Value {
			return b.V("pd_op.clip"+s, a, b.Full([]int64{1}, 1), b.Full([]int64{1}, 3))
		}},
		{"increment", func(b *progtest.Builder, a *ir.Value, s string) *ir.Value {
			return b.VA("pd_op.increment"+s, []*ir.Value{a}, progtest.Attr("value", b.Ctx.Float(3)))
		}},
		{"softmax", func(b *progtest.Builder, a *ir.Value, s string) *ir.Value {
			return b.VA("pd_op.softmax"+s, []*ir.Value{a}, progtest.Attr("axis", b.Ctx.Int32(-1)))
		}},
		{"cast", func(b *progtest.Builder, a *ir.Value, s string) *ir.Value {
			return b.VA("pd_op.cast"+s, []*ir.Value{a}, progtest.Attr("dtype", b.Ctx.DataType(ir.DTypeFloat64)))
		}},
		{"transpose", func(b *progtest.Builder, a *ir.Value, s string) *ir.Value {
			return b.VA("pd_op.transpose"+s, []*ir.Value{a}, progtest.Attr("perm", b.I32s(1, 0)))
		}},
		{"add", withY("pd_op.add")},
		{"subtract", withY("pd_op.subtract")},
		{"multiply", withY("pd_op.multiply")},
		{"divide", withY("pd_op.divide")},
		{"reshape", func(b *progtest.Builder, a *ir.Value, s string) *ir.Value {
			return b.V("pd_op.reshape"+s, a, b.Ints(3, 2))
		}},
		{"unsqueeze", func(b *progtest.Builder, a *ir.Value, s string) *ir.Value {
			return b.V("pd_op.unsqueeze"+s, a, b.Ints(0))
		}},
		{"squeeze", func(b *progtest.Builder, a *ir.Value, s string) *ir.Value {
			return b.V("pd_op.squeeze"+s, b.V("pd_op.unsqueeze", a, b.Ints(0)), b.Ints(0))
		}},
		{"flatten", func(b *progtest.Builder, a *ir.Value, s string) *ir.Value {
			return b.VA("pd_op.flatten"+s, []*ir.Value{a}, progtest.Attr("start_axis", b.Ctx.Int32(0)), progtest.Attr("stop_axis", b.Ctx.Int32(1)))
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name+"_", func(t *testing.T) {
			in := mixed
			if tc.name == "sqrt" || tc.name == "rsqrt" || tc.name == "log" {
				in = positive
			}
			b := progtest.New(t)
			x := b.Data("x", 2, 3)
			ref := b.V("pd_op.reshape", tc.build(b, b.V("pd_op.assign", x), ""), b.Ints(-1))
			a := b.V("pd_op.assign", x)
			view := b.V("pd_op.reshape", a, b.Ints(-1))
			y := tc.build(b, a, "_")
			b.Fetch(ref, "ref", 0)
			b.Fetch(view, "view", 1)
			b.Fetch(b.V("pd_op.reshape", y, b.Ints(-1)), "y", 2)
			require.Empty(t, ir.Verify(b.P).Errors())
			out := interp.Eval(t, b.P, &interp.Feed{Inputs: map[string]*interp.Tensor{"x": interp.Host([]int{2, 3}, in...)}})
			assert.Equal(t, out["ref"].Data, out["y"].Data, "X_ computes what X computes")
			assert.Equal(t, out["ref"].Data, out["view"].Data, "X_ writes its operand's buffer")
			if tc.name != "assign" && tc.name != "cast" && tc.name != "reshape" && tc.name != "unsqueeze" &&
				tc.name != "squeeze" && tc.name != "flatten" {
				assert.NotEqual(t, in, out["view"].Data, "the op changes the values")
			}
			for _, v := range out["ref"].Data {
				assert.False(t, math.IsNaN(v))
			}
		})
	}
}

func TestFeedAndGetParameter(t *testing.T) {
	b := progtest.New(t)
	x := b.OpT("pd_op.feed", nil, []ir.Type{b.TensorT(ir.DTypeFloat32, -1, 2)},
		progtest.Attr("name", b.Ctx.Str("x")), progtest.Attr("col", b.Ctx.Int32(0))).Result(0)
	w := b.OpT(ir.GetParameterOpName, nil, []ir.Type{b.TensorT(ir.DTypeFloat32, 2)},
		progtest.Attr("parameter_name", b.Ctx.Str("w"))).Result(0)
	b.P.Params["w"] = &ir.Variable{Name: "w", Type: w.Type()}
	b.Fetch(b.V("pd_op.add", x, w), "out", 0)
	feed, err := feeds.Random(0, feeds.Options{Batch: 3}, b.P)
	require.NoError(t, err)
	assert.Equal(t, []int{3, 2}, feed.Inputs["x"].Shape)
	feed.Inputs["x"] = interp.Host([]int{1, 2}, 1, 2)
	feed.Params["w"] = interp.Host([]int{2}, 10, 20)
	out := interp.Eval(t, b.P, feed)
	assert.Equal(t, []float64{11, 22}, out["out"].Data)
}

func TestSoftmaxAxis(t *testing.T) {
	b := progtest.New(t)
	x := b.Data("x", 2, 2)
	b.Fetch(b.VA("pd_op.softmax", []*ir.Value{x}, progtest.Attr("axis", b.Ctx.Int32(0))), "out", 0)
	out := interp.Eval(t, b.P, &interp.Feed{Inputs: map[string]*interp.Tensor{"x": interp.Host([]int{2, 2}, 0, 1, 0, 3)}})
	e := math.Exp(2)
	assert.InDeltaSlice(t, []float64{0.5, 1 / (1 + e), 0.5, e / (1 + e)}, out["out"].Data, 1e-15)
}

// TestCompactOutputsAreSnapshots: Compare holds outputs in the evaluation precision, sharing the fetched value's
// buffer instead of copying it; an inplace op that writes the buffer after the fetch must not change the output.
func TestCompactOutputsAreSnapshots(t *testing.T) {
	b := progtest.New(t)
	x := b.Data("x", 2, 3)
	a := b.V("pd_op.assign", x)
	b.Fetch(a, "taken", 0)
	y := b.VA("pd_op.scale_", []*ir.Value{a, b.Full([]int64{1}, -2)}, progtest.Attr("bias", b.Ctx.Float(0.5)))
	b.Fetch(y, "scaled", 1)
	require.Empty(t, ir.Verify(b.P).Errors())
	in := []float64{-0.5, 1, 2, 3, 4, 5}
	feed := &interp.Feed{Inputs: map[string]*interp.Tensor{"x": interp.Host([]int{2, 3}, in...)}}
	for _, prec := range []interp.Precision{interp.Float64, interp.Float32} {
		res, err := interp.Evaluate(b.P, feed, interp.Options{Precision: prec, Compact: true})
		require.NoError(t, err)
		require.Len(t, res.Outputs, 2)
		values := map[string][]float64{}
		for _, o := range res.Outputs {
			require.Nil(t, o.Value.Data, "a compact output has no float64 copy")
			switch raw := o.Elems.(type) {
			case []float32:
				values[o.Name] = f64sOf(raw)
			case []float64:
				values[o.Name] = append([]float64(nil), raw...)
			default:
				require.FailNow(t, "no raw data")
			}
		}
		assert.Equal(t, in, values["taken"], "%v: the output keeps the values it had when fetched", prec)
		assert.Equal(t, []float64{1.5, -1.5, -3.5, -5.5, -7.5, -9.5}, values["scaled"], "%v", prec)
	}
}

func f64sOf(d []float32) []float64 {
	out := make([]float64, len(d))
	for i, v := range d {
		out[i] = float64(v)
	}
	return out
}

// TestSetValueInplaceWritesOperand: set_value_ writes its region into x's buffer (no copy of x): a view of x taken
// before sees the write, an output taken before keeps its values, and the fed tensor is left as it was.
func TestSetValueInplaceWritesOperand(t *testing.T) {
	b := progtest.New(t)
	x := b.Data("x", 3, 4)
	a := b.V("pd_op.assign", x)
	view := b.V("pd_op.reshape", a, b.Ints(-1))
	b.Fetch(a, "taken", 0)
	y := b.VA("pd_op.set_value_with_tensor_", []*ir.Value{a, b.Full([]int64{3, 2}, 7), b.Ints(0), b.Ints(4), b.Ints(2)},
		progtest.Attr("axes", b.Ctx.Int64s(1)), progtest.Attr("decrease_axes", b.Ctx.Int64s()), progtest.Attr("none_axes", b.Ctx.Int64s()))
	b.Fetch(view, "view", 1)
	b.Fetch(b.V("pd_op.reshape", y, b.Ints(-1)), "y", 2)
	require.Empty(t, ir.Verify(b.P).Errors())
	in := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	fed := interp.Host([]int{3, 4}, in...)
	want := []float64{7, 1, 7, 3, 7, 5, 7, 7, 7, 9, 7, 11}
	for _, compact := range []bool{false, true} {
		res, err := interp.Evaluate(b.P, &interp.Feed{Inputs: map[string]*interp.Tensor{"x": fed}}, interp.Options{Compact: compact})
		require.NoError(t, err)
		got := map[string][]float64{}
		for _, o := range res.Outputs {
			got[o.Name] = o.Value.Data
			if raw, ok := o.Elems.([]float64); ok {
				got[o.Name] = raw
			}
		}
		assert.Equal(t, want, got["y"], "compact %v", compact)
		assert.Equal(t, want, got["view"], "compact %v: set_value_ writes its operand's buffer", compact)
		assert.Equal(t, in, got["taken"], "compact %v: an output taken before keeps its values", compact)
		assert.Equal(t, in, fed.Data, "compact %v: the fed tensor is not written", compact)
	}
}
