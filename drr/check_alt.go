package drr

import (
	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
)

// Alternatives in patterns (`a | b`, language.md §4.8): the checker's part.

// alternatives translates the alternatives of an operand into a rule.AltGroup (appended to the pattern's Alts; the
// caller sets the op and operand that read it) and returns the value hole the operand binds. Each alternative is a
// value (%d: the operand is that value) or an op pattern (the operand is its first result).
func (rc *ruleChecker) alternatives(o *AltOperand, operand int) (int, bool) {
	v := rc.anonValue(o.Pos())
	rc.operandOf[v] = true
	return v, rc.altGroup(o, v, operand)
}

// altGroup appends the rule.AltGroup of alternatives o whose operand binds value hole v, and reports whether it
// could.
func (rc *ruleChecker) altGroup(o *AltOperand, v, operand int) bool {
	if len(rc.p.Ops) > maxAltOps {
		// An optional op's first operand is matched twice (in the op, and standing for it); nested optional ops
		// double the pattern at each level.
		rc.errorf(o.Pos(), "the pattern has more than %d op patterns once its optional ops are written out", maxAltOps)
		return false
	}
	g := &rule.AltGroup{Value: v, Operand: operand, Pos: o.span().Pos()}
	for _, a := range o.Alts {
		br := rule.AltBranch{Pos: a.span().Pos()}
		first := len(rc.p.Ops)
		switch a := a.(type) {
		case *ValueOperand:
			br.Value = rc.value(a.Name, a.Pos())
			rc.operandOf[br.Value] = true
			rc.setType(br.Value, a.Type, a.Pos())
		case *OpPattern:
			k := rc.opPattern(a, nil, false)
			if k < 0 {
				return false
			}
			w := rc.anonValue(a.Pos())
			rc.p.Values[w].Def = k
			rc.p.Ops[k].Results[0].Value = w
			rc.resultPos[[2]int{k, 0}] = a.Pos()
			rc.operandOf[w] = true
			br.Value = w
		default:
			rc.errorf(a.Pos(), "an alternative is a value like %%x or an op pattern, not %s", operandKind(a))
			return false
		}
		for k := first; k < len(rc.p.Ops); k++ {
			br.Ops = append(br.Ops, k)
		}
		g.Branches = append(g.Branches, br)
	}
	rc.p.Alts = append(rc.p.Alts, g)
	return true
}

// optionalStmt translates optional statement st, `%c = op(x, …)?` (language.md §4.8), into the alternatives
// `op(x, …) | x` whose operand binds %c, the value hole v: the group is read at the first operand outside
// alternatives that reads %c (readOptionals), and its other readers check that they read the same value.
func (rc *ruleChecker) optionalStmt(st *PatternStmt, v int) {
	alt := &AltOperand{Span: st.Span, Alts: []Operand{st.Op, st.Op.Operands[0]}, Optional: true}
	if rc.altGroup(alt, v, -1) {
		rc.p.Alts[len(rc.p.Alts)-1].Statement = true
		rc.optionals = append(rc.optionals, len(rc.p.Alts)-1)
	}
}

// readOptionals attaches each optional statement's group to the first operand, in pattern op order, that reads its
// value outside alternatives (it becomes the group's OperandAlt), or reports that there is none.
func (rc *ruleChecker) readOptionals() {
	p := rc.p
	for _, g := range rc.optionals {
		a := p.Alts[g]
		found, inAlt := false, false
		for k, op := range p.Ops {
			for j, o := range op.Operands {
				if o.Kind != rule.OperandValue || o.Value != a.Value || found {
					continue
				}
				if p.InAlt(k) {
					inAlt = true
					continue
				}
				op.Operands[j] = rule.OperandPattern{Kind: rule.OperandAlt, Value: a.Value, Alt: g}
				a.Op, a.Operand, found = k, j, true
			}
		}
		name := rule.ValueName(p, a.Value)
		switch {
		case found:
		case inAlt:
			rc.errorf(a.Pos, "%s is read only inside alternatives; an optional statement's value must be read outside them", name)
		default:
			rc.errorf(a.Pos, "no op of the pattern reads %s; an optional statement stands for the operand its readers read", name)
		}
	}
}

// maxAltOps bounds the op patterns of a pattern with alternatives (optional ops nested in one another's first
// operands double it at each level).
const maxAltOps = 256

// operandKind names an operand pattern's kind for messages.
func operandKind(o Operand) string {
	switch o.(type) {
	case *VariadicOperand:
		return "a list %x..."
	case *WildcardOperand:
		return "'_'"
	case *NullOperand:
		return "null"
	case *CombineOperand:
		return "a combine list [...]"
	case *EitherOperand:
		return "either(…)"
	}
	return "this operand"
}

