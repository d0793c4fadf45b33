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
	snapshot := func(v *ir.Value) *ir.Value {
		t := ir.TensorOf(v.Type())
		if t.IsValue() {
			return v
		}
		return rw.Create(ir.OpSpec{Name: "pd_op.to_vtensor", Operands: []*ir.Value{v}, Results: []ir.Type{ctx.WithSpelling(t, ir.ValueTensor)}}).Result(0)
	}
	for _, op := range todo {
		rw.SetInsertionPointBefore(op)
		for i := 0; i < op.NumOperands(); i++ {
			v := op.Operand(i)
			if v == nil {
				continue
			}
			if _, isVec := v.Type().(*ir.VectorType); isVec {
				// A vector from builtin.combine: combine snapshots of its elements instead. The old combine goes
				// when this was its last reader (the dce pass keeps every op of a program without outputs).
				old := v.DefiningOp()
				elems := old.Operands()
				types := make([]ir.Type, len(elems))
				for j, e := range elems {
					elems[j] = snapshot(e)
					types[j] = elems[j].Type()
				}
				cmb := rw.Create(ir.OpSpec{Name: "builtin.combine", Operands: elems, Results: []ir.Type{ctx.Vector(types...)}})
				rw.SetOperand(op, i, cmb.Result(0))
				if !old.Result(0).HasUses() {
					if err := rw.Erase(old); err != nil {
						return 0, err
					}
				}
				continue
			}
			rw.SetOperand(op, i, snapshot(v))
		}
		rw.SetInsertionPointAfter(op)
		for _, r := range op.Results() {
			t := ir.TensorOf(r.Type())
			if t == nil || t.IsValue() {
				continue // an absent optional result (null type), or already a value
			}
			if !r.HasUses() {
				// Nothing reads it: no copy back (it would be a dead op the driver keeps, as it keeps every op
				// that had no uses before it ran).
				rw.SetType(r, ctx.WithSpelling(t, ir.ValueTensor))
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
	tensor := func(t ir.Type) bool {
		tt := ir.TensorOf(t)
		if tt == nil || !plainTensor(tt) {
			return false
		}
		mutable = mutable || !tt.IsValue()
		return true
	}
	for i := 0; i < op.NumOperands(); i++ {
		v := op.Operand(i)
		if v == nil {
			continue
		}
		if vec, ok := v.Type().(*ir.VectorType); ok {
			// A vector made by builtin.combine of tensors is rebuilt from snapshots of its elements.
			if d := v.DefiningOp(); d == nil || d.Name() != "builtin.combine" {
				return false
			}
			for _, e := range vec.Elems {
				if !tensor(e) {
					return false
				}
			}
			continue
		}
		if !tensor(v.Type()) {
			return false
		}
	}
	for _, r := range op.Results() {
		if _, null := r.Type().(*ir.NullType); null {
			continue
		}
		if !tensor(r.Type()) {
			return false
		}
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
// becomes builtin.tensor again (also as an element of a vector: builtin.combine of value tensors makes
// vec[pd_op.v_tensor<…>]) and every remaining pd_op.to_vtensor / pd_op.to_tensor copy becomes pd_op.assign,
// Paddle's copy. Copies that nothing needs are then removed by the copy elimination rule of the value_semantics
// set (see value_semantics.drr). It returns the number of values retyped plus copies converted.
func LowerValueSemantics(p *ir.Program, rw *ir.Rewriter) (int, error) {
	ctx := p.Ctx
	n := 0
	retype := func(v *ir.Value) {
		if t, changed := lowerType(ctx, v.Type()); changed {
			rw.SetType(v, t)
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

// lowerType returns t with every pd_op.v_tensor in it (t itself, or the elements of a vector, at any depth)
// spelled builtin.tensor, and whether anything changed.
func lowerType(ctx *ir.Context, t ir.Type) (ir.Type, bool) {
	switch tt := t.(type) {
	case *ir.TensorType:
		if tt.IsValue() {
			return ctx.WithSpelling(tt, ir.DenseTensor), true
		}
	case *ir.VectorType:
		var elems []ir.Type
		for i, e := range tt.Elems {
			le, changed := lowerType(ctx, e)
			if changed && elems == nil {
				elems = append(make([]ir.Type, 0, len(tt.Elems)), tt.Elems[:i]...)
			}
			if elems != nil {
				elems = append(elems, le)
			}
		}
		if elems != nil {
			return ctx.Vector(elems...), true
		}
	}
	return t, false
}
