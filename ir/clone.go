package ir

// Clone returns a detached deep copy of op: same name, attributes and result types, regions copied with their
// blocks, arguments and ops. Operands are looked up in mapping (values not in it are used as they are), and every
// value the copy defines is recorded in mapping under the value it copies, so cloning a sequence of ops with one
// mapping rewires the copies to each other. Insert the copy with a Builder.
func (c *Context) Clone(op *Op, mapping map[*Value]*Value) *Op {
	operands := make([]*Value, len(op.operandSlice()))
	for i := range op.operandSlice() {
		v := op.operandSlice()[i].value
		if m, ok := mapping[v]; ok {
			v = m
		}
		operands[i] = v
	}
	types := make([]Type, op.NumResults())
	for i := range types {
		types[i] = op.result(i).Type()
	}
	cp := c.NewOp(OpSpec{Name: op.info.Name, Operands: operands, Results: types, Attrs: op.attrSlice(),
		Regions: len(op.regionSlice()), Loc: op.Loc})
	for i := range op.NumResults() {
		mapping[op.result(i)] = cp.result(i)
	}
	for ri, r := range op.regionSlice() {
		for _, b := range r.blocks {
			nb := cp.regionSlice()[ri].AddBlock()
			for _, a := range b.args {
				mapping[a] = nb.AddArg(a.Type())
			}
			for inner := b.first; inner != nil; inner = inner.next {
				nb.insertBefore(c.Clone(inner, mapping), nil)
			}
		}
	}
	return cp
}

// Clone returns a deep copy of p in the same Context, with its own parameter and feed tables (variables copied,
// data shared).
func (p *Program) Clone() *Program {
	mapping := map[*Value]*Value{}
	np := &Program{Ctx: p.Ctx, Module: p.Ctx.Clone(p.Module, mapping), Params: map[string]*Variable{},
		File: p.File, Version: p.Version, Trainable: p.Trainable}
	for n, v := range p.Params {
		cp := *v
		np.Params[n] = &cp
	}
	if p.Feeds != nil {
		np.Feeds = make(map[string]*Variable, len(p.Feeds))
		for n, v := range p.Feeds {
			cp := *v
			np.Feeds[n] = &cp
		}
	}
	return np
}
