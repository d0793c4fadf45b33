package graphview

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// Graph is a program drawn as a graph: ops are nodes, a value is an edge from its definition to each use.
type Graph struct {
	// Title names the graph (the file, or "before" and "after").
	Title string
	Nodes []*Node
	Edges []*Edge
	// Groups are collapsed repeated blocks: their nodes are those of the first repetition.
	Groups []*Group
	// Blocks are the repetitions of the repeated blocks of a graph drawn whole (Options.Collapse off), one group per
	// repetition: the renderer closes each into its summary when zoomed out. Only Export uses them.
	Blocks []*Group
	// Hidden counts the ops of the program that are not drawn (parameters, ops outside the focus, repetitions
	// after the first of a collapsed block).
	Hidden int
	// Width and Height are the size of the drawing, set by Layout.
	Width, Height float64
	// regionBoxes are the boxes Layout kept for the ops with regions (Export draws them).
	regionBoxes map[boxKey]regionRect
}

// Node is one box: an op of the program.
type Node struct {
	// ID names the node in the renderings ("n12"); it is unique in the graph.
	ID string
	// Op is the op drawn.
	Op *ir.Op
	// Label is what the box says: the op's results and its name (%3 = pd_op.conv2d).
	Label string
	// Detail is the op in full, for tooltips and the details panel: results with types, attributes, operands,
	// where the op is.
	Detail string
	// Classes mark the node for rendering: "matched", "added", "removed", "cut" (has neighbours that are not
	// drawn), "region" (inside a region of a pd_op.if or pd_op.while).
	Classes []string
	// Group is the index of the collapsed block the node belongs to plus 1, or 0.
	Group int
	// Also are the ops of the later repetitions of a collapsed block that this node stands for (their
	// counterparts of Op), in program order; AlsoLabels are their labels.
	Also       []*ir.Op
	AlsoLabels []string

	// Placement, set by Layout: the centre of the box, its size and its layer.
	X, Y, W, H float64
	Layer      int
}

// Edge is a value flowing from one node to another.
type Edge struct {
	From, To int // node indices
	// Label is the value and its type (%3 tensor<1x64x56x56xf32>).
	Label string
	// Points is the route of the edge (from the source's bottom to the target's top), set by Layout.
	Points []Point
}

// Point is a position in the drawing.
type Point struct{ X, Y float64 }

// Group is a box around some nodes: a collapsed repeated block (Count consecutive repetitions of the same ops
// with the same structure, drawn once: the nodes of the first repetition), or a set of nodes that belong together
// (the ops a rewrite removed).
type Group struct {
	// Label is the box's title ("× 12", "removed"); Note says more, for tooltips.
	Label, Note string
	// Summary says what a block holds, for the renderer to show in its place when zoomed out ("× 12: matmul 6,
	// add 4, softmax 1").
	Summary string
	// Count is the number of repetitions of a collapsed block (0 for other groups).
	Count int
	// Ops is the number of ops of one repetition.
	Ops int
	// Nodes are the indices of the nodes of the first repetition.
	Nodes []int
	// X, Y, W, H is the box around the nodes, set by Layout.
	X, Y, W, H float64
}

// Options configure Build.
type Options struct {
	// Params draws parameter ops (builtin.parameter, builtin.get_parameter); real models have hundreds.
	Params bool
	// Focus, if set, draws only these ops and those within Depth edges of them (users and producers).
	Focus []*ir.Op
	Depth int
	// Collapse draws each run of repeated blocks once, with its count.
	Collapse bool
	// Classes marks ops (see Node.Classes).
	Classes map[*ir.Op][]string
	// Title names the graph.
	Title string
}

