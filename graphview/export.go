package graphview

import (
	"fmt"

	"github.com/pirdrr/drr/ir"
)

// Drawing is a laid-out graph as plain data, for the canvas renderer (assets/canvas.js) of drrc graph's page and of
// the playground of drrc serve, which receives it as JSON: the boxes, the routes of the edges as polylines through
// the layout's dummy nodes, and the group boxes (collapsed blocks, the repetitions of a graph drawn whole, regions,
// removed ops), in the coordinates of Layout.
type Drawing struct {
	Title  string         `json:"title"`
	Width  float64        `json:"width"`
	Height float64        `json:"height"`
	Hidden int            `json:"hidden"`
	Nodes  []DrawingNode  `json:"nodes"`
	Edges  []DrawingEdge  `json:"edges"`
	Groups []DrawingGroup `json:"groups"`
}

// DrawingNode is a box of a Drawing.
type DrawingNode struct {
	ID      string   `json:"id"`
	Label   string   `json:"label"`
	Detail  string   `json:"detail"`
	Classes []string `json:"classes,omitempty"`
	// Group is the index of the node's group in Groups plus 1, or 0.
	Group int `json:"group,omitempty"`
	// Keys name the ops the node stands for (its op, then those of Node.Also), as the key function of Export names
	// them; empty without one.
	Keys []string `json:"keys,omitempty"`
	// Also are the labels of the ops of the later repetitions of a collapsed block the node stands for (search finds
	// them).
	Also []string `json:"also,omitempty"`
	// X, Y is the centre of the box; W, H its size.
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// DrawingEdge is an edge of a Drawing, from the node with ID From to the node with ID To.
type DrawingEdge struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Label string `json:"label"`
	// Points is the route, x and y of each point in turn: from the bottom of the source, through one point per layer
	// crossed (the layout's dummy nodes, placed between the boxes), to the top of the target. The renderer draws it
	// with vertical tangents at each point, as WriteSVG does.
	Points []float64 `json:"points"`
}

// DrawingGroup is a group box of a Drawing.
type DrawingGroup struct {
	// Kind is "repeat" (a collapsed repeated block: Count repetitions drawn once), "block" (one repetition of a
	// repeated block of a graph drawn whole), "region" (an op with regions, pd_op.if or pd_op.while, and the ops
	// inside, or one region of an op with several: an if's true or false block; Depth counts the region boxes around
	// it) or "set" (nodes that belong together: the ops a rewrite removed).
	Kind string `json:"kind"`
	// Title is the text at the top of the box ("× 12 (a block of 9 ops)"); Note says more, for tooltips.
	Title string `json:"title"`
	Note  string `json:"note"`
	// Summary says what a block holds ("× 12: matmul 6, add 4, softmax 1"): zoomed out, the renderer draws the
	// block closed, with its summary, in place of boxes too small to read.
	Summary string `json:"summary,omitempty"`
	Count   int    `json:"count,omitempty"`
	Ops     int    `json:"ops"`
	Depth   int    `json:"depth,omitempty"`
	// Nodes are the indices (in Nodes) of the nodes in the box.
	Nodes []int   `json:"nodes"`
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	W     float64 `json:"w"`
	H     float64 `json:"h"`
}

