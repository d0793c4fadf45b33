package cost_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/ir"
)

// phases returns, per op name of the program (the first op of each name), whether it is runtime and its role.
func phases(r *cost.Report) map[string]*cost.OpCost {
	out := map[string]*cost.OpCost{}
	for i := range r.Ops {
		c := &r.Ops[i]
		if _, ok := out[c.Op.Name()]; !ok {
			out[c.Op.Name()] = c
		}
	}
	return out
}

// TestRuntimeLoadTimeSplit: weight arithmetic (the batch-norm fold's sqrt, divide, reshape, multiply) is load time,
// what reads an input is runtime; sources, sinks and plumbing are neither.
func TestRuntimeLoadTimeSplit(t *testing.T) {
	g := newBuilder(t)
	x := g.data("x", g.f32(1, 4, 8, 8))
	w := g.param("w", g.f32(4, 4, 1, 1))
	v := g.param("var", g.f32(4))
	s := g.param("scale", g.f32(4))
	std := g.val("pd_op.sqrt", []*ir.Value{v}, g.f32(4))
	alpha := g.val("pd_op.divide", []*ir.Value{s, std}, g.f32(4))
	a4 := g.val("pd_op.reshape", []*ir.Value{alpha, g.ints(-1, 1, 1, 1)}, g.f32(4, 1, 1, 1))
	w2 := g.val("pd_op.multiply", []*ir.Value{w, a4}, g.f32(4, 4, 1, 1))
	y := g.val("pd_op.conv2d", []*ir.Value{x, w2}, g.f32(1, 4, 8, 8))
	parts := g.val("builtin.combine", []*ir.Value{y, y}, g.ctx.Vector(y.Type(), y.Type()))
	cat := g.val("pd_op.concat", []*ir.Value{parts, g.val("pd_op.full", nil, g.ty(ir.DTypeInt32, 1), "value", g.ctx.Float(1))}, g.f32(1, 8, 8, 8))
	g.fetch(cat)
	r := g.analyze()
	ph := phases(r)
	for _, name := range []string{"pd_op.sqrt", "pd_op.divide", "pd_op.reshape", "pd_op.multiply"} {
		require.False(t, ph[name].Runtime, "%s computes from weights", name)
		require.Equal(t, cost.Compute, ph[name].Role, name)
	}
	for _, name := range []string{"pd_op.conv2d", "pd_op.concat"} {
		require.True(t, ph[name].Runtime, "%s reads the input", name)
	}
	require.Equal(t, cost.Source, ph["pd_op.data"].Role)
	require.Equal(t, cost.Source, ph["builtin.parameter"].Role)
	require.Equal(t, cost.Source, ph["pd_op.full"].Role)
	require.Equal(t, cost.Source, ph["pd_op.full_int_array"].Role)
	require.Equal(t, cost.Plumbing, ph["builtin.combine"].Role)
	require.Equal(t, cost.Sink, ph["pd_op.fetch"].Role)
	s0 := r.Summary
	require.Equal(t, 2, s0.RuntimeOps)
	require.Equal(t, 4, s0.LoadTimeOps)
	require.Equal(t, 2, s0.Kernels)
	require.Equal(t, g.p.NumOps(), s0.Ops)
}

// TestRuntimeThroughInplaceWrites: a runtime op writing a constant's buffer in place makes the later readers of
// that buffer runtime; the readers before it stay load time.
func TestRuntimeThroughInplaceWrites(t *testing.T) {
	g := newBuilder(t)
	x := g.data("x", g.f32(4, 4))
	mask := g.val("pd_op.full", nil, g.f32(4, 4), "value", g.ctx.Float(0))
	before := g.op("pd_op.exp", []*ir.Value{mask}, []ir.Type{g.f32(4, 4)})
	set := g.op("pd_op.set_value_with_tensor_", []*ir.Value{mask, x, g.ints(0), g.ints(2), g.ints(1)}, []ir.Type{g.f32(4, 4)},
		"axes", g.ctx.Int64s(0))
	after := g.op("pd_op.tanh", []*ir.Value{mask}, []ir.Type{g.f32(4, 4)})
	g.fetch(before.Result(0))
	g.fetch(after.Result(0))
	r := g.analyze()
	got := map[*ir.Op]bool{}
	for i := range r.Ops {
		c := &r.Ops[i]
		got[c.Op] = c.Runtime
	}
	require.False(t, got[before], "exp reads the constant before the write")
	require.True(t, got[set], "the write copies the input")
	require.True(t, got[after], "tanh reads the buffer the input was written into")
	// The inplace write touches only the slice rows 0..1 of mask: 2·4 elements, and reads the values.
	c := g.costOf(set)
	require.Equal(t, b32(8), c.Work.Written)
}