// Build makes the graph of a program. Layout places it.
func Build(p *ir.Program, opts Options) *Graph {
	names := ir.NumberValues(p.Body())
	var ops []*ir.Op
	total := 0
	for op := range p.Walk() {
		total++
		if !opts.Params && isParam(op) {
			continue
		}
		ops = append(ops, op)
	}
	if len(opts.Focus) > 0 {
		ops = neighbourhood(ops, opts.Focus, opts.Depth)
	}
	g := &Graph{Title: opts.Title}
	if g.Title == "" {
		g.Title = p.File
	}
	index := make(map[*ir.Op]int, len(ops))
	for i, op := range ops {
		index[op] = i
	}
	var groups []repeat
	if opts.Collapse {
		groups = findRepeats(ops, index, opts.Classes)
	}
	// Ops of later repetitions are drawn by their counterpart in the first.
	drawnAs := make([]int, len(ops))
	for i := range drawnAs {
		drawnAs[i] = i
	}
	groupOf := make([]int, len(ops)) // the op's group plus 1, or 0
	repOf := make([]int, len(ops))   // the repetition the op is in
	for gi, r := range groups {
		for k := 0; k < r.count; k++ {
			for j := 0; j < r.length; j++ {
				i := r.start + k*r.length + j
				drawnAs[i], groupOf[i], repOf[i] = r.start+j, gi+1, k
			}
		}
	}
	nodeOf := make([]int, len(ops))
	for i, op := range ops {
		if drawnAs[i] != i {
			nodeOf[i] = nodeOf[drawnAs[i]]
			n := g.Nodes[nodeOf[i]]
			n.Also = append(n.Also, op)
			n.AlsoLabels = append(n.AlsoLabels, label(names, op))
			continue
		}
		n := &Node{ID: fmt.Sprintf("n%d", len(g.Nodes)), Op: op, Label: label(names, op), Detail: detail(p, names, op),
			Classes: append([]string(nil), opts.Classes[op]...), Group: groupOf[i]}
		if op.ParentOp() != nil && op.ParentOp().Name() != ir.ModuleOpName {
			n.Classes = append(n.Classes, "region")
		}
		nodeOf[i] = len(g.Nodes)
		g.Nodes = append(g.Nodes, n)
	}
	for _, r := range groups {
		grp := &Group{Count: r.count, Ops: r.length, Label: fmt.Sprintf("× %d", r.count),
			Note: fmt.Sprintf("%d repetitions of the same %d ops, drawn once", r.count, r.length)}
		for j := 0; j < r.length; j++ {
			grp.Nodes = append(grp.Nodes, nodeOf[r.start+j])
		}
		grp.Summary = grp.Label + ": " + opSummary(ops[r.start:r.start+r.length])
		g.Groups = append(g.Groups, grp)
	}
	g.Hidden = total - len(g.Nodes)
	// Edges: each operand from its definition (or, for a block argument, the op owning the region).
	type key struct{ from, to int }
	seen := map[key]bool{}
	cut := map[int]int{}
	for i, op := range ops {
		to := nodeOf[i]
		for _, v := range op.Operands() {
			if v == nil {
				continue
			}
			src := v.DefiningOp()
			if src == nil && v.OwnerBlock() != nil {
				src = v.OwnerBlock().ParentOp()
			}
			j, ok := index[src]
			if !ok {
				if src != nil && (opts.Params || !isParam(src)) {
					cut[to]++ // a producer outside the focus
				}
				continue
			}
			from := nodeOf[j]
			if from == to || groupOf[i] != 0 && groupOf[i] == groupOf[j] && repOf[i] != repOf[j] {
				continue // an edge between two repetitions of a collapsed block
			}
			k := key{from, to}
			if seen[k] {
				continue
			}
			seen[k] = true
			g.Edges = append(g.Edges, &Edge{From: from, To: to, Label: names.Name(v) + " " + shortType(v.Type())})
		}
		if len(opts.Focus) > 0 {
			for _, r := range op.Results() {
				for u := range r.Uses() {
					if _, ok := index[u.Owner()]; !ok {
						cut[to]++ // a user outside the focus
					}
				}
			}
		}
	}
	for n, k := range cut {
		if len(opts.Focus) == 0 {
			break
		}
		node := g.Nodes[n]
		node.Classes = append(node.Classes, "cut")
		node.Detail += fmt.Sprintf("\n(%d %s outside the focus)", k, plural(k, "neighbour"))
	}
	for _, n := range g.Nodes {
		sort.Strings(n.Classes)
	}
	if !opts.Collapse {
		// Drawn whole, node i is ops[i]: each repetition of a repeated block is a block the renderer can close.
		g.Blocks = blocksOf(findRepeats(ops, index, opts.Classes), ops)
	}
	return g
}

