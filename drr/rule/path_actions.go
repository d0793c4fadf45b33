package rule

import "slices"

// Rewrites per alternative (language.md §6.1): a rewrite may call bound(…) — in an attribute expression, or as a
// choice of operand, `bound(%m) ? %m : null` — and, as in a where clause, bound is a fact of the match's path
// through the alternatives. Paths decides it for each path; the rewriter decides it for a match from the path the
// match took (PathOf).

// RewriteCallsBound reports whether a rewrite action of r calls bound(…).
func RewriteCallsBound(r *Rule) bool {
	for _, a := range r.Actions {
		switch a := a.(type) {
		case *Create:
			for _, o := range a.Operands {
				if o.When != nil {
					return true
				}
			}
			for _, at := range a.Attrs {
				if CallsBound(at.Value) {
					return true
				}
			}
		case *NativeRewrite:
			if slices.ContainsFunc(a.Args, CallsBound) {
				return true
			}
		}
	}
	return false
}

// ActionsOnPath returns r's actions with their bound(…) calls decided by pb: attribute expressions and native
// rewrite arguments folded (PathBinds.Fold), operand choices resolved to the operand of the path. It returns
// r.Actions itself when none calls bound.
func ActionsOnPath(r *Rule, pb *PathBinds) []Action {
	if !RewriteCallsBound(r) {
		return r.Actions
	}
	out := make([]Action, len(r.Actions))
	for i, a := range r.Actions {
		switch x := a.(type) {
		case *Create:
			c := *x
			c.Operands = make([]RewriteOperand, len(x.Operands))
			for j, o := range x.Operands {
				c.Operands[j] = pb.operand(o)
			}
			c.Attrs = make([]AttrSet, len(x.Attrs))
			for j, at := range x.Attrs {
				c.Attrs[j] = AttrSet{Name: at.Name, Value: pb.Fold(at.Value)}
			}
			a = &c
		case *NativeRewrite:
			c := *x
			c.Args = make([]Expr, len(x.Args))
			for j, e := range x.Args {
				c.Args[j] = pb.Fold(e)
			}
			a = &c
		}
		out[i] = a
	}
	return out
}

// operand resolves an operand choice for the path: the operand whose When holds, without When.
func (pb *PathBinds) operand(o RewriteOperand) RewriteOperand {
	for o.When != nil {
		if b, ok := boolLit(pb.Fold(o.When)); ok && b {
			o.When, o.Else = nil, nil
		} else {
			o = *o.Else
		}
	}
	return o
}

// PathOf returns the path through p's alternatives that match m took: per group, the branch taken (-1 where it
// took none), as Paths and BindsOnPath count them. A branch's ops are bound in a match only when it is taken, so the
// branch is the first whose op (the one defining its value) m binds, or, when m binds none, the first that names a
// value.
func (p *Pattern) PathOf(m *Match) []int {
	choice := make([]int, len(p.Alts))
	for g := range choice {
		choice[g] = -1
	}
	// A group inside a branch is reached once the branch is chosen: repeat until no group is added.
	for changed := true; changed; {
		changed = false
		for g, a := range p.Alts {
			if choice[g] >= 0 || !p.OnPath(choice, a.Op) {
				continue
			}
			value := -1
			for b, br := range a.Branches {
				if d := p.Values[br.Value].Def; d >= 0 && slices.Contains(br.Ops, d) {
					if m.Ops[d] != nil {
						choice[g] = b
						break
					}
				} else if value < 0 {
					value = b
				}
			}
			if choice[g] < 0 {
				choice[g] = value
			}
			changed = changed || choice[g] >= 0
		}
	}
	return choice
}