// TestRuntimeSources: random ops run per inference, even without operands; an unregistered op without operands too.
func TestRuntimeSources(t *testing.T) {
	g := newBuilder(t)
	u := g.op("pd_op.uniform", []*ir.Value{g.ints(4), g.val("pd_op.full", nil, g.f32(1)), g.val("pd_op.full", nil, g.f32(1))},
		[]ir.Type{g.f32(4)}, "seed", g.ctx.Int32(0))
	e := g.op("pd_op.exp", []*ir.Value{u.Result(0)}, []ir.Type{g.f32(4)})
	k := g.op("my.reader", nil, []ir.Type{g.f32(4)})
	n := g.op("pd_op.exp", []*ir.Value{k.Result(0)}, []ir.Type{g.f32(4)})
	g.fetch(e.Result(0))
	g.fetch(n.Result(0))
	got := map[*ir.Op]*cost.OpCost{}
	r := g.analyze()
	for i := range r.Ops {
		c := &r.Ops[i]
		got[c.Op] = c
	}
	require.True(t, got[u].Runtime, "uniform draws per inference")
	require.True(t, got[e].Runtime)
	require.True(t, got[k].Runtime, "an unregistered op without operands may read anything")
	require.True(t, got[n].Runtime)
}

// TestRuntimeRegions: an if on a constant condition over weights is load time; on an input's, runtime. The costlier
// branch counts; the other is listed as such. Ops inside a while body are runtime when its inputs are.
func TestRuntimeRegions(t *testing.T) {
	build := func(cond func(g *builder) *ir.Value) (*builder, *ir.Op, *ir.Op, *ir.Op) {
		g := newBuilder(t)
		w := g.param("w", g.f32(256))
		c := cond(g)
		ifOp := g.b.Create(ir.OpSpec{Name: "pd_op.if", Operands: []*ir.Value{c}, Results: []ir.Type{g.f32(256)}, Regions: 2})
		after := g.b.InsertionBlock()
		then := ifOp.Region(0).AddBlock()
		g.b.SetInsertionPointToEnd(then)
		cheap := g.op("pd_op.relu", []*ir.Value{w}, []ir.Type{g.f32(256)})
		g.op("cf.yield", []*ir.Value{cheap.Result(0)}, nil)
		els := ifOp.Region(1).AddBlock()
		g.b.SetInsertionPointToEnd(els)
		e1 := g.op("pd_op.exp", []*ir.Value{w}, []ir.Type{g.f32(256)})
		e2 := g.op("pd_op.exp", []*ir.Value{e1.Result(0)}, []ir.Type{g.f32(256)})
		g.op("cf.yield", []*ir.Value{e2.Result(0)}, nil)
		g.b.SetInsertionPointToEnd(after)
		g.fetch(ifOp.Result(0))
		return g, ifOp, cheap, e1
	}
	// A weight-only condition: everything load time.
	g, _, _, _ := build(func(g *builder) *ir.Value {
		return g.val("pd_op.full", nil, g.ty(ir.DTypeBool, 1), "value", g.ctx.Float(1))
	})
	r := g.analyze()
	require.Zero(t, r.Summary.RuntimeOps)
	require.Equal(t, 3, r.Summary.LoadTimeOps)
	// An input's condition: the if and the branch ops that read only weights are still load time (hoistable), the
	// if's result runtime.
	g, ifOp, cheap, e1 := build(func(g *builder) *ir.Value { return g.data("c", g.ty(ir.DTypeBool, 1)) })
	r = g.analyze()
	got := map[*ir.Op]*cost.OpCost{}
	for i := range r.Ops {
		c := &r.Ops[i]
		got[c.Op] = c
	}
	require.True(t, got[ifOp].Runtime)
	require.False(t, got[cheap].Runtime)
	require.False(t, got[e1].Runtime)

	// Branch choice: with the branches reading an input, the else (two exps) is costlier: the then branch is not
	// summed.
	g = newBuilder(t)
	x := g.data("x", g.f32(4096))
	ifOp = g.b.Create(ir.OpSpec{Name: "pd_op.if", Operands: []*ir.Value{g.data("c", g.ty(ir.DTypeBool, 1))}, Results: []ir.Type{g.f32(4096)}, Regions: 2})
	after := g.b.InsertionBlock()
	g.b.SetInsertionPointToEnd(ifOp.Region(0).AddBlock())
	cheap = g.op("pd_op.relu", []*ir.Value{x}, []ir.Type{g.f32(4096)})
	g.op("cf.yield", []*ir.Value{cheap.Result(0)}, nil)
	g.b.SetInsertionPointToEnd(ifOp.Region(1).AddBlock())
	e1 = g.op("pd_op.exp", []*ir.Value{x}, []ir.Type{g.f32(4096)})
	e2 := g.op("pd_op.exp", []*ir.Value{e1.Result(0)}, []ir.Type{g.f32(4096)})
	g.op("cf.yield", []*ir.Value{e2.Result(0)}, nil)
	g.b.SetInsertionPointToEnd(after)
	g.fetch(ifOp.Result(0))
	r = g.analyze()
	require.Equal(t, 3, r.Summary.RuntimeOps, "both branches' ops are runtime ops")
	require.Equal(t, 2, r.Summary.Kernels, "only the costlier branch's kernels are summed")
	require.Equal(t, int64(2*4096), r.Summary.FLOPs)
	for i := range r.Ops {
		c := &r.Ops[i]
		if c.Op == cheap {
			require.True(t, c.Branch)
		}
	}

	// while: the body's block argument carries the loop state; runtime when the input is.
	g = newBuilder(t)
	x = g.data("x", g.f32(16))
	cond := g.data("c", g.ty(ir.DTypeBool, 1))
	wh := g.b.Create(ir.OpSpec{Name: "pd_op.while", Operands: []*ir.Value{cond, x}, Results: []ir.Type{g.f32(16)}, Regions: 1})
	after = g.b.InsertionBlock()
	body := wh.Region(0).AddBlock()
	arg := body.AddArg(g.f32(16))
	g.b.SetInsertionPointToEnd(body)
	inc := g.op("pd_op.exp", []*ir.Value{arg}, []ir.Type{g.f32(16)})
	g.op("cf.yield", []*ir.Value{cond, inc.Result(0)}, nil)
	g.b.SetInsertionPointToEnd(after)
	g.fetch(wh.Result(0))
	r = g.analyze()
	require.Equal(t, 1, r.Summary.RuntimeOps, "the body's exp (one iteration)")
	require.Equal(t, 1, r.Summary.Kernels)
}

