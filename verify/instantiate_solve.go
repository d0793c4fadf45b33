package verify

import (
	"slices"

	"github.com/pirdrr/drr/drr/rule"
)

// Sizes solved from constraints that tie an input's dimension to attribute holes: with $sv = 0.5,
// abs($sv * $sv * dim(%q, 3) - 1.0) < 0.00001 wants dim(%q, 3) = 4. For each conjunct of the where clause that
// reads dim(%v, i) (a constant i) and otherwise only holes and literals, the sizes of dimSizes are tried in turn
// with the hole assignment of the candidate; the first that makes the conjunct true is %v's dimension i.
// Conjuncts dim(%a, i) == dim(%b, j) make those dimensions one: what is solved for one is solved for all of them
// (dim(%q, 3) % 2 == 0 and dim(%cos, 3) == dim(%q, 3) give %cos, built first, an even last dimension).

// dimSizes are the sizes tried for a dimension a constraint ties to holes.
// Larger sizes first: a dimension that must be even is 4, not 2, so that halves and pairs of it differ.
var dimSizes = []int64{instCout, instH, instW, instC, instN, 1, 8, 16, 32, 64}

// dimSolve is a conjunct reading dimension axis of one value and holes: expr reads dim(%src, srcAxis), which
// dim(%v, axis) equals.
type dimSolve struct {
	axis    int64
	src     int
	srcAxis int64
	expr    rule.Expr
	// others are the further axes of %src that expr reads (a conjunct over several dimensions of one value,
	// dim(%s, 2) % (dim(%s, 3) <= 128 ? 8 : 4) == 0): they take the sizes already chosen when axis is solved.
	others []int64
}

// collectSolves finds, per value hole, the conjuncts that tie one of its dimensions to holes.
func (in *instantiator) collectSolves() {
	in.solves = make([][]dimSolve, len(in.pat.Values))
	conj := in.whereConjuncts()
	var own []dimSolve
	for _, c := range conj {
		v, axis, ok := soleDim(c)
		if !ok {
			// A conjunct over several dimensions of one value: each of them is solved with the others as chosen.
			if v, axes, ok := oneValueDims(c); ok && v < len(in.solves) && len(axes) > 1 {
				for i, a := range axes {
					others := append(append([]int64(nil), axes[:i]...), axes[i+1:]...)
					own = append(own, dimSolve{axis: a, src: v, srcAxis: a, expr: c, others: others})
				}
			}
			continue
		}
		if v < 0 || v >= len(in.solves) {
			continue
		}
		// Holes only once the dimension is a literal; a conjunct of holes only is not about the value.
		if probe := substDim(c, v, axis, 1); holesOnly(probe) {
			own = append(own, dimSolve{axis: axis, src: v, srcAxis: axis, expr: c})
		}
	}
	// Dimensions made equal by dim(%a, i) == dim(%b, j), as classes of (value, axis).
	type dimKey struct {
		v    int
		axis int64
	}
	parent := map[dimKey]dimKey{}
	var find func(k dimKey) dimKey
	find = func(k dimKey) dimKey {
		p, ok := parent[k]
		if !ok || p == k {
			return k
		}
		r := find(p)
		parent[k] = r
		return r
	}
	for _, c := range conj {
		b, ok := c.(*rule.Binary)
		if !ok || b.Op != "==" {
			continue
		}
		va, ia, oka := constDim(b.X)
		vb, ib, okb := constDim(b.Y)
		if oka && okb && va < len(in.solves) && vb < len(in.solves) {
			a, b := dimKey{va, ia}, dimKey{vb, ib}
			for _, k := range []dimKey{a, b} {
				if _, ok := parent[k]; !ok {
					parent[k] = k
				}
			}
			parent[find(a)] = find(b)
		}
	}
	members := map[dimKey][]dimKey{}
	for k := range parent {
		r := find(k)
		members[r] = append(members[r], k)
	}
	for _, s := range own {
		in.solves[s.src] = append(in.solves[s.src], s)
		k := dimKey{s.src, s.srcAxis}
		if _, ok := parent[k]; !ok || len(s.others) > 0 {
			continue // a conjunct over several dimensions reads its own value's: not carried to equal ones
		}
		for _, m := range members[find(k)] {
			if m != k {
				in.solves[m.v] = append(in.solves[m.v], dimSolve{axis: m.axis, src: s.src, srcAxis: s.srcAxis, expr: s.expr})
			}
		}
	}
}

// constDim returns the value hole and axis of a call dim(%v, i) with a constant non-negative i.
func constDim(e rule.Expr) (int, int64, bool) {
	c, ok := e.(*rule.Call)
	if !ok || facetOf(c) != rule.FacetDim || len(c.Args) != 2 {
		return 0, 0, false
	}
	vr, ok := c.Args[0].(*rule.ValueRef)
	if !ok || vr.Ref.New || vr.Ref.Index < 0 {
		return 0, 0, false
	}
	a, ok := constExpr(c.Args[1])
	i, isInt := a.(int64)
	if !ok || !isInt || i < 0 {
		return 0, 0, false
	}
	return vr.Ref.Index, i, true
}

