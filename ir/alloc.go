package ir

import "unsafe"

// Allocator hands out ops, their operand records and their results from large chunks, so that building a big
// program costs a few allocations per thousand ops instead of several per op (readers use one per program). Ops
// from an allocator behave exactly like those of Context.NewOp. An Allocator is not safe for concurrent use.
//
// An allocator can also recycle erased ops (TrackErased, Reuse): a rewrite driver that erases as many ops as it
// creates then works in the memory the erased ones held, instead of growing the program by every op it ever built
// (chunks are freed only when every record in them is unreachable, which a surviving neighbour prevents).
type Allocator struct {
	ops  []Op
	uses []Use
	vals []Value

	track  bool
	erased []*Op
	// Free records of recycled ops: ops, and runs of n operand records or results by n (1..maxRun).
	freeOps  []*Op
	freeUses [maxRun + 1][]*Use
	freeVals [maxRun + 1][]*Value
}

const (
	allocChunk = 1024
	// maxRun is the longest run of operand records or results that is recycled.
	maxRun = 8
)

// NewOp is Context.NewOp, allocating from a's chunks.
func (a *Allocator) NewOp(c *Context, spec OpSpec) *Op { return newOp(c, spec, a) }

func (a *Allocator) op() *Op {
	if n := len(a.freeOps); n > 0 {
		op := a.freeOps[n-1]
		a.freeOps = a.freeOps[:n-1]
		return op
	}
	if len(a.ops) == 0 {
		a.ops = make([]Op, allocChunk)
	}
	op := &a.ops[0]
	a.ops = a.ops[1:]
	return op
}

// useRun returns n zeroed, contiguous operand records.
func (a *Allocator) useRun(n int) []Use {
	if n == 0 {
		return nil
	}
	if n <= maxRun {
		for k := n; k <= maxRun; k++ {
			if free := a.freeUses[k]; len(free) > 0 {
				a.freeUses[k] = free[:len(free)-1]
				run := unsafe.Slice(free[len(free)-1], k)
				if k > n {
					a.freeUses[k-n] = append(a.freeUses[k-n], &run[n])
				}
				return run[:n:n]
			}
		}
	}
	if n > allocChunk/4 {
		return make([]Use, n)
	}
	if len(a.uses) < n {
		a.uses = make([]Use, allocChunk)
	}
	s := a.uses[:n:n]
	a.uses = a.uses[n:]
	return s
}

// valueRun returns n zeroed, contiguous values.
func (a *Allocator) valueRun(n int) []Value {
	if n == 0 {
		return nil
	}
	if n <= maxRun {
		if free := a.freeVals[n]; len(free) > 0 {
			a.freeVals[n] = free[:len(free)-1]
			return unsafe.Slice(free[len(free)-1], n)
		}
	}
	if n > allocChunk/4 {
		return make([]Value, n)
	}
	if len(a.vals) < n {
		a.vals = make([]Value, allocChunk)
	}
	s := a.vals[:n:n]
	a.vals = a.vals[n:]
	return s
}

// TrackErased makes rewriters that allocate from a (Builder.Alloc) remember the ops they erase, so that Reuse can
// recycle them. Only a caller that knows every pointer to an erased op is dropped may turn it on: see Reuse.
func (a *Allocator) TrackErased(on bool) {
	a.track = on
	if !on {
		a.erased = a.erased[:0]
	}
}

// Reuse recycles the ops erased since the last call (by rewriters allocating from a, with TrackErased on): their
// op records, operand records and results are cleared and handed to the next ops a allocates. Afterwards a
// pointer to such an op, its results or its uses designates whatever op takes its place, and Erased no longer
// reports it; so the caller must hold none (the rewrite driver calls Reuse between rewrites, when its worklist,
// matches and listeners have let go of the erased ops).
func (a *Allocator) Reuse() {
	for _, op := range a.erased {
		if !op.isErased() {
			continue // erased twice, or not at all: leave it alone
		}
		if n := int(op.nOperands); n > 0 && n <= maxRun {
			clear(op.operandSlice())
			a.freeUses[n] = append(a.freeUses[n], op.uses)
		}
		if n := int(op.nResults); n > 0 && n <= maxRun {
			clear(op.resultSlice())
			a.freeVals[n] = append(a.freeVals[n], op.results)
		}
		*op = Op{}
		a.freeOps = append(a.freeOps, op)
	}
	clear(a.erased)
	a.erased = a.erased[:0]
}

// erasedBy records an op a rewriter allocating from a erased.
func (a *Allocator) erasedBy(op *Op) {
	if a.track {
		a.erased = append(a.erased, op)
	}
}
