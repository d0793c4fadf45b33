package interp

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/ir"
)

// bruteEinsum evaluates an explicit equation (letters only, "->" given) by summing over every assignment of the
// labels: an implementation independent of the kernel's pairwise contraction.
func bruteEinsum(eq string, shapes [][]int, data [][]float64) ([]int, []float64) {
	lhs, rhs, _ := strings.Cut(eq, "->")
	terms := strings.Split(lhs, ",")
	size := map[rune]int{}
	for i, term := range terms {
		for k, r := range term {
			size[r] = max(size[r], shapes[i][k])
		}
	}
	var labels []rune
	for r := range size {
		labels = append(labels, r)
	}
	var outShape []int
	for _, r := range rhs {
		outShape = append(outShape, size[r])
	}
	out := make([]float64, prod(outShape))
	assign := map[rune]int{}
	var rec func(i int)
	rec = func(i int) {
		if i == len(labels) {
			p := 1.0
			for t, term := range terms {
				off := 0
				for k, r := range term {
					v := assign[r]
					if shapes[t][k] == 1 {
						v = 0 // broadcast
					}
					off = off*shapes[t][k] + v
				}
				p *= data[t][off]
			}
			o := 0
			for _, r := range rhs {
				o = o*size[r] + assign[r]
			}
			out[o] += p
			return
		}
		for v := range size[labels[i]] {
			assign[labels[i]] = v
			rec(i + 1)
		}
	}
	rec(0)
	if outShape == nil {
		outShape = []int{}
	}
	return outShape, out
}

func TestEinsumAgainstDefinition(t *testing.T) {
	cases := []struct {
		eq, brute string // the kernel's equation and its explicit letter-only form
		shapes    [][]int
	}{
		{"ij,jk->ik", "ij,jk->ik", [][]int{{2, 3}, {3, 4}}},
		{"bhqd,bhkd->bhqk", "bhqd,bhkd->bhqk", [][]int{{1, 2, 3, 4}, {1, 2, 5, 4}}},
		{"ij,jk", "ij,jk->ik", [][]int{{2, 3}, {3, 2}}},
		{"ij->ji", "ij->ji", [][]int{{2, 3}}},
		{"ij->", "ij->", [][]int{{2, 3}}},
		{"i,i->", "i,i->", [][]int{{5}, {5}}},
		{"ij,j->i", "ij,j->i", [][]int{{3, 4}, {4}}},
		{"i,j->ij", "i,j->ij", [][]int{{3}, {2}}},
		{"abc,cd,de->abe", "abc,cd,de->abe", [][]int{{2, 2, 3}, {3, 2}, {2, 4}}},
		{"...ij,...jk->...ik", "xij,xjk->xik", [][]int{{3, 2, 3}, {1, 3, 2}}},
		{"bik,bjk->bij", "bik,bjk->bij", [][]int{{2, 3, 4}, {2, 5, 4}}},
		{"ijk->kj", "ijk->kj", [][]int{{2, 3, 4}}},
		{"BLHD,BMHD->BHLM", "BLHD,BMHD->BHLM", [][]int{{1, 3, 2, 4}, {1, 2, 2, 4}}},
	}
	ctx := kctx(t)
	for n, tc := range cases {
		var ins []*Tensor
		var data [][]float64
		for k, s := range tc.shapes {
			d := ramp(prod(s), 0.37, float64(k)-0.5)
			for i := range d {
				d[i] = math.Sin(d[i] * float64(n+2))
			}
			ins = append(ins, fT(s, d...))
			data = append(data, d)
		}
		shape, want := bruteEinsum(tc.brute, tc.shapes, data)
		runOpCases(t, []opCase{{name: tc.eq, op: "pd_op.einsum", in: []any{ins}, attrs: []ir.NamedAttr{a(t, "equation", tc.eq)},
			want:  []*Tensor{fT(shape, want...)},
			types: []ir.Type{nil, ctx.Vector(), ctx.Vector()}, tol: 1e-12, tol32: 1e-5}})
	}
	runOpCases(t, []opCase{
		{name: "repeated label", op: "pd_op.einsum", in: []any{[]*Tensor{fT(sh(2, 2), 1, 2, 3, 4)}}, attrs: []ir.NamedAttr{a(t, "equation", "ii->i")},
			want: []*Tensor{fT(sh(2))}, err: "repeated in one operand"},
		{name: "rank mismatch", op: "pd_op.einsum", in: []any{[]*Tensor{fT(sh(2, 2), 1, 2, 3, 4)}}, attrs: []ir.NamedAttr{a(t, "equation", "ijk->i")},
			want: []*Tensor{fT(sh(2))}, err: "rank 2"},
	})
}

