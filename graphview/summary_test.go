package graphview

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSharedTrunks: the edges from one source share their dummies, so a value used far below by several ops runs
// down as one trunk; the routes of its edges agree point for point until they branch.
func TestSharedTrunks(t *testing.T) {
	// %1 feeds t.s (next layer) and the adds at the end of a chain of 6 ops: long edges from one source.
	var b strings.Builder
	b.WriteString("{\n    (%0) = \"t.in\" () {} : () -> f32\n    (%1) = \"t.src\" (%0) {} : (f32) -> f32\n")
	prev := 1
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&b, "    (%%%d) = \"t.s\" (%%%d) {} : (f32) -> f32\n", 2+i, prev)
		prev = 2 + i
	}
	fmt.Fprintf(&b, "    (%%8) = \"t.add\" (%%%d, %%1) {} : (f32, f32) -> f32\n", prev)
	b.WriteString("    (%9) = \"t.add\" (%8, %1) {} : (f32, f32) -> f32\n    () = \"t.out\" (%9) {} : (f32) -> \n}\n")
	g := Build(parse(t, b.String()), Options{})
	g.Layout()
	checkLayout(t, g)
	var long []*Edge
	for _, e := range g.Edges {
		if g.Nodes[e.From].Label == "%1 = t.src" && len(e.Points) > 2 {
			long = append(long, e)
		}
	}
	require.Len(t, long, 2, "the two adds use %%1 from far above")
	a, c := long[0], long[1]
	if len(a.Points) > len(c.Points) {
		a, c = c, a
	}
	// The shorter route is the longer one's beginning, but for its last point (its target).
	assert.Equal(t, a.Points[:len(a.Points)-1], c.Points[:len(a.Points)-1], "one trunk")
}

// TestRoutePoints: a vertical run of a route keeps its ends only; bends keep every point.
func TestRoutePoints(t *testing.T) {
	tests := []struct {
		name  string
		route []Point
		want  []float64
	}{
		{"short", []Point{{10, 0}, {20, 50}}, []float64{10, 0, 20, 50}},
		{"straight down", []Point{{10, 0}, {10, 50}, {10, 100}, {10, 150}}, []float64{10, 0, 10, 150}},
		{"bend, then straight", []Point{{10, 0}, {30, 50}, {30, 100}, {30, 150}, {20, 200}},
			[]float64{10, 0, 30, 50, 30, 150, 20, 200}},
		{"zigzag", []Point{{10, 0}, {30, 50}, {10, 100}}, []float64{10, 0, 30, 50, 10, 100}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, routePoints(tt.route))
		})
	}
}

// TestSummaries: a collapsed block says what it holds; a graph drawn whole has a block per repetition, each with
// its summary, and the Drawing carries them as groups of kind "block" whose boxes hold their nodes.
func TestSummaries(t *testing.T) {
	p := parse(t, chain(4, -1))
	g := Build(p, Options{Collapse: true})
	require.Len(t, g.Groups, 1)
	assert.Equal(t, "× 4: a 1, b 1, c 1", g.Groups[0].Summary)
	assert.Empty(t, g.Blocks, "collapsed, the repeats are groups")

	whole := Build(p, Options{})
	whole.Layout()
	require.Len(t, whole.Blocks, 4, "one block per repetition")
	d := whole.Export(nil)
	var blocks []DrawingGroup
	for _, grp := range d.Groups {
		if grp.Kind == "block" {
			blocks = append(blocks, grp)
		}
	}
	require.Len(t, blocks, 4)
	for i, grp := range blocks {
		assert.Equal(t, fmt.Sprintf("%d of 4: a 1, b 1, c 1", i+1), grp.Summary)
		require.Len(t, grp.Nodes, 3)
		for _, v := range grp.Nodes {
			n := d.Nodes[v]
			assert.True(t, n.X-n.W/2 >= grp.X && n.X+n.W/2 <= grp.X+grp.W && n.Y-n.H/2 >= grp.Y && n.Y+n.H/2 <= grp.Y+grp.H,
				"%s inside block %d", n.Label, i+1)
		}
	}

	ops := slices.Collect(parse(t, `{
    (%0) = "pd_op.data" () {} : () -> f32
    (%1) = "pd_op.matmul" (%0, %0) {} : (f32, f32) -> f32
    (%2) = "pd_op.add" (%1, %0) {} : (f32, f32) -> f32
    (%3) = "pd_op.matmul" (%2, %0) {} : (f32, f32) -> f32
    (%4) = "pd_op.softmax" (%3) {} : (f32) -> f32
    (%5) = "pd_op.add" (%4, %0) {} : (f32, f32) -> f32
    (%6) = "pd_op.matmul" (%5, %0) {} : (f32, f32) -> f32
}
`).Body().Ops())
	assert.Equal(t, "matmul 3, add 2, softmax 1", opSummary(ops[1:]))
}

