package interp

import (
	"testing"

	"github.com/pirdrr/drr/ir"
)

func TestIndexKernels(t *testing.T) {
	x := fT(sh(3, 2), 1, 2, 3, 4, 5, 6)
	ctx := kctx(t)
	cases := []opCase{
		{name: "gather rows", op: "pd_op.gather", in: []any{x, i64T(sh(3), 2, 0, 2), i64T(sh(), 0)}, want: []*Tensor{fT(sh(3, 2), 5, 6, 1, 2, 5, 6)}},
		{name: "gather axis 1", op: "pd_op.gather", in: []any{x, i32T(sh(1), 1), i64T(sh(), 1)}, want: []*Tensor{fT(sh(3, 1), 2, 4, 6)}},
		{name: "gather 0-D index drops the axis", op: "pd_op.gather", in: []any{x, i64T(sh(), 1), i64T(sh(), 0)}, want: []*Tensor{fT(sh(2), 3, 4)}},
		{name: "gather with an [N, 1] index", op: "pd_op.gather", in: []any{x, i64T(sh(2, 1), 2, 0), i64T(sh(), 0)}, want: []*Tensor{fT(sh(2, 2), 5, 6, 1, 2)}},
		{name: "gather with an [N, 2] index", op: "pd_op.gather", in: []any{x, i64T(sh(1, 2), 2, 0), i64T(sh(), 0)}, want: []*Tensor{fT(sh(1, 2))}, err: "[N, 1]"},
		{name: "gather out of range", op: "pd_op.gather", in: []any{x, i64T(sh(1), 3), i64T(sh(), 0)}, want: []*Tensor{fT(sh(1, 2))}, err: "out of range"},
		{name: "index_select negative", op: "pd_op.index_select", in: []any{x, i64T(sh(2), -1, 0)}, attrs: []ir.NamedAttr{a(t, "axis", 1)},
			want: []*Tensor{fT(sh(3, 2), 2, 1, 4, 3, 6, 5)}},
		{name: "gather_nd tuples", op: "pd_op.gather_nd", in: []any{x, i64T(sh(2, 2), 2, 1, 0, 0)}, want: []*Tensor{fT(sh(2), 6, 1)}},
		{name: "gather_nd slices", op: "pd_op.gather_nd", in: []any{x, i64T(sh(2, 1), 1, -1)}, want: []*Tensor{fT(sh(2, 2), 3, 4, 5, 6)}},
		{name: "index_sample", op: "pd_op.index_sample", in: []any{x, i64T(sh(3, 2), 1, 1, 0, 1, 1, 0)}, want: []*Tensor{fT(sh(3, 2), 2, 2, 3, 4, 6, 5)}},
		{name: "take_along_axis", op: "pd_op.take_along_axis", in: []any{x, i64T(sh(1, 2), 2, 0)}, attrs: []ir.NamedAttr{a(t, "axis", 0)},
			want: []*Tensor{fT(sh(1, 2), 5, 2)}},
		{name: "put_along_axis assign", op: "pd_op.put_along_axis", in: []any{x, i64T(sh(3, 1), 1, 0, 1), fT(sh(), 9)}, attrs: []ir.NamedAttr{a(t, "axis", 1)},
			want: []*Tensor{fT(sh(3, 2), 1, 9, 9, 4, 5, 9)}},
		{name: "put_along_axis add twice", op: "pd_op.put_along_axis", in: []any{fT(sh(1, 3), 1, 1, 1), i64T(sh(1, 2), 2, 2), fT(sh(1, 2), 10, 20)},
			attrs: []ir.NamedAttr{a(t, "axis", 1), a(t, "reduce", "add")}, want: []*Tensor{fT(sh(1, 3), 1, 1, 31)}},
		{name: "put_along_axis mean without self", op: "pd_op.put_along_axis", in: []any{fT(sh(1, 3), 1, 1, 1), i64T(sh(1, 2), 2, 2), fT(sh(1, 2), 10, 20)},
			attrs: []ir.NamedAttr{a(t, "axis", 1), a(t, "reduce", "mean"), a(t, "include_self", false)}, want: []*Tensor{fT(sh(1, 3), 1, 1, 15)}},
		{name: "scatter overwrite", op: "pd_op.scatter", in: []any{x, i64T(sh(2), 2, 2), fT(sh(2, 2), 7, 7, 8, 8)}, want: []*Tensor{fT(sh(3, 2), 1, 2, 3, 4, 8, 8)}},
		{name: "scatter add", op: "pd_op.scatter", in: []any{x, i64T(sh(2), 2, 2), fT(sh(2, 2), 7, 7, 8, 8)}, attrs: []ir.NamedAttr{a(t, "overwrite", false)},
			want: []*Tensor{fT(sh(3, 2), 1, 2, 3, 4, 15, 15)}},
		{name: "index_put ints", op: "pd_op.index_put", in: []any{x, []*Tensor{i64T(sh(2), 0, 2), i64T(sh(2), 1, 0)}, fT(sh(), -1)},
			want: []*Tensor{fT(sh(3, 2), 1, -1, 3, 4, -1, 6)}},
		{name: "index_put mask accumulate", op: "pd_op.index_put", in: []any{x, []*Tensor{bT(sh(3), 1, 0, 1)}, fT(sh(2), 10, 20)},
			attrs: []ir.NamedAttr{a(t, "accumulate", true)}, want: []*Tensor{fT(sh(3, 2), 11, 22, 3, 4, 15, 26)}},
		{name: "index_add", op: "pd_op.index_add", in: []any{x, i64T(sh(2), 0, 0), fT(sh(3, 2), 1, 10, 1, 10, 1, 10)}, attrs: []ir.NamedAttr{a(t, "axis", 1)},
			want: []*Tensor{fT(sh(3, 2), 12, 2, 14, 4, 16, 6)}},
		{name: "embedding with padding", op: "pd_op.embedding", in: []any{i64T(sh(2, 2), 2, 0, 1, 2), x}, attrs: []ir.NamedAttr{a(t, "padding_idx", int64(2))},
			want: []*Tensor{fT(sh(2, 2, 2), 0, 0, 1, 2, 3, 4, 0, 0)}},
		{name: "embedding id out of range", op: "pd_op.embedding", in: []any{i64T(sh(1), 3), x}, want: []*Tensor{fT(sh(1, 2))}, err: "out of range"},
		{name: "one_hot", op: "pd_op.one_hot", in: []any{i64T(sh(3), 2, 0, 1), i32T(sh(1), 3)}, want: []*Tensor{fT(sh(3, 3), 0, 0, 1, 1, 0, 0, 0, 1, 0)}},
		{name: "masked_select broadcast", op: "pd_op.masked_select", in: []any{x, bT(sh(2), 0, 1)}, want: []*Tensor{fT(sh(3), 2, 4, 6)}},
		{name: "nonzero", op: "pd_op.nonzero", in: []any{bT(sh(2, 3), 0, 1, 0, 1, 0, 1)}, want: []*Tensor{i64T(sh(3, 2), 0, 1, 1, 0, 1, 2)}},
		{name: "nonzero of nothing", op: "pd_op.nonzero", in: []any{fT(sh(2), 0, 0)}, want: []*Tensor{i64T(sh(0, 1))},
			types: []ir.Type{ctx.Tensor(ir.DenseTensor, []int64{-1, 1}, ctx.Scalar(ir.DTypeInt64))}},
	}
	runOpCases(t, cases)
}
