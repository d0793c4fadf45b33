package ir

import "iter"

// WalkBlock iterates over the ops of b and of every region nested in them, in pre-order: an op, then the ops of
// its regions, then the next op. Erasing the op just yielded is safe (its nested ops are then skipped).
func WalkBlock(b *Block) iter.Seq[*Op] {
	return func(yield func(*Op) bool) { walkBlockPre(b, yield) }
}

func walkBlockPre(b *Block, yield func(*Op) bool) bool {
	for op := b.first; op != nil; {
		next := op.next
		if !yield(op) {
			return false
		}
		if !op.isErased() {
			for _, r := range op.regionSlice() {
				for _, nb := range r.blocks {
					if !walkBlockPre(nb, yield) {
						return false
					}
				}
			}
		}
		op = next
	}
	return true
}

// WalkPost iterates over the ops of b and of every nested region in post-order: the ops of an op's regions before
// the op itself. Erasing the op just yielded is safe.
func WalkPost(b *Block) iter.Seq[*Op] {
	return func(yield func(*Op) bool) { walkBlockPost(b, yield) }
}

func walkBlockPost(b *Block, yield func(*Op) bool) bool {
	for op := b.first; op != nil; {
		next := op.next
		for _, r := range op.regionSlice() {
			for _, nb := range r.blocks {
				if !walkBlockPost(nb, yield) {
					return false
				}
			}
		}
		if !yield(op) {
			return false
		}
		op = next
	}
	return true
}

// Nested iterates over the ops nested in op's regions (not op itself), in pre-order.
func (o *Op) Nested() iter.Seq[*Op] {
	return func(yield func(*Op) bool) {
		for _, r := range o.regionSlice() {
			for _, b := range r.blocks {
				if !walkBlockPre(b, yield) {
					return
				}
			}
		}
	}
}

// Depth returns the number of ops enclosing o (0 at the top level of a program, whose module is not counted).
func (o *Op) Depth() int {
	d := 0
	for p := o.ParentOp(); p != nil && p.info.Name != ModuleOpName; p = p.ParentOp() {
		d++
	}
	return d
}

// Dominates reports whether the definition of v is visible at op: v is a result of an op that comes before op in
// op's block or in an enclosing block (and does not contain op), or v is an argument of op's block or of an
// enclosing block.
func Dominates(v *Value, op *Op) bool {
	if d := v.def(); d != nil {
		if d.isErased() || d.block == nil {
			return false
		}
		anc := op
		for anc != nil && anc.block != d.block {
			anc = anc.ParentOp()
		}
		return anc != nil && anc != d && d.IsBefore(anc)
	}
	anc := op
	blk := v.argBlock()
	for anc != nil && anc.block != blk {
		anc = anc.ParentOp()
	}
	return anc != nil
}

// LiftTo returns the op of block b that is op or contains op (through regions), or nil if op is not nested in b.
func LiftTo(op *Op, b *Block) *Op {
	for op != nil && op.block != b {
		op = op.ParentOp()
	}
	return op
}
