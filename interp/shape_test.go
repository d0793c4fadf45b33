package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/ir"
)

func seq(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(i)
	}
	return out
}

func TestShapeOps(t *testing.T) {
	x234 := host([]int{2, 3, 4}, seq(24)...)
	tests := []struct {
		name      string
		build     func(b *progtest.Builder, x *ir.Value) *ir.Value
		wantShape []int
		want      []float64 // nil: same data as x
	}{
		{"reshape", func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.V("pd_op.reshape", x, b.Ints(0, -1))
		}, []int{2, 12}, nil},
		{"reshape zero copies", func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.V("pd_op.reshape", x, b.Ints(4, 0, 2))
		}, []int{4, 3, 2}, nil},
		{"flatten", func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.VA("pd_op.flatten", []*ir.Value{x}, progtest.Attr("start_axis", b.Ctx.Int32(1)), progtest.Attr("stop_axis", b.Ctx.Int32(2)))
		}, []int{2, 12}, nil},
		{"unsqueeze", func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.V("pd_op.unsqueeze", x, b.Ints(0, -1))
		}, []int{1, 2, 3, 4, 1}, nil},
		{"squeeze", func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.V("pd_op.squeeze", b.V("pd_op.unsqueeze", x, b.Ints(1)), b.Ints(1))
		}, []int{2, 3, 4}, nil},
		{"transpose", func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.VA("pd_op.transpose", []*ir.Value{x}, progtest.Attr("perm", b.I32s(2, 0, 1)))
		}, []int{4, 2, 3}, []float64{0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23}},
		{"concat", func(b *progtest.Builder, x *ir.Value) *ir.Value {
			vec := b.V("builtin.combine", x, x)
			return b.V("pd_op.concat", vec, b.Full([]int64{1}, 0, ir.DTypeInt32))
		}, []int{4, 3, 4}, append(seq(24), seq(24)...)},
		{"split and builtin.split", func(b *progtest.Builder, x *ir.Value) *ir.Value {
			vec := b.V("pd_op.split", x, b.Ints(1, -1), b.Full([]int64{1}, 2, ir.DTypeInt32))
			parts := b.Op("builtin.split", []*ir.Value{vec})
			return parts.Result(1)
		}, []int{2, 3, 3}, []float64{1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15, 17, 18, 19, 21, 22, 23}},
		{"split_with_num and builtin.slice", func(b *progtest.Builder, x *ir.Value) *ir.Value {
			vec := b.VA("pd_op.split_with_num", []*ir.Value{x, b.Full([]int64{1}, 0, ir.DTypeInt32)}, progtest.Attr("num", b.Ctx.Int32(2)))
			return b.VA("builtin.slice", []*ir.Value{vec}, progtest.Attr("index", b.Ctx.Int32(1)))
		}, []int{1, 3, 4}, seq(24)[12:]},
		{"expand", func(b *progtest.Builder, x *ir.Value) *ir.Value {
			sl := b.OpT("pd_op.slice", []*ir.Value{x, b.Ints(0), b.Ints(1)}, []ir.Type{b.TensorT(ir.DTypeFloat32, 1, 3, 4)},
				progtest.Attr("axes", b.Ctx.Int64s(0)), progtest.Attr("infer_flags", b.Ctx.Int64s(1)), progtest.Attr("decrease_axis", b.Ctx.Int64s()))
			return b.OpT("pd_op.expand", []*ir.Value{sl.Result(0), b.Ints(2, -1, -1)}, []ir.Type{b.TensorT(ir.DTypeFloat32, 2, 3, 4)}).Result(0)
		}, []int{2, 3, 4}, append(seq(12), seq(12)...)},
		{"slice", func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.OpT("pd_op.slice", []*ir.Value{x, b.Ints(1, -2), b.Ints(2, 100)}, []ir.Type{b.TensorT(ir.DTypeFloat32, 3, 2)},
				progtest.Attr("axes", b.Ctx.Int64s(0, 2)), progtest.Attr("infer_flags", b.Ctx.Int64s(1, 1)), progtest.Attr("decrease_axis", b.Ctx.Int64s(0))).Result(0)
		}, []int{3, 2}, []float64{14, 15, 18, 19, 22, 23}},
		{"shape", func(b *progtest.Builder, x *ir.Value) *ir.Value { return b.V("pd_op.shape", x) }, []int{3}, []float64{2, 3, 4}},
		{"full_like", func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.OpT("pd_op.full_like", []*ir.Value{x, b.Full([]int64{1}, 7)}, []ir.Type{x.Type()}).Result(0)
		}, []int{2, 3, 4}, func() []float64 {
			out := make([]float64, 24)
			for i := range out {
				out[i] = 7
			}
			return out
		}()},
		{"mean all", func(b *progtest.Builder, x *ir.Value) *ir.Value { return b.V("pd_op.mean", x, b.Ints()) }, []int{}, []float64{11.5}},
		{"mean axis keepdim", func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.VA("pd_op.mean", []*ir.Value{x}, progtest.Attr("axis", b.Ctx.IntArray([]int64{-1})), progtest.Attr("keepdim", b.Ctx.Bool(true)))
		}, []int{2, 3, 1}, []float64{1.5, 5.5, 9.5, 13.5, 17.5, 21.5}},
		{"sum axes", func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.V("pd_op.sum", x, b.Ints(0, 2))
		}, []int{3}, []float64{0 + 1 + 2 + 3 + 12 + 13 + 14 + 15, 4 + 5 + 6 + 7 + 16 + 17 + 18 + 19, 8 + 9 + 10 + 11 + 20 + 21 + 22 + 23}},
		{"max", func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.V("pd_op.max", x, b.Ints(1))
		}, []int{2, 4}, []float64{8, 9, 10, 11, 20, 21, 22, 23}},
		{"min keepdim", func(b *progtest.Builder, x *ir.Value) *ir.Value {
			return b.VA("pd_op.min", []*ir.Value{x, b.Ints(0)}, progtest.Attr("keepdim", b.Ctx.Bool(true)))
		}, []int{1, 3, 4}, seq(12)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := progtest.New(t)
			x := b.Data("x", 2, 3, 4)
			b.Fetch(tc.build(b, x), "out", 0)
			out := eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"x": x234}})
			assert.Equal(t, tc.wantShape, out["out"].Shape)
			want := tc.want
			if want == nil {
				want = x234.Data
			}
			assert.Equal(t, want, out["out"].Data)
		})
	}
}