func TestMatmulFamilyKernels(t *testing.T) {
	cases := []opCase{
		{name: "bmm", op: "pd_op.bmm", in: []any{fT(sh(2, 1, 2), 1, 2, 3, 4), fT(sh(2, 2, 1), 5, 6, 7, 8)}, want: []*Tensor{fT(sh(2, 1, 1), 17, 53)}},
		{name: "bmm batch mismatch", op: "pd_op.bmm", in: []any{fT(sh(2, 1, 2), 1, 2, 3, 4), fT(sh(1, 2, 1), 5, 6)}, want: []*Tensor{fT(sh(2, 1, 1))}, err: "bmm needs"},
		{name: "addmm", op: "pd_op.addmm", in: []any{fT(sh(1, 2), 1, -1), fT(sh(2, 2), 1, 2, 3, 4), fT(sh(2, 2), 1, 0, 0, 1)},
			attrs: []ir.NamedAttr{a(t, "alpha", float32(2)), a(t, "beta", float32(0.5))}, want: []*Tensor{fT(sh(2, 2), 2.5, 3.5, 6.5, 7.5)}},
		{name: "cross_entropy hard label", op: "pd_op.cross_entropy_with_softmax", in: []any{fT(sh(2, 2), 0, 0, 0, math.Log(3)), i64T(sh(2, 1), 1, -100)},
			want: []*Tensor{fT(sh(2, 2), 0.5, 0.5, 0.25, 0.75), fT(sh(2, 1), math.Ln2, 0)}},
		{name: "cross_entropy soft label axis 0", op: "pd_op.cross_entropy_with_softmax", in: []any{fT(sh(2, 1), 0, 0), fT(sh(2, 1), 0.25, 0.75)},
			attrs: []ir.NamedAttr{a(t, "soft_label", true), a(t, "axis", 0)}, want: []*Tensor{fT(sh(2, 1), 0.5, 0.5), fT(sh(1, 1), math.Ln2)}},
		{name: "cross_entropy without softmax", op: "pd_op.cross_entropy_with_softmax", in: []any{fT(sh(1, 2), 0.2, 0.8), i64T(sh(1, 1), 0)},
			attrs: []ir.NamedAttr{a(t, "use_softmax", false)}, want: []*Tensor{fT(sh(1, 2), 0.2, 0.8), fT(sh(1, 1), -math.Log(0.2))}, tol32: 1e-6},
	}
	runOpCases(t, cases)
}

