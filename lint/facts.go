package lint

import (
	"fmt"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/internal/suggest"
)

type lintFacts struct {
	set   *rule.Set
	rules []*ruleFacts
}

// ruleFacts is what the lint precomputes about one rule instance.
type ruleFacts struct {
	r *rule.Rule
	// dead, if not empty, says why the instance can never fire; deadPos is where.
	dead    string
	deadPos diag.Position
	// rep maps every $hole to the representative of its class: holes a where clause says are equal ($a == $b).
	rep []int
	// cons are the literal constraints where clauses put on holes.
	cons []holeConstraint
	// creates maps a new value to the Create that defines it (action index, result index); native results map to
	// action index -1.
	creates map[int][2]int
	// rootCreate is the index in Actions of the Create whose result replaces a result of the pattern's root, or -1.
	rootCreate int
	// removed counts the pattern ops the rewrite leaves dead (no result referenced by the rewrite); created counts
	// the ops it creates.
	removed, created int
}

// holeConstraint restricts the value of a $hole: to one of allowed (when hasAllowed), and to none of excluded.
type holeConstraint struct {
	hole       int
	hasAllowed bool
	allowed    []rule.Val
	excluded   []rule.Val
	text       string
	pos        diag.Position
}

func newLintFacts(set *rule.Set) *lintFacts {
	lf := &lintFacts{set: set}
	for _, r := range set.Rules {
		lf.rules = append(lf.rules, lf.ruleFacts(r))
	}
	return lf
}

func (lf *lintFacts) ruleFacts(r *rule.Rule) *ruleFacts {
	rf := &ruleFacts{r: r, rootCreate: -1, creates: map[int][2]int{}}
	p := r.Pattern
	rf.rep = make([]int, len(p.Holes))
	for i := range rf.rep {
		rf.rep[i] = i
	}
	// Ops the dialect does not have (an op of an alternative leaves the others; language.md §4.8).
	for k, op := range p.Ops {
		if p.InAlt(k) {
			continue
		}
		if msg := lf.unknownOp(op.Name); msg != "" && rf.dead == "" {
			rf.dead, rf.deadPos = msg, op.Pos
		}
	}
	// Where clauses: constant ones, and literal constraints on holes.
	var conj []rule.Expr
	for _, e := range r.Where {
		conj = appendConjuncts(conj, e)
	}
	for _, e := range conj {
		if v, ok := lf.fold(r, e); ok {
			if b, isBool := v.(bool); isBool && !b && rf.dead == "" {
				rf.dead, rf.deadPos = fmt.Sprintf("its where clause %s is always false", quoteExpr(r, e)), e.At()
			}
			continue
		}
		lf.holeConstraint(rf, e)
	}
	if rf.dead == "" {
		classes := map[int][]holeConstraint{}
		var order []int
		for _, c := range rf.cons {
			k := rf.find(c.hole)
			if _, ok := classes[k]; !ok {
				order = append(order, k)
			}
			classes[k] = append(classes[k], c)
		}
		for _, k := range order {
			if bad := conflicting(classes[k]); bad != nil {
				var texts []string
				for _, c := range bad {
					texts = append(texts, c.text)
				}
				rf.dead = fmt.Sprintf("its where clauses %s cannot all hold: no value of %s satisfies them",
					joinTexts(texts), rule.HoleName(p, k))
				rf.deadPos = bad[len(bad)-1].pos
				break
			}
		}
	}
	// The rewrite.
	referenced := map[int]bool{} // value holes the rewrite reads
	refVal := func(ref rule.Ref) {
		if !ref.New {
			referenced[ref.Index] = true
		}
	}
	var walkExpr func(e rule.Expr)
	walkExpr = func(e rule.Expr) {
		switch e := e.(type) {
		case *rule.ValueRef:
			refVal(e.Ref)
		case *rule.Unary:
			walkExpr(e.X)
		case *rule.Binary:
			walkExpr(e.X)
			walkExpr(e.Y)
		case *rule.Cond:
			walkExpr(e.Cond)
			walkExpr(e.Then)
			walkExpr(e.Else)
		case *rule.List:
			for _, x := range e.Elems {
				walkExpr(x)
			}
		case *rule.Index:
			walkExpr(e.X)
			walkExpr(e.Index)
		case *rule.Call:
			for _, x := range e.Args {
				walkExpr(x)
			}
		}
	}
	for i, a := range r.Actions {
		switch a := a.(type) {
		case *rule.Create:
			rf.created++
			for j, v := range a.Results {
				if v >= 0 {
					rf.creates[v] = [2]int{i, j}
				}
			}
			for _, o := range a.Operands {
				for alt := &o; alt != nil; alt = alt.Else { // an operand chosen per path reads each choice
					if !alt.Null {
						refVal(alt.Ref)
					}
				}
			}
			for _, s := range a.Attrs {
				walkExpr(s.Value)
			}
		case *rule.Replace:
			refVal(a.With)
		case *rule.NativeRewrite:
			rf.created++ // unknown; count it as creating
			for _, v := range a.Results {
				rf.creates[v] = [2]int{-1, 0}
			}
			for _, x := range a.Args {
				walkExpr(x)
			}
		}
	}
	for k := range p.Ops {
		used := false
		for v, h := range p.Values {
			if h.Def == k && referenced[v] {
				used = true
			}
		}
		if !used {
			rf.removed++
		}
	}
	for _, a := range r.Actions {
		rep, ok := a.(*rule.Replace)
		if !ok || rep.Value.New || !rep.With.New || rep.Value.Index >= len(p.Values) {
			continue
		}
		if p.Values[rep.Value.Index].Def != p.Root {
			continue
		}
		if c, ok := rf.creates[rep.With.Index]; ok && c[0] >= 0 {
			rf.rootCreate = c[0]
			break
		}
	}
	return rf
}

