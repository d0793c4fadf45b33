package ir

import "fmt"

// Listener is told of every change a Rewriter (or a Builder) makes. The greedy driver's worklist, tracing,
// statistics and verify-each are listeners.
type Listener interface {
	// OpInserted is called after op was inserted into a block (new or moved).
	OpInserted(op *Op)
	// OpModified is called after op's operands, attributes or result types changed in place.
	OpModified(op *Op)
	// OpErased is called just before op is erased; op is still linked and its operands still set.
	OpErased(op *Op)
}

// A UseListener is a Listener that also wants to know when a value loses a use through the rewriter: an operand
// set to another value, or a use redirected by ReplaceAllUsesWith or ReplaceUsesIf. (Erasing an op is reported by
// OpErased, with its operands still set.) The driver uses it to erase only the ops a rewrite left without uses.
type UseListener interface {
	Listener
	// UseRemoved is called after v lost a use.
	UseRemoved(v *Value)
}

// UseRemoved notifies every listener that is a UseListener.
func (ls Listeners) UseRemoved(v *Value) {
	for _, l := range ls {
		if ul, ok := l.(UseListener); ok {
			ul.UseRemoved(v)
		}
	}
}

// Listeners fans notifications out to several listeners in order.
type Listeners []Listener

// OpInserted notifies every listener.
func (ls Listeners) OpInserted(op *Op) {
	for _, l := range ls {
		l.OpInserted(op)
	}
}

// OpModified notifies every listener.
func (ls Listeners) OpModified(op *Op) {
	for _, l := range ls {
		l.OpModified(op)
	}
}

// OpErased notifies every listener.
func (ls Listeners) OpErased(op *Op) {
	for _, l := range ls {
		l.OpErased(op)
	}
}

// Rewriter is the one way to change an existing program (MLIR's PatternRewriter): create ops, replace uses, erase
// ops, and modify operands, attributes and result types in place, telling its Listener of each change.
type Rewriter struct {
	Builder
}

// NewRewriter returns a rewriter for programs of ctx that reports to l (which may be nil).
func NewRewriter(ctx *Context, l Listener) *Rewriter {
	return &Rewriter{Builder: Builder{Ctx: ctx, Listener: l}}
}

func (r *Rewriter) modified(op *Op) {
	if r.Listener != nil {
		r.Listener.OpModified(op)
	}
}

func (r *Rewriter) useRemoved(v *Value) {
	if v == nil {
		return
	}
	if ul, ok := r.Listener.(UseListener); ok {
		ul.UseRemoved(v)
	}
}

// ReplaceAllUsesWith makes every use of from read to instead.
func (r *Rewriter) ReplaceAllUsesWith(from, to *Value) {
	if from == to {
		return
	}
	had := from.first != nil
	for u := from.first; u != nil; {
		next := u.next
		u.set(to)
		r.modified(u.owner)
		u = next
	}
	if had {
		r.useRemoved(from)
	}
}

// ReplaceUsesIf makes the uses of from for which keep returns true read to instead.
func (r *Rewriter) ReplaceUsesIf(from, to *Value, keep func(*Use) bool) {
	if from == to {
		return
	}
	removed := false
	for u := from.first; u != nil; {
		next := u.next
		if keep(u) {
			u.set(to)
			r.modified(u.owner)
			removed = true
		}
		u = next
	}
	if removed {
		r.useRemoved(from)
	}
}

// ReplaceOp replaces every use of op's results with values (one per result; nil leaves a result's uses alone, which
// then must have none) and erases op.
func (r *Rewriter) ReplaceOp(op *Op, values []*Value) error {
	if len(values) != op.NumResults() {
		return fmt.Errorf("ir: ReplaceOp of %s with %d values for %d results", op.Name(), len(values), op.NumResults())
	}
	for i, v := range values {
		if v != nil {
			r.ReplaceAllUsesWith(op.result(i), v)
		}
	}
	return r.Erase(op)
}

// Erase removes op from its block, releases its operands and erases the ops of its regions. The op's results must
// have no uses outside the op itself.
func (r *Rewriter) Erase(op *Op) error {
	if op.isErased() {
		return fmt.Errorf("ir: %s erased twice", op.Name())
	}
	for i := range op.NumResults() {
		for u := op.result(i).first; u != nil; u = u.next {
			if !op.IsAncestorOf(u.owner) {
				return fmt.Errorf("ir: cannot erase %s: result %d still has uses", op.Name(), i)
			}
		}
	}
	r.erase(op)
	return nil
}

