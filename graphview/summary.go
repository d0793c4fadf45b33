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

// region is a box around an op that holds regions (pd_op.if, pd_op.while) and the ops inside them, or, for an op
// with several regions, around the ops of one of them (the true and the false block of a pd_op.if, side by side
// in the op's box).
type region struct {
	key    boxKey
	parent int   // the index of the box around this one in regions' answer, -1 for none
	owner  int   // the node of the op, -1 when it is not drawn or the box is one of its regions'
	nodes  []int // the nodes inside, at any depth
	depth  int   // the boxes around it: 0 for an op of the program's body
	label  string
}

// boxKey names a region box: the op, and which of its regions (-1 for the box of the whole op).
type boxKey struct {
	op    *ir.Op
	index int
}

// around returns the box directly around the ops of block b, and false for the program's body.
func around(b *ir.Block) (boxKey, bool) {
	if b == nil {
		return boxKey{}, false
	}
	p := b.ParentOp()
	if p == nil || p.Name() == ir.ModuleOpName {
		return boxKey{}, false
	}
	if p.NumRegions() > 1 && b.Region() != nil {
		return boxKey{p, b.Region().Index()}, true
	}
	return boxKey{p, -1}, true
}

// outer returns the box around box k, and false for none.
func outer(k boxKey) (boxKey, bool) {
	if k.index >= 0 {
		return boxKey{k.op, -1}, true
	}
	return around(k.op.Block())
}

// blockLabel names region i of op: the true and false blocks of pd_op.if, "region i" otherwise.
func blockLabel(op *ir.Op, i int) string {
	if op.Name() == "pd_op.if" && i < 2 {
		return [2]string{"true", "false"}[i]
	}
	return "region " + strconv.Itoa(i)
}

// regions returns the boxes of the ops with regions that have drawn ops inside, and of the regions of those with
// several, outer ones first.
func (g *Graph) regions() []*region {
	nodeOf := make(map[*ir.Op]int, len(g.Nodes))
	for i, n := range g.Nodes {
		nodeOf[n.Op] = i
	}
	byKey := map[boxKey]*region{}
	var out []*region
	for i, n := range g.Nodes {
		for k, ok := around(n.Op.Block()); ok; k, ok = outer(k) {
			r := byKey[k]
			if r == nil {
				r = &region{key: k, parent: -1, owner: -1, label: k.op.Name()}
				if j, ok := nodeOf[k.op]; ok && k.index < 0 {
					r.owner = j
					r.label = g.Nodes[j].Label
				}
				if k.index >= 0 {
					r.label = blockLabel(k.op, k.index)
				}
				for q, ok := outer(k); ok; q, ok = outer(q) {
					r.depth++
				}
				byKey[k] = r
				out = append(out, r)
			}
			r.nodes = append(r.nodes, i)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].depth < out[j].depth })
	at := make(map[boxKey]int, len(out))
	for i, r := range out {
		at[r.key] = i
	}
	for _, r := range out {
		if q, ok := outer(r.key); ok {
			if j, ok := at[q]; ok {
				r.parent = j
			}
		}
	}
	return out
}
