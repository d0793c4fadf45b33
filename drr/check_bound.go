package drr

import (
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// Constraints per alternative (language.md §4.8): `bound(%x, $h, …)` is true on the paths through the pattern's
// alternatives that bind every argument. A value or $hole some alternatives leave unbound may be used in a where
// constraint where a bound(…) call guards it: on the right of `bound(…) && …` (and of `!bound(…) || …`), in the
// then-branch of `bound(…) ? … : …` (and the else-branch of `!bound(…) ? … : …`). The consumers decide bound
// per path (rule.PathBinds.Fold), which removes the guarded operands from the paths that leave the names unbound.

// boundCall checks a call of bound: a where-clause call whose arguments name values or $holes of the pattern that
// some alternatives leave unbound.
func (rc *ruleChecker) boundCall(e *CallExpr, sc exprScope) (rule.Expr, sType) {
	pos := e.span().Pos()
	out := newNode(&rc.s.nodes.call, rule.Call{Func: e.Func.Name, Pos: pos, Args: make([]rule.Expr, 0, len(e.Args))})
	if !sc.paths {
		rc.errorf(e.Pos(), "bound(…) is for where constraints and a rewrite's attributes and operands, which are decided per path through the alternatives")
		return out, stBool
	}
	if len(e.Args) == 0 {
		rc.errorf(e.Pos(), "bound takes at least 1 argument, not 0")
		return out, stBool
	}
	for _, a := range e.Args {
		apos := a.span().Pos()
		switch a := a.(type) {
		case *ValueExpr:
			i, ok := rc.values[a.Name]
			if !ok {
				rc.valueRef(a.Name, a.Pos(), true) // the unknown-name error, with its suggestion
				continue
			}
			if !rc.partialVal[i] {
				rc.errorf(a.Pos(), "bound(%%%s) is always true: every path through the alternatives binds %%%s", a.Name, a.Name)
			}
			out.Args = append(out.Args, newNode(&rc.s.nodes.valueRef, rule.ValueRef{Ref: rule.Ref{Index: i}, Pos: apos}))
		case *HoleExpr:
			i, ok := rc.holes[a.Name]
			if !ok {
				rc.errorf(a.Pos(), "$%s is not bound in the match", a.Name)
				continue
			}
			if !rc.partialHole[i] {
				rc.errorf(a.Pos(), "bound($%s) is always true: every path through the alternatives binds $%s", a.Name, a.Name)
			}
			rc.holeRefs[i] = true
			out.Args = append(out.Args, newNode(&rc.s.nodes.holeRef, rule.HoleRef{Hole: i, Pos: apos}))
		default:
			rc.errorf(a.Pos(), "bound: an argument is a %%value or a $hole of the pattern")
		}
	}
	return out, stBool
}

// guards returns the values and $holes that x being true (want) or false (!want) proves bound: the arguments of
// its bound(…) calls joined by && (when true) or negated and joined by || (when false).
func (rc *ruleChecker) guards(x Expr, want bool, vals, holes []int) ([]int, []int) {
	switch x := x.(type) {
	case *ParenExpr:
		return rc.guards(x.X, want, vals, holes)
	case *UnaryExpr:
		if x.Op == "!" {
			return rc.guards(x.X, !want, vals, holes)
		}
	case *BinaryExpr:
		if want && x.Op == "&&" || !want && x.Op == "||" {
			vals, holes = rc.guards(x.X, want, vals, holes)
			return rc.guards(x.Y, want, vals, holes)
		}
	case *CallExpr:
		if b, ok := rule.LookupBuiltin(x.Func.Name); !want || !ok || !b.PathQuery || !x.Func.IsBare() {
			break
		}
		if _, native := rc.c.natives[x.Func.Name]; native {
			break
		}
		for _, a := range x.Args {
			switch a := a.(type) {
			case *ValueExpr:
				if i, ok := rc.values[a.Name]; ok {
					vals = append(vals, i)
				}
			case *HoleExpr:
				if i, ok := rc.holes[a.Name]; ok {
					holes = append(holes, i)
				}
			}
		}
	}
	return vals, holes
}

// guarded checks y with the names x proves bound (when it is true, or when it is false with !want) guarded.
func (rc *ruleChecker) guarded(x Expr, want bool, sc exprScope, y Expr) (rule.Expr, sType) {
	if !sc.paths || len(rc.partialVal)+len(rc.partialHole) == 0 {
		return rc.expr(y, sc)
	}
	var out rule.Expr
	var t sType
	rc.withGuards(x, want, func() { out, t = rc.expr(y, sc) })
	return out, t
}

// withGuards runs f with the values and $holes x proves bound (when it is want) counted as guarded.
func (rc *ruleChecker) withGuards(x Expr, want bool, f func()) {
	vals, holes := rc.guards(x, want, nil, nil)
	if rc.guardVal == nil {
		rc.guardVal, rc.guardHole = map[int]int{}, map[int]int{}
	}
	for _, i := range vals {
		rc.guardVal[i]++
	}
	for _, i := range holes {
		rc.guardHole[i]++
	}
	f()
	for _, i := range vals {
		rc.guardVal[i]--
	}
	for _, i := range holes {
		rc.guardHole[i]--
	}
}

// operandChoice checks an operand of a created op chosen per path through the alternatives, `C ? A : B`
// (language.md §6.1): C is made of bound(…) calls with !, && and ||; A, which may use what C guards, and B, which
// may use what !C guards, are each a value, a spread list or null (the rewrite creates its ops on every path, so
// ops are created in statements of their own).
func (rc *ruleChecker) operandChoice(e *CondExpr, i int, name string, schema *ir.OpSchema) (rule.RewriteOperand, bool) {
	cond, _ := rc.expr(e.Cond, exprScope{paths: true})
	if !pathCondition(cond) {
		rc.errorf(e.Cond.Pos(), "an operand chosen per path is `bound(…) ? A : B`: its condition is made of bound(…) calls, !, && and ||")
		return rule.RewriteOperand{}, false
	}
	branch := func(x Expr, want bool) (o rule.RewriteOperand, ok bool) {
		switch x.(type) {
		case *CallExpr, *ListExpr:
			rc.errorf(x.Pos(), "an operand chosen per path is a value, a list %%x... or null: create the op in a statement of its own")
			return o, false
		}
		rc.withGuards(e.Cond, want, func() { o, ok = rc.rewriteOperand(x, i, name, schema) })
		return o, ok
	}
	then, ok1 := branch(e.Then, true)
	els, ok2 := branch(e.Else, false)
	if !ok1 || !ok2 {
		return rule.RewriteOperand{}, false
	}
	if then.List != els.List && !then.Null && !els.Null {
		rc.errorf(e.Pos(), "an operand chosen per path spreads a list in both branches or in neither")
		return rule.RewriteOperand{}, false
	}
	then.When, then.Else = cond, &els
	return then, true
}

// pathCondition reports whether e is made of bound(…) calls with !, && and || only: decided by the path alone.
func pathCondition(e rule.Expr) bool {
	switch x := e.(type) {
	case *rule.Call:
		b := x.Builtin()
		return !x.Native && b != nil && b.PathQuery
	case *rule.Unary:
		return x.Op == "!" && pathCondition(x.X)
	case *rule.Binary:
		return (x.Op == "&&" || x.Op == "||") && pathCondition(x.X) && pathCondition(x.Y)
	}
	return false
}
