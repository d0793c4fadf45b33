package lint

import (
	"github.com/pirdrr/drr/drr/rule"
)

func runLoop(pass *Pass) {
	rs := pass.facts.rules
	lf := pass.facts
	selfReported := map[string]bool{}
	for _, rf := range rs {
		if rf.dead != "" || rf.rootCreate < 0 || selfReported[rf.r.Name] {
			continue
		}
		if rf.created < rf.removed {
			continue // each rewrite leaves fewer ops: it cannot go on forever by itself
		}
		if lf.createdMatches(rf, rf.rootCreate, rf, rf.r.Pattern.Root, 0) {
			selfReported[rf.r.Name] = true
			c := rf.r.Actions[rf.rootCreate].(*rule.Create)
			pass.Reportf(c.Pos, rf.r.Name, "the %s this rule creates (in place of the matched %s) matches the rule's own "+
				"pattern again%s: every rewrite makes a new match, so the driver can rewrite forever (until its cycle "+
				"detector or rewrite limit stops it). Make the result differ from the pattern, or add a condition the "+
				"result fails", c.Op, rootName(rf.r), instanceNote(rf.r))
		}
	}
	type pairKey struct{ a, b string }
	reported := map[pairKey]bool{}
	for j, b := range rs {
		if b.dead != "" || b.rootCreate < 0 {
			continue
		}
		for i := 0; i < j; i++ {
			a := rs[i]
			if a.dead != "" || a.rootCreate < 0 || selfReported[a.r.Name] || selfReported[b.r.Name] {
				continue
			}
			k := pairKey{a.r.Name, b.r.Name}
			if reported[k] || a.created+b.created < a.removed+b.removed {
				continue
			}
			if !lf.createdMatches(a, a.rootCreate, b, b.r.Pattern.Root, 0) ||
				!lf.createdMatches(b, b.rootCreate, a, a.r.Pattern.Root, 0) {
				continue
			}
			reported[k] = true
			ca, cb := a.r.Actions[a.rootCreate].(*rule.Create), b.r.Actions[b.rootCreate].(*rule.Create)
			pass.Reportf(b.r.Pos, b.r.Name, "rules %s and %s undo each other: the %s %s creates matches %s's pattern, "+
				"and the %s %s creates matches %s's, so together they can rewrite back and forth forever. Keep them "+
				"in separate sets (passes), or make one of them not match the other's result",
				a.r.ID(), b.r.ID(), ca.Op, a.r.ID(), b.r.ID(), cb.Op, b.r.ID(), a.r.ID())
		}
	}
}

func rootName(r *rule.Rule) string {
	if n := r.Pattern.Ops[r.Pattern.Root].Name; n != "" {
		return n
	}
	return "op"
}

func instanceNote(r *rule.Rule) string {
	if r.Instance == "" {
		return ""
	}
	return " (instance " + r.ID() + ")"
}

// createdMatches reports whether the op Create action ci of rule src builds could match op k of rule dst's pattern,
// judging by what the rewrite fixes statically: op names, literal attributes (and attributes the created op leaves
// at their defaults) against dst's literals and where-clause constraints, null operands, and the ops producing its
// operands (ops the rewrite creates, or ops src's pattern matched). Operands src's pattern bound from outside the
// match (its inputs) could be produced by anything, so they are taken to match.
func (lf *lintFacts) createdMatches(src *ruleFacts, ci int, dst *ruleFacts, k, depth int) bool {
	if depth > 8 {
		return true
	}
	c, ok := src.r.Actions[ci].(*rule.Create)
	if !ok {
		return true
	}
	p := dst.r.Pattern.Ops[k]
	if p.Name != "" && p.Name != c.Op {
		return false
	}
	// Attributes.
	for _, ap := range p.Attrs {
		val, known, present := lf.createdAttr(src, c, ap.Name)
		switch ap.Kind {
		case rule.AttrPresent:
			if !present {
				return false
			}
		case rule.AttrEquals:
			if known && !rule.Equal(rule.AttrVal(ap.Literal), val) {
				return false
			}
		case rule.AttrBind:
			if !known {
				continue
			}
			var cs []holeConstraint
			for _, hc := range dst.cons {
				if dst.find(hc.hole) == dst.find(ap.Hole) {
					cs = append(cs, hc)
				}
			}
			cs = append(cs, holeConstraint{hasAllowed: true, allowed: []rule.Val{val}, text: "created"})
			if conflicting(cs) != nil {
				return false
			}
		}
	}
	// Operands.
	orders := [][]int{nil}
	if p.Commutative && len(c.Operands) >= 2 && !c.Operands[0].List && !c.Operands[1].List {
		orders = append(orders, []int{1, 0})
	}
	for _, perm := range orders {
		if lf.createdOperandsMatch(src, c, dst, p, perm, depth) {
			return true
		}
	}
	return false
}

