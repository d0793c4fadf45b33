package interp

import (
	"testing"

	"github.com/pirdrr/drr/internal/progtest"
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

// BenchmarkViews evaluates eight flattens in a row over [200, 37632] float32 values (Mask-RT-DETR-L's query
// scores), views over one buffer: what they cost beyond feeding the input and fetching the result.
func BenchmarkViews(b *testing.B) {
	pb := progtest.New(b)
	v := pb.Data("x", 200, 37632)
	for range 8 {
		v = pb.VA("pd_op.flatten", []*ir.Value{v}, progtest.Attr("start_axis", pb.Ctx.Int32(0)),
			progtest.Attr("stop_axis", pb.Ctx.Int32(0)))
	}
	pb.Fetch(v, "out", 0)
	feed := &Feed{Inputs: map[string]*Tensor{"x": randHost(9, 200, 37632)}}
	for b.Loop() {
		if _, err := Evaluate(pb.P, feed, Options{Precision: Float32}); err != nil {
			b.Fatal(err)
		}
	}
}
