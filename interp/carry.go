package interp

import (
	"fmt"
	"unsafe"

	"github.com/pirdrr/drr/ir"
)

// Carry holds values an evaluation keeps (Options.Keep) for a later evaluation that reuses them (Options.Reuse).
// One Carry serves one pair of evaluations.
type Carry struct {
	vals map[*ir.Value]any // *value[T]
	// limit bounds bytes, the size of the elements held; past it a value is not kept and full is set.
	limit, bytes int64
	full         bool
}

// NewCarry returns an empty Carry that holds at most limit bytes of elements (a buffer shared by several values is
// counted for each).
func NewCarry(limit int64) *Carry { return &Carry{vals: map[*ir.Value]any{}, limit: limit} }

// Complete reports whether the Carry holds every value the evaluation was to keep: false when they exceeded its
// limit, and an evaluation reusing them would miss some (it then stops with an error).
func (c *Carry) Complete() bool { return !c.full }

// keep holds the values op computed that opts.Keep lists. Their buffers become borrowed, as an output's
// snapshot's: an op of this evaluation that writes one later copies it first, so the carried value keeps the
// elements it had when computed.
func (m *machine[T]) keep(op *ir.Op) {
	c := m.opts.Carry
	if c == nil || c.full || len(m.opts.Keep) == 0 {
		return
	}
	for _, r := range op.Results() {
		if !m.opts.Keep[r] {
			continue
		}
		v, ok := m.env[r]
		if !ok {
			continue
		}
		if v != nil {
			var zero T
			c.bytes += int64(v.elements()) * int64(unsafe.Sizeof(zero))
			if c.bytes > c.limit {
				c.full = true
				c.vals = nil // the reusing evaluation cannot run on part of them
				return
			}
			v.lend()
		}
		c.vals[r] = v // nil too: a result the kernel does not compute (batch_norm's reserve space)
	}
}

// elements returns the number of elements v's buffers hold (a vector's summed).
func (v *value[T]) elements() int {
	if v.vec {
		n := 0
		for _, e := range v.elems {
			n += e.elements()
		}
		return n
	}
	if v.buf == nil {
		return 0
	}
	return len(v.buf.data)
}

// lend marks v's buffers borrowed (see keep).
func (v *value[T]) lend() {
	if v.vec {
		for _, e := range v.elems {
			e.lend()
		}
		return
	}
	v.buf.borrowed = true
}

// reuse binds the results of op from the values Carry holds for Reuse[op] (see Options.Reuse), reporting whether
// op is one to reuse.
func (m *machine[T]) reuse(op *ir.Op) (bool, error) {
	from, ok := m.opts.Reuse[op]
	if !ok || m.opts.Carry == nil {
		return false, nil
	}
	if len(from) != op.NumResults() {
		return true, m.opErr(op, fmt.Errorf("reuses %d values for %d results (internal error)", len(from), op.NumResults()))
	}
	for j, src := range from {
		if src == nil {
			continue
		}
		held, ok := m.opts.Carry.vals[src].(*value[T])
		if !ok {
			return true, m.opErr(op, fmt.Errorf("result %d: the earlier evaluation kept no value to reuse (internal error)", j))
		}
		if held == nil {
			m.env[op.Result(j)] = nil
			continue
		}
		m.env[op.Result(j)] = m.imported(held)
	}
	return true, nil
}

// imported returns a value of this machine over the data of v, a value of another evaluation: its buffers are
// borrowed (written only after a copy) and one buffer of v's evaluation is one buffer here, so that values sharing
// a buffer there share one here too.
func (m *machine[T]) imported(v *value[T]) *value[T] {
	if v.vec {
		out := &value[T]{vec: true, elems: make([]*value[T], len(v.elems)), rounding: v.rounding}
		for i, e := range v.elems {
			out.elems[i] = m.imported(e)
		}
		return out
	}
	if m.bufs == nil {
		m.bufs = map[*buffer[T]]*buffer[T]{}
	}
	b := m.bufs[v.buf]
	if b == nil && v.buf != nil {
		b = &buffer[T]{data: v.buf.data, borrowed: true, random: v.buf.random}
		m.bufs[v.buf] = b
	}
	return &value[T]{buf: b, shape: append([]int{}, v.shape...), dtype: v.dtype, rounding: v.rounding}
}

// IsRandomOp reports whether op draws random numbers when evaluated (uniform, gaussian, dropout in training, …):
// its results depend on the op's rank among the random ops of its program, not on its operands only.
func IsRandomOp(op *ir.Op) bool { return isRandomOp(op) }
