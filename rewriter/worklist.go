package rewriter

import (
	"math/rand/v2"

	"github.com/pirdrr/drr/ir"
)

// worklist is a LIFO of ops without duplicates: push, pop and remove are O(1). An op's position is kept in its
// scratch mark (ir.Op.Mark: index+1, 0 when absent), so no map is needed; the driver owns the marks while it runs
// and clears them when done. Removed ops leave a nil slot that pop skips. With a random source, pop takes a random
// op instead of the last (to expose order dependence).
type worklist struct {
	ops []*ir.Op
	n   int // ops present
	rng *rand.Rand
}

func newWorklist(capacity int, rng *rand.Rand) *worklist {
	return &worklist{ops: make([]*ir.Op, 0, capacity), rng: rng}
}

func (w *worklist) push(op *ir.Op) {
	if op == nil || op.Erased() || op.Mark() != 0 {
		return
	}
	w.ops = append(w.ops, op)
	op.SetMark(int32(len(w.ops)))
	w.n++
}

func (w *worklist) pop() *ir.Op {
	for len(w.ops) > 0 {
		last := len(w.ops) - 1
		if w.rng != nil && last > 0 {
			i := w.rng.IntN(last + 1)
			w.ops[i], w.ops[last] = w.ops[last], w.ops[i]
			if w.ops[i] != nil {
				w.ops[i].SetMark(int32(i + 1))
			}
		}
		op := w.ops[last]
		w.ops = w.ops[:last]
		if op == nil {
			continue
		}
		op.SetMark(0)
		w.n--
		return op
	}
	return nil
}

func (w *worklist) remove(op *ir.Op) {
	if m := op.Mark(); m > 0 && int(m) <= len(w.ops) && w.ops[m-1] == op {
		w.ops[m-1] = nil
		op.SetMark(0)
		w.n--
	}
}

// clear empties the worklist and resets the marks of the ops it held.
func (w *worklist) clear() {
	for _, op := range w.ops {
		if op != nil {
			op.SetMark(0)
		}
	}
	w.ops = w.ops[:0]
	w.n = 0
}

func (w *worklist) len() int { return w.n }