func TestNearestInterp(t *testing.T) {
	x := host([]int{1, 1, 2, 2}, 1, 2, 3, 4)
	up := []float64{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}
	tests := []struct {
		name  string
		attrs func(b *progtest.Builder) []ir.NamedAttr
		size  []int64
		want  []float64
		err   string
	}{
		{"out_h out_w", func(b *progtest.Builder) []ir.NamedAttr {
			return []ir.NamedAttr{progtest.Attr("out_h", b.Ctx.Int32(4)), progtest.Attr("out_w", b.Ctx.Int32(4))}
		}, nil, up, ""},
		{"scale", func(b *progtest.Builder) []ir.NamedAttr {
			return []ir.NamedAttr{progtest.Attr("scale", b.Ctx.Array(b.Ctx.Float(2), b.Ctx.Float(2)))}
		}, nil, up, ""},
		{"out_size operand", func(b *progtest.Builder) []ir.NamedAttr { return nil }, []int64{4, 4}, up, ""},
		{"align_corners 3x3", func(b *progtest.Builder) []ir.NamedAttr {
			return []ir.NamedAttr{progtest.Attr("out_h", b.Ctx.Int32(3)), progtest.Attr("out_w", b.Ctx.Int32(3)), progtest.Attr("align_corners", b.Ctx.Bool(true))}
		}, nil, []float64{1, 2, 2, 3, 4, 4, 3, 4, 4}, ""},
		// Paddle's interpolate kernels dispatch on interp_method, whatever the op's name.
		{"bilinear through interp_method", func(b *progtest.Builder) []ir.NamedAttr {
			return []ir.NamedAttr{progtest.Attr("out_h", b.Ctx.Int32(4)), progtest.Attr("out_w", b.Ctx.Int32(4)), progtest.Attr("interp_method", b.Ctx.Str("bilinear"))}
		}, nil, []float64{1, 1.5, 2, 2, 2, 2.5, 3, 3, 3, 3.5, 4, 4, 3, 3.5, 4, 4}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := progtest.New(t)
			xv := b.Data("x", 1, 1, 2, 2)
			var size *ir.Value
			if tc.size != nil {
				size = b.VA("pd_op.full_int_array", nil, progtest.Attr("value", b.Ctx.Int64s(tc.size...)), progtest.Attr("dtype", b.Ctx.DataType(ir.DTypeInt32)))
			}
			attrs := append([]ir.NamedAttr{progtest.Attr("interp_method", b.Ctx.Str("nearest")), progtest.Attr("align_corners", b.Ctx.Bool(false))}, tc.attrs(b)...)
			dims := []int64{1, 1, 4, 4}
			if len(tc.want) == 9 {
				dims = []int64{1, 1, 3, 3}
			}
			op := b.OpT("pd_op.nearest_interp", []*ir.Value{xv, size, nil, nil}, []ir.Type{b.TensorT(ir.DTypeFloat32, dims...)}, dedupe(attrs)...)
			b.Fetch(op.Result(0), "out", 0)
			res, err := Evaluate(b.P, &Feed{Inputs: map[string]*Tensor{"x": x}}, Options{})
			if tc.err != "" {
				require.ErrorIs(t, err, ErrUnsupported)
				assert.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, res.Outputs[0].Value.Data)
		})
	}
}

// dedupe keeps the last value of each attribute name.
func dedupe(attrs []ir.NamedAttr) []ir.NamedAttr {
	idx := map[string]int{}
	var out []ir.NamedAttr
	for _, a := range attrs {
		if i, ok := idx[a.Name]; ok {
			out[i] = a
			continue
		}
		idx[a.Name] = len(out)
		out = append(out, a)
	}
	return out
}

func TestConstants(t *testing.T) {
	b := progtest.New(t)
	b.Fetch(b.Full([]int64{2, 2}, 1.5), "full", 0)
	b.Fetch(b.Ints(3, -1, 4), "ints", 1)
	av := b.OpT("pd_op.assign_value", nil, []ir.Type{b.TensorT(ir.DTypeInt32, 3)},
		progtest.Attr("shape", b.I32s(3)), progtest.Attr("dtype", b.Ctx.DataType(ir.DTypeInt32)),
		progtest.Attr("values", b.Ctx.Array(b.Ctx.Int32(1), b.Ctx.Int32(-2), b.Ctx.Int32(3))))
	b.Fetch(av.Result(0), "assign_value", 2)
	out := eval(t, b.P, nil)
	assert.Equal(t, []float64{1.5, 1.5, 1.5, 1.5}, out["full"].Data)
	assert.Equal(t, []float64{3, -1, 4}, out["ints"].Data)
	assert.Equal(t, ir.DTypeInt64, out["ints"].DType)
	assert.Equal(t, []float64{1, -2, 3}, out["assign_value"].Data)
}