func (rf *ruleFacts) find(h int) int {
	for rf.rep[h] != h {
		rf.rep[h] = rf.rep[rf.rep[h]]
		h = rf.rep[h]
	}
	return h
}

func appendConjuncts(out []rule.Expr, e rule.Expr) []rule.Expr {
	if b, ok := e.(*rule.Binary); ok && b.Op == "&&" {
		return appendConjuncts(appendConjuncts(out, b.X), b.Y)
	}
	return append(out, e)
}

// holeConstraint records what a where conjunct says about one $hole: $h == lit, $h in [lits], $h != lit,
// !($h == lit), !($h in [lits]), and $a == $b (the two holes are one class).
func (lf *lintFacts) holeConstraint(rf *ruleFacts, e rule.Expr) {
	r := rf.r
	neg := false
	if u, ok := e.(*rule.Unary); ok && u.Op == "!" {
		neg, e = true, u.X
	}
	b, ok := e.(*rule.Binary)
	if !ok {
		return
	}
	hx, xHole := b.X.(*rule.HoleRef)
	hy, yHole := b.Y.(*rule.HoleRef)
	text, pos := quoteExpr(r, e), e.At()
	if neg {
		text = quoteExpr(r, &rule.Unary{Op: "!", X: e})
	}
	switch b.Op {
	case "==", "!=":
		if xHole && yHole {
			if b.Op == "==" && !neg {
				a, c := rf.find(hx.Hole), rf.find(hy.Hole)
				if a != c {
					rf.rep[a] = c
				}
			}
			return
		}
		h, other := hx, b.Y
		if !xHole {
			if !yHole {
				return
			}
			h, other = hy, b.X
		}
		v, ok := lf.fold(r, other)
		if !ok {
			return
		}
		if (b.Op == "==") != neg {
			rf.cons = append(rf.cons, holeConstraint{hole: h.Hole, hasAllowed: true, allowed: []rule.Val{v}, text: text, pos: pos})
		} else {
			rf.cons = append(rf.cons, holeConstraint{hole: h.Hole, excluded: []rule.Val{v}, text: text, pos: pos})
		}
	case "in":
		if !xHole {
			return
		}
		v, ok := lf.fold(r, b.Y)
		l, isList := v.([]rule.Val)
		if !ok || !isList {
			return
		}
		if neg {
			rf.cons = append(rf.cons, holeConstraint{hole: hx.Hole, excluded: l, text: text, pos: pos})
		} else {
			rf.cons = append(rf.cons, holeConstraint{hole: hx.Hole, hasAllowed: true, allowed: l, text: text, pos: pos})
		}
	}
}

// conflicting returns constraints no single value satisfies together, or nil.
func conflicting(cs []holeConstraint) []holeConstraint {
	var dom []rule.Val
	restricted := false
	var used []holeConstraint
	for _, c := range cs {
		if !c.hasAllowed {
			continue
		}
		used = append(used, c)
		if !restricted {
			dom, restricted = append([]rule.Val(nil), c.allowed...), true
		} else {
			dom = intersect(dom, c.allowed)
		}
		if len(dom) == 0 {
			return used
		}
	}
	if !restricted {
		return nil
	}
	for _, c := range cs {
		if c.hasAllowed {
			continue
		}
		dom = subtract(dom, c.excluded)
		if len(dom) == 0 {
			return append(used, c)
		}
	}
	return nil
}

func intersect(a, b []rule.Val) []rule.Val {
	var out []rule.Val
	for _, x := range a {
		if containsVal(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func subtract(a, b []rule.Val) []rule.Val {
	var out []rule.Val
	for _, x := range a {
		if !containsVal(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func containsVal(l []rule.Val, x rule.Val) bool {
	for _, y := range l {
		if rule.Equal(x, y) {
			return true
		}
	}
	return false
}

func joinTexts(ts []string) string {
	switch len(ts) {
	case 0:
		return ""
	case 1:
		return ts[0]
	}
	return strings.Join(ts[:len(ts)-1], ", ") + " and " + ts[len(ts)-1]
}

func quoteExpr(r *rule.Rule, e rule.Expr) string { return "`" + rule.FormatExpr(r, e) + "`" }

// unknownOp explains why a pattern op named name can only match unregistered ops: its dialect is registered but has
// no such op. "" if the op is known, or its dialect is not registered (an unregistered dialect's ops are fine).
func (lf *lintFacts) unknownOp(name string) string {
	ctx := lf.set.Ctx
	if name == "" || ctx == nil || ctx.Schema(name) != nil {
		return ""
	}
	dot := strings.IndexByte(name, '.')
	if dot < 0 {
		return ""
	}
	d := ctx.Dialect(name[:dot])
	if d == nil {
		return ""
	}
	msg := fmt.Sprintf("its pattern needs %s, which dialect %s does not have, so the rule can only match an "+
		"unregistered op of that name", name, d.Name)
	best, bestD := "", 3
	for _, s := range d.Ops {
		if dd := suggest.Distance(s.Name, name); dd < bestD {
			best, bestD = s.Name, dd
		}
	}
	if best != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", best)
	}
	return msg
}