// TestRegionBoxes: an op with regions is drawn in a box with the ops inside it, and nested boxes sit inside the
// boxes around them.
func TestRegionBoxes(t *testing.T) {
	g := Build(parse(t, `{
    (%0) = "t.in" () {} : () -> f32
    (%1) = "t.if" (%0) {} : (f32) -> f32 {
        (%2) = "t.neg" (%0) {} : (f32) -> f32
        (%3) = "t.while" (%2) {} : (f32) -> f32 {
            (%4) = "t.abs" (%2) {} : (f32) -> f32
            () = "cf.yield" (%4) {} : (f32) ->
        }
        () = "cf.yield" (%3) {} : (f32) ->
    }
    () = "t.out" (%1) {} : (f32) ->
}
`), Options{})
	g.Layout()
	d := g.Export(nil)
	var regions []DrawingGroup
	for _, grp := range d.Groups {
		if grp.Kind == "region" {
			regions = append(regions, grp)
		}
	}
	require.Len(t, regions, 2)
	outer, inner := regions[0], regions[1]
	assert.Equal(t, "%1 = t.if", outer.Title)
	assert.Equal(t, 0, outer.Depth)
	assert.Equal(t, "%3 = t.while", inner.Title)
	assert.Equal(t, 1, inner.Depth)
	assert.Len(t, outer.Nodes, 6, "the if, the neg, the while and what it holds, the yield")
	assert.Len(t, inner.Nodes, 3, "the while, the abs, the yield")
	assert.True(t, inner.X > outer.X && inner.Y > outer.Y && inner.X+inner.W < outer.X+outer.W && inner.Y+inner.H < outer.Y+outer.H,
		"the while's box inside the if's: %+v in %+v", inner, outer)
}

// TestDetachedColumn: the ops a rewrite removed stand in a column of their own, so that their box holds no other
// op (placed among the result's ops, it spanned the whole graph).
func TestDetachedColumn(t *testing.T) {
	before := parse(t, chain(3, -1))
	after := parse(t, `{
    (%0) = "t.in" () {} : () -> f32
    (%1) = "t.fused" (%0) {} : (f32) -> f32
    (%2) = "t.b" (%1) {} : (f32) -> f32
    (%3) = "t.c" (%2, %0) {} : (f32, f32) -> f32
    () = "t.out" (%3) {} : (f32) ->
}
`)
	_, removed := DiffOps(before, after)
	require.NotEmpty(t, removed)
	g := Build(after, Options{})
	g.AddDetached(before, removed, "removed")
	g.Layout()
	checkLayout(t, g)
	grp := g.Groups[len(g.Groups)-1]
	in := map[int]bool{}
	for _, v := range grp.Nodes {
		in[v] = true
	}
	for i, n := range g.Nodes {
		if in[i] {
			continue
		}
		inside := n.X+n.W/2 > grp.X && n.X-n.W/2 < grp.X+grp.W && n.Y+n.H/2 > grp.Y && n.Y-n.H/2 < grp.Y+grp.H
		assert.False(t, inside, "%s is inside the box of the removed ops", n.Label)
	}
}
