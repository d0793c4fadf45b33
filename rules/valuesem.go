package rules

import (
	"github.com/pirdrr/drr/analysis"
	"github.com/pirdrr/drr/ir"
)

// WrapValueSemantics is pass 1 of seed 000 §2.5.1 ("maximize v_tensor use"): every op with value semantics (see
// analysis.HasValueSemantics: inference batch norms count) whose
// operands and results are mutable tensors is moved to value tensors. Its tensor operands are read through
// pd_op.to_vtensor copies, its results become pd_op.v_tensor values, and pd_op.to_tensor copies give the existing
// users the tensors they had:
//
//	b = conv(a, …) : (tensor, …) -> tensor
//
// becomes
//
//	a1 = to_vtensor(a); b1 = conv(a1, …) : (v_tensor, …) -> v_tensor; b = to_tensor(b1)
//
// The use-def chains keep the op's logical order, so the program means the same. Ops with side effects (data,
// fetch), ops with regions, the copies themselves, builtin ops and ops whose operands or results are not all tensors
// (vectors from builtin.combine) are left alone. It returns the number of ops moved.
func WrapValueSemantics(p *ir.Program, rw *ir.Rewriter) (int, error) {
	ctx := p.Ctx
	var todo []*ir.Op
	for op := range p.Walk() {
		if wrappable(op) {
			todo = append(todo, op)
		}
	}
	for _, op := range todo {
		rw.SetInsertionPointBefore(op)
		for i := 0; i < op.NumOperands(); i++ {
			v := op.Operand(i)
			if v == nil {
				continue
			}
			t := ir.TensorOf(v.Type())
			if t.IsValue() {
				continue
			}
			cp := rw.Create(ir.OpSpec{Name: "pd_op.to_vtensor", Operands: []*ir.Value{v}, Results: []ir.Type{ctx.WithSpelling(t, ir.ValueTensor)}})
			rw.SetOperand(op, i, cp.Result(0))
		}
		rw.SetInsertionPointAfter(op)
		for _, r := range op.Results() {
			t := ir.TensorOf(r.Type())
			if t.IsValue() {
				continue
			}
			// Create the copy back first (it reads r), then give r's other users the copy and retype r.
			back := rw.Create(ir.OpSpec{Name: "pd_op.to_tensor", Operands: []*ir.Value{r}, Results: []ir.Type{t}})
			rw.ReplaceUsesIf(r, back.Result(0), func(u *ir.Use) bool { return u.Owner() != back })
			rw.SetType(r, ctx.WithSpelling(t, ir.ValueTensor))
			rw.SetInsertionPointAfter(back)
		}
	}
	return len(todo), nil
}

// wrappable reports whether WrapValueSemantics moves op to value tensors.
func wrappable(op *ir.Op) bool {
	s := op.Schema()
	if s == nil || !analysis.HasValueSemantics(op) || s.Has(ir.SideEffects) || op.NumRegions() > 0 || op.NumResults() == 0 {
		return false
	}
	if s.Dialect != nil && s.Dialect.Name == "builtin" {
		return false
	}
	switch op.Name() {
	case "pd_op.to_tensor", "pd_op.to_vtensor":
		return false
	}
	mutable := false
	for i := 0; i < op.NumOperands(); i++ {
		v := op.Operand(i)
		if v == nil {
			continue
		}
		t := ir.TensorOf(v.Type())
		if t == nil || !plainTensor(t) {
			return false
		}
		mutable = mutable || !t.IsValue()
	}
	for _, r := range op.Results() {
		t := ir.TensorOf(r.Type())
		if t == nil || !plainTensor(t) {
			return false
		}
		mutable = mutable || !t.IsValue()
	}
	return mutable
}

// plainTensor reports whether t is a program-level tensor (not a kernel-dialect one).
func plainTensor(t *ir.TensorType) bool {
	switch t.Spelling {
	case ir.DenseTensor, ir.LegacyTensor, ir.BareTensor, ir.ValueTensor:
		return true
	}
	return false
}

// LowerValueSemantics leaves the value-tensor world for a program Paddle can load: every pd_op.v_tensor type
// becomes builtin.tensor again and every remaining pd_op.to_vtensor / pd_op.to_tensor copy becomes pd_op.assign,
// Paddle's copy. Copies that nothing needs are then removed by the copy elimination rule of the value_semantics
// set (see value_semantics.drr). It returns the number of values retyped plus copies converted.
func LowerValueSemantics(p *ir.Program, rw *ir.Rewriter) (int, error) {
	ctx := p.Ctx
	n := 0
	retype := func(v *ir.Value) {
		if t := ir.TensorOf(v.Type()); t != nil && t.IsValue() {
			rw.SetType(v, ctx.WithSpelling(t, ir.DenseTensor))
			n++
		}
	}
	var copies []*ir.Op
	for op := range p.Walk() {
		for _, r := range op.Results() {
			retype(r)
		}
		for _, r := range op.Regions() {
			for _, b := range r.Blocks() {
				for _, a := range b.Args() {
					retype(a)
				}
			}
		}
		if op.Name() == "pd_op.to_vtensor" || op.Name() == "pd_op.to_tensor" {
			copies = append(copies, op)
		}
	}
	for _, op := range copies {
		rw.SetInsertionPointBefore(op)
		a := rw.Create(ir.OpSpec{Name: "pd_op.assign", Operands: op.Operands(), Results: []ir.Type{op.Result(0).Type()}, Attrs: op.Attrs(), Loc: op.Loc})
		if err := rw.ReplaceOp(op, a.Results()); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
