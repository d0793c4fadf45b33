package rewriter

import (
	"math/rand/v2"

	"github.com/pirdrr/drr/ir"
)

// The driver keeps its per-op bookkeeping in the op's scratch mark (ir.Op.Mark), so that no map is consulted per
// op: the low bits hold the op's worklist position plus one (0 when absent), and orphanedBit says that the op lost
// a use during the run (only such ops are erased when dead). The driver owns the marks while it runs and clears
// them when done.
const (
	wlMask      = 1<<30 - 1
	orphanedBit = 1 << 30
)

// worklist is a LIFO of ops without duplicates: push, pop and remove are O(1). Removed ops leave a nil slot that
// pop skips. With a random source, pop takes a random op instead of the last (to expose order dependence).
type worklist struct {
	ops []*ir.Op
	n   int // ops present
	rng *rand.Rand
}

func newWorklist(capacity int, rng *rand.Rand) *worklist {
	return &worklist{ops: make([]*ir.Op, 0, capacity), rng: rng}
}

func setPos(op *ir.Op, pos int) { op.SetMark(op.Mark()&^wlMask | int32(pos)) }

func (w *worklist) push(op *ir.Op) {
	if op == nil || op.Erased() || op.Mark()&wlMask != 0 {
		return
	}
	if len(w.ops) == wlMask {
		w.compact()
	}
	w.ops = append(w.ops, op)
	setPos(op, len(w.ops))
	w.n++
}

// compact drops the nil slots, for a worklist whose positions would no longer fit the mark.
func (w *worklist) compact() {
	k := 0
	for _, op := range w.ops {
		if op != nil {
			w.ops[k] = op
			k++
			setPos(op, k)
		}
	}
	clear(w.ops[k:])
	w.ops = w.ops[:k]
}

func (w *worklist) pop() *ir.Op {
	for len(w.ops) > 0 {
		last := len(w.ops) - 1
		if w.rng != nil && last > 0 {
			i := w.rng.IntN(last + 1)
			w.ops[i], w.ops[last] = w.ops[last], w.ops[i]
			if w.ops[i] != nil {
				setPos(w.ops[i], i+1)
			}
		}
		op := w.ops[last]
		w.ops = w.ops[:last]
		if op == nil {
			continue
		}
		setPos(op, 0)
		w.n--
		return op
	}
	return nil
}

func (w *worklist) remove(op *ir.Op) {
	if m := int(op.Mark() & wlMask); m > 0 && m <= len(w.ops) && w.ops[m-1] == op {
		w.ops[m-1] = nil
		setPos(op, 0)
		w.n--
	}
}

// clear empties the worklist and resets the positions of the ops it held.
func (w *worklist) clear() {
	for _, op := range w.ops {
		if op != nil {
			setPos(op, 0)
		}
	}
	w.ops = w.ops[:0]
	w.n = 0
}
