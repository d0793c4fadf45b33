package interp

import (
	"math"
	"testing"

	"github.com/pirdrr/drr/ir"
)

func TestReductionAndScanKernels(t *testing.T) {
	x23 := fT(sh(2, 3), 1, -2, 3, 4, 5, -6)
	cases := []opCase{
		{name: "prod axis operand", op: "pd_op.prod", in: []any{x23, i64T(sh(1), 1)}, attrs: []ir.NamedAttr{a(t, "keepdim", false), a(t, "reduce_all", false)},
			want: []*Tensor{fT(sh(2), -6, -120)}},
		{name: "prod negative axis keepdim", op: "pd_op.prod", in: []any{x23, i64T(sh(1), -2)}, attrs: []ir.NamedAttr{a(t, "keepdim", true), a(t, "reduce_all", false)},
			want: []*Tensor{fT(sh(1, 3), 4, -10, -18)}},
		{name: "prod reduce_all", op: "pd_op.prod", in: []any{x23, i64T(sh(1), 0)}, attrs: []ir.NamedAttr{a(t, "keepdim", false), a(t, "reduce_all", true)},
			want: []*Tensor{fT(sh(), 720)}},
		{name: "prod of an empty axis is 1", op: "pd_op.prod", in: []any{fT(sh(2, 0)), i64T(sh(1), 1)}, attrs: []ir.NamedAttr{a(t, "keepdim", false), a(t, "reduce_all", false)},
			want: []*Tensor{fT(sh(2), 1, 1)}},
		{name: "all", op: "pd_op.all", in: []any{bT(sh(2, 2), 1, 0, 1, 1)}, attrs: []ir.NamedAttr{a(t, "axis", []int64{1})}, want: []*Tensor{bT(sh(2), 0, 1)}},
		{name: "any every axis", op: "pd_op.any", in: []any{bT(sh(2, 2), 0, 0, 0, 1)}, want: []*Tensor{bT(sh(), 1)}},
		{name: "mean_all", op: "pd_op.mean_all", in: []any{x23}, want: []*Tensor{fT(sh(), 5.0/6)}},
		{name: "mean_all as [1]", op: "pd_op.mean_all", in: []any{x23}, want: []*Tensor{fT(sh(1), 5.0/6)}},
		{name: "p_norm 2", op: "pd_op.p_norm", in: []any{fT(sh(2, 2), 3, 4, 6, 8)}, attrs: []ir.NamedAttr{a(t, "axis", -1)}, want: []*Tensor{fT(sh(2), 5, 10)}},
		{name: "p_norm inf asvector", op: "pd_op.p_norm", in: []any{x23}, attrs: []ir.NamedAttr{a(t, "porder", float32(math.Inf(1))), a(t, "asvector", true)}, want: []*Tensor{fT(sh(), 6)}},
		{name: "p_norm 0 counts", op: "pd_op.p_norm", in: []any{fT(sh(3), 0, 2, -1)}, attrs: []ir.NamedAttr{a(t, "porder", float32(0)), a(t, "axis", 0), a(t, "keepdim", true)}, want: []*Tensor{fT(sh(1), 2)}},
		{name: "logsumexp", op: "pd_op.logsumexp", in: []any{fT(sh(2, 2), 0, 0, 1000, 1000)}, attrs: []ir.NamedAttr{a(t, "axis", []int{1})},
			want: []*Tensor{fT(sh(2), math.Ln2, 1000+math.Ln2)}},
		{name: "l1_norm", op: "pd_op.l1_norm", in: []any{x23}, want: []*Tensor{fT(sh(), 21)}},
		{name: "identity_loss sum", op: "pd_op.identity_loss", in: []any{x23}, attrs: []ir.NamedAttr{a(t, "reduction", 0)}, want: []*Tensor{fT(sh(), 5)}},
		{name: "identity_loss none", op: "pd_op.identity_loss", in: []any{x23}, attrs: []ir.NamedAttr{a(t, "reduction", 2)}, want: []*Tensor{x23}},
		{name: "argmax first of ties", op: "pd_op.argmax", in: []any{fT(sh(2, 3), 1, 7, 7, 0, -1, 0), i64T(sh(), 1)}, want: []*Tensor{i64T(sh(2), 1, 0)}},
		{name: "argmin flatten keepdims", op: "pd_op.argmin", in: []any{x23, i64T(sh(), 0)}, attrs: []ir.NamedAttr{a(t, "flatten", true), a(t, "keepdims", true)},
			want: []*Tensor{i64T(sh(1, 1), 5)}},
		{name: "argmax NaN wins", op: "pd_op.argmax", in: []any{fT(sh(3), 1, math.NaN(), 9), i64T(sh(), 0)}, want: []*Tensor{i64T(sh(), 1)}},
		{name: "cumsum", op: "pd_op.cumsum", in: []any{x23, i64T(sh(), 1)}, want: []*Tensor{fT(sh(2, 3), 1, -1, 2, 4, 9, 3)}},
		{name: "cumsum axis 0 exclusive reverse", op: "pd_op.cumsum", in: []any{x23, i64T(sh(), 0)},
			attrs: []ir.NamedAttr{a(t, "exclusive", true), a(t, "reverse", true)}, want: []*Tensor{fT(sh(2, 3), 4, 5, -6, 0, 0, 0)}},
		{name: "cumsum flatten", op: "pd_op.cumsum", in: []any{x23, i64T(sh(), -1)}, attrs: []ir.NamedAttr{a(t, "flatten", true)},
			want: []*Tensor{fT(sh(6), 1, -1, 2, 6, 11, 5)}},
		{name: "cumsum int64 mask", op: "pd_op.cumsum", in: []any{i64T(sh(1, 4), 1, 1, 0, 1), i64T(sh(), 1)}, want: []*Tensor{i64T(sh(1, 4), 1, 2, 2, 3)}},
		{name: "cumprod", op: "pd_op.cumprod", in: []any{x23}, attrs: []ir.NamedAttr{a(t, "dim", 1)}, want: []*Tensor{fT(sh(2, 3), 1, -2, -6, 4, 20, -120)}},
		{name: "topk largest", op: "pd_op.topk", in: []any{fT(sh(2, 4), 1, 5, 3, 5, -1, -2, -3, 0), i64T(sh(), 2)},
			want: []*Tensor{fT(sh(2, 2), 5, 5, 0, -1), i64T(sh(2, 2), 1, 3, 3, 0)}},
		{name: "topk smallest axis 0", op: "pd_op.topk", in: []any{fT(sh(3, 2), 3, 1, 1, 2, 2, 0), i64T(sh(), 1)},
			attrs: []ir.NamedAttr{a(t, "axis", 0), a(t, "largest", false)}, want: []*Tensor{fT(sh(1, 2), 1, 0), i64T(sh(1, 2), 1, 2)}},
		{name: "topk k too large", op: "pd_op.topk", in: []any{fT(sh(2), 1, 2), i64T(sh(), 3)}, want: []*Tensor{fT(sh(3)), i64T(sh(3))}, err: "out of range"},
		{name: "renorm", op: "pd_op.renorm", in: []any{fT(sh(2, 2), 3, 0.1, 4, 0.1)},
			attrs: []ir.NamedAttr{a(t, "p", float32(2)), a(t, "axis", 1), a(t, "max_norm", float32(1))},
			want:  []*Tensor{fT(sh(2, 2), 3/(5+1e-7), 0.1, 4/(5+1e-7), 0.1)}},
	}
	runOpCases(t, cases)
}