// oneValueDims returns the value and the distinct non-negative constant axes of the dim(%v, i) calls of e when
// they all read one value, in the order they appear.
func oneValueDims(e rule.Expr) (int, []int64, bool) {
	v, ok := -1, true
	var axes []int64
	var walk func(e rule.Expr)
	walk = func(e rule.Expr) {
		if c, isCall := e.(*rule.Call); isCall && facetOf(c) == rule.FacetDim {
			w, axis, isDim := constDim(c)
			if !isDim || v >= 0 && w != v {
				ok = false
				return
			}
			v = w
			if !slices.Contains(axes, axis) {
				axes = append(axes, axis)
			}
			return
		}
		for _, x := range rule.Operands(e) {
			walk(x)
		}
	}
	walk(e)
	return v, axes, ok && v >= 0
}

// soleDim returns the value and axis of the dim(%v, i) calls of e when they all name the same ones.
func soleDim(e rule.Expr) (int, int64, bool) {
	v, axis, n := -1, int64(0), 0
	same := true
	var walk func(e rule.Expr)
	walk = func(e rule.Expr) {
		switch e := e.(type) {
		case *rule.Call:
			if facetOf(e) == rule.FacetDim && len(e.Args) == 2 {
				vr, ok := e.Args[0].(*rule.ValueRef)
				a, isConst := constExpr(e.Args[1])
				i, isInt := a.(int64)
				if ok && !vr.Ref.New && isConst && isInt {
					if n > 0 && (vr.Ref.Index != v || i != axis) {
						same = false
					}
					v, axis = vr.Ref.Index, i
					n++
					return
				}
			}
			for _, a := range e.Args {
				walk(a)
			}
		case *rule.Unary:
			walk(e.X)
		case *rule.Binary:
			walk(e.X)
			walk(e.Y)
		case *rule.Cond:
			walk(e.Cond)
			walk(e.Then)
			walk(e.Else)
		case *rule.List:
			for _, x := range e.Elems {
				walk(x)
			}
		case *rule.Index:
			walk(e.X)
			walk(e.Index)
		}
	}
	walk(e)
	return v, axis, n > 0 && same
}

// substDim returns e with every dim(%v, axis) replaced by the literal n (e itself is not changed).
func substDim(e rule.Expr, v int, axis, n int64) rule.Expr {
	sub := func(x rule.Expr) rule.Expr { return substDim(x, v, axis, n) }
	switch e := e.(type) {
	case *rule.Call:
		if facetOf(e) == rule.FacetDim && len(e.Args) == 2 {
			if vr, ok := e.Args[0].(*rule.ValueRef); ok && !vr.Ref.New && vr.Ref.Index == v {
				if a, ok := constExpr(e.Args[1]); ok && a == any(axis) {
					return &rule.Lit{Value: n, Pos: e.Pos}
				}
			}
		}
		c := *e
		c.Args = make([]rule.Expr, len(e.Args))
		for i, a := range e.Args {
			c.Args[i] = sub(a)
		}
		return &c
	case *rule.Unary:
		return &rule.Unary{Op: e.Op, X: sub(e.X), Pos: e.Pos}
	case *rule.Binary:
		return &rule.Binary{Op: e.Op, X: sub(e.X), Y: sub(e.Y), Pos: e.Pos}
	case *rule.Cond:
		return &rule.Cond{Cond: sub(e.Cond), Then: sub(e.Then), Else: sub(e.Else), Pos: e.Pos}
	case *rule.List:
		l := &rule.List{Elems: make([]rule.Expr, len(e.Elems)), Pos: e.Pos}
		for i, x := range e.Elems {
			l.Elems[i] = sub(x)
		}
		return l
	case *rule.Index:
		return &rule.Index{X: sub(e.X), Index: sub(e.Index), Pos: e.Pos}
	}
	return e
}

// solveDims sets the dimensions of dims that the conjuncts of value hole v tie to the holes of assign.
func (in *instantiator) solveDims(dims []int64, v int, env holeEnv) []int64 {
	if v < 0 || v >= len(in.solves) {
		return dims
	}
	for _, s := range in.solves[v] {
		axis := s.axis
		if axis < 0 {
			axis += int64(len(dims))
		}
		if axis < 0 || axis >= int64(len(dims)) {
			continue
		}
		e := s.expr
		for _, a := range s.others {
			if a >= int64(len(dims)) {
				e = nil
				break
			}
			e = substDim(e, s.src, a, dims[a])
		}
		if e == nil {
			continue
		}
		for _, n := range append([]int64{dims[axis]}, dimSizes...) { // the proposed size when it does
			got, err := rule.Eval(substDim(e, s.src, s.srcAxis, n), env)
			if b, ok := got.(bool); err == nil && ok && b {
				dims = append([]int64(nil), dims...)
				dims[axis] = n
				break
			}
		}
	}
	return dims
}
