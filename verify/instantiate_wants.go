package verify

import (
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// What the where clause wants of the pattern's inputs, read before shapes are proposed: a conjunct
// dtype(%x) in [float16, bfloat16] (or == float16) gives %x's element type, dtype(%k) == dtype(%q) passes it on,
// and rank(%w) == 2 gives %w's rank. Only conjuncts (the top level of a constraint and the operands of &&) are
// read: what a disjunction wants is a choice the search does not make.

// valueWant is what the where clause wants of one value hole.
type valueWant struct {
	dtype ir.DType // ir.DTypeUndefined: no wish
	rank  int      // -1: no wish
}

// collectWants reads the wants of every value hole from the where clause.
func (in *instantiator) collectWants() {
	in.wants = make([]valueWant, len(in.pat.Values))
	for i := range in.wants {
		in.wants[i].rank = -1
	}
	var sameDType [][2]int
	var walk func(e rule.Expr)
	walk = func(e rule.Expr) {
		b, ok := e.(*rule.Binary)
		if !ok {
			return
		}
		switch b.Op {
		case "&&":
			walk(b.X)
			walk(b.Y)
		case "==":
			if v, f := valueCall(b.X); v >= 0 {
				in.want(v, f, b.Y, false)
				if w, g := valueCall(b.Y); w >= 0 && f == "dtype" && g == "dtype" {
					sameDType = append(sameDType, [2]int{v, w})
				}
			} else if v, f := valueCall(b.Y); v >= 0 {
				in.want(v, f, b.X, false)
			}
		case "in":
			if v, f := valueCall(b.X); v >= 0 {
				in.want(v, f, b.Y, true)
			}
		}
	}
	for _, w := range in.r.Where {
		walk(w)
	}
	// dtype(%k) == dtype(%q): each takes the other's wish (twice, for chains of two).
	for range 2 {
		for _, p := range sameDType {
			a, b := &in.wants[p[0]], &in.wants[p[1]]
			if a.dtype == ir.DTypeUndefined {
				a.dtype = b.dtype
			} else if b.dtype == ir.DTypeUndefined {
				b.dtype = a.dtype
			}
		}
	}
}

// valueCall returns the value hole and the builtin of a call dtype(%v) or rank(%v); -1 otherwise.
func valueCall(e rule.Expr) (int, string) {
	c, ok := e.(*rule.Call)
	if !ok || c.Native || len(c.Args) != 1 || c.Func != "dtype" && c.Func != "rank" {
		return -1, ""
	}
	vr, ok := c.Args[0].(*rule.ValueRef)
	if !ok || vr.Ref.New || vr.Ref.Index < 0 {
		return -1, ""
	}
	return vr.Ref.Index, c.Func
}

// want records the wish of value hole v that builtin f of it equals lit (or, when list, one of lit's elements:
// the first).
func (in *instantiator) want(v int, f string, lit rule.Expr, list bool) {
	if v >= len(in.wants) {
		return
	}
	var val rule.Val
	switch l := lit.(type) {
	case *rule.Lit:
		val = l.Value
		if list {
			vs, ok := val.([]rule.Val)
			if !ok || len(vs) == 0 {
				return
			}
			val = vs[0]
		}
	case *rule.List:
		if !list || len(l.Elems) == 0 {
			return
		}
		x, ok := l.Elems[0].(*rule.Lit)
		if !ok {
			return
		}
		val = x.Value
	default:
		return
	}
	w := &in.wants[v]
	switch f {
	case "dtype":
		if w.dtype != ir.DTypeUndefined {
			return
		}
		switch d := val.(type) {
		case ir.DType:
			w.dtype = d
		case string:
			if dt, ok := ir.DTypeFromDataType(d); ok {
				w.dtype = dt
			} else if dt, ok := ir.DTypeFromText(d); ok {
				w.dtype = dt
			}
		}
	case "rank":
		if n, ok := val.(int64); ok && n >= 0 && w.rank < 0 {
			w.rank = int(n)
		}
	}
}

// applyWant adjusts the plan of an input tensor to what the where clause wants of its value hole: the element
// type, and the rank (the trailing dims are kept, as matrix and broadcast shapes read them; missing leading dims
// are the batch size).
func (in *instantiator) applyWant(pl operandPlan, hole int) operandPlan {
	if hole < 0 || hole >= len(in.wants) || pl.constant() || pl.null || pl.dims == nil {
		return pl
	}
	w := in.wants[hole]
	if w.dtype != ir.DTypeUndefined {
		pl.dtype = w.dtype
	}
	if w.rank >= 0 && w.rank != len(pl.dims) {
		dims := make([]int64, w.rank)
		for i := range dims {
			dims[i] = instN
		}
		for i, k := len(dims)-1, len(pl.dims)-1; i >= 0 && k >= 0; i, k = i-1, k-1 {
			dims[i] = pl.dims[k]
		}
		pl.dims = dims
	}
	return pl
}

// dtypeHoleLits adds, per hole compared with an input's element type ($dt == dtype(%x)), the element type the
// where clause wants of that input: the candidate that makes the comparison true.
func (in *instantiator) dtypeHoleLits(lits [][]rule.Val) {
	var walk func(e rule.Expr)
	walk = func(e rule.Expr) {
		b, ok := e.(*rule.Binary)
		if !ok {
			return
		}
		switch b.Op {
		case "&&":
			walk(b.X)
			walk(b.Y)
		case "==":
			for _, p := range [][2]rule.Expr{{b.X, b.Y}, {b.Y, b.X}} {
				h, ok := p[0].(*rule.HoleRef)
				if !ok || h.Hole < 0 || h.Hole >= len(lits) {
					continue
				}
				if v, f := valueCall(p[1]); v >= 0 && v < len(in.wants) && f == "dtype" && in.wants[v].dtype != ir.DTypeUndefined {
					lits[h.Hole] = append(lits[h.Hole], in.wants[v].dtype)
				}
			}
		}
	}
	for _, w := range in.r.Where {
		walk(w)
	}
}
