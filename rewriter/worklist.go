package rewriter

import (
	"math/rand/v2"

	"github.com/pirdrr/drr/ir"
)

// worklist is a LIFO of ops without duplicates: push, pop and remove are O(1). Removed ops leave a nil slot that
// pop skips. With a random source, pop takes a random op instead of the last (to expose order dependence).
type worklist struct {
	ops   []*ir.Op
	index map[*ir.Op]int
	rng   *rand.Rand
}

func newWorklist(capacity int, rng *rand.Rand) *worklist {
	return &worklist{ops: make([]*ir.Op, 0, capacity), index: make(map[*ir.Op]int, capacity), rng: rng}
}

func (w *worklist) push(op *ir.Op) {
	if op == nil || op.Erased() {
		return
	}
	if _, ok := w.index[op]; ok {
		return
	}
	w.index[op] = len(w.ops)
	w.ops = append(w.ops, op)
}

func (w *worklist) pop() *ir.Op {
	for len(w.ops) > 0 {
		last := len(w.ops) - 1
		if w.rng != nil && last > 0 {
			i := w.rng.IntN(last + 1)
			w.ops[i], w.ops[last] = w.ops[last], w.ops[i]
			if w.ops[i] != nil {
				w.index[w.ops[i]] = i
			}
		}
		op := w.ops[last]
		w.ops = w.ops[:last]
		if op == nil {
			continue
		}
		delete(w.index, op)
		return op
	}
	return nil
}

func (w *worklist) remove(op *ir.Op) {
	if i, ok := w.index[op]; ok {
		w.ops[i] = nil
		delete(w.index, op)
	}
}

func (w *worklist) len() int { return len(w.index) }
