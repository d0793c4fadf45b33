package rt

import (
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/matcher"
)

// A users group (language.md §4.10) is one instruction of the plan, CollectUsers, whose element code checks one
// op. The generated function prints the element code once, as a function literal it passes to Collect with the
// op to check and whether it is the first element; Collect runs it on the root and on the later users, as the
// automaton's executor does, and Emit hands the elements and their per-element values to the match.

// Collect runs a users group's CollectUsers for instance in: the root is the first element; every later user of
// v in the root's block, in program order, that passes elem is the next one, up to the group's Max; a user before
// the root that passes elem means the match is rooted at that user (false), as does a root that fails or fewer
// than Min elements. elem checks op as one element (first: op is the root, whose checks bind the shared $holes
// that a later element's compare with, Agree) and, when it passes, ends with Elem, which records op's
// per-element values.
func (m *Matcher) Collect(in *Instance, root *ir.Op, v *ir.Value, elem func(op *ir.Op, first bool) bool) bool {
	m.group, m.gvals = m.group[:0], m.gvals[:0]
	var ok bool
	m.gusers, ok = matcher.CollectElements(m.gusers, root, v, in.Rule.Pattern.Users.Max, func(op *ir.Op, first bool) bool {
		if !elem(op, first) {
			return false
		}
		m.group = append(m.group, op)
		return true
	})
	return ok && len(m.group) >= in.Rule.Pattern.Users.Min
}

// Elem records the per-element values of an element that passed (rule.UsersGroup.Elems, in order) and returns
// true: the last term of an element's code.
func (m *Matcher) Elem(vals ...*ir.Value) bool {
	m.gvals = append(m.gvals, vals...)
	return true
}

// Agree binds the shared $hole *p to x on a users group's first element (first) and reports, on a later one,
// whether x is what the first bound.
func Agree[T comparable](first bool, p *T, x T) bool {
	if first {
		*p = x
		return true
	}
	return *p == x
}

// AgreeAttr is Agree for an attribute hole (BindAttr): the attribute must be there.
func AgreeAttr(first bool, p *ir.Attribute, a ir.Attribute) bool {
	return a != nil && Agree(first, p, a)
}

// AgreeAttrs is Agree for a $attrs... hole (BindRestAttrs).
func AgreeAttrs(first bool, p *[]ir.NamedAttr, attrs []ir.NamedAttr) bool {
	if first {
		*p = attrs
		return true
	}
	return SameAttrs(*p, attrs)
}

// emitGroup fills the users-group bindings of mt, a match of a pattern with group g that Collect found: the elements,
// and per per-element value hole the list of the elements' values (its Values entry nil), as the automaton's.
func (m *Matcher) emitGroup(mt *rule.Match, g *rule.UsersGroup) {
	m.lists = true
	mt.Group = append([]*ir.Op(nil), m.group...)
	n := len(g.Elems)
	for i, h := range g.Elems {
		l := make([]*ir.Value, len(m.group))
		for e := range l {
			l[e] = m.gvals[e*n+i]
		}
		mt.Values[h], mt.Lists[h] = nil, l
	}
}