func isParam(op *ir.Op) bool {
	return op.Name() == ir.ParameterOpName || op.Name() == ir.GetParameterOpName
}

// label is what a box says: %3 = pd_op.conv2d.
func label(names *ir.Numbering, op *ir.Op) string {
	if op.NumResults() == 0 {
		return op.Name()
	}
	return names.ResultNames(op) + " = " + op.Name()
}

// detail is the op in full: results with their types, operands, attributes, position.
func detail(p *ir.Program, names *ir.Numbering, op *ir.Op) string {
	var b strings.Builder
	b.WriteString(label(names, op))
	if op.NumOperands() > 0 {
		b.WriteString("(")
		for i, v := range op.Operands() {
			if i > 0 {
				b.WriteString(", ")
			}
			if v == nil {
				b.WriteString("null")
			} else {
				b.WriteString(names.Name(v))
			}
		}
		b.WriteString(")")
	}
	for _, a := range op.SortedAttrs() {
		if a.Name == "stop_gradient" || a.Name == "persistable" || a.Name == "op_callstack" {
			continue
		}
		fmt.Fprintf(&b, "\n  %s: %s", a.Name, a.Value)
	}
	for _, r := range op.Results() {
		fmt.Fprintf(&b, "\n  %s: %s", names.Name(r), r.Type())
	}
	if op.Loc.IsKnown() {
		fmt.Fprintf(&b, "\n  at %s:%d:%d", p.File, op.Loc.Line, op.Loc.Col)
	}
	return b.String()
}

func shortType(t ir.Type) string {
	return strings.TrimPrefix(t.String(), "builtin.")
}

func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// neighbourhood returns the ops of ops (in their order) within depth edges of the focus.
func neighbourhood(ops []*ir.Op, focus []*ir.Op, depth int) []*ir.Op {
	in := make(map[*ir.Op]bool, len(ops))
	for _, op := range ops {
		in[op] = true
	}
	dist := map[*ir.Op]int{}
	var queue []*ir.Op
	for _, op := range focus {
		if _, seen := dist[op]; !seen && in[op] {
			dist[op] = 0
			queue = append(queue, op)
		}
	}
	for len(queue) > 0 {
		op := queue[0]
		queue = queue[1:]
		if dist[op] >= depth {
			continue
		}
		visit := func(n *ir.Op) {
			if n == nil || !in[n] {
				return
			}
			if _, seen := dist[n]; !seen {
				dist[n] = dist[op] + 1
				queue = append(queue, n)
			}
		}
		for _, v := range op.Operands() {
			if v == nil {
				continue
			}
			if d := v.DefiningOp(); d != nil {
				visit(d)
			} else if b := v.OwnerBlock(); b != nil {
				visit(b.ParentOp())
			}
		}
		for _, r := range op.Results() {
			for u := range r.Uses() {
				visit(u.Owner())
			}
		}
	}
	var out []*ir.Op
	for _, op := range ops {
		if _, ok := dist[op]; ok {
			out = append(out, op)
		}
	}
	return out
}

// AddDetached adds ops of another program (p, the program before a rewrite) as nodes without edges, marked with
// class and boxed in a group labelled with it: the ops a rewrite removed, drawn beside the result.
func (g *Graph) AddDetached(p *ir.Program, ops []*ir.Op, class string) {
	if len(ops) == 0 {
		return
	}
	names := ir.NumberValues(p.Body())
	grp := &Group{Label: class, Ops: len(ops), Note: fmt.Sprintf("%d %s of %s", len(ops), plural(len(ops), "op"), p.File)}
	for _, op := range ops {
		grp.Nodes = append(grp.Nodes, len(g.Nodes))
		g.Nodes = append(g.Nodes, &Node{ID: fmt.Sprintf("n%d", len(g.Nodes)), Op: op, Label: label(names, op),
			Detail: detail(p, names, op), Classes: []string{class}, Group: len(g.Groups) + 1})
	}
	g.Groups = append(g.Groups, grp)
}