// TestFusedRegion: a cinn_op.group is one kernel holding its ops' operations, reading what comes from outside.
func TestFusedRegion(t *testing.T) {
	g := newBuilder(t)
	x := g.data("x", g.f32(64, 128))
	grp := g.b.Create(ir.OpSpec{Name: "cinn_op.group", Results: []ir.Type{g.f32(64, 128)}, Regions: 1})
	after := g.b.InsertionBlock()
	g.b.SetInsertionPointToEnd(grp.Region(0).AddBlock())
	e := g.op("pd_op.exp", []*ir.Value{x}, []ir.Type{g.f32(64, 128)})
	s := g.op("cinn_op.reduce_sum", []*ir.Value{e.Result(0)}, []ir.Type{g.f32(64, 1)})
	d := g.op("pd_op.divide", []*ir.Value{e.Result(0), s.Result(0)}, []ir.Type{g.f32(64, 128)})
	g.op("cf.yield", []*ir.Value{d.Result(0)}, nil)
	g.b.SetInsertionPointToEnd(after)
	g.fetch(grp.Result(0))
	r := g.analyze()
	require.Equal(t, 1, r.Summary.RuntimeOps, "the group")
	require.Equal(t, 1, r.Summary.Kernels)
	require.Equal(t, int64(3*8192), r.Summary.FLOPs, "exp, the sum, the divide")
	require.Equal(t, b32(8192), r.Summary.BytesRead, "x only")
	require.Equal(t, b32(8192), r.Summary.BytesWritten)
}
