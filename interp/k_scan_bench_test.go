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
