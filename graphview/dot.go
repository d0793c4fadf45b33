package graphview

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// dotStyle gives each class its Graphviz colours.
var dotStyle = map[string]string{
	"matched": `fillcolor="#fff1c2", color="#b7791f"`,
	"added":   `fillcolor="#d6ffd6", color=darkgreen`,
	"removed": `fillcolor="#ffd6d6", color=red`,
	"cut":     `style="rounded,filled,dashed"`,
}

// WriteDOT writes graphs as Graphviz DOT (placement is not needed: Graphviz lays them out): the regions of
// pd_op.if and pd_op.while as nested clusters, collapsed blocks and other groups as clusters with their label,
// classes as colours, edges labelled with the value and its type. Several graphs (before and after) are clusters
// of one drawing.
func WriteDOT(w io.Writer, title string, graphs ...*Graph) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "digraph %q {\n  rankdir=TB;\n  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=8];\n", title)
	cluster := 0
	for gi, g := range graphs {
		prefix, indent := "", "  "
		if len(graphs) > 1 {
			prefix = "p" + strconv.Itoa(gi) + "_"
			cluster++
			fmt.Fprintf(bw, "  subgraph cluster_%d {\n    label=%q;\n", cluster, g.Title)
			indent = "    "
		}
		d := &dotWriter{g: g, w: bw, prefix: prefix, cluster: cluster, drawn: map[*ir.Op]int{}, children: map[regionKey][]int{}}
		for i, n := range g.Nodes {
			if n.Op != nil && !hasClass(n, "removed") {
				d.drawn[n.Op] = i
			}
		}
		var top []int
		for i, n := range g.Nodes {
			if k, ok := d.regionOf(n); ok {
				d.children[k] = append(d.children[k], i)
			} else {
				top = append(top, i)
			}
		}
		d.nodes(top, indent)
		for _, e := range g.Edges {
			fmt.Fprintf(bw, "%s%s%s -> %s%s [label=%q];\n", indent, prefix, g.Nodes[e.From].ID, prefix, g.Nodes[e.To].ID, e.Label)
		}
		cluster = d.cluster
		if len(graphs) > 1 {
			bw.WriteString("  }\n")
		}
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// regionKey is a region of a drawn op: its nodes form a cluster inside the op's cluster.
type regionKey struct {
	op     *ir.Op
	region int
}

type dotWriter struct {
	g        *Graph
	w        *bufio.Writer
	prefix   string // of node ids, when several graphs share the drawing
	drawn    map[*ir.Op]int
	children map[regionKey][]int
	cluster  int
}

// regionOf returns the region of the nearest drawn region op that holds the node's op.
func (d *dotWriter) regionOf(n *Node) (regionKey, bool) {
	if n.Op == nil || hasClass(n, "removed") {
		return regionKey{}, false
	}
	child := n.Op
	for parent := child.ParentOp(); parent != nil && parent.Name() != ir.ModuleOpName; parent = parent.ParentOp() {
		if _, ok := d.drawn[parent]; ok {
			return regionKey{parent, child.Block().Region().Index()}, true
		}
		child = parent
	}
	return regionKey{}, false
}

// nodes writes nodes in order, those of one group inside the group's cluster.
func (d *dotWriter) nodes(list []int, indent string) {
	for k := 0; k < len(list); {
		n := d.g.Nodes[list[k]]
		if n.Group == 0 {
			d.node(list[k], indent)
			k++
			continue
		}
		grp := d.g.Groups[n.Group-1]
		d.cluster++
		color := "gray40"
		if hasClass(n, "removed") {
			color = "red"
		}
		fmt.Fprintf(d.w, "%ssubgraph cluster_%d {\n%s  label=%q; style=dashed; color=%s; fontcolor=%s;\n", indent, d.cluster, indent, groupTitle(grp), color, color)
		for ; k < len(list) && d.g.Nodes[list[k]].Group == n.Group; k++ {
			d.node(list[k], indent+"  ")
		}
		fmt.Fprintf(d.w, "%s}\n", indent)
	}
}

// node writes one node; a region op is a cluster holding its regions.
func (d *dotWriter) node(i int, indent string) {
	n := d.g.Nodes[i]
	var style []string
	for _, c := range n.Classes {
		if s, ok := dotStyle[c]; ok {
			style = append(style, s)
		}
	}
	attrs := ""
	if len(style) > 0 {
		attrs = ", " + strings.Join(style, ", ")
	}
	if n.Op == nil || n.Op.NumRegions() == 0 || hasClass(n, "removed") {
		fmt.Fprintf(d.w, "%s%s%s [label=%q%s];\n", indent, d.prefix, n.ID, n.Label, attrs)
		return
	}
	d.cluster++
	fmt.Fprintf(d.w, "%ssubgraph cluster_%d {\n%s  label=%q; style=dashed;\n", indent, d.cluster, indent, n.Label)
	fmt.Fprintf(d.w, "%s  %s%s [label=%q, shape=ellipse%s];\n", indent, d.prefix, n.ID, n.Op.Name(), attrs)
	for ri := range n.Op.Regions() {
		d.cluster++
		fmt.Fprintf(d.w, "%s  subgraph cluster_%d {\n%s    label=\"region %d\"; style=dotted;\n", indent, d.cluster, indent, ri)
		d.nodes(d.children[regionKey{n.Op, ri}], indent+"    ")
		fmt.Fprintf(d.w, "%s  }\n", indent)
	}
	fmt.Fprintf(d.w, "%s}\n", indent)
}

func hasClass(n *Node, c string) bool {
	for _, x := range n.Classes {
		if x == c {
			return true
		}
	}
	return false
}
