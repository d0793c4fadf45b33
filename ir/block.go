package ir

import "iter"

// Block is a list of ops with O(1) insertion and removal, and arguments (the values a region receives, such as
// the loop-carried values of a while body). Ops carry order numbers so that IsBefore answers without rescanning the
// block; numbers are spread out, respaced around an insertion that finds no gap, and renumbered lazily when that
// finds no room (order.go).
type Block struct {
	first, last *Op
	args        []*Value
	region      *Region
	len         int
	nested      int // how many of its ops have regions (so that counting ops looks inside only when some do)
	orderValid  bool
	gap         uint32 // the gap between order numbers the last renumbering left (0: orderStride)
}

// NewBlock returns an empty detached block.
func NewBlock() *Block { return &Block{orderValid: true} }

// Region returns the region containing the block, or nil.
func (b *Block) Region() *Region { return b.region }

// ParentOp returns the op owning the block's region, or nil.
func (b *Block) ParentOp() *Op {
	if b.region == nil {
		return nil
	}
	return b.region.op
}

// First returns the first op, or nil.
func (b *Block) First() *Op { return b.first }

// Last returns the last op, or nil.
func (b *Block) Last() *Op { return b.last }

// Len returns the number of ops in the block (not counting nested ones).
func (b *Block) Len() int { return b.len }

// Empty reports whether the block has no ops.
func (b *Block) Empty() bool { return b.first == nil }

// Ops iterates over the block's ops in order. Erasing or moving the current op during iteration is safe.
func (b *Block) Ops() iter.Seq[*Op] {
	return func(yield func(*Op) bool) {
		for op := b.first; op != nil; {
			next := op.next
			if !yield(op) {
				return
			}
			op = next
		}
	}
}

// Backward iterates over the block's ops in reverse order. Erasing the current op during iteration is safe.
func (b *Block) Backward() iter.Seq[*Op] {
	return func(yield func(*Op) bool) {
		for op := b.last; op != nil; {
			prev := op.prev
			if !yield(op) {
				return
			}
			op = prev
		}
	}
}

// NumArgs returns the number of block arguments.
func (b *Block) NumArgs() int { return len(b.args) }

// Arg returns argument i.
func (b *Block) Arg(i int) *Value { return b.args[i] }

// Args returns the block arguments (the slice must not be modified).
func (b *Block) Args() []*Value { return b.args }

// AddArg appends an argument of type t and returns it.
func (b *Block) AddArg(t Type) *Value {
	a := &blockArg{Value: Value{typ: headOf(t), index: ^int32(len(b.args))}, block: b}
	b.args = append(b.args, &a.Value)
	return &a.Value
}

// Terminator returns the last op if it has the Terminator trait (or is cf.yield when unregistered), else nil.
func (b *Block) Terminator() *Op {
	if b.last != nil && isTerminator(b.last) {
		return b.last
	}
	return nil
}

func isTerminator(op *Op) bool {
	if op.info.Schema != nil {
		return op.info.Schema.Has(Terminator)
	}
	return op.info.Name == "cf.yield"
}

// insertBefore links a detached op into b before `before` (at the end if before is nil).
func (b *Block) insertBefore(op, before *Op) {
	op.block = b
	if before == nil {
		op.prev = b.last
		op.next = nil
		if b.last != nil {
			b.last.next = op
		} else {
			b.first = op
		}
		b.last = op
	} else {
		op.next = before
		op.prev = before.prev
		if before.prev != nil {
			before.prev.next = op
		} else {
			b.first = op
		}
		before.prev = op
	}
	b.len++
	if op.hasRegions() {
		b.nested++
	}
	b.assignOrder(op)
}

// unlink removes op from b without touching its uses.
func (b *Block) unlink(op *Op) {
	if op.prev != nil {
		op.prev.next = op.next
	} else {
		b.first = op.next
	}
	if op.next != nil {
		op.next.prev = op.prev
	} else {
		b.last = op.prev
	}
	op.prev, op.next, op.block = nil, nil, nil
	b.len--
	if op.hasRegions() {
		b.nested--
	}
}

// Region is a list of blocks owned by an op (the branches of pd_op.if, the body of pd_op.while). Values defined
// in a region are visible only inside it; a region may use values of enclosing regions.
type Region struct {
	blocks []*Block
	op     *Op
}

// ParentOp returns the op owning the region.
func (r *Region) ParentOp() *Op { return r.op }

// Blocks returns the region's blocks (the slice must not be modified).
func (r *Region) Blocks() []*Block { return r.blocks }

// NumBlocks returns the number of blocks.
func (r *Region) NumBlocks() int { return len(r.blocks) }

// Block returns block i.
func (r *Region) Block(i int) *Block { return r.blocks[i] }

// Empty reports whether the region has no blocks.
func (r *Region) Empty() bool { return len(r.blocks) == 0 }

// AddBlock appends a new empty block and returns it.
func (r *Region) AddBlock() *Block {
	b := NewBlock()
	b.region = r
	r.blocks = append(r.blocks, b)
	return b
}

// Index returns the region's index in its op.
func (r *Region) Index() int {
	for i, x := range r.op.regionSlice() {
		if x == r {
			return i
		}
	}
	return -1
}
