package verify

import (
	"sort"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// Late holes: integer-list attribute holes that the where clause ties to the sizes of values, such as a reshape's
// shape ($sh[2] * $sh[3] == dim(%wq, 1), $sh[0] in [0, dim(%x, 0)]) or a slice bound (len($hv) == 1 &&
// $hv[0] * 2 == dim(%q, 3)). No value chosen before the shapes are can satisfy them, so they get no candidates in
// the first level of the search; each is solved when the first op binding it is built, from the values built
// before it: lists of the shortest length that has solutions, whose elements come from the sizes of those values
// (and their divisors, halves and doubles), the integers the conjuncts name, and 0, -1, 1. Elements are chosen in
// order, and a conjunct is evaluated as soon as the elements it indexes are chosen, so the search is pruned
// early; conjuncts that read the whole list (len($h), $h == [...]) or an element from the end are evaluated on
// complete lists. A conjunct that cannot be evaluated yet (it reads a value not built) does not reject a list:
// the matcher decides on the built program.
//
// The op binding a late hole is usually a constant read by the op its list sizes (a reshape's shape, a slice's
// bound), whose other operands the conjuncts read. Such an op without operands is deferred: it is built by its
// first reader, after that reader's other operands are made, so that the sizes they get are there to solve from.

// maxLateSolutions bounds the lists proposed for a late hole (each is a choice of the candidate search), chosen
// among the first maxLateFound found: those with the most distinct elements first, so that a rewrite confusing two
// elements ([0, 0, H, D] with H = D would hide a head count read from the wrong place) shows.
const (
	maxLateSolutions = 4
	maxLateFound     = 16
)

// maxLateLength bounds the length of the lists tried for a late hole.
const maxLateLength = 6

// lateHole is a late hole's part of the where clause.
type lateHole struct {
	conj []lateConj
}

// lateConj is a conjunct reading a late hole: last is the highest constant index it reads, or -1 when it reads the
// list as a whole (or from its end).
type lateConj struct {
	expr  rule.Expr
	last  int
	whole bool
}

// intListAttr reports whether an attribute spec holds a list of integers.
func intListAttr(spec *ir.AttrSpec) bool {
	t := spec.Type
	if t.Kind == ir.KindIntArray && !t.Array {
		return true
	}
	return t.Array && (t.Kind == ir.KindInt64 || t.Kind == ir.KindInt32)
}

// whereConjuncts returns the conjuncts of the where clause (its lines split at the top-level &&).
func (in *instantiator) whereConjuncts() []rule.Expr {
	var conj []rule.Expr
	var flat func(e rule.Expr)
	flat = func(e rule.Expr) {
		if b, ok := e.(*rule.Binary); ok && b.Op == "&&" {
			flat(b.X)
			flat(b.Y)
			return
		}
		conj = append(conj, e)
	}
	for _, w := range in.r.Where {
		flat(w)
	}
	return conj
}

// findLate marks hole h late when it holds an integer list, the where clause compares it with no literal, and a
// conjunct ties it to values; it returns whether it did.
func (in *instantiator) findLate(h int, spec *ir.AttrSpec, lits []rule.Val) bool {
	if !intListAttr(spec) || len(lits) > 0 {
		return false
	}
	var lh lateHole
	tied := false
	for _, c := range in.whereConjuncts() {
		last, whole, reads := holeIndices(c, h)
		if !reads {
			continue
		}
		lh.conj = append(lh.conj, lateConj{expr: c, last: last, whole: whole})
		tied = tied || !holesOnly(c)
	}
	if !tied {
		return false
	}
	if in.late == nil {
		in.late = make([]*lateHole, len(in.pat.Holes))
	}
	in.late[h] = &lh
	return true
}

// holeIndices returns the highest constant non-negative index at which e reads hole h, whether e reads h in any
// other way (whole), and whether e reads h at all.
func holeIndices(e rule.Expr, h int) (last int, whole, reads bool) {
	last = -1
	indexed := map[*rule.HoleRef]bool{} // the reads $h[i] with a constant i ≥ 0
	rule.WalkExpr(e, func(x rule.Expr) {
		switch x := x.(type) {
		case *rule.Index:
			if hr, ok := x.X.(*rule.HoleRef); ok && hr.Hole == h {
				if v, ok := constExpr(x.Index); ok {
					if i, ok := v.(int64); ok && i >= 0 {
						last = max(last, int(i))
						indexed[hr] = true
					}
				}
			}
		case *rule.HoleRef:
			if x.Hole == h {
				reads = true
				whole = whole || !indexed[x] // WalkExpr visits an Index before its operand
			}
		}
	})
	return last, whole, reads
}

// solveLate returns up to maxLateSolutions lists for late hole h that the conjuncts reading it accept on the
// candidate built so far.
func (ib *instBuild) solveLate(h int) []ir.Attribute {
	in := ib.in
	lh := in.late[h]
	spec := in.holeSpec[h]
	domain := ib.lateDomain(lh)
	assign := ib.c.assign
	saved := assign[h]
	defer func() { assign[h] = saved }()
	env := builtEnv{ib}
	// accepts evaluates the conjuncts that can be decided on a prefix of n elements (complete: the whole list).
	accepts := func(list []rule.Val, n int, complete bool) bool {
		a, err := rule.ToAttr(in.ctx, spec.Type, list)
		if err != nil {
			return false
		}
		assign[h] = a
		for _, c := range lh.conj {
			if complete {
				if c.last >= n {
					return false // it reads an element the list does not have
				}
			} else if c.whole || c.last != n-1 {
				continue // decided later (or already, on a shorter prefix)
			}
			v, err := rule.Eval(c.expr, env)
			if b, ok := v.(bool); err == nil && ok && !b {
				return false
			}
		}
		return true
	}
	var out []ir.Attribute
	for length := 1; length <= maxLateLength && len(out) == 0; length++ {
		list := make([]rule.Val, 0, length)
		var fill func()
		fill = func() {
			if len(out) >= maxLateFound {
				return
			}
			if len(list) == length {
				if accepts(list, length, true) {
					if a, err := rule.ToAttr(in.ctx, spec.Type, list); err == nil {
						out = append(out, a)
					}
				}
				return
			}
			for _, d := range domain {
				list = append(list, d)
				if accepts(list, len(list), false) {
					fill()
				}
				list = list[:len(list)-1]
				if len(out) >= maxLateFound {
					return
				}
			}
		}
		fill()
	}
	sort.SliceStable(out, func(i, j int) bool { return distinctInts(out[i]) > distinctInts(out[j]) })
	return out[:min(len(out), maxLateSolutions)]
}

// distinctInts counts the distinct elements of an integer-list attribute.
func distinctInts(a ir.Attribute) int {
	seen := map[string]bool{}
	if l, ok := rule.AttrVal(a).([]rule.Val); ok {
		for _, x := range l {
			seen[rule.Describe(x)] = true
		}
	}
	return len(seen)
}

// lateDomain lists the element values tried for a late hole: the sizes of the values built so far, their divisors,
// halves and doubles, the integers its conjuncts name, then 0, -1 and 1.
func (ib *instBuild) lateDomain(lh *lateHole) []rule.Val {
	seen := map[int64]bool{}
	var sizes, derived, out []int64
	add := func(dst *[]int64, n int64) {
		if !seen[n] {
			seen[n] = true
			*dst = append(*dst, n)
		}
	}
	for _, v := range ib.c.vals {
		if v == nil {
			continue
		}
		if tt := ir.TensorOf(v.Type()); tt != nil {
			for _, d := range tt.Dims {
				if d > 0 {
					add(&sizes, d)
				}
			}
		}
	}
	for _, d := range sizes {
		for q := int64(2); q < d && q <= 64; q++ {
			if d%q == 0 {
				add(&derived, q)
				add(&derived, d/q)
			}
		}
		add(&derived, 2*d)
	}
	sort.Slice(derived, func(i, j int) bool { return derived[i] < derived[j] })
	var lits []int64
	for _, c := range lh.conj {
		collectInts(c.expr, func(n int64) { add(&lits, n) })
	}
	out = append(append(append(out, sizes...), derived...), lits...)
	for _, n := range []int64{0, -1, 1} {
		add(&out, n)
	}
	vals := make([]rule.Val, len(out))
	for i, n := range out {
		vals[i] = n
	}
	return vals
}

// collectInts calls f with every integer constant of e: literals and negated literals.
func collectInts(e rule.Expr, f func(int64)) {
	rule.WalkExpr(e, func(x rule.Expr) {
		switch x.(type) {
		case *rule.Lit, *rule.Unary:
			if v, ok := constExpr(x); ok {
				if n, ok := v.(int64); ok {
					f(n)
				}
			}
		}
	})
}

// bindLate solves the late holes op k binds that the candidate has not bound yet, each taking one of its lists as
// a choice of the search.
func (ib *instBuild) bindLate(pop *rule.OpPattern) error {
	in := ib.in
	if in.late == nil {
		return nil
	}
	for _, a := range pop.Attrs {
		h := a.Hole
		if a.Kind != rule.AttrBind || h < 0 || h >= len(in.late) || in.late[h] == nil || ib.c.assign[h] != nil {
			continue
		}
		sols := ib.solveLate(h)
		if len(sols) == 0 {
			return &lateError{hole: in.pat.Holes[h].Name, op: pop.Name}
		}
		ib.c.assign[h] = sols[ib.ch.choose(len(sols))]
	}
	return nil
}

// lateError says that no list satisfied the conjuncts of a late hole on a candidate.
type lateError struct{ hole, op string }

func (e *lateError) Error() string {
	return "no list for $" + e.hole + " (bound by " + e.op + ") satisfies the where clause on the values built before it"
}

// markDeferred defers the pattern ops without operands that bind a late hole and that another pattern op reads.
func (in *instantiator) markDeferred() {
	if in.late == nil {
		return
	}
	p := in.pat
	read := make([]bool, len(p.Ops))
	for _, op := range p.Ops {
		for _, o := range op.Operands {
			if (o.Kind == rule.OperandValue || o.Kind == rule.OperandList) && o.Value >= 0 && p.Values[o.Value].Def >= 0 {
				read[p.Values[o.Value].Def] = true
			}
		}
	}
	for k, op := range p.Ops {
		if len(op.Operands) > 0 || !read[k] {
			continue
		}
		for _, a := range op.Attrs {
			if a.Kind == rule.AttrBind && a.Hole >= 0 && a.Hole < len(in.late) && in.late[a.Hole] != nil {
				if in.deferred == nil {
					in.deferred = make([]bool, len(p.Ops))
				}
				in.deferred[k] = true
			}
		}
	}
}

// isDeferred reports whether pattern op k is built by its first reader.
func (in *instantiator) isDeferred(k int) bool {
	return in.deferred != nil && k >= 0 && k < len(in.deferred) && in.deferred[k]
}