// Export returns the laid-out graph (call Layout first) as a Drawing. key, if not nil, names each op (the playground
// uses the op's position in the program), so that the page can find the node of an op and the ops of a node.
func (g *Graph) Export(key func(*ir.Op) string) *Drawing {
	d := &Drawing{Title: g.Title, Width: round1(g.Width), Height: round1(g.Height), Hidden: g.Hidden,
		Nodes: make([]DrawingNode, 0, len(g.Nodes)), Edges: make([]DrawingEdge, 0, len(g.Edges)),
		Groups: make([]DrawingGroup, 0, len(g.Groups))}
	for _, n := range g.Nodes {
		dn := DrawingNode{ID: n.ID, Label: n.Label, Detail: n.Detail, Classes: n.Classes, Group: n.Group,
			Also: n.AlsoLabels, X: round1(n.X), Y: round1(n.Y), W: round1(n.W), H: round1(n.H)}
		if key != nil {
			dn.Keys = append(dn.Keys, key(n.Op))
			for _, op := range n.Also {
				dn.Keys = append(dn.Keys, key(op))
			}
		}
		d.Nodes = append(d.Nodes, dn)
	}
	for _, e := range g.Edges {
		pts := routePoints(e.Points)
		d.Edges = append(d.Edges, DrawingEdge{From: g.Nodes[e.From].ID, To: g.Nodes[e.To].ID, Label: e.Label, Points: pts})
	}
	group := func(kind string, grp *Group) DrawingGroup {
		return DrawingGroup{Kind: kind, Title: groupTitle(grp), Note: grp.Note, Summary: grp.Summary, Count: grp.Count,
			Ops: grp.Ops, Nodes: append([]int{}, grp.Nodes...),
			X: round1(grp.X), Y: round1(grp.Y), W: round1(grp.W), H: round1(grp.H)}
	}
	for _, grp := range g.Groups {
		kind := "set"
		if grp.Count > 0 {
			kind = "repeat"
		}
		d.Groups = append(d.Groups, group(kind, grp))
	}
	for _, grp := range g.Blocks {
		d.Groups = append(d.Groups, group("block", grp))
	}
	d.Groups = append(d.Groups, g.regionGroups()...)
	return d
}

// routePoints returns a route as x, y pairs, without the points inside a vertical run (a long edge passing
// straight down through its dummies): drawn with vertical tangents at each point, a segment between two points
// of the same x is that straight line, so the drawing is the same with a fraction of the points (SegFormer-B5
// subgraph_1 drawn whole: 131,154 points instead of 913,257).
func routePoints(route []Point) []float64 {
	pts := make([]float64, 0, 2*len(route))
	for i, p := range route {
		x := round1(p.X)
		if i > 0 && i+1 < len(route) && round1(route[i-1].X) == x && round1(route[i+1].X) == x {
			continue
		}
		pts = append(pts, x, round1(p.Y))
	}
	return pts
}

// regionGroups returns the boxes of the ops with regions, each around the op and the ops inside it, and of the
// regions of an op with several, each around its ops: where Layout put them (no other op inside), or without a
// layout around their nodes, wider by regionPad per level of nesting inside, so that inner boxes sit inside outer
// ones.
func (g *Graph) regionGroups() []DrawingGroup {
	regions := g.regions()
	deepest := make([]int, len(regions))
	for i := len(regions) - 1; i >= 0; i-- { // inner boxes come after outer ones
		if p := regions[i].parent; p >= 0 {
			deepest[p] = max(deepest[p], deepest[i]+1)
		}
	}
	var out []DrawingGroup
	for i, r := range regions {
		nodes := r.nodes
		if r.owner >= 0 {
			nodes = append([]int{r.owner}, nodes...)
		}
		grp := &Group{Nodes: nodes}
		g.box(grp, regionPad*float64(deepest[i]+1), regionTitle)
		if b, ok := g.regionBoxes[r.key]; ok {
			grp.X, grp.Y, grp.W, grp.H = b.X, b.Y, b.W, b.H
		}
		note := fmt.Sprintf("%s and the %d drawn %s inside its regions", r.label, len(r.nodes), plural(len(r.nodes), "op"))
		if r.key.index >= 0 && r.parent >= 0 {
			note = fmt.Sprintf("the %s block of %s: %d drawn %s", r.label, regions[r.parent].label, len(r.nodes), plural(len(r.nodes), "op"))
			if r.key.op.Name() != "pd_op.if" {
				note = fmt.Sprintf("%s of %s: %d drawn %s", r.label, regions[r.parent].label, len(r.nodes), plural(len(r.nodes), "op"))
			}
		}
		out = append(out, DrawingGroup{Kind: "region", Title: r.label, Depth: r.depth, Ops: len(nodes), Note: note,
			Nodes: nodes, X: round1(grp.X), Y: round1(grp.Y), W: round1(grp.W), H: round1(grp.H)})
	}
	return out
}