func (lf *lintFacts) createdOperandsMatch(src *ruleFacts, c *rule.Create, dst *ruleFacts, p *rule.OpPattern, perm []int, depth int) bool {
	ops := append([]rule.RewriteOperand(nil), c.Operands...)
	if perm != nil {
		ops[0], ops[1] = c.Operands[1], c.Operands[0]
	}
	createdList := false
	for _, o := range ops {
		createdList = createdList || o.List
	}
	if !createdList && listIndex(p.Operands) < 0 && len(ops) != len(p.Operands) {
		return false
	}
	S, D := src.r.Pattern, dst.r.Pattern
	for k := 0; k < len(ops) && k < len(p.Operands); k++ {
		o, want := ops[k], p.Operands[k]
		if o.List || want.Kind == rule.OperandList {
			break
		}
		if o.When != nil {
			continue // an operand per path (bound(…) ? … : …): either form may be created
		}
		switch want.Kind {
		case rule.OperandAny:
			continue
		case rule.OperandNull:
			if !o.Null {
				return false
			}
			continue
		}
		if o.Null {
			return false
		}
		h := D.Values[want.Value]
		if h.Def < 0 {
			continue // any value
		}
		if o.Ref.New {
			def, ok := src.creates[o.Ref.Index]
			if !ok || def[0] < 0 {
				continue // a native rewrite's result: unknown
			}
			if def[1] != h.Result || !lf.createdMatches(src, def[0], dst, h.Def, depth+1) {
				return false
			}
			continue
		}
		sv := S.Values[o.Ref.Index]
		if sv.Def < 0 {
			continue // one of src's inputs: produced by anything
		}
		if n, want := S.Ops[sv.Def].Name, D.Ops[h.Def].Name; n != "" && want != "" && n != want || sv.Result != h.Result {
			return false
		}
	}
	return true
}

// createdAttr returns the value attribute name of a created op has when the rewrite fixes it statically: set from
// a constant expression, or left at its schema default. present reports whether the op may carry the attribute
// itself (set, or copied from a matched op).
func (lf *lintFacts) createdAttr(src *ruleFacts, c *rule.Create, name string) (val rule.Val, known, present bool) {
	for _, s := range c.Attrs {
		if s.Name == name {
			v, ok := lf.fold(src.r, s.Value)
			return v, ok, true
		}
	}
	if c.RestAttrs >= 0 {
		for _, op := range src.r.Pattern.Ops {
			if op.RestAttrs != c.RestAttrs {
				continue
			}
			listed := false
			for _, a := range op.Attrs {
				listed = listed || a.Name == name
			}
			if !listed {
				return nil, false, true // copied from the matched op
			}
		}
	}
	if lf.set.Ctx == nil {
		return nil, false, false
	}
	if s := lf.set.Ctx.Schema(c.Op); s != nil {
		if a := s.Attr(name); a != nil && a.Default != nil {
			return rule.AttrVal(a.Default), true, false
		}
	}
	return nil, false, false
}
