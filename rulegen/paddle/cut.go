package paddle

import (
	"fmt"
	"strings"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/matcher"
)

// Paddle's matcher counts the uses of every inner value, so a constant op of the pattern (pd_op.full) matches
// only where nothing outside the match reads the constant; drrc matches constants by value, whoever else reads
// them (language.md §8.1). A constant op without operands whose attributes the rule reads only as scalars Paddle
// has builtin attribute classes for (bool, i32, i64, f32, f64, str) is therefore left out of Paddle's pattern: its
// result becomes an input of the pattern, which Paddle does not use-count, and a first constraint checks that
// the input's defining op has the constant's name and attributes; the rule reads them from that op. The pattern
// then matches the same programs as drrc's. A constant whose shape, dtype or place the rule reads or copies
// (IntArray, DataType and Place have no class in the headers Paddle's DRR API gives) stays in the pattern, with
// the narrowing noted on the class.

// cutAttrClass is the builtin attribute class of a scalar kind, and how its value is read.
var cutAttrClass = map[ir.AttrKind][3]string{ // class, accessor, C++ type
	ir.KindBool:   {"pir::BoolAttribute", "data()", "bool"},
	ir.KindInt32:  {"pir::Int32Attribute", "data()", "int32_t"},
	ir.KindInt64:  {"pir::Int64Attribute", "data()", "int64_t"},
	ir.KindFloat:  {"pir::FloatAttribute", "data()", "float"},
	ir.KindDouble: {"pir::DoubleAttribute", "data()", "double"},
	ir.KindStr:    {"pir::StrAttribute", "AsString()", "std::string"},
}

// cutClass is the class of attribute name of op, if it is one a cut op's attribute may have.
func (pt *pattern) cutClass(op, name string) ([3]string, bool) {
	t, err := AttrType(pt.g.ctx, op, name)
	if err != nil || t.Array {
		return [3]string{}, false
	}
	c, ok := cutAttrClass[t.Kind]
	return c, ok
}

// findCuts decides which constant ops to leave out of Paddle's pattern.
func (pt *pattern) findCuts() {
	p := pt.p
	pt.cut = make([]bool, len(p.Ops))
	for k, op := range p.Ops {
		s := pt.g.ctx.Schema(op.Name)
		if s == nil || !s.Has(ir.ConstantLike) || len(op.Operands) > 0 || len(op.Results) != 1 {
			continue
		}
		h := op.Results[0].Value
		if h < 0 || !p.Values[h].Shared || !pt.usedInside(h) {
			continue
		}
		pt.cut[k] = true
	}
	for _, in := range pt.plan.Instrs {
		switch in.Code {
		case matcher.BindAttr, matcher.CheckAttrLit, matcher.CheckAttrPresent:
			if pt.cut[in.Op] {
				if _, ok := pt.cutClass(p.Ops[in.Op].Name, in.Name); !ok {
					pt.cut[in.Op] = false
				}
			}
		case matcher.CheckAttr, matcher.BindRestAttrs, matcher.CheckType, matcher.CheckUses:
			pt.cut[in.Op] = false
			if in.Code == matcher.CheckType || in.Code == matcher.CheckUses {
				if d := p.Values[in.Value].Def; d >= 0 {
					pt.cut[d] = false
				}
			}
		}
	}
	// Two constants of one kind, one cut: keep both in the pattern (drrc lets them bind one op; Paddle could not
	// bind an input of the pattern to a result of one of its ops).
	for changed := true; changed; {
		changed = false
		for a := range p.Ops {
			for b := a + 1; b < len(p.Ops); b++ {
				if p.Ops[a].Name == p.Ops[b].Name && pt.cut[a] != pt.cut[b] && p.Ops[a].Constant && p.Ops[b].Constant {
					pt.cut[a], pt.cut[b], changed = false, false, true
				}
			}
		}
	}
	// A hole a cut op binds and another attribute checks again stays with Paddle's binding.
	for _, in := range pt.plan.Instrs {
		if in.Code == matcher.CheckAttr {
			for _, b := range pt.plan.Instrs {
				if b.Code == matcher.BindAttr && b.Hole == in.Hole && pt.cut[b.Op] {
					pt.cut[b.Op] = false
				}
			}
		}
	}
}

