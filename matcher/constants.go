package matcher

import "github.com/pirdrr/drr/ir"

// SameConstant reports whether value w may stand for value v where a constant-like op pattern defines v
// (rule.OpPattern.Constant, CheckConst): w is v, or both are result i of two distinct ops that compute the same
// tensor — ops of one registered kind with the ConstantLike trait, no operands and no regions, the same attributes
// (attributes are interned: compared by identity, in any order) and the same result types — and no op writes
// either result in place (a `full 0` buffer that assign_value_ fills is not the zero constant any more).
//
// The automaton, Explain and the code drrc gen writes (through rulegen/rt) all decide CheckConst with it.
func SameConstant(v, w *ir.Value) bool {
	if v == w {
		return true
	}
	if v == nil || w == nil || v.Index() != w.Index() || v.Type() != w.Type() {
		return false
	}
	a, b := v.DefiningOp(), w.DefiningOp()
	if a == nil || b == nil || a.Info() != b.Info() || !constantOp(a) || !constantOp(b) ||
		a.NumResults() != b.NumResults() || len(a.Attrs()) != len(b.Attrs()) {
		return false
	}
	for i := 0; i < a.NumResults(); i++ {
		if a.Result(i).Type() != b.Result(i).Type() {
			return false
		}
	}
	for _, x := range a.Attrs() {
		if b.Attr(x.Name) != x.Value {
			return false
		}
	}
	return !writtenInPlace(v) && !writtenInPlace(w)
}

// constantOp reports whether op is a registered constant-like op without operands and regions.
func constantOp(op *ir.Op) bool {
	return op.Schema() != nil && op.Has(ir.ConstantLike) && op.NumOperands() == 0 && op.NumRegions() == 0
}

// writtenInPlace reports whether some op writes v's buffer in place: a use as an operand its kind's schema updates
// in place, or as the operand of a view (reshape_, …) whose result is written in place in turn. Ops of unregistered
// kinds count as writers. It is deliberately coarse (package analysis has the full buffer model, and sits beside
// the matcher): a constant it cannot clear matches only itself.
func writtenInPlace(v *ir.Value) bool {
	for u := v.FirstUse(); u != nil; u = u.Next() {
		op := u.Owner()
		s := op.Schema()
		if s == nil {
			return true
		}
		for _, p := range s.Inplace {
			if p.Operand == u.Index() {
				return true
			}
		}
		for _, p := range s.View {
			if p.Operand == u.Index() && p.Result < op.NumResults() && writtenInPlace(op.Result(p.Result)) {
				return true
			}
		}
	}
	return false
}
