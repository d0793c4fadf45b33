package ir

import "strconv"

// Numbering names values the way PIR text prints them: results %0, %1, … in print order (an op's results before
// the ops of its regions) and block arguments %arg_0, %arg_1, … with their own counter. Diagnostics use it so that
// the value ids they mention are the ones the user sees in a printed program.
type Numbering struct {
	ids map[*Value]int
}

// NumberValues numbers every value defined in b and its nested regions, in print order.
func NumberValues(b *Block) *Numbering {
	n := &Numbering{ids: make(map[*Value]int)}
	res, arg := 0, 0
	n.number(b, &res, &arg)
	return n
}

func (n *Numbering) number(b *Block, res, arg *int) {
	for _, a := range b.args {
		n.ids[a] = -1 - *arg
		*arg++
	}
	for op := b.first; op != nil; op = op.next {
		for i := range op.NumResults() {
			n.ids[op.result(i)] = *res
			*res++
		}
		for _, r := range op.regionSlice() {
			for _, nb := range r.blocks {
				n.number(nb, res, arg)
			}
		}
	}
}

// Name returns the printed name of v: %N, %arg_N, <<NULL VALUE>> for nil, or %? for a value not numbered.
func (n *Numbering) Name(v *Value) string {
	if v == nil {
		return "<<NULL VALUE>>"
	}
	id, ok := n.ids[v]
	switch {
	case !ok:
		return "%?"
	case id < 0:
		return "%arg_" + strconv.Itoa(-1-id)
	}
	return "%" + strconv.Itoa(id)
}

// ResultNames returns the printed names of op's results, joined by ", ".
func (n *Numbering) ResultNames(op *Op) string {
	s := ""
	for i := range op.NumResults() {
		if i > 0 {
			s += ", "
		}
		s += n.Name(op.result(i))
	}
	return s
}

// Describe returns a short description of op for messages: its results and name, e.g. "%9 = pd_op.batch_norm_"
// or "pd_op.fetch" when it has no results.
func (n *Numbering) Describe(op *Op) string {
	if op.NumResults() == 0 {
		return op.Name()
	}
	if op.NumResults() == 1 {
		return n.Name(op.result(0)) + " = " + op.Name()
	}
	return "(" + n.ResultNames(op) + ") = " + op.Name()
}