// cutTensor is the tensor a cut op defines.
func (pt *pattern) cutTensor(k int) string { return pt.tensor(pt.p.Ops[k].Results[0].Value) }

// guards adds, first of the constraints, the check of each cut op: the pattern input is a result of an op of its
// name carrying the attributes the rule reads, of their classes; two cut ops are two ops.
func (pt *pattern) guards() {
	p := pt.p
	for k, op := range p.Ops {
		if !pt.cut[k] {
			continue
		}
		t := pt.cutTensor(k)
		conds := []string{"def != nullptr", fmt.Sprintf("def->name() == %q", op.Name)}
		seen := map[string]bool{}
		for _, in := range pt.plan.Instrs {
			if in.Op != k || seen[in.Name] || in.Code != matcher.BindAttr && in.Code != matcher.CheckAttrLit &&
				in.Code != matcher.CheckAttrPresent {
				continue
			}
			seen[in.Name] = true
			c, _ := pt.cutClass(op.Name, in.Name)
			conds = append(conds, fmt.Sprintf("def->attribute(%q).isa<%s>()", in.Name, c[0]))
		}
		for _, in := range pt.plan.Instrs {
			if in.Code == matcher.CheckDistinct && in.Op == k {
				for _, b := range in.Bound {
					conds = append(conds, fmt.Sprintf("def != match_ctx.Tensor(%q).defining_op()", pt.cutTensor(b)))
				}
			}
		}
		pt.g.cuts = true
		pt.cons = append(pt.cons, constraint{
			pre:     fmt.Sprintf("const pir::Operation *def = match_ctx.Tensor(%q).defining_op();", t),
			cond:    strings.Join(conds, " && "),
			comment: fmt.Sprintf("%%%s is a %s, matched by value: other ops may read it", t, op.Name)})
		pt.notes = append(pt.notes, fmt.Sprintf("the %s %q is an input of the pattern, checked by its first "+
			"constraint: Paddle's matcher would require that nothing else reads it.", op.Name, t))
	}
}

// cutRead is the C++ reading attribute name of the cut op defining tensor (code), and its C++ type.
func (pt *pattern) cutRead(tensor, op, name string) (string, string, error) {
	c, ok := pt.cutClass(op, name)
	if !ok {
		return "", "", fmt.Errorf("%s's attribute %s cannot be read from a constant matched by value", op, name)
	}
	return fmt.Sprintf("%s.defining_op()->attribute<%s>(%q).%s", tensor, c[0], name, c[1]), c[2], nil
}

// cutInstr handles the instructions of cut ops, and reports whether it did.
func (pt *pattern) cutInstr(in *matcher.Instr) bool {
	p := pt.p
	switch in.Code {
	case matcher.CheckName, matcher.CheckOperands, matcher.CheckResults, matcher.CheckAttrPresent,
		matcher.CheckDistinct, matcher.BindResult:
		return pt.cut[in.Op] // the guard checks them; the result is the pattern input
	case matcher.BindDef:
		return pt.cut[in.Op]
	case matcher.BindAttr:
		if !pt.cut[in.Op] {
			return false
		}
		pt.holeAttr[in.Hole] = holeName(p, in.Hole)
		pt.holeFrom[in.Hole] = [2]string{p.Ops[in.Op].Name, in.Name}
		pt.holeCut[in.Hole] = pt.cutTensor(in.Op)
		return true
	case matcher.CheckAttrLit:
		if !pt.cut[in.Op] {
			return false
		}
		code, cpp, err := pt.cutRead(fmt.Sprintf("match_ctx.Tensor(%q)", pt.cutTensor(in.Op)), p.Ops[in.Op].Name, in.Name)
		if err == nil {
			var lit string
			if lit, err = attrLiteral(in.Literal, cpp); err == nil {
				pt.cons = append(pt.cons, constraint{cond: code + " == " + lit,
					comment: fmt.Sprintf("%s {%s: %s}", p.Ops[in.Op].Name, in.Name, in.Literal)})
			}
		}
		if err != nil {
			pt.fail(p.Ops[in.Op].Pos, "the literal %s: %v", in.Name, err)
		}
		return true
	}
	return false
}
