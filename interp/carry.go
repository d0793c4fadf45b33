package interp

import (
	"fmt"
	"unsafe"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// Carry holds values an evaluation keeps (Options.Keep) for a later evaluation that reuses them (Options.Reuse).
// One Carry serves one pair of evaluations.
type Carry struct {
	vals map[*ir.Value]any // *value[T]
	// snaps holds, by a buffer of the keeping evaluation, the *buffer[T] its kept values were given: the elements
	// the buffer held when they were computed (see keep).
	snaps map[any]any
	// limit bounds bytes, the size of the elements held; past it a value is not kept and full is set.
	limit, bytes int64
	full         bool
}

// NewCarry returns an empty Carry that holds at most limit bytes of elements (a buffer shared by several values is
// counted for each).
func NewCarry(limit int64) *Carry {
	return &Carry{vals: map[*ir.Value]any{}, snaps: map[any]any{}, limit: limit}
}

// Complete reports whether the Carry holds every value the evaluation was to keep: false when they exceeded its
// limit, and an evaluation reusing them would miss some (it then stops with an error).
func (c *Carry) Complete() bool { return !c.full }

// keep holds the values op computed that opts.Keep lists. The Carry holds each in a buffer of its own over the same
// elements (one per buffer of this evaluation, so that values sharing a buffer here share one there), and the
// evaluation's buffer becomes borrowed, as an output's snapshot's: an op of this evaluation that writes it later
// copies the elements first or takes a new array (buffer.writable, buffer.overwrite), which changes what the
// evaluation's buffer holds and not the Carry's. (Holding the evaluation's own buffer, the Carry saw such a write:
// a kept value that an inplace op of this evaluation writes where it dies.)
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
			v = snapshot(c, v)
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

// snapshot returns the value the Carry holds for v (see keep): v over a buffer of the Carry's holding the elements
// v's buffer holds now, one per buffer and array of elements; v's buffer becomes borrowed.
func snapshot[T tensor.Float](c *Carry, v *value[T]) *value[T] {
	if v.vec {
		out := &value[T]{vec: true, elems: make([]*value[T], len(v.elems)), rounding: v.rounding}
		for i, e := range v.elems {
			out.elems[i] = snapshot(c, e)
		}
		return out
	}
	if v.buf == nil {
		return v
	}
	snap, _ := c.snaps[v.buf].(*buffer[T])
	if snap == nil || !sameArray(snap.data, v.buf.data) {
		// A buffer written since a value over it was kept holds other elements now: a new snapshot.
		snap = &buffer[T]{data: v.buf.data, borrowed: true, random: v.buf.random}
		c.snaps[v.buf] = snap
	}
	v.buf.borrowed = true
	return &value[T]{buf: snap, shape: append([]int(nil), v.shape...), dtype: v.dtype, rounding: v.rounding}
}

// sameArray reports whether a and b are the same elements in memory.
func sameArray[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
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