// partials computes the value holes, $holes and pattern ops that alternatives leave unbound on some path of the
// match: bound only in some branches. The where clause and the rewrite may not use them (language.md §4.8).
func (rc *ruleChecker) partials() {
	p := rc.p
	rc.partialVal, rc.partialHole, rc.partialOp = nil, nil, nil
	if len(p.Alts) == 0 {
		return
	}
	// ctx[k] is the innermost (group, branch) of op k, as one int: g*len+b+1, or 0 outside alternatives.
	width := 1
	for _, a := range p.Alts {
		width = max(width, len(a.Branches))
	}
	ctx := make([]int, len(p.Ops))
	for k := range p.Ops {
		if g, b := p.AltOf(k); g >= 0 {
			ctx[k] = g*width + b + 1
		}
	}
	valsIn := func(c int) []int { // the value holes ops of context c mention, and a branch its value
		var out []int
		for k, op := range p.Ops {
			if ctx[k] != c {
				continue
			}
			for _, o := range op.Operands {
				if o.Kind != rule.OperandAny && o.Kind != rule.OperandNull {
					out = append(out, o.Value)
				}
			}
			for _, r := range op.Results {
				if r.Value >= 0 {
					out = append(out, r.Value)
				}
			}
		}
		if c > 0 {
			out = append(out, p.Alts[(c-1)/width].Branches[(c-1)%width].Value)
		}
		return out
	}
	holesIn := func(c int) []int {
		var out []int
		for k, op := range p.Ops {
			if ctx[k] != c {
				continue
			}
			for _, a := range op.Attrs {
				if a.Kind == rule.AttrBind {
					out = append(out, a.Hole)
				}
			}
			if op.RestAttrs >= 0 {
				out = append(out, op.RestAttrs)
			}
		}
		return out
	}
	// always(c) is the set of value holes (and of $holes) bound on every path through context c.
	var always func(c int) (map[int]bool, map[int]bool)
	always = func(c int) (map[int]bool, map[int]bool) {
		vals, holes := map[int]bool{}, map[int]bool{}
		for _, h := range valsIn(c) {
			vals[h] = true
		}
		for _, h := range holesIn(c) {
			holes[h] = true
		}
		for g, a := range p.Alts {
			if ctx[a.Op] != c {
				continue
			}
			var vs, hs map[int]bool
			for b := range a.Branches {
				bv, bh := always(g*width + b + 1)
				if b == 0 {
					vs, hs = bv, bh
					continue
				}
				for h := range vs {
					if !bv[h] {
						delete(vs, h)
					}
				}
				for h := range hs {
					if !bh[h] {
						delete(hs, h)
					}
				}
			}
			for h := range vs {
				vals[h] = true
			}
			for h := range hs {
				holes[h] = true
			}
		}
		return vals, holes
	}
	vals, holes := always(0)
	// A type pattern's holes are bound with its value.
	for h, v := range p.Values {
		if vals[h] && v.Type != nil {
			for _, x := range v.Type.Holes() {
				holes[x] = true
			}
		}
	}
	rc.partialVal, rc.partialHole, rc.partialOp = map[int]bool{}, map[int]bool{}, map[int]bool{}
	for h := range p.Values {
		if !vals[h] {
			rc.partialVal[h] = true
		}
	}
	for h := range p.Holes {
		if !holes[h] {
			rc.partialHole[h] = true
		}
	}
	for k := range p.Ops {
		if ctx[k] != 0 {
			rc.partialOp[k] = true
		}
	}
}

// partialValue reports, for a use of value hole i in the where clause or the rewrite at pos, that alternatives
// leave it unbound on some path.
func (rc *ruleChecker) partialValue(i int, pos diag.Position) bool {
	if !rc.partialVal[i] || rc.guardVal[i] > 0 {
		return false
	}
	name := rule.ValueName(rc.p, i)
	rc.errorf(pos, "%s is bound in some alternatives only; the where clause and the rewrite may use only what every alternative binds, or what a bound(%s) guards",
		name, name)
	return true
}

// partialHoleUse is partialValue for $hole i.
func (rc *ruleChecker) partialHoleUse(i int, pos diag.Position) bool {
	if !rc.partialHole[i] || rc.guardHole[i] > 0 {
		return false
	}
	name := rule.HoleName(rc.p, i)
	rc.errorf(pos, "%s is bound in some alternatives only; the where clause and the rewrite may use only what every alternative binds, or what a bound(%s) guards",
		name, name)
	return true
}
