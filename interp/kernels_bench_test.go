package interp

import (
	"testing"

	"github.com/pirdrr/drr/ir"
)

// BenchmarkTopK evaluates Mask-RT-DETR-L's query ranking in float32: the top quarter of each line of 37,632
// scores (8 lines of the capture's 200), and argsort of the same lines.
func BenchmarkTopK(b *testing.B) {
	x := randHost(3, 8, 37632)
	cases := []opCase{
		{name: "topk", op: "pd_op.topk", in: []any{x, i64T(sh(), 9408)},
			want: []*Tensor{tt(ir.DTypeFloat32, sh(8, 9408)), tt(ir.DTypeInt64, sh(8, 9408))}},
		{name: "argsort", op: "pd_op.argsort", in: []any{x}, attrs: []ir.NamedAttr{a(b, "descending", true)},
			want: []*Tensor{tt(ir.DTypeFloat32, sh(8, 37632)), tt(ir.DTypeInt64, sh(8, 37632))}},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			p, feed := tc.build(b)
			for b.Loop() {
				if _, err := Evaluate(p, feed, Options{Precision: Float32}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSoftmax evaluates the softmax of attention scores in float32: 4 heads of a 1,025-token sequence (CLIP
// ViT-B/16 at 448), along the last axis, and along the middle axis of [64, 1025, 16].
func BenchmarkSoftmax(b *testing.B) {
	for _, tc := range []struct {
		name  string
		shape []int
		axis  int
	}{{"last", sh(4, 1025, 1025), -1}, {"middle", sh(64, 1025, 16), 1}} {
		oc := opCase{name: tc.name, op: "pd_op.softmax", in: []any{randHost(5, tc.shape...)},
			attrs: []ir.NamedAttr{a(b, "axis", tc.axis)}, want: []*Tensor{tt(ir.DTypeFloat32, tc.shape)}}
		b.Run(tc.name, func(b *testing.B) {
			p, feed := oc.build(b)
			for b.Loop() {
				if _, err := Evaluate(p, feed, Options{Precision: Float32}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
