package graphview

import (
	"strings"

	"github.com/pirdrr/drr/ir"
)

// Drawing is a laid-out graph as plain data, for a page that draws it with its own script (the playground of drrc
// serve receives it as JSON): the boxes, the routes of the edges as SVG path data, and the group boxes, in the
// coordinates of Layout. Drawn with Style, it looks as WriteSVG draws the graph.
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
	// Path is the route as SVG path data (M, then cubic Béziers).
	Path string `json:"path"`
}

// DrawingGroup is a group box of a Drawing: a collapsed repeated block (Count > 0) or a set of nodes that belong
// together.
type DrawingGroup struct {
	// Title is the text at the top of the box ("× 12 (a block of 9 ops)"); Note says more, for tooltips.
	Title string  `json:"title"`
	Note  string  `json:"note"`
	Count int     `json:"count,omitempty"`
	Ops   int     `json:"ops"`
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
			X: round1(n.X), Y: round1(n.Y), W: round1(n.W), H: round1(n.H)}
		if key != nil {
			dn.Keys = append(dn.Keys, key(n.Op))
			for _, op := range n.Also {
				dn.Keys = append(dn.Keys, key(op))
			}
		}
		d.Nodes = append(d.Nodes, dn)
	}
	for _, e := range g.Edges {
		d.Edges = append(d.Edges, DrawingEdge{From: g.Nodes[e.From].ID, To: g.Nodes[e.To].ID, Label: e.Label,
			Path: pathData(e.Points)})
	}
	for _, grp := range g.Groups {
		d.Groups = append(d.Groups, DrawingGroup{Title: groupTitle(grp), Note: grp.Note, Count: grp.Count, Ops: grp.Ops,
			X: round1(grp.X), Y: round1(grp.Y), W: round1(grp.W), H: round1(grp.H)})
	}
	return d
}

// Style returns the CSS that WriteSVG and WriteHTML style drawings with: the classes gv-node (with matched, added,
// removed, cut, region), gv-edge, gv-group and gv-title. A page drawing a Drawing uses the same classes.
func Style() string { return strings.TrimSpace(svgStyle) + "\n" }
