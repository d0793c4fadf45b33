package cost

import (
	"unsafe"

	"github.com/pirdrr/drr/ir"
)

// workMemo is the work of the last op of a kind whose formula ran: an op of the same kind with the same attribute
// list (the readers and the rewriter share one list between ops whose attributes are equal) and the same operand
// and result types (interned: one pointer per type) has the same work, as programs repeat their layers. A formula
// reads nothing else of the op but the operands' defining ops (opView.constInts), whose work is not memoized.
type workMemo struct {
	valid   bool
	attrs   *ir.NamedAttr
	nAttrs  int
	types   []ir.Type // operand types, then result types
	work    Work
	dynamic bool
	err     error

	// The time of the op the memo's work was last computed for (analyzer.time), when it was a runtime op without
	// output results: the operands whose bytes are compulsory (a bit each), the work and the time.
	timed    bool
	timeMask uint64
	timeWork Work
	time     Interval
}

// workOf returns op's work by formula f (registered as name) and whether its types had dynamic dims, from the
// memo of op's kind when the last op of the kind the formula ran on had the same attributes and types. The memo it
// returns (nil if none) holds op's types.
func (a *analyzer) workOf(op *ir.Op, f formula, name string) (Work, bool, *workMemo, error) {
	v := &a.view
	v.reset(op)
	if f == nil || op.NumRegions() > 0 {
		w, err := a.work(f, name, v)
		return w, v.dynamic, nil, err
	}
	id := op.Info().ID
	for len(a.memos) <= id {
		a.memos = append(a.memos, workMemo{})
	}
	m := &a.memos[id]
	attrs := op.Attrs()
	nIn, n := op.NumOperands(), op.NumOperands()+op.NumResults()
	hit := m.valid && m.attrs == unsafe.SliceData(attrs) && m.nAttrs == len(attrs) && len(m.types) == n
	if !hit {
		m.types = m.types[:0]
	}
	for i := 0; i < n; i++ {
		var t ir.Type
		if i < nIn {
			val := op.Operand(i)
			if val == nil { // an absent operand: not worth a memo
				m.valid = false
				w, err := a.work(f, name, v)
				return w, v.dynamic, nil, err
			}
			t = val.Type()
		} else {
			t = op.Result(i - nIn).Type()
		}
		if hit {
			if m.types[i] != t {
				hit = false
				m.types = m.types[:i]
			} else {
				continue
			}
		}
		m.types = append(m.types, t)
	}
	if hit {
		return m.work, m.dynamic, m, m.err
	}
	w, err := a.work(f, name, v)
	*m = workMemo{valid: !v.beyond, attrs: unsafe.SliceData(attrs), nAttrs: len(attrs), types: m.types,
		work: w, dynamic: v.dynamic, err: err}
	if v.beyond {
		return w, v.dynamic, nil, err
	}
	return w, v.dynamic, m, err
}