func (r *Rewriter) erase(op *Op) {
	if r.Listener != nil {
		r.Listener.OpErased(op)
	}
	// Nested ops go first, last to first, so that uses inside the regions are released before their definitions.
	for _, reg := range op.regionSlice() {
		for _, b := range reg.blocks {
			for inner := b.last; inner != nil; {
				prev := inner.prev
				r.erase(inner)
				inner = prev
			}
		}
	}
	uses := op.operandSlice()
	for i := range uses {
		uses[i].unlink()
	}
	if op.block != nil {
		op.block.unlink(op)
	}
	op.nAttrs |= erasedBit
	if r.Alloc != nil {
		r.Alloc.erasedBy(op)
	}
}

// SetOperand makes operand slot i of op read v (nil: absent).
func (r *Rewriter) SetOperand(op *Op, i int, v *Value) {
	u := &op.operandSlice()[i]
	old := u.value
	u.set(v)
	r.modified(op)
	if old != v {
		r.useRemoved(old)
	}
}

// SetOperands replaces all operands of op, possibly changing their number.
func (r *Rewriter) SetOperands(op *Op, vs []*Value) {
	var olds []*Value
	if _, ok := r.Listener.(UseListener); ok {
		for i, u := range op.operandSlice() {
			if old := u.value; old != nil && (i >= len(vs) || vs[i] != old) {
				olds = append(olds, old)
			}
		}
	}
	defer func() {
		for _, old := range olds {
			r.useRemoved(old)
		}
	}()
	uses := op.operandSlice()
	if len(vs) == len(uses) {
		for i, v := range vs {
			uses[i].set(v)
		}
		r.modified(op)
		return
	}
	for i := range uses {
		uses[i].unlink()
	}
	uses = make([]Use, len(vs))
	op.setOperandSlice(uses)
	for i, v := range vs {
		u := &uses[i]
		u.owner = op
		u.link(v)
	}
	r.modified(op)
}

// SetAttr sets the named attribute of op, keeping its position if present and appending it otherwise. The op's
// attribute slice is replaced, never modified in place (ops may share one).
func (r *Rewriter) SetAttr(op *Op, name string, a Attribute) {
	old := op.attrSlice()
	for i := range old {
		if old[i].Name == name {
			if old[i].Value != a {
				attrs := append([]NamedAttr(nil), old...)
				attrs[i].Value = a
				op.setAttrSlice(attrs)
				r.modified(op)
			}
			return
		}
	}
	// A new name is stored as the Context's copy, which Op.Attr finds by its data pointer.
	op.setAttrSlice(append(old[:len(old):len(old)], NamedAttr{Name: r.Ctx.AttrName(name), Value: a}))
	r.modified(op)
}

// RemoveAttr removes the named attribute of op, if present.
func (r *Rewriter) RemoveAttr(op *Op, name string) {
	old := op.attrSlice()
	for i := range old {
		if old[i].Name == name {
			op.setAttrSlice(append(old[:i:i], old[i+1:]...))
			r.modified(op)
			return
		}
	}
}

// SetAttrs replaces all attributes of op.
func (r *Rewriter) SetAttrs(op *Op, attrs []NamedAttr) {
	op.setAttrSlice(append([]NamedAttr(nil), attrs...))
	r.modified(op)
}

// SetType changes the type of value v and notifies the op that defines it (or the block's parent op).
func (r *Rewriter) SetType(v *Value, t Type) {
	v.setType(t)
	if d := v.def(); d != nil {
		r.modified(d)
	} else if p := v.argBlock().ParentOp(); p != nil {
		r.modified(p)
	}
}

// MoveBefore moves op right before `before`, which may be in another block.
func (r *Rewriter) MoveBefore(op, before *Op) {
	if op == before {
		return
	}
	op.block.unlink(op)
	before.block.insertBefore(op, before)
	if r.Listener != nil {
		r.Listener.OpInserted(op)
	}
}

// MoveToEnd moves op to the end of block b.
func (r *Rewriter) MoveToEnd(op *Op, b *Block) {
	op.block.unlink(op)
	b.insertBefore(op, nil)
	if r.Listener != nil {
		r.Listener.OpInserted(op)
	}
}
