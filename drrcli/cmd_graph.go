package drrcli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/pirdrr/drr/ir"
)

func init() {
	register(&command{
		name:    "graph",
		usage:   "graph [-diff BEFORE] [-params] PROGRAM",
		summary: "draw a program as a Graphviz graph",
		help: `
Graph prints a program as a Graphviz DOT graph: ops are nodes (name and result ids), values are edges from their
definition to each use (labelled with the type), the regions of pd_op.if and pd_op.while are clusters.
Parameters are left out unless -params is given (real models have hundreds).

With -diff BEFORE, PROGRAM is drawn as the result of rewriting BEFORE: ops that are new are green, and the ops of
BEFORE that are gone are drawn red in a cluster of their own. Ops are matched by name, attributes, and operand and
result types.

Render with: dot -Tsvg graph.dot > graph.svg

Examples:
  drrc graph model.pir > model.dot
  drrc apply model.pir -o fused.pir && drrc graph -diff model.pir fused.pir | dot -Tsvg > diff.svg`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			var cf contextFlags
			cf.register(fs)
			diff := fs.String("diff", "", "color what changed since the program in `file`")
			params := fs.Bool("params", false, "draw parameter ops too")
			return func(c *CLI, args []string) int {
				if len(args) != 1 {
					return c.usageErrorf("graph", "need one program")
				}
				ctx, err := cf.context()
				if err != nil {
					return c.errorf("graph", "%v", err)
				}
				p, ok := c.loadProgram("graph", ctx, args[0])
				if !ok {
					return exitFailure
				}
				g := &graph{w: c.Stdout, params: *params, ids: map[*ir.Op]string{}}
				if *diff != "" {
					before, ok := c.loadProgram("graph", ctx, *diff)
					if !ok {
						return exitFailure
					}
					g.added, g.removed = diffOps(before, p)
				}
				g.write(p)
				return exitOK
			}
		},
	})
}

type graph struct {
	w       io.Writer
	params  bool
	ids     map[*ir.Op]string
	names   *ir.Numbering
	n       int
	cluster int
	added   map[*ir.Op]bool
	removed []*ir.Op
}

func (g *graph) write(p *ir.Program) {
	g.names = ir.NumberValues(p.Body())
	fmt.Fprintf(g.w, "digraph %q {\n  rankdir=TB;\n  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=8];\n", p.File)
	g.block(p.Body(), "  ")
	for op := range p.Walk() {
		g.edges(op)
	}
	if len(g.removed) > 0 {
		fmt.Fprintf(g.w, "  subgraph cluster_removed {\n    label=\"removed\"; color=red; fontcolor=red;\n")
		for i, op := range g.removed {
			fmt.Fprintf(g.w, "    removed%d [label=%q, fillcolor=\"#ffd6d6\", color=red];\n", i, op.Name())
		}
		fmt.Fprintf(g.w, "  }\n")
	}
	fmt.Fprintln(g.w, "}")
}

func (g *graph) skip(op *ir.Op) bool {
	return !g.params && (op.Name() == ir.ParameterOpName || op.Name() == ir.GetParameterOpName)
}

func (g *graph) block(b *ir.Block, indent string) {
	for op := range b.Ops() {
		if g.skip(op) {
			continue
		}
		id := fmt.Sprintf("op%d", g.n)
		g.n++
		g.ids[op] = id
		label := op.Name()
		if op.NumResults() > 0 {
			label = g.names.ResultNames(op) + " = " + label
		}
		color := ""
		if g.added[op] {
			color = ", fillcolor=\"#d6ffd6\", color=darkgreen"
		}
		if op.NumRegions() == 0 {
			fmt.Fprintf(g.w, "%s%s [label=%q%s];\n", indent, id, label, color)
			continue
		}
		// A region op is a cluster holding its regions; the op itself is a node at the top of it.
		g.cluster++
		fmt.Fprintf(g.w, "%ssubgraph cluster_%d {\n%s  label=%q; style=dashed;\n", indent, g.cluster, indent, label)
		fmt.Fprintf(g.w, "%s  %s [label=%q, shape=ellipse%s];\n", indent, id, op.Name(), color)
		for ri, r := range op.Regions() {
			g.cluster++
			fmt.Fprintf(g.w, "%s  subgraph cluster_%d {\n%s    label=\"region %d\"; style=dotted;\n", indent, g.cluster, indent, ri)
			for _, nb := range r.Blocks() {
				g.block(nb, indent+"    ")
			}
			fmt.Fprintf(g.w, "%s  }\n", indent)
		}
		fmt.Fprintf(g.w, "%s}\n", indent)
	}
}

func (g *graph) edges(op *ir.Op) {
	to, ok := g.ids[op]
	if !ok {
		return
	}
	for i := 0; i < op.NumOperands(); i++ {
		v := op.Operand(i)
		if v == nil {
			continue
		}
		from := ""
		if d := v.DefiningOp(); d != nil {
			if from, ok = g.ids[d]; !ok {
				continue // a parameter left out
			}
		} else if p := v.OwnerBlock().ParentOp(); p != nil {
			from = g.ids[p] // block arguments come from their region op
		}
		if from == "" {
			continue
		}
		fmt.Fprintf(g.w, "  %s -> %s [label=%q];\n", from, to, g.names.Name(v)+" "+shortType(v.Type()))
	}
}

func shortType(t ir.Type) string {
	s := t.String()
	s = strings.TrimPrefix(s, "builtin.")
	return s
}

// diffOps matches the ops of two programs by content (name, attributes, operand and result types) and returns the
// ops of after that have no counterpart in before, and the ops of before that have none in after.
func diffOps(before, after *ir.Program) (map[*ir.Op]bool, []*ir.Op) {
	key := func(op *ir.Op) string {
		var b strings.Builder
		b.WriteString(op.Name())
		for _, a := range op.SortedAttrs() {
			b.WriteString("|" + a.Name + "=" + a.Value.String())
		}
		for _, v := range op.Operands() {
			if v != nil {
				b.WriteString("|" + v.Type().String())
			}
		}
		for _, r := range op.Results() {
			b.WriteString(">" + r.Type().String())
		}
		return b.String()
	}
	pool := map[string][]*ir.Op{}
	for op := range before.Walk() {
		k := key(op)
		pool[k] = append(pool[k], op)
	}
	added := map[*ir.Op]bool{}
	for op := range after.Walk() {
		k := key(op)
		if l := pool[k]; len(l) > 0 {
			pool[k] = l[1:]
			continue
		}
		added[op] = true
	}
	var removed []*ir.Op
	for op := range before.Walk() {
		if l := pool[key(op)]; len(l) > 0 && l[0] == op {
			pool[key(op)] = l[1:]
			if op.Name() != ir.ParameterOpName {
				removed = append(removed, op)
			}
		}
	}
	return added, removed
}
