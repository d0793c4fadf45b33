package feeds

import (
	"github.com/pirdrr/drr/ir"
)

// Index inputs. An integer input or parameter the program uses as an index — embedding ids, gather and scatter
// indices, one_hot's classes, a cross-entropy label — must be drawn inside the range the program indexes with it:
// Paddle's 3-table embedding test feeds one id tensor to tables of 512 and 30522 rows and another to a table of
// 2 rows, and ids drawn from {0, …, 7} fail the 2-row lookup before any rewrite is compared. indexBound finds that
// range from the program: the smallest size the value's index readers index along, following it through the ops
// that only move its values (reshape, cast, slice, concat, …). The draw is then uniform over [0, bound), within the
// recorded range when GraphNet recorded one (boundInts).

// The builtin ops that pack tensors into a vector and unpack them.
const (
	builtinCombine = "builtin.combine"
	builtinSplit   = "builtin.split"
)

// maxIndexTrace bounds how many ops deep indexBound follows a value through ops that move its values.
const maxIndexTrace = 16

// indexBound returns the exclusive upper bound of the values v may hold as an index of the program: the smallest
// size along which some reader indexes with it (directly or through ops that move its values). ok is false when no
// reader indexes with v, or none whose size is static.
func indexBound(v *ir.Value) (bound int64, ok bool) {
	seen := map[*ir.Value]bool{}
	var walk func(v *ir.Value, depth int)
	walk = func(v *ir.Value, depth int) {
		if v == nil || seen[v] || depth > maxIndexTrace {
			return
		}
		seen[v] = true
		for u := range v.Uses() {
			op, i := u.Owner(), u.Index()
			if b, has := indexedSize(op, i); has {
				if !ok || b < bound {
					bound, ok = b, true
				}
				continue
			}
			for _, r := range movedTo(op, i) {
				walk(r, depth+1)
			}
		}
	}
	walk(v, 0)
	return bound, ok && bound > 0
}

// indexedSize returns the size op indexes along with its operand i, when operand i is an index operand of op and
// that size is static.
func indexedSize(op *ir.Op, i int) (int64, bool) {
	dim := func(operand, axis int) (int64, bool) {
		if operand >= op.NumOperands() || op.Operand(operand) == nil {
			return 0, false
		}
		return staticDim(op.Operand(operand).Type(), axis)
	}
	intAttr := func(name string) int64 {
		n, _ := ir.AsInt(op.AttrOrDefault(name))
		return n
	}
	switch ir.NonInplaceName(op.Name()) {
	case "pd_op.embedding":
		if i == 0 {
			return dim(1, 0) // weight [rows, width]
		}
	case "pd_op.gather":
		if i == 1 {
			axis, known := constantInt(op, 2)
			if !known {
				axis = 0
			}
			return dim(0, int(axis))
		}
	case "pd_op.index_select":
		if i == 1 {
			return dim(0, int(intAttr("axis")))
		}
	case "pd_op.take_along_axis", "pd_op.put_along_axis":
		if i == 1 {
			return dim(0, int(intAttr("axis")))
		}
	case "pd_op.index_sample":
		if i == 1 {
			return dim(0, 1)
		}
	case "pd_op.scatter":
		if i == 1 {
			return dim(0, 0)
		}
	case "pd_op.gather_nd", "pd_op.scatter_nd_add":
		if i == 1 {
			// The last dimension of the index addresses the leading dimensions of x: the smallest of those.
			k, known := staticDim(op.Operand(1).Type(), -1)
			if !known {
				return 0, false
			}
			var b int64
			for a := 0; a < int(k); a++ {
				d, known := dim(0, a)
				if !known {
					return 0, false
				}
				if a == 0 || d < b {
					b = d
				}
			}
			return b, k > 0
		}
	case "pd_op.one_hot":
		if i == 0 {
			return constantInt(op, 1)
		}
	case "pd_op.cross_entropy_with_softmax":
		if soft, _ := ir.AsBool(op.AttrOrDefault("soft_label")); i == 1 && !soft {
			return dim(0, int(intAttr("axis")))
		}
	case "pd_op.fused_embedding_eltwise_layernorm":
		// The ids come as a vector of tensors (builtin.combine), the tables as another: handled through the
		// combine by movedTo and combinedIndexSize.
	}
	return 0, false
}

