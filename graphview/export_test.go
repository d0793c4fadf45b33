package graphview

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// TestExport checks the Drawing of a collapsed graph: nodes with their keys (a node of a collapsed block stands for
// its counterparts in the later repetitions), edges with their routes, group boxes; and that it is JSON.
func TestExport(t *testing.T) {
	p := parse(t, chain(4, -1))
	index := map[*ir.Op]int{}
	for op := range p.Walk() {
		index[op] = len(index)
	}
	key := func(op *ir.Op) string { return fmt.Sprintf("o%d", index[op]) }
	g := Build(p, Options{Collapse: true})
	g.Layout()
	d := g.Export(key)
	require.Len(t, d.Nodes, len(g.Nodes))
	require.Len(t, d.Groups, 1)
	assert.Equal(t, "× 4 (a block of 3 ops)", d.Groups[0].Title)
	assert.Equal(t, 4, d.Groups[0].Count)
	tests := []struct {
		label string
		keys  []string
	}{
		{"%0 = t.in", []string{"o0"}},
		{"%1 = t.a", []string{"o1", "o4", "o7", "o10"}},
		{"%3 = t.c", []string{"o3", "o6", "o9", "o12"}},
		{"t.out", []string{"o13"}},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			for _, n := range d.Nodes {
				if n.Label == tt.label {
					assert.Equal(t, tt.keys, n.Keys)
					return
				}
			}
			t.Fatalf("no node %q", tt.label)
		})
	}
	require.Len(t, d.Edges, len(g.Edges))
	for i, e := range d.Edges {
		assert.Equal(t, g.Nodes[g.Edges[i].From].ID, e.From)
		assert.Equal(t, routePoints(g.Edges[i].Points), e.Points, "x and y of the points of the route")
	}
	assert.Equal(t, round1(g.Width), d.Width)
	out, err := json.Marshal(d)
	require.NoError(t, err)
	assert.Contains(t, string(out), `"keys":["o1","o4","o7","o10"]`)

	// Without a key function there are no keys.
	assert.Empty(t, g.Export(nil).Nodes[0].Keys)
}

func TestDiffOps(t *testing.T) {
	before := parse(t, `{
    (%0) = "builtin.parameter" () {parameter_name:"w"} : () -> f32
    (%1) = "t.in" () {} : () -> f32
    (%2) = "t.mul" (%1, %0) {} : (f32, f32) -> f32
    (%3) = "t.add" (%2, %0) {} : (f32, f32) -> f32
    () = "t.out" (%3) {} : (f32) ->
}
`)
	after := parse(t, `{
    (%0) = "builtin.parameter" () {parameter_name:"w"} : () -> f32
    (%1) = "t.in" () {} : () -> f32
    (%2) = "t.fma" (%1, %0, %0) {} : (f32, f32, f32) -> f32
    () = "t.out" (%2) {} : (f32) ->
}
`)
	added, removed := DiffOps(before, after)
	var names []string
	for op := range added {
		names = append(names, op.Name())
	}
	assert.Equal(t, []string{"t.fma"}, names)
	names = nil
	for _, op := range removed {
		names = append(names, op.Name())
	}
	assert.Equal(t, []string{"t.mul", "t.add"}, names)
}