// Random ops draw from per-op streams: the same feed seed gives the same numbers, the draws have the requested
// distribution, a fixed seed repeats its numbers, and outputs that depend on them are flagged.
func TestRandomOps(t *testing.T) {
	ctx := kctx(t)
	build := func(extra bool) *ir.Program {
		b := progtest.NewIn(t, ctx)
		x := b.Data("x", 1000)
		shape := b.Ints(1000)
		lo, hi := b.Full([]int64{1}, -2), b.Full([]int64{1}, 3)
		u := b.OpT("pd_op.uniform", []*ir.Value{shape, lo, hi}, []ir.Type{x.Type()}, a(t, "dtype", ir.DTypeFloat32), a(t, "seed", 0)).Result(0)
		if extra {
			b.OpT("pd_op.uniform", []*ir.Value{shape, lo, hi}, []ir.Type{x.Type()}, a(t, "dtype", ir.DTypeFloat32), a(t, "seed", 0))
		}
		ri := b.OpT("pd_op.randint", []*ir.Value{b.Ints(1000)}, []ir.Type{b.TensorT(ir.DTypeInt64, 1000)},
			a(t, "low", 3), a(t, "high", 6), a(t, "dtype", ir.DTypeInt64)).Result(0)
		g := b.OpT("pd_op.gaussian", []*ir.Value{b.Ints(1000)}, []ir.Type{x.Type()},
			a(t, "mean", float32(1)), a(t, "std", float32(2)), a(t, "seed", 0), a(t, "dtype", ir.DTypeFloat32)).Result(0)
		drop := b.OpT("pd_op.dropout", []*ir.Value{x, nil, b.Full([]int64{1}, 0.25)}, []ir.Type{x.Type(), b.TensorT(ir.DTypeUint8, 1000)},
			a(t, "is_test", false), a(t, "mode", "upscale_in_train"), a(t, "seed", 0), a(t, "fix_seed", false))
		fixed := b.OpT("pd_op.dropout", []*ir.Value{x, nil, b.Full([]int64{1}, 0.5)}, []ir.Type{x.Type(), b.TensorT(ir.DTypeUint8, 1000)},
			a(t, "is_test", false), a(t, "mode", "downgrade_in_infer"), a(t, "seed", 42), a(t, "fix_seed", true))
		b.Fetch(u, "uniform", 0)
		b.Fetch(ri, "randint", 1)
		b.Fetch(g, "gaussian", 2)
		b.Fetch(drop.Result(0), "dropout", 3)
		b.Fetch(drop.Result(1), "mask", 4)
		b.Fetch(fixed.Result(1), "fixed mask", 5)
		b.Fetch(b.V("pd_op.relu", x), "deterministic", 6)
		return b.P
	}
	p := build(false)
	run := func(p *ir.Program, seed uint64) map[string]Output {
		x := fT(sh(1000), ramp(1000, 0.001, 1)...)
		res, err := Evaluate(p, &Feed{Inputs: map[string]*Tensor{"x": x}, Seed: seed}, Options{})
		require.NoError(t, err)
		out := map[string]Output{}
		for _, o := range res.Outputs {
			out[o.Name] = o
		}
		return out
	}
	r1, r2, r3 := run(p, 1), run(p, 1), run(p, 2)
	assert.Equal(t, r1, r2, "the same seed draws the same numbers")
	assert.NotEqual(t, r1["uniform"].Value.Data, r3["uniform"].Value.Data)
	assert.Equal(t, r1["fixed mask"], r3["fixed mask"], "a fixed seed repeats its numbers whatever the feed seed")
	for _, name := range []string{"uniform", "randint", "gaussian", "dropout", "mask", "fixed mask"} {
		assert.True(t, r1[name].Random, name)
	}
	assert.False(t, r1["deterministic"].Random)

	u := r1["uniform"].Value.Data
	m, _ := progtest.MeanStd(u)
	assert.InDelta(t, 0.5, m, 0.15)
	for _, v := range u {
		require.True(t, v >= -2 && v < 3)
	}
	for _, v := range r1["randint"].Value.Data {
		require.Contains(t, []float64{3, 4, 5}, v)
	}
	gm, gs := progtest.MeanStd(r1["gaussian"].Value.Data)
	assert.InDelta(t, 1, gm, 0.2)
	assert.InDelta(t, 2, gs, 0.2)
	kept := 0.0
	for i, k := range r1["mask"].Value.Data {
		x := 1 + 0.001*float64(i)
		if k == 1 {
			kept++
			require.InDelta(t, x/0.75, r1["dropout"].Value.Data[i], 1e-6, "kept elements are scaled by 1/(1-p)")
		} else {
			require.Equal(t, 0.0, r1["dropout"].Value.Data[i])
		}
	}
	assert.InDelta(t, 750, kept, 60)

	// A program with one more uniform before the randint: the second uniform takes stream uniform#1, so the
	// first draws as before; randint, gaussian and dropout keep their streams too.
	q := build(true)
	rq := run(q, 1)
	for _, name := range []string{"uniform", "randint", "gaussian", "dropout"} {
		assert.Equal(t, r1[name].Value, rq[name].Value, name)
	}
	_ = fmt.Sprint
}

// einsum's inner_cache and xshape results are vectors programs split (GraphNet's Nonstationary graphs): they are
// computed, the cache empty and xshape copies of the operands.
func TestEinsumCacheResults(t *testing.T) {
	ctx := kctx(t)
	b := progtest.NewIn(t, ctx)
	x, y := b.Data("x", 2, 3), b.Data("y", 3, 2)
	ins := b.OpT("builtin.combine", []*ir.Value{x, y}, []ir.Type{ctx.Vector(x.Type(), y.Type())}).Result(0)
	empty := typeOf(ctx, fT(sh(0)))
	op := b.OpT("pd_op.einsum", []*ir.Value{ins}, []ir.Type{typeOf(ctx, fT(sh(2, 2))), ctx.Vector(empty, empty), ctx.Vector(x.Type(), y.Type())},
		a(t, "equation", "ij,jk->ik"))
	cache := b.OpT("builtin.split", []*ir.Value{op.Result(1)}, []ir.Type{empty, empty})
	shapes := b.OpT("builtin.split", []*ir.Value{op.Result(2)}, []ir.Type{x.Type(), y.Type()})
	b.Fetch(op.Result(0), "out", 0)
	b.Fetch(cache.Result(0), "cache", 1)
	b.Fetch(shapes.Result(1), "y", 2)
	out := eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"x": fT(sh(2, 3), 1, 2, 3, 4, 5, 6), "y": fT(sh(3, 2), 1, 0, 0, 1, 1, 1)}})
	requireTensorClose(t, fT(sh(2, 2), 4, 5, 10, 11), out["out"], 0, "product")
	requireTensorClose(t, fT(sh(0)), out["cache"], 0, "cache")
	requireTensorClose(t, fT(sh(3, 2), 1, 0, 0, 1, 1, 1), out["y"], 0, "xshape")
}
