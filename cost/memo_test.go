package cost_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// TestWorkMemo checks that an op costs what it costs alone when an op of its kind came before it: the analyzer's
// memo of the last op of a kind serves only ops with that op's attribute list and types, never ops whose formula
// reads a constant operand, and an op's time only when its compulsory operands and outputs agree.
func TestWorkMemo(t *testing.T) {
	type pair struct{ first, second *ir.Op }
	tests := []struct {
		name string
		// build makes two ops of one kind in g's program (the second is the one checked), reading x.
		build func(g *builder, x *ir.Value) pair
		// same says whether the two ops cost the same (then the second may come from the memo).
		same bool
	}{
		{
			name: "one attribute list, the same types",
			build: func(g *builder, x *ir.Value) pair {
				shared := attrs("approximate", g.ctx.Bool(true))
				a := g.b.Create(ir.OpSpec{Name: "pd_op.gelu", Operands: []*ir.Value{x}, Results: []ir.Type{x.Type()}, Attrs: shared})
				b := g.b.Create(ir.OpSpec{Name: "pd_op.gelu", Operands: []*ir.Value{x}, Results: []ir.Type{x.Type()}, Attrs: shared})
				return pair{a, b}
			},
			same: true,
		},
		{
			name: "attribute values differ",
			build: func(g *builder, x *ir.Value) pair {
				a := g.op("pd_op.gelu", []*ir.Value{x}, []ir.Type{x.Type()}, "approximate", g.ctx.Bool(true))
				b := g.op("pd_op.gelu", []*ir.Value{x}, []ir.Type{x.Type()}, "approximate", g.ctx.Bool(false))
				return pair{a, b}
			},
		},
		{
			name: "one attribute list, result types differ",
			build: func(g *builder, x *ir.Value) pair {
				shared := attrs("approximate", g.ctx.Bool(false))
				y := g.val("pd_op.relu", []*ir.Value{x}, g.f32(8, 8))
				a := g.b.Create(ir.OpSpec{Name: "pd_op.gelu", Operands: []*ir.Value{x}, Results: []ir.Type{x.Type()}, Attrs: shared})
				b := g.b.Create(ir.OpSpec{Name: "pd_op.gelu", Operands: []*ir.Value{y}, Results: []ir.Type{g.f32(8, 8)}, Attrs: shared})
				return pair{a, b}
			},
		},
		{
			name: "one attribute list and types, constant operands differ",
			build: func(g *builder, x *ir.Value) pair {
				shared := attrs("axis", g.ctx.Int32(-1), "largest", g.ctx.Bool(true), "sorted", g.ctx.Bool(true))
				results := []ir.Type{g.f32(4096, 8), g.ty(ir.DTypeInt64, 4096, 8)}
				a := g.b.Create(ir.OpSpec{Name: "pd_op.topk", Operands: []*ir.Value{x, g.ints(2)}, Results: results, Attrs: shared})
				b := g.b.Create(ir.OpSpec{Name: "pd_op.topk", Operands: []*ir.Value{x, g.ints(8)}, Results: results, Attrs: shared})
				return pair{a, b}
			},
		},
		{
			name: "one attribute list and types, an operand a weight instead of a computed value",
			build: func(g *builder, x *ir.Value) pair {
				shared := attrs("axis", g.ctx.Int32(-1))
				w := g.param("w", g.f32(4096, 4096))
				y := g.val("pd_op.relu", []*ir.Value{x}, x.Type()) // computed per inference: its bytes may stay on chip
				a := g.b.Create(ir.OpSpec{Name: "pd_op.add", Operands: []*ir.Value{y, y}, Results: []ir.Type{x.Type()}, Attrs: shared})
				b := g.b.Create(ir.OpSpec{Name: "pd_op.add", Operands: []*ir.Value{y, w}, Results: []ir.Type{x.Type()}, Attrs: shared})
				return pair{a, b}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newBuilder(t)
			g.b.Alloc = g.p.Allocator()         // numbered ops, as a reader's: the analyzer memoizes times only for those
			x := g.data("x", g.f32(4096, 4096)) // large enough for memory time to exceed the launch
			ops := tt.build(g, x)
			g.fetch(x) // the program's output: the two ops' results are not, so that their times may be memoized
			first, second := g.costOf(ops.first), g.costOf(ops.second)
			require.NoError(t, second.Err)

			// The second op alone: erase the first (the constants and weights it alone read stay, costing nothing).
			ir.NewRewriter(g.ctx, nil).Erase(ops.first)
			alone := g.costOf(ops.second)
			assert.Equal(t, alone.Work, second.Work)
			assert.Equal(t, alone.Time, second.Time)
			assert.Equal(t, alone.Dynamic, second.Dynamic)
			if tt.same {
				assert.Equal(t, first.Work, second.Work)
			} else {
				assert.False(t, first.Work == second.Work && first.Time == second.Time, "the case must tell the two ops apart")
			}
		})
	}
}
