package ir

import (
	"math"
	"sort"
)

// Order numbers. Each op of a block has a 32-bit number that grows along the block, so that IsBefore compares two
// numbers instead of walking the list (MLIR keeps the same 32-bit order index on its operations). Numbers are
// spread out: an op inserted between two others takes the middle of their gap, and an op appended takes the last
// number plus the block's gap. When a gap is exhausted, the ops around the insertion are spread over the span their
// outer neighbours leave (respace: a few hundred ops at most); when that finds no room, or an append runs past the
// largest number, the block is marked and renumbered as a whole on the next query (renumber), which leaves gaps
// sized so that the block can double by appends before it runs out again.

const (
	// orderStride is the largest gap between order numbers: a renumbered block of up to 32,766 ops gets it.
	orderStride = 1 << 16
	// minOrderGap is the gap respace leaves at least: room for four more insertions at one place.
	minOrderGap = 16
	// respaceWindow is the most ops respace renumbers before it leaves the work to renumber.
	respaceWindow = 512
)

// assignOrder gives op, just linked into b, an order number between its neighbours, or marks b for renumbering.
func (b *Block) assignOrder(op *Op) {
	if !b.orderValid {
		return
	}
	var lo uint32
	if op.prev != nil {
		lo = op.prev.order
	}
	if op.next == nil {
		gap := b.orderGap()
		if lo > math.MaxUint32-gap {
			b.orderValid = false // appends past the end: readers append whole blocks, so no respacing here
			return
		}
		op.order = lo + gap
		return
	}
	if hi := op.next.order; hi-lo >= 2 {
		op.order = lo + (hi-lo)/2
		return
	}
	b.respace(op)
}

// orderGap returns the gap between order numbers the last renumbering left.
func (b *Block) orderGap() uint32 {
	if b.gap == 0 {
		return orderStride
	}
	return b.gap
}

// respace makes room for op, inserted between two ops with consecutive numbers: it widens a window of ops around
// op, one op on each side at a time, until the numbers just outside it leave at least minOrderGap between each two
// ops of the window, then numbers the window evenly; a window of respaceWindow ops that still finds no room marks
// the block for renumbering.
func (b *Block) respace(op *Op) {
	first, last := op, op // the window
	n := 1
	for n <= respaceWindow {
		var lo, hi uint64 = 0, math.MaxUint32 + 1 // the numbers just outside the window
		if first.prev != nil {
			lo = uint64(first.prev.order)
		}
		if last.next != nil {
			hi = uint64(last.next.order)
		}
		if gap := (hi - lo) / uint64(n+1); gap >= minOrderGap {
			for o, k := first, uint64(1); ; o, k = o.next, k+1 {
				o.order = uint32(lo + k*gap)
				if o == last {
					return
				}
			}
		}
		if first.prev == nil && last.next == nil {
			break // the whole block: renumber's work
		}
		if first.prev != nil {
			first = first.prev
			n++
		}
		if last.next != nil {
			last = last.next
			n++
		}
	}
	b.orderValid = false
}

// renumber numbers the block's ops afresh, with gaps of orderStride, or smaller ones that leave room for as many
// ops again appended (a block of up to 2^31 ops).
func (b *Block) renumber() {
	b.gap = uint32(max(1, min(orderStride, math.MaxUint32/(2*(uint64(b.len)+1)))))
	n := uint32(0)
	for op := b.first; op != nil; op = op.next {
		n += b.gap
		op.order = n
	}
	b.orderValid = true
}

// IsBefore reports whether op a comes before op b; both must be in the same block. Amortized O(1): the block is
// renumbered only after insertions exhausted the gaps between order numbers.
func (a *Op) IsBefore(b *Op) bool {
	blk := a.block
	if blk == nil || blk != b.block {
		panic("ir: IsBefore on ops of different blocks")
	}
	if !blk.orderValid {
		blk.renumber()
	}
	return a.order < b.order
}

// IsBeforeInRegion reports whether a comes before b where b may be nested in regions below a's block: it lifts b
// to its ancestor in a's block and compares. It returns false if b is not nested in a's block at all.
func (a *Op) IsBeforeInRegion(b *Op) bool {
	for b != nil && b.block != a.block {
		b = b.ParentOp()
	}
	if b == nil || b == a {
		return false
	}
	return a.IsBefore(b)
}

// sortOpsByPosition orders ops of one block by position; ops of different blocks keep their relative order after
// the same-block ones are sorted among themselves.
func sortOpsByPosition(ops []*Op) {
	if len(ops) < 2 {
		return
	}
	blk := ops[0].block
	for _, op := range ops {
		if op.block != blk || blk == nil {
			return
		}
	}
	if !blk.orderValid {
		blk.renumber()
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].order < ops[j].order })
}
