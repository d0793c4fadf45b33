package matcher

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
)

// Dump writes the automaton as indented text: the rules with their patterns, predicate counts and plans (Plan,
// one instruction a line, numbered), then one tree per root op name (and one for ops no rule names). In a tree, "switch Q" asks question Q once and continues with
// the case for its answer, "if Q" does so for a yes/no question, and "match R" runs rule R's remainder (listed
// after "|"); after a node's subtree the next line at the same depth is evaluated too. The output is
// deterministic.
func (a *Automaton) Dump(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "automaton: %d rules, %d root names, %d nodes, %d questions, %d positions\n", len(a.rules),
		len(a.roots), a.nodes, len(a.t.ques), len(a.t.pos))
	for i, cr := range a.rules {
		r := cr.r
		root := r.Pattern.Ops[r.Pattern.Root].Name
		if root == "" {
			root = "any op"
		}
		fmt.Fprintf(bw, "rule %d %s: benefit %d, root op%d (%s), %d predicates, %d steps",
			i, r.ID(), r.Benefit, r.Pattern.Root, root, len(cr.preds), len(cr.full.code))
		if cr.never {
			bw.WriteString(", contradictory (never matches)")
		}
		bw.WriteByte('\n')
		for k := range r.Pattern.Ops {
			fmt.Fprintf(bw, "  op%d: %s\n", k, rule.FormatOp(r.Pattern, k))
		}
		for _, e := range r.Where {
			fmt.Fprintf(bw, "  where %s\n", rule.FormatExpr(r, e))
		}
		bw.WriteString("  plan:\n")
		for i, in := range cr.plan.Instrs {
			fmt.Fprintf(bw, "    %2d %s\n", i, in.Format(r.Pattern))
		}
	}
	for _, name := range a.roots {
		fmt.Fprintf(bw, "tree %s:\n", name)
		a.dumpNode(bw, a.tree(name), 1)
	}
	bw.WriteString("tree (other ops):\n")
	a.dumpNode(bw, a.anyTree, 1)
	return bw.Flush()
}

func (a *Automaton) dumpNode(w *bufio.Writer, n *node, depth int) {
	ind := strings.Repeat("  ", depth)
	if n == nil && depth == 1 {
		w.WriteString(ind + "(no rules)\n")
	}
	for ; n != nil; n = n.next {
		if n.q == nil {
			r := n.rule.r
			fmt.Fprintf(w, "%s#%d match %s (rule %d, benefit %d)\n", ind, n.id, r.ID(), r.Index, r.Benefit)
			for _, in := range n.leaf.code {
				if in.Code == Success {
					continue
				}
				fmt.Fprintf(w, "%s  | %s\n", ind, in.describe(r.Pattern))
			}
			continue
		}
		if n.q.isBool() {
			fmt.Fprintf(w, "%s#%d if %s\n", ind, n.id, n.q)
			for _, e := range n.kids {
				a.dumpNode(w, e.child, depth+1)
			}
			continue
		}
		fmt.Fprintf(w, "%s#%d switch %s\n", ind, n.id, n.q)
		for _, e := range n.kids {
			fmt.Fprintf(w, "%s  = %s:\n", ind, e.a)
			a.dumpNode(w, e.child, depth+2)
		}
	}
}

// Dot writes the automaton as a Graphviz digraph: one entry node per root op name, a box per question (edges to
// children labelled with answers, dashed edges to the next sibling), and a double octagon per rule match.
func (a *Automaton) Dot(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("digraph automaton {\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n" +
		"  edge [fontname=\"monospace\", fontsize=9];\n")
	entry := func(id int, label string, n *node) {
		fmt.Fprintf(bw, "  root%d [shape=ellipse, label=%s];\n", id, dotQuote(label))
		if n != nil {
			fmt.Fprintf(bw, "  root%d -> n%d;\n", id, n.id)
		}
		a.dotNode(bw, n)
	}
	for i, name := range a.roots {
		entry(i, name, a.tree(name))
	}
	entry(len(a.roots), "(other ops)", a.anyTree)
	bw.WriteString("}\n")
	return bw.Flush()
}

func (a *Automaton) dotNode(w *bufio.Writer, n *node) {
	for ; n != nil; n = n.next {
		if n.q == nil {
			r := n.rule.r
			fmt.Fprintf(w, "  n%d [shape=doubleoctagon, label=%s];\n", n.id,
				dotQuote(fmt.Sprintf("%s\nbenefit %d", r.ID(), r.Benefit)))
		} else {
			fmt.Fprintf(w, "  n%d [label=%s];\n", n.id, dotQuote(n.q.String()))
			for _, e := range n.kids {
				label := e.a.String()
				if n.q.isBool() {
					label = "yes"
				}
				fmt.Fprintf(w, "  n%d -> n%d [label=%s];\n", n.id, e.child.id, dotQuote(label))
				a.dotNode(w, e.child)
			}
		}
		if n.next != nil {
			fmt.Fprintf(w, "  n%d -> n%d [style=dashed];\n", n.id, n.next.id)
		}
	}
}

func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
