package rt

import (
	"slices"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/matcher"
)

// The plan instructions (package matcher) that a generated condition cannot write as a plain Go comparison: each
// binds what the instruction binds (through a pointer to the generated variable) and reports whether its check
// passed, so that a plan prints as one chain of && with an instruction a term.

// Set binds *p to v (BindList, BindAlias, the op a ChooseUser tries, a $attrs... hole's first binding).
func Set[T any](p *T, v T) bool {
	*p = v
	return true
}

// Result binds *p to result i of op, which the generated code has checked it has (BindResult).
func Result(p **ir.Value, op *ir.Op, i int) bool {
	*p = op.Result(i)
	return true
}

// Operand binds *p to operand i of op and reports whether it is present (BindOperand).
func Operand(p **ir.Value, op *ir.Op, i int) bool {
	v := op.Operand(i)
	*p = v
	return v != nil
}

// Def binds *p to the op defining v and reports whether there is one and v is its result n (BindDef).
func Def(p **ir.Op, v *ir.Value, n int) bool {
	d := v.DefiningOp()
	*p = d
	return d != nil && v.Index() == n
}

// BindAttr binds *p to the attribute a (the op's or its schema default) and reports whether there is one
// (BindAttr).
func BindAttr(p *ir.Attribute, a ir.Attribute) bool {
	*p = a
	return a != nil
}

// AttrOr returns op's attribute name, or def when op does not carry it: op.AttrOrDefault with the default looked
// up once, for an op whose kind the generated code has checked.
func AttrOr(op *ir.Op, name string, def ir.Attribute) ir.Attribute {
	if a := op.Attr(name); a != nil {
		return a
	}
	return def
}

// Tensor binds *p to t as a tensor type and reports whether it is one (CheckType with a tensor pattern).
func Tensor(p **ir.TensorType, t ir.Type) bool {
	tt, ok := t.(*ir.TensorType)
	*p = tt
	return ok
}

// SameOperands reports whether operands j… of op are exactly the values of l (CheckList).
func SameOperands(op *ir.Op, j int, l []*ir.Value) bool {
	if op.NumOperands()-j != len(l) {
		return false
	}
	for i, v := range l {
		if op.Operand(j+i) != v {
			return false
		}
	}
	return true
}

// RestAttrs returns the attributes of op that names does not list, in op's order: the binding of a $attrs...
// hole (BindRestAttrs).
func RestAttrs(op *ir.Op, names ...string) []ir.NamedAttr {
	out := []ir.NamedAttr{}
	for _, a := range op.Attrs() {
		if !slices.Contains(names, a.Name) {
			out = append(out, a)
		}
	}
	return out
}

// SameConst is CheckConst: w is v or the result of a constant op equal to v's (matcher.SameConstant).
func SameConst(v, w *ir.Value) bool { return matcher.SameConstant(v, w) }

// SameAttrs reports whether two $attrs... bindings are equal (the same names and attributes, in order).
func SameAttrs(a, b []ir.NamedAttr) bool { return slices.Equal(a, b) }

// ResultsUnused reports whether results from… of op have no uses (CheckExtraUnused).
func ResultsUnused(op *ir.Op, from int) bool {
	for i := from; i < op.NumResults(); i++ {
		if op.Result(i).HasUses() {
			return false
		}
	}
	return true
}

// Closed reports whether every use of each of vals is an operand of one of ops, the ops of a match (CheckClosure).
// A nil value (of a branch of alternatives the match did not take) has nothing to check.
func Closed(ops []*ir.Op, vals ...*ir.Value) bool {
	for _, v := range vals {
		if v == nil {
			continue
		}
		for u := v.FirstUse(); u != nil; u = u.Next() {
			if !slices.Contains(ops, u.Owner()) {
				return false
			}
		}
	}
	return true
}

// Is reports whether op is of kind kind with exactly operands operands and results results (CheckName,
// CheckOperands and CheckResults: what a plan checks of each op it reaches, in one term).
func Is(op *ir.Op, kind *ir.OpInfo, operands, results int) bool {
	return op.Info() == kind && op.NumOperands() == operands && op.NumResults() == results
}

// IsAtLeast reports whether op is of kind kind with exactly operands operands and at least results results
// (CheckName, CheckOperands and a CheckResults that allows extra results, whose being unused CheckExtraUnused
// checks later).
func IsAtLeast(op *ir.Op, kind *ir.OpInfo, operands, results int) bool {
	return op.Info() == kind && op.NumOperands() == operands && op.NumResults() >= results
}

// Arity reports whether op has exactly operands operands and results results (CheckOperands and CheckResults).
func Arity(op *ir.Op, operands, results int) bool {
	return op.NumOperands() == operands && op.NumResults() == results
}

// AttrIs reports whether op's attribute name, or its kind's schema default, is the literal of attribute slot slot
// (CheckAttrLit of an op whose kind the generated code has checked; AttrSlot).
func AttrIs(op *ir.Op, name string, in *Instance, slot int) bool {
	return attrAt(op, name, in, slot) == in.Literals[slot]
}

// BindAttrAt binds *p to op's attribute name, or its kind's schema default, the attribute of slot slot, and reports
// whether there is one (BindAttr of an op whose kind the generated code has checked; AttrSlot).
func BindAttrAt(p *ir.Attribute, op *ir.Op, name string, in *Instance, slot int) bool {
	a := attrAt(op, name, in, slot)
	*p = a
	return a != nil
}

// AttrEq reports whether op's attribute name, or its kind's schema default, the attribute of slot slot, is a, the
// attribute a hole bound before (CheckAttr of an op whose kind the generated code has checked; AttrSlot).
func AttrEq(op *ir.Op, name string, in *Instance, slot int, a ir.Attribute) bool {
	return attrAt(op, name, in, slot) == a
}

// attrAt returns op's attribute name, or the schema default of slot slot when op does not carry it (read only
// then).
func attrAt(op *ir.Op, name string, in *Instance, slot int) ir.Attribute {
	if a := op.Attr(name); a != nil {
		return a
	}
	return in.Defaults[slot]
}
