package graphview

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// Summaries of blocks, for semantic zoom: zoomed out, the renderer draws a repeated block as one box that says
// what it holds instead of boxes whose labels no one could read.

// maxSummaryKinds is the most op kinds a summary names; the rest are counted as "…".
const maxSummaryKinds = 6

// opSummary says what ops hold: their kinds (without the dialect: "matmul", not "pd_op.matmul") with their
// counts, the commonest first (ties in program order): "matmul 6, add 4, softmax 1".
func opSummary(ops []*ir.Op) string {
	count := map[string]int{}
	var kinds []string
	for _, op := range ops {
		k := shortName(op.Name())
		if count[k] == 0 {
			kinds = append(kinds, k)
		}
		count[k]++
	}
	sort.SliceStable(kinds, func(i, j int) bool { return count[kinds[i]] > count[kinds[j]] })
	var b strings.Builder
	for i, k := range kinds {
		if i == maxSummaryKinds {
			rest := 0
			for _, k := range kinds[i:] {
				rest += count[k]
			}
			fmt.Fprintf(&b, ", … %d more", rest)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k + " " + strconv.Itoa(count[k]))
	}
	return b.String()
}

// shortName is an op's name without its dialect.
func shortName(name string) string {
	if i := strings.IndexByte(name, '.'); i >= 0 && i+1 < len(name) {
		return name[i+1:]
	}
	return name
}

// blocksOf makes a block (a Group without Count) of each repetition of each repeat, in a graph whose node i draws
// ops[i].
func blocksOf(repeats []repeat, ops []*ir.Op) []*Group {
	var out []*Group
	for _, r := range repeats {
		summary := opSummary(ops[r.start : r.start+r.length])
		for k := 0; k < r.count; k++ {
			grp := &Group{Label: fmt.Sprintf("%d of %d", k+1, r.count), Ops: r.length,
				Note:    fmt.Sprintf("repetition %d of %d of the same %d ops", k+1, r.count, r.length),
				Summary: fmt.Sprintf("%d of %d: %s", k+1, r.count, summary)}
			for j := 0; j < r.length; j++ {
				grp.Nodes = append(grp.Nodes, r.start+k*r.length+j)
			}
			out = append(out, grp)
		}
	}
	return out
}

// region is a box around an op that holds regions (pd_op.if, pd_op.while) and the ops inside them.
type region struct {
	op     *ir.Op
	parent int   // the index of the region around this one in regions' answer, -1 for none
	owner  int   // the node of the op, -1 when it is not drawn
	nodes  []int // the nodes inside, at any depth
	depth  int   // 0 for an op of the program's body
	label  string
}

// regions returns the boxes of the ops with regions that have drawn ops inside, outer ones first.
func (g *Graph) regions() []*region {
	nodeOf := make(map[*ir.Op]int, len(g.Nodes))
	for i, n := range g.Nodes {
		nodeOf[n.Op] = i
	}
	byOp := map[*ir.Op]*region{}
	var out []*region
	for i, n := range g.Nodes {
		for p := n.Op.ParentOp(); p != nil && p.Name() != ir.ModuleOpName; p = p.ParentOp() {
			r := byOp[p]
			if r == nil {
				r = &region{op: p, parent: -1, owner: -1, label: p.Name()}
				if j, ok := nodeOf[p]; ok {
					r.owner = j
					r.label = g.Nodes[j].Label
				}
				for q := p.ParentOp(); q != nil && q.Name() != ir.ModuleOpName; q = q.ParentOp() {
					r.depth++
				}
				byOp[p] = r
				out = append(out, r)
			}
			r.nodes = append(r.nodes, i)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].depth < out[j].depth })
	at := make(map[*ir.Op]int, len(out))
	for i, r := range out {
		at[r.op] = i
	}
	for _, r := range out {
		if j, ok := at[r.op.ParentOp()]; ok {
			r.parent = j
		}
	}
	return out
}
