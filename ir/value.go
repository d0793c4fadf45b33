package ir

import (
	"iter"
	"unsafe"
)

// Value is an SSA value: a result of an Op or an argument of a Block. It knows its type, where it is defined and
// every use of it (an intrusive doubly-linked list of Use records, so adding and removing a use is O(1) and
// replacing all uses is O(uses)).
//
// A Value holds no pointer to where it is defined: result 0 is part of its op's record (Op.res) and finds the op
// by its place in it, a later result is the Value inside an extraResult, which adds its op, and a block argument
// the Value inside a blockArg, which adds its block. The index tells them apart: 0 for result 0, the result index
// for later results, and the complement of the argument index (negative) for block arguments.
type Value struct {
	typ   *typeHead // the type (typeHead.self)
	first *Use      // first use
	index int32     // result index, or ^argument index for block arguments
	nuses int32
}

// blockArg is a block argument: a Value and its block.
type blockArg struct {
	Value
	block *Block
}

// def returns the op whose result v is, or nil for a block argument.
func (v *Value) def() *Op {
	switch {
	case v.index == 0:
		return (*Op)(unsafe.Add(unsafe.Pointer(v), -int(resOffset)))
	case v.index > 0:
		return (*extraResult)(unsafe.Pointer(v)).def
	}
	return nil
}

// argBlock returns the block whose argument v is, or nil for a result.
func (v *Value) argBlock() *Block {
	if v.index >= 0 {
		return nil
	}
	return (*blockArg)(unsafe.Pointer(v)).block
}

// Use is one operand slot of an Op: which value it reads (nil for an absent optional operand) and its place in
// that value's use list. The use records of an op are contiguous, so a use's operand index is its distance from
// the op's first record.
type Use struct {
	value      *Value
	owner      *Op
	prev, next *Use
}

// Type returns the value's type.
func (v *Value) Type() Type {
	if v.typ == nil {
		return nil
	}
	return v.typ.self
}

// DefiningOp returns the op whose result v is, or nil for a block argument.
func (v *Value) DefiningOp() *Op { return v.def() }

// IsBlockArg reports whether v is a block argument.
func (v *Value) IsBlockArg() bool { return v.index < 0 }

// OwnerBlock returns the block that contains v's definition: the block of its defining op or the block whose
// argument it is.
func (v *Value) OwnerBlock() *Block {
	if d := v.def(); d != nil {
		return d.block
	}
	return v.argBlock()
}

// Index returns the result index of v in its defining op, or its argument index in its block.
func (v *Value) Index() int {
	if v.index < 0 {
		return int(^v.index)
	}
	return int(v.index)
}

// NumUses returns the number of operand slots that read v. It is O(1).
func (v *Value) NumUses() int { return int(v.nuses) }

// HasUses reports whether some operand reads v.
func (v *Value) HasUses() bool { return v.first != nil }

// HasOneUse reports whether exactly one operand reads v.
func (v *Value) HasOneUse() bool { return v.nuses == 1 }

// FirstUse returns the first use of v, or nil. Uses are in no particular order.
func (v *Value) FirstUse() *Use { return v.first }

// Uses iterates over the uses of v. The iteration tolerates removing the current use.
func (v *Value) Uses() iter.Seq[*Use] {
	return func(yield func(*Use) bool) {
		for u := v.first; u != nil; {
			next := u.next
			if !yield(u) {
				return
			}
			u = next
		}
	}
}

// Users returns the ops that read v, once each, in program order when they share a block (otherwise in use-list
// order).
func (v *Value) Users() []*Op {
	var out []*Op
	seen := make(map[*Op]bool, v.nuses)
	for u := v.first; u != nil; u = u.next {
		if !seen[u.owner] {
			seen[u.owner] = true
			out = append(out, u.owner)
		}
	}
	sortOpsByPosition(out)
	return out
}

// setType changes the type of v (used by the rewriter when retyping values).
func (v *Value) setType(t Type) { v.typ = headOf(t) }

// Value returns the value read by the use (nil for an absent optional operand).
func (u *Use) Value() *Value { return u.value }

// Owner returns the op the use belongs to.
func (u *Use) Owner() *Op { return u.owner }

// Index returns the operand index of the use in its owner.
func (u *Use) Index() int {
	return int((uintptr(unsafe.Pointer(u)) - uintptr(unsafe.Pointer(u.owner.uses))) / unsafe.Sizeof(Use{}))
}

// Next returns the next use of the same value, or nil.
func (u *Use) Next() *Use { return u.next }

func (u *Use) link(v *Value) {
	u.value = v
	if v == nil {
		return
	}
	u.prev = nil
	u.next = v.first
	if v.first != nil {
		v.first.prev = u
	}
	v.first = u
	v.nuses++
}

func (u *Use) unlink() {
	v := u.value
	if v == nil {
		return
	}
	if u.prev != nil {
		u.prev.next = u.next
	} else {
		v.first = u.next
	}
	if u.next != nil {
		u.next.prev = u.prev
	}
	u.prev, u.next = nil, nil
	u.value = nil
	v.nuses--
}

// set points the use at another value (nil for absent).
func (u *Use) set(v *Value) {
	if u.value == v {
		return
	}
	u.unlink()
	u.link(v)
}