// movedTo returns the values whose elements are values of op's operand i, moved or copied (reshape, cast to an
// integer type, slice, concat, …): an index bound of those is one of the operand's.
func movedTo(op *ir.Op, i int) []*ir.Value {
	name := ir.NonInplaceName(op.Name())
	switch name {
	case "pd_op.reshape", "pd_op.squeeze", "pd_op.unsqueeze", "pd_op.flatten", "pd_op.transpose", "pd_op.slice",
		"pd_op.strided_slice", "pd_op.expand", "pd_op.expand_as", "pd_op.tile", "pd_op.assign", "pd_op.share_data",
		"pd_op.split", "pd_op.split_with_num":
		if i == 0 {
			return op.Results()
		}
	case "pd_op.cast":
		if i == 0 && op.NumResults() == 1 && ir.ElemDType(op.Result(0).Type()).IsInteger() {
			return op.Results()
		}
	case "pd_op.concat":
		return op.Results()
	case builtinSplit:
		return op.Results()
	case builtinCombine:
		var out []*ir.Value
		for u := range op.Result(0).Uses() {
			user := u.Owner()
			switch ir.NonInplaceName(user.Name()) {
			case "pd_op.concat", "pd_op.split", builtinSplit:
				out = append(out, user.Results()...)
			}
		}
		return out
	}
	return nil
}

// combinedIndexBound is indexBound for a value that is element i of a combine read as the ids of
// fused_embedding_eltwise_layernorm: the rows of the table that is element i of its embs.
func combinedIndexBound(v *ir.Value) (int64, bool) {
	var bound int64
	ok := false
	for u := range v.Uses() {
		comb := u.Owner()
		if comb.Name() != builtinCombine {
			continue
		}
		for cu := range comb.Result(0).Uses() {
			f := cu.Owner()
			if f.Name() != "pd_op.fused_embedding_eltwise_layernorm" || cu.Index() != 0 || f.NumOperands() < 2 {
				continue
			}
			tables := f.Operand(1).DefiningOp()
			if tables == nil || tables.Name() != builtinCombine || u.Index() >= tables.NumOperands() {
				continue
			}
			if rows, known := staticDim(tables.Operand(u.Index()).Type(), 0); known && (!ok || rows < bound) {
				bound, ok = rows, true
			}
		}
	}
	return bound, ok
}

// staticDim returns dimension axis (negative: from the end) of a tensor type, when it is static.
func staticDim(t ir.Type, axis int) (int64, bool) {
	tt := ir.TensorOf(t)
	if tt == nil || tt.Dims == nil {
		return 0, false
	}
	if axis < 0 {
		axis += tt.Rank()
	}
	if axis < 0 || axis >= tt.Rank() || tt.Dims[axis] < 0 {
		return 0, false
	}
	return tt.Dims[axis], true
}

// constantInt returns the value of op's operand i when a pd_op.full defines it.
func constantInt(op *ir.Op, i int) (int64, bool) {
	if i >= op.NumOperands() || op.Operand(i) == nil {
		return 0, false
	}
	d := op.Operand(i).DefiningOp()
	if d == nil || d.Name() != "pd_op.full" {
		return 0, false
	}
	f, ok := ir.AsFloat(d.Attr("value"))
	if !ok {
		return 0, false
	}
	return int64(f), true
}

// valueIndexBound is the index bound of a program value: through its readers, and as the ids of a fused
// embedding.
func valueIndexBound(v *ir.Value) (int64, bool) {
	b, ok := indexBound(v)
	if cb, cok := combinedIndexBound(v); cok && (!ok || cb < b) {
		b, ok = cb, true
	}
	return b, ok
}

// boundInts restricts the distribution of an integer tensor used as an index to [0, bound): the recorded range
// intersected with it (recorded), or, when nothing was recorded or the two do not meet, all of it.
func boundInts(d distribution, bound int64, recorded bool) distribution {
	if bound <= 0 || d.kind != distInts {
		return d
	}
	lo, hi := max(d.lo, 0), min(d.hi, float64(bound-1))
	if !recorded || lo > hi {
		lo, hi = 0, float64(bound-1)
	}
	return distribution{kind: distInts, lo: lo, hi: hi}
}
