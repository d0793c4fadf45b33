package matcher

import (
	"slices"

	"github.com/pirdrr/drr/ir"
)

// Program order of ops: the order of a pre-order walk of the program (Program.Walk): within a block by position,
// an op before the ops nested in its regions, regions in index order, blocks of a region in index order. Users of a
// value are explored in this order when a multi-root pattern reaches an op through the users of a bound value.

// before reports whether op a comes before op b in program pre-order. Ops that share no ancestor (detached ops,
// different programs) are unordered: before reports false both ways.
func before(a, b *ir.Op) bool {
	if a == b {
		return false
	}
	if ba := a.Block(); ba != nil && ba == b.Block() {
		return a.IsBefore(b)
	}
	var bufA, bufB [8]*ir.Op
	ca := ancestors(bufA[:0], a)
	cb := ancestors(bufB[:0], b)
	i, j := len(ca)-1, len(cb)-1
	for i >= 0 && j >= 0 && ca[i] == cb[j] {
		i--
		j--
	}
	switch {
	case i < 0: // a is an ancestor of b (or b's chain contains a's whole chain)
		return true
	case j < 0:
		return false
	}
	x, y := ca[i], cb[j]
	bx, by := x.Block(), y.Block()
	if bx == nil || by == nil {
		return false
	}
	if bx == by {
		return x.IsBefore(y)
	}
	rx, ry := bx.Region(), by.Region()
	if rx == nil || ry == nil || rx.ParentOp() != ry.ParentOp() {
		return false
	}
	if rx != ry {
		return rx.Index() < ry.Index()
	}
	return blockIndex(bx) < blockIndex(by)
}

// ancestors appends op and the ops enclosing it, innermost first.
func ancestors(dst []*ir.Op, op *ir.Op) []*ir.Op {
	for ; op != nil; op = op.ParentOp() {
		dst = append(dst, op)
	}
	return dst
}

func blockIndex(b *ir.Block) int {
	for i, x := range b.Region().Blocks() {
		if x == b {
			return i
		}
	}
	return -1
}

func cmpOps(a, b *ir.Op) int {
	switch {
	case a == b:
		return 0
	case before(a, b):
		return -1
	case before(b, a):
		return 1
	}
	return 0
}

// appendUsers appends to dst the distinct ops that use v, in program order.
func appendUsers(dst []*ir.Op, v *ir.Value) []*ir.Op {
	start := len(dst)
	for u := v.FirstUse(); u != nil; u = u.Next() {
		dst = append(dst, u.Owner())
	}
	s := dst[start:]
	if len(s) < 2 {
		return dst
	}
	if len(s) <= 16 {
		for i := 1; i < len(s); i++ {
			for j := i; j > 0 && cmpOps(s[j], s[j-1]) < 0; j-- {
				s[j], s[j-1] = s[j-1], s[j]
			}
		}
	} else {
		slices.SortStableFunc(s, cmpOps)
	}
	// Equal ops are adjacent after sorting; remove repeats.
	n := 1
	for i := 1; i < len(s); i++ {
		if s[i] != s[n-1] {
			s[n] = s[i]
			n++
		}
	}
	return dst[:start+n]
}
