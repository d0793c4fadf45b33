package graphview

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

const small = `{
    (%0) = "builtin.parameter" () {parameter_name:"w"} : () -> f32
    (%1) = "t.in" () {} : () -> f32
    (%2) = "t.mul" (%1, %0) {alpha:(Float)2} : (f32, f32) -> f32
    (%3) = "t.if" (%2) {} : (f32) -> f32 {
        (%4) = "t.neg" (%2) {} : (f32) -> f32
        () = "cf.yield" (%4) {} : (f32) ->
    }
    () = "t.out" (%3) {} : (f32) ->
}
`

func TestBuild(t *testing.T) {
	p := parse(t, small)
	g := Build(p, Options{})
	assert.Equal(t, []string{"%1 = t.in", "%2 = t.mul", "%3 = t.if", "%4 = t.neg", "cf.yield", "t.out"}, labels(g))
	assert.Equal(t, []string{"n0->n1", "n1->n2", "n1->n3", "n3->n4", "n2->n5"}, edges(g))
	assert.Equal(t, "%1 f32", g.Edges[0].Label)
	assert.Equal(t, 1, g.Hidden, "the parameter")
	assert.Equal(t, "%2 = t.mul(%1, %0)\n  alpha: (Float)2\n  %2: f32\n  at test.pir:4:5", g.Nodes[1].Detail)
	assert.Equal(t, []string{"region"}, g.Nodes[3].Classes, "t.neg is inside t.if's region")
	assert.Equal(t, "test.pir", g.Title)

	withParams := Build(p, Options{Params: true, Title: "t"})
	assert.Len(t, withParams.Nodes, 7)
	assert.Zero(t, withParams.Hidden)
	assert.Equal(t, "t", withParams.Title)
}

func TestFocus(t *testing.T) {
	p := parse(t, chain(4, -1))
	var ops []*ir.Op
	for op := range p.Walk() {
		ops = append(ops, op)
	}
	mid := ops[7] // %7 = t.a(%6), the a of the third block
	g := Build(p, Options{Focus: []*ir.Op{mid}, Depth: 0})
	assert.Equal(t, []string{"%7 = t.a"}, labels(g))
	assert.Equal(t, len(ops)-1, g.Hidden)
	assert.Equal(t, []string{"cut"}, g.Nodes[0].Classes)
	assert.Contains(t, g.Nodes[0].Detail, "(2 neighbours outside the focus)")

	g = Build(p, Options{Focus: []*ir.Op{mid}, Depth: 1})
	assert.Equal(t, []string{"%6 = t.c", "%7 = t.a", "%8 = t.b"}, labels(g))
	assert.Equal(t, []string{"n0->n1", "n1->n2"}, edges(g))
	assert.Equal(t, []string{"cut"}, g.Nodes[0].Classes)
	assert.Contains(t, g.Nodes[0].Detail, "(3 neighbours outside the focus)", "%5 and %3 above, %9 below")
	assert.Empty(t, g.Nodes[1].Classes, "all of %7's neighbours are drawn")
	assert.Equal(t, []string{"cut"}, g.Nodes[2].Classes)

	g = Build(p, Options{Focus: []*ir.Op{mid}, Depth: 100})
	assert.Len(t, g.Nodes, len(ops))
}

func TestClassesAndDetached(t *testing.T) {
	p := parse(t, small)
	var mul *ir.Op
	for op := range p.Walk() {
		if op.Name() == "t.mul" {
			mul = op
		}
	}
	g := Build(p, Options{Classes: map[*ir.Op][]string{mul: {"matched"}}})
	assert.Equal(t, []string{"matched"}, g.Nodes[1].Classes)
	before := parse(t, small)
	var gone []*ir.Op
	for op := range before.Walk() {
		if op.Name() == "t.neg" {
			gone = append(gone, op)
		}
	}
	g.AddDetached(before, gone, "removed")
	require.Len(t, g.Groups, 1)
	assert.Equal(t, "removed", g.Groups[0].Label)
	last := g.Nodes[len(g.Nodes)-1]
	assert.Equal(t, "%4 = t.neg", last.Label)
	assert.Equal(t, []string{"removed"}, last.Classes)
	g.Layout()
	assert.Greater(t, g.Groups[0].W, last.W)
}
