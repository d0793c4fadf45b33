package compare

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/ir"
)

// TestSharedOpsAgreeWithEvaluatingEverything compares pairs of programs with and without reusing the shared ops
// (Options.NoShare): the reports agree in every figure, and the count of reused ops is what the pair shares —
// nothing read after a live write, nothing downstream of a rewrite.
func TestSharedOpsAgreeWithEvaluatingEverything(t *testing.T) {
	type build func(b *progtest.Builder, x, w *ir.Value)
	tests := []struct {
		name          string
		before, after build
		reused        int
		ok            bool
	}{
		{"unchanged", func(b *progtest.Builder, x, w *ir.Value) {
			b.Fetch(b.V("pd_op.exp", b.V("pd_op.tanh", b.V("pd_op.add", x, w))), "y", 0)
		}, nil, 3, true},
		{"rewritten at the end", func(b *progtest.Builder, x, w *ir.Value) {
			y := b.V("pd_op.tanh", b.V("pd_op.add", x, w))
			b.Fetch(b.V("pd_op.add", y, y), "y", 0)
		}, func(b *progtest.Builder, x, w *ir.Value) {
			y := b.V("pd_op.tanh", b.V("pd_op.add", x, w))
			b.Fetch(b.VA("pd_op.scale", []*ir.Value{y, b.Full([]int64{1}, 2)}, progtest.Attr("bias", b.Fl(0)),
				progtest.Attr("bias_after_scale", b.Bo(true))), "y", 0)
		}, 2, true},
		{"a wrong rewrite downstream still fails", func(b *progtest.Builder, x, w *ir.Value) {
			b.Fetch(b.V("pd_op.exp", b.V("pd_op.tanh", b.V("pd_op.add", x, w))), "y", 0)
		}, func(b *progtest.Builder, x, w *ir.Value) {
			b.Fetch(b.V("pd_op.sigmoid", b.V("pd_op.tanh", b.V("pd_op.add", x, w))), "y", 0)
		}, 2, false},
		{"an inplace op whose operand dies is its pure form", func(b *progtest.Builder, x, w *ir.Value) {
			b.Fetch(b.V("pd_op.exp", b.V("pd_op.relu", b.V("pd_op.tanh", x))), "y", 0)
		}, func(b *progtest.Builder, x, w *ir.Value) {
			b.Fetch(b.V("pd_op.exp", b.V("pd_op.relu_", b.V("pd_op.tanh", x))), "y", 0)
		}, 3, true},
		{"nothing read after a live write is reused", func(b *progtest.Builder, x, w *ir.Value) {
			y := b.V("pd_op.tanh", x)
			z := b.V("pd_op.relu", y)
			b.Fetch(z, "z", 0)
			b.Fetch(b.V("pd_op.exp", z), "e", 1)
		}, func(b *progtest.Builder, x, w *ir.Value) {
			// relu_ writes y, which exp reads afterwards: exp(y) is exp(relu(tanh x)) here, not before's exp(tanh x).
			y := b.V("pd_op.tanh", x)
			z := b.V("pd_op.relu_", y)
			b.Fetch(z, "z", 0)
			b.Fetch(b.V("pd_op.exp", y), "e", 1)
		}, 0, true},
		{"a rewritten weight stops the sharing", func(b *progtest.Builder, x, w *ir.Value) {
			b.Fetch(b.V("pd_op.tanh", b.V("pd_op.multiply", x, w)), "y", 0)
		}, func(b *progtest.Builder, x, w *ir.Value) {
			w2 := b.V("pd_op.relu", w)
			b.Fetch(b.V("pd_op.tanh", b.V("pd_op.multiply", x, w2)), "y", 0)
		}, 0, false},
		{"constants a pass merged", func(b *progtest.Builder, x, w *ir.Value) {
			b.Fetch(b.V("pd_op.add", b.V("pd_op.multiply", x, b.Full([]int64{4, 8}, 2)), b.Full([]int64{4, 8}, 2)), "y", 0)
		}, func(b *progtest.Builder, x, w *ir.Value) {
			two := b.Full([]int64{4, 8}, 2)
			b.Fetch(b.V("pd_op.add", b.V("pd_op.multiply", x, two), two), "y", 0)
		}, 2, true},
		{"attributes the interpreter does not read", func(b *progtest.Builder, x, w *ir.Value) {
			y := b.VA("pd_op.tanh", []*ir.Value{x}, progtest.Attr("stop_gradient", b.Ctx.Bools(false)))
			b.Fetch(b.V("pd_op.exp", y), "y", 0)
		}, func(b *progtest.Builder, x, w *ir.Value) {
			b.Fetch(b.V("pd_op.exp", b.V("pd_op.tanh", x)), "y", 0)
		}, 2, true},
		{"attributes that change the result", func(b *progtest.Builder, x, w *ir.Value) {
			b.Fetch(b.VA("pd_op.scale", []*ir.Value{x, b.Full([]int64{1}, 2)}, progtest.Attr("bias", b.Fl(1)),
				progtest.Attr("bias_after_scale", b.Bo(true))), "y", 0)
		}, func(b *progtest.Builder, x, w *ir.Value) {
			b.Fetch(b.VA("pd_op.scale", []*ir.Value{x, b.Full([]int64{1}, 2)}, progtest.Attr("bias", b.Fl(1)),
				progtest.Attr("bias_after_scale", b.Bo(false))), "y", 0)
		}, 0, false},
		{"one value of before for two of after, one written where it dies", func(b *progtest.Builder, x, w *ir.Value) {
			// before's two tanh are one (congruent): after's two read one buffer, and add_ writes its first
			// operand where it dies. It is evaluated (its other operand is rewritten), so the tanh it writes is
			// computed again rather than shared; multiply must still read tanh(x).
			p, q := b.V("pd_op.tanh", x), b.V("pd_op.tanh", x)
			y := b.V("pd_op.add", x, x)
			b.Fetch(b.V("pd_op.add_", p, y), "p", 0)
			b.Fetch(b.V("pd_op.multiply", q, y), "q", 1)
		}, func(b *progtest.Builder, x, w *ir.Value) {
			p, q := b.V("pd_op.tanh", x), b.V("pd_op.tanh", x)
			y := b.VA("pd_op.scale", []*ir.Value{x, b.Full([]int64{1}, 2)}, progtest.Attr("bias", b.Fl(0)),
				progtest.Attr("bias_after_scale", b.Bo(true)))
			b.Fetch(b.V("pd_op.add_", p, y), "p", 0)
			b.Fetch(b.V("pd_op.multiply", q, y), "q", 1)
		}, 1, true},
		{"a kept value before writes in place where it dies", func(b *progtest.Builder, x, w *ir.Value) {
			// before's add_ writes tanh's buffer after before kept it for after's add (evaluated: its other
			// operand is rewritten); the Carry holds the elements tanh computed.
			p := b.V("pd_op.tanh", x)
			b.Fetch(b.V("pd_op.add_", p, b.V("pd_op.add", x, x)), "p", 0)
		}, func(b *progtest.Builder, x, w *ir.Value) {
			p := b.V("pd_op.tanh", x)
			y := b.VA("pd_op.scale", []*ir.Value{x, b.Full([]int64{1}, 2)}, progtest.Attr("bias", b.Fl(0)),
				progtest.Attr("bias_after_scale", b.Bo(true)))
			b.Fetch(b.V("pd_op.add", p, y), "p", 0)
		}, 1, true},
		{"sinks of programs without outputs", func(b *progtest.Builder, x, w *ir.Value) {
			b.V("pd_op.exp", b.V("pd_op.tanh", x))
		}, nil, 2, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pb := progtest.New(t)
			tc.before(pb, pb.Data("x", 4, 8), pb.Param("w", 4, 8))
			var after *ir.Program
			if tc.after == nil {
				after = pb.P.Clone()
			} else {
				pa := progtest.NewIn(t, pb.Ctx)
				tc.after(pa, pa.Data("x", 4, 8), pa.Param("w", 4, 8))
				after = pa.P
			}
			shared, errShared := Programs(pb.P, after, Options{})
			full, errFull := Programs(pb.P, after, Options{NoShare: true})
			assert.Equal(t, tc.ok, errShared == nil, "%v", errShared)
			assert.Equal(t, errFull == nil, errShared == nil)
			require.NotNil(t, shared)
			require.NotNil(t, full)
			assert.Equal(t, tc.reused, shared.Reused)
			assert.Zero(t, full.Reused)
			shared.Reused = 0
			assert.Equal(t, full, shared)
		})
	}
}

// TestSharedValuesWithinKeepDraws: the values before keeps for after count against Options.KeepDraws; a run whose
// values exceed it evaluates after whole, with the same report, and negative KeepDraws shares nothing.
func TestSharedValuesWithinKeepDraws(t *testing.T) {
	b := progtest.New(t)
	x := b.Data("x", 4, 8)
	y := b.V("pd_op.tanh", b.V("pd_op.exp", x))
	b.Fetch(b.V("pd_op.add", y, y), "y", 0) // after's fetch reads the kept sum: 32 float32 values, 128 bytes
	after := b.P.Clone()
	full, err := Programs(b.P, after, Options{NoShare: true})
	require.NoError(t, err)
	tests := []struct {
		name   string
		keep   int64
		reused int
	}{
		{"within the bound", 1 << 10, 3},
		{"beyond the bound", 64, 0},
		{"negative shares nothing", -1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Programs(b.P, after, Options{KeepDraws: tc.keep})
			require.NoError(t, err)
			assert.Equal(t, tc.reused, rep.Reused)
			rep.Reused = 0
			assert.Equal(t, full, rep)
		})
	}
}
