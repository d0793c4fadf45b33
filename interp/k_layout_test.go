package interp

import (
	"math"
	"testing"

	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/ir"
)

func TestLayoutKernels(t *testing.T) {
	ctx := kctx(t)
	x := fT(sh(2, 3), 1, 2, 3, 4, 5, 6)
	x34 := fT(sh(3, 4), ramp(12, 1, 0)...)
	vals := func(v ...float64) ir.Attribute {
		el := make([]ir.Attribute, len(v))
		for i, f := range v {
			el[i] = ctx.Double(f)
		}
		return ctx.Array(el...)
	}
	cases := []opCase{
		{name: "strided_slice", op: "pd_op.strided_slice", in: []any{x34, i64T(sh(2), 0, 1), i64T(sh(2), 3, 4), i64T(sh(2), 2, 2)},
			attrs: []ir.NamedAttr{a(t, "axes", []int{0, 1})}, want: []*Tensor{fT(sh(2, 2), 1, 3, 9, 11)}},
		{name: "strided_slice reversed", op: "pd_op.strided_slice", in: []any{x34, i64T(sh(1), -1), i64T(sh(1), math.MinInt64), i64T(sh(1), -1)},
			attrs: []ir.NamedAttr{a(t, "axes", []int{1})}, want: []*Tensor{fT(sh(3, 4), 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8)}, only64: true},
		{name: "strided_slice clamps", op: "pd_op.strided_slice", in: []any{x34, i64T(sh(1), 1), i64T(sh(1), math.MaxInt64), i64T(sh(1), 3)},
			attrs: []ir.NamedAttr{a(t, "axes", []int{-1})}, want: []*Tensor{fT(sh(3, 1), 1, 5, 9)}, only64: true},
		{name: "set_value_ constant", op: "pd_op.set_value_", in: []any{x34, i64T(sh(1), 1), i64T(sh(1), 3), i64T(sh(1), 1)},
			attrs: []ir.NamedAttr{a(t, "axes", []int64{0}), a(t, "decrease_axes", []int64{}), a(t, "none_axes", []int64{}),
				a(t, "shape", []int64{1}), {Name: "values", Value: vals(-1)}},
			want: []*Tensor{fT(sh(3, 4), 0, 1, 2, 3, -1, -1, -1, -1, -1, -1, -1, -1)}},
		{name: "set_value_ row vector, decreased axis", op: "pd_op.set_value_", in: []any{x34, i64T(sh(1), 2), i64T(sh(1), 3), i64T(sh(1), 1)},
			attrs: []ir.NamedAttr{a(t, "axes", []int64{1}), a(t, "decrease_axes", []int64{1}), a(t, "none_axes", []int64{}),
				a(t, "shape", []int64{3}), {Name: "values", Value: vals(7, 8, 9)}},
			want: []*Tensor{fT(sh(3, 4), 0, 1, 7, 3, 4, 5, 8, 7, 8, 9, 9, 11)}},
		{name: "set_value_ one element into a 0-d slice (TimesNet)", op: "pd_op.set_value_",
			in: []any{fT(sh(4), 1, 2, 3, 4), i64T(sh(1), 0), i64T(sh(1), 1), i64T(sh(1), 1)},
			attrs: []ir.NamedAttr{a(t, "axes", []int64{0}), a(t, "decrease_axes", []int64{0}), a(t, "none_axes", []int64{}),
				a(t, "shape", []int64{1}), {Name: "values", Value: vals(0)}},
			want: []*Tensor{fT(sh(4), 0, 2, 3, 4)}},
		{name: "set_value_ values with leading 1s", op: "pd_op.set_value_", in: []any{x34, i64T(sh(1), 2), i64T(sh(1), 3), i64T(sh(1), 1)},
			attrs: []ir.NamedAttr{a(t, "axes", []int64{1}), a(t, "decrease_axes", []int64{1}), a(t, "none_axes", []int64{}),
				a(t, "shape", []int64{1, 1, 3}), {Name: "values", Value: vals(7, 8, 9)}},
			want: []*Tensor{fT(sh(3, 4), 0, 1, 7, 3, 4, 5, 8, 7, 8, 9, 9, 11)}},
		{name: "set_value_ values of a larger rank", op: "pd_op.set_value_", in: []any{x34, i64T(sh(1), 2), i64T(sh(1), 3), i64T(sh(1), 1)},
			attrs: []ir.NamedAttr{a(t, "axes", []int64{1}), a(t, "decrease_axes", []int64{1}), a(t, "none_axes", []int64{}),
				a(t, "shape", []int64{2, 3}), {Name: "values", Value: vals(1, 2, 3, 4, 5, 6)}},
			want: []*Tensor{fT(sh(3, 4))}, err: "cannot broadcast"},
		{name: "set_value_with_tensor_ strided", op: "pd_op.set_value_with_tensor_",
			in:    []any{x34, fT(sh(3, 2), 10, 20, 30, 40, 50, 60), i64T(sh(1), 0), i64T(sh(1), 4), i64T(sh(1), 2)},
			attrs: []ir.NamedAttr{a(t, "axes", []int64{1}), a(t, "decrease_axes", []int64{}), a(t, "none_axes", []int64{})},
			want:  []*Tensor{fT(sh(3, 4), 10, 1, 20, 3, 30, 5, 40, 7, 50, 9, 60, 11)}},
		{name: "set_value_with_tensor_ bad shape", op: "pd_op.set_value_with_tensor_",
			in:    []any{x34, fT(sh(2), 1, 2), i64T(sh(1), 0), i64T(sh(1), 3), i64T(sh(1), 1)},
			attrs: []ir.NamedAttr{a(t, "axes", []int64{1}), a(t, "decrease_axes", []int64{}), a(t, "none_axes", []int64{})},
			want:  []*Tensor{fT(sh(3, 4))}, err: "cannot broadcast"},
		{name: "flip", op: "pd_op.flip", in: []any{x}, attrs: []ir.NamedAttr{a(t, "axis", []int{0, -1})}, want: []*Tensor{fT(sh(2, 3), 6, 5, 4, 3, 2, 1)}},
		{name: "roll axis", op: "pd_op.roll", in: []any{x, i64T(sh(1), 1)}, attrs: []ir.NamedAttr{a(t, "axis", []int64{1})}, want: []*Tensor{fT(sh(2, 3), 3, 1, 2, 6, 4, 5)}},
		{name: "roll flattened negative", op: "pd_op.roll", in: []any{x, i64T(sh(1), -2)}, want: []*Tensor{fT(sh(2, 3), 3, 4, 5, 6, 1, 2)}},
		{name: "tile", op: "pd_op.tile", in: []any{fT(sh(2), 1, 2), i64T(sh(2), 2, 3)}, want: []*Tensor{fT(sh(2, 6), 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2)}},
		{name: "tile fewer repeats", op: "pd_op.tile", in: []any{x, i64T(sh(1), 2)}, want: []*Tensor{fT(sh(2, 6), 1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6)}},
		{name: "expand_as", op: "pd_op.expand_as", in: []any{fT(sh(3, 1), 1, 2, 3), fT(sh(2, 3, 2), ramp(12, 0, 0)...)}, want: []*Tensor{fT(sh(2, 3, 2), 1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3)}},
		{name: "expand_as target_shape", op: "pd_op.expand_as", in: []any{fT(sh(1), 5), nil}, attrs: []ir.NamedAttr{a(t, "target_shape", []int{2})}, want: []*Tensor{fT(sh(2), 5, 5)}},
		{name: "stack axis 1", op: "pd_op.stack", in: []any{[]*Tensor{fT(sh(2), 1, 2), fT(sh(2), 3, 4)}}, attrs: []ir.NamedAttr{a(t, "axis", 1)},
			want: []*Tensor{fT(sh(2, 2), 1, 3, 2, 4)}},
		{name: "stack scalars", op: "pd_op.stack", in: []any{[]*Tensor{i64T(sh(), 1), i64T(sh(), 7)}}, want: []*Tensor{i64T(sh(2), 1, 7)}},
		{name: "pad", op: "pd_op.pad", in: []any{fT(sh(1, 2), 1, 2), fT(sh(), -1)}, attrs: []ir.NamedAttr{a(t, "paddings", []int{1, 0, 0, 2})},
			want: []*Tensor{fT(sh(2, 4), -1, -1, -1, -1, 1, 2, -1, -1)}},
		{name: "pad3d constant NCDHW", op: "pd_op.pad3d", in: []any{fT(sh(1, 1, 1, 1, 2), 1, 2), i64T(sh(6), 1, 0, 0, 1, 0, 0)},
			attrs: []ir.NamedAttr{a(t, "pad_value", float32(9))}, want: []*Tensor{fT(sh(1, 1, 1, 2, 3), 9, 1, 2, 9, 9, 9)}},
		{name: "pad3d reflect", op: "pd_op.pad3d", in: []any{fT(sh(1, 1, 1, 1, 3), 1, 2, 3), i64T(sh(6), 2, 2, 0, 0, 0, 0)},
			attrs: []ir.NamedAttr{a(t, "mode", "reflect")}, want: []*Tensor{fT(sh(1, 1, 1, 1, 7), 3, 2, 1, 2, 3, 2, 1)}},
		{name: "pad3d replicate NDHWC", op: "pd_op.pad3d", in: []any{fT(sh(1, 1, 1, 2, 1), 1, 2), i64T(sh(6), 1, 1, 0, 0, 0, 0)},
			attrs: []ir.NamedAttr{a(t, "mode", "replicate"), a(t, "data_format", "NDHWC")}, want: []*Tensor{fT(sh(1, 1, 1, 4, 1), 1, 1, 2, 2)}},
		{name: "pad3d circular", op: "pd_op.pad3d", in: []any{fT(sh(1, 1, 1, 1, 3), 1, 2, 3), i64T(sh(6), 1, 2, 0, 0, 0, 0)},
			attrs: []ir.NamedAttr{a(t, "mode", "circular")}, want: []*Tensor{fT(sh(1, 1, 1, 1, 6), 3, 1, 2, 3, 1, 2)}},
		{name: "diag of a vector", op: "pd_op.diag", in: []any{fT(sh(2), 1, 2)}, attrs: []ir.NamedAttr{a(t, "offset", 1), a(t, "padding_value", float32(-1))},
			want: []*Tensor{fT(sh(3, 3), -1, 1, -1, -1, -1, 2, -1, -1, -1)}},
		{name: "diag of a matrix", op: "pd_op.diag", in: []any{x}, attrs: []ir.NamedAttr{a(t, "offset", -1)}, want: []*Tensor{fT(sh(1), 4)}},
		{name: "tril", op: "pd_op.tril", in: []any{x34}, attrs: []ir.NamedAttr{a(t, "diagonal", 0)}, want: []*Tensor{fT(sh(3, 4), 0, 0, 0, 0, 4, 5, 0, 0, 8, 9, 10, 0)}},
		{name: "triu batched", op: "pd_op.triu", in: []any{fT(sh(2, 2, 2), 1, 1, 1, 1, 2, 2, 2, 2)}, attrs: []ir.NamedAttr{a(t, "diagonal", 1)},
			want: []*Tensor{fT(sh(2, 2, 2), 0, 1, 0, 0, 0, 2, 0, 0)}},
		{name: "repeat_interleave", op: "pd_op.repeat_interleave", in: []any{x}, attrs: []ir.NamedAttr{a(t, "repeats", 2), a(t, "axis", 1)},
			want: []*Tensor{fT(sh(2, 6), 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6)}},
		{name: "fill_diagonal", op: "pd_op.fill_diagonal", in: []any{fT(sh(3, 2), 0, 0, 0, 0, 0, 0)}, attrs: []ir.NamedAttr{a(t, "value", float32(1))},
			want: []*Tensor{fT(sh(3, 2), 1, 0, 0, 1, 0, 0)}},
		{name: "fill_diagonal wrap offset", op: "pd_op.fill_diagonal", in: []any{fT(sh(5, 2), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)},
			attrs: []ir.NamedAttr{a(t, "value", float32(1)), a(t, "wrap", true)}, want: []*Tensor{fT(sh(5, 2), 1, 0, 0, 1, 0, 0, 1, 0, 0, 1)}},
		{name: "fill_diagonal_tensor", op: "pd_op.fill_diagonal_tensor", in: []any{fT(sh(2, 3), 0, 0, 0, 0, 0, 0), fT(sh(2), 7, 8)},
			attrs: []ir.NamedAttr{a(t, "offset", int64(1))}, want: []*Tensor{fT(sh(2, 3), 0, 7, 0, 0, 0, 8)}},
	}
	runOpCases(t, cases)
}

