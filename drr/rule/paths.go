package rule

import (
	"slices"
	"strconv"
)

// Paths returns, for a rule with alternatives (Pattern.Alts), one rule per way through them: each chooses one
// branch of every group it reaches (a group inside a branch not chosen is not reached), in order — the first
// path takes the first branch everywhere, as the matcher tries them. A path's pattern has no alternatives: the
// operand that read a group reads the chosen branch's value, the ops of the branches not chosen are gone (op
// indices are renumbered; Erase actions follow), and the value holes only they mentioned stay, marked Unbound, so
// that the where clause and the actions keep their indices (the checker lets them use only what every path binds).
// A path's where clause and rewrite have their bound(…) calls decided (PathBinds.Fold, ActionsOnPath), and a path on
// which a constraint is then false is left out: it never matches. A path shares everything else with r; Path says which branches it took. A
// rule without alternatives is its only path.
func Paths(r *Rule) []*Rule {
	p := r.Pattern
	if len(p.Alts) == 0 {
		return []*Rule{r}
	}
	// Enumerate choices: choice[g] is the branch taken at group g, or -1 when g is not reached.
	var out []*Rule
	var walk func(choice []int)
	walk = func(choice []int) {
		// The first reached group without a choice, in op order.
		for g, a := range p.Alts {
			if choice[g] >= 0 || !p.OnPath(choice, a.Op) {
				continue
			}
			for b := range a.Branches {
				c := append([]int(nil), choice...)
				c[g] = b
				walk(c)
			}
			return
		}
		if pr := path(r, choice); !neverHolds(pr) {
			out = append(out, pr)
		}
	}
	choice := make([]int, len(p.Alts))
	for g := range choice {
		choice[g] = -1
	}
	walk(choice)
	return out
}

// MaxPaths bounds the ways through a rule's alternatives (PathCount): the matcher's plan holds the rest of the
// pattern once per branch, so it grows with their product.
const MaxPaths = 64

// PathCount returns the number of ways through p's alternatives (Paths' length) without building them, or
// MaxPaths+1 if there are more than MaxPaths.
func PathCount(p *Pattern) int {
	// in[g] is the innermost (group, branch) of the op that reads group g ({-1, -1}: in no alternative).
	in := make([][2]int, len(p.Alts))
	for g, a := range p.Alts {
		pg, pb := p.AltOf(a.Op)
		in[g] = [2]int{pg, pb}
	}
	// ways(g, b) is the number of ways through the groups read by ops of branch b of group g (-1, -1: the ops in no
	// alternative).
	var ways func(g, b int) int
	ways = func(g, b int) int {
		n := 1
		for g2, a := range p.Alts {
			if in[g2] != [2]int{g, b} {
				continue
			}
			sum := 0
			for b2 := range a.Branches {
				sum += ways(g2, b2)
			}
			n = min(n*sum, MaxPaths+1)
		}
		return n
	}
	return ways(-1, -1)
}

// path builds the rule of one complete choice.
func path(r *Rule, choice []int) *Rule {
	p := r.Pattern
	newIndex := make([]int, len(p.Ops))
	q := &Pattern{Holes: p.Holes, Values: make([]*ValueHole, len(p.Values))}
	for k, op := range p.Ops {
		newIndex[k] = -1
		if p.OnPath(choice, k) {
			newIndex[k] = len(q.Ops)
			c := *op
			c.Operands = append([]OperandPattern(nil), op.Operands...)
			q.Ops = append(q.Ops, &c)
		}
	}
	q.Root = newIndex[p.Root]
	subst := statementSubst(p, choice)
	for _, op := range q.Ops {
		for j, o := range op.Operands {
			switch {
			case o.Kind == OperandAlt:
				op.Operands[j] = OperandPattern{Kind: OperandValue, Value: subst.resolve(p.Alts[o.Alt].Branches[choice[o.Alt]].Value)}
			case o.Kind == OperandValue:
				op.Operands[j].Value = subst.resolve(o.Value)
			}
		}
	}
	mentioned := make([]bool, len(p.Values))
	for _, op := range q.Ops {
		for _, o := range op.Operands {
			if o.Kind == OperandValue || o.Kind == OperandList {
				mentioned[o.Value] = true
			}
		}
		for _, res := range op.Results {
			if res.Value >= 0 {
				mentioned[res.Value] = true
			}
		}
	}
	for h, v := range p.Values {
		c := *v
		if c.Def >= 0 {
			c.Def = newIndex[c.Def]
		}
		if !mentioned[h] {
			c.Def, c.Unbound = -1, true
		}
		q.Values[h] = &c
	}
	for g, a := range p.Alts {
		// The type written for an optional statement's value constrains the value that stands for it.
		if h := a.Value; a.Statement && choice[g] >= 0 && p.Values[h].Type != nil {
			if w := q.Values[subst.resolve(h)]; w.Type == nil {
				w.Type = p.Values[h].Type
			}
		}
	}
	out := *r
	out.Pattern = q
	out.Path = slices.Clone(choice)
	out.Where = foldWhere(r, choice)
	acts := r.Actions
	if RewriteCallsBound(r) {
		acts = ActionsOnPath(r, BindsOnPath(p, choice))
	}
	out.Actions = make([]Action, len(acts))
	for i, a := range acts {
		if e, ok := a.(*Erase); ok {
			c := *e
			c.Op = newIndex[e.Op]
			a = &c
		}
		out.Actions[i] = a
	}
	if len(subst) > 0 {
		out.Where, _ = subst.exprs(out.Where)
		for i, a := range out.Actions {
			out.Actions[i] = subst.action(a)
		}
	}
	return &out
}

// statementSubst returns, for the path choice, the substitution of the values of optional statements' groups by the
// values of the branches taken.
func statementSubst(p *Pattern, choice []int) valueSubst {
	var s valueSubst
	for g, a := range p.Alts {
		if choice[g] < 0 || !a.Statement {
			continue
		}
		if s == nil {
			s = valueSubst{}
		}
		s[a.Value] = a.Branches[choice[g]].Value
	}
	return s
}

// PathName describes a path of a rule with alternatives for names and messages: the branch taken at each group,
// counted from 1, "-" for a group the path does not reach ("2.-.1"); "" for a rule without alternatives.
func PathName(r *Rule) string {
	s := ""
	for i, b := range r.Path {
		if i > 0 {
			s += "."
		}
		if b < 0 {
			s += "-"
		} else {
			s += strconv.Itoa(b + 1)
		}
	}
	return s
}

// foldWhere returns r's constraints with bound(…) decided for the path choice (r.Where itself when none calls it).
func foldWhere(r *Rule, choice []int) []Expr {
	var pb *PathBinds
	out := r.Where
	for i, e := range r.Where {
		if !CallsBound(e) {
			continue
		}
		if pb == nil {
			pb = BindsOnPath(r.Pattern, choice)
			out = slices.Clone(r.Where)
		}
		out[i] = pb.Fold(e)
	}
	return out
}

// neverHolds reports whether a constraint of path rule r is the literal false (bound(…) decided it).
func neverHolds(r *Rule) bool {
	for _, e := range r.Where {
		if b, ok := boolLit(e); ok && !b {
			return true
		}
	}
	return false
}
