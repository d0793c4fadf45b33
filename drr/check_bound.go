package drr

import (
	"github.com/pirdrr/drr/drr/rule"
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
	if !sc.where {
		rc.errorf(e.Pos(), "bound(…) is for where constraints: a rewrite runs on one match and may use only what every alternative binds")
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
	if !sc.where || len(rc.partialVal)+len(rc.partialHole) == 0 {
		return rc.expr(y, sc)
	}
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
	out, t := rc.expr(y, sc)
	for _, i := range vals {
		rc.guardVal[i]--
	}
	for _, i := range holes {
		rc.guardHole[i]--
	}
	return out, t
}