func TestVectorResultKernels(t *testing.T) {
	ctx := kctx(t)
	f22 := typeOf(ctx, fT(sh(2, 2)))
	// broadcast_tensors and meshgrid return vectors: check them through builtin.split.
	for _, tc := range []struct {
		name string
		op   string
		in   []*Tensor
		want [][]float64
	}{
		{"broadcast_tensors", "pd_op.broadcast_tensors", []*Tensor{fT(sh(2, 1), 1, 2), fT(sh(2), 3, 4)}, [][]float64{{1, 1, 2, 2}, {3, 4, 3, 4}}},
		{"meshgrid", "pd_op.meshgrid", []*Tensor{fT(sh(2), 1, 2), fT(sh(2), 3, 4)}, [][]float64{{1, 1, 2, 2}, {3, 4, 3, 4}}},
	} {
		b := progtest.NewIn(t, ctx)
		feed := &Feed{Inputs: map[string]*Tensor{}}
		var elems []*ir.Value
		var types []ir.Type
		for i, h := range tc.in {
			name := string(rune('a' + i))
			feed.Inputs[name] = h
			dims := make([]int64, len(h.Shape))
			for k, d := range h.Shape {
				dims[k] = int64(d)
			}
			v := b.DataT(name, h.DType, dims...)
			elems = append(elems, v)
			types = append(types, v.Type())
		}
		vec := b.OpT("builtin.combine", elems, []ir.Type{ctx.Vector(types...)}).Result(0)
		res := b.OpT(tc.op, []*ir.Value{vec}, []ir.Type{ctx.Vector(f22, f22)}).Result(0)
		parts := b.OpT("builtin.split", []*ir.Value{res}, []ir.Type{f22, f22})
		b.Fetch(parts.Result(0), "0", 0)
		b.Fetch(parts.Result(1), "1", 1)
		out := eval(t, b.P, feed)
		for i, w := range tc.want {
			requireTensorClose(t, fT(sh(2, 2), w...), out[string(rune('0'+i))], 0, tc.name)
		}
	}
}
