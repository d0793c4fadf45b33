package lint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// runOverlap reports pairs of live rules of one benefit that can match the same op, where only their order in the
// set decides which fires. The pairs unified are those the pin index leaves (overlap_index.go), in the order of
// the later rule, then the earlier.
func runOverlap(pass *Pass) {
	rs := pass.facts.rules
	type pairKey struct{ a, b string }
	reported := map[pairKey]bool{}
	for _, pr := range pass.facts.overlapCandidates() {
		a, b := rs[pr[0]], rs[pr[1]]
		ra, rb := a.r.Pattern.Ops[a.r.Pattern.Root], b.r.Pattern.Ops[b.r.Pattern.Root]
		k := pairKey{a.r.Name, b.r.Name}
		if reported[k] {
			continue
		}
		u := &unifier{lf: pass.facts, a: a, b: b}
		st := u.solve(newUState(), [][2]int{{a.r.Pattern.Root, b.r.Pattern.Root}})
		if st == nil {
			continue
		}
		reported[k] = true
		root := ra.Name
		if root == "" {
			root = rb.Name
		}
		if root == "" {
			root = "any"
		}
		who := fmt.Sprintf("rules %s and %s", a.r.ID(), b.r.ID())
		if a.r.Name == b.r.Name {
			who = fmt.Sprintf("instances %s and %s of rule %s", a.r.ID(), b.r.ID(), a.r.Name)
		}
		pass.Reportf(b.r.Pos, b.r.Name, "%s can both match the same %s op with benefit %d, e.g. %s; "+
			"the one earlier in the set (%s, %s) wins by order alone. Give one a higher benefit, or make their "+
			"patterns exclude each other", who, root, b.r.Benefit, u.render(st, a.r.Pattern.Root, 0), a.r.ID(), a.r.Pos)
	}
}

// unifier decides, conservatively, whether the patterns of two rules can match one op at their roots: it pairs
// their ops along operands (producers) from the roots, requiring equal op names, operand shapes and result counts,
// equal attribute literals, and that the literals where clauses allow for paired attributes intersect.
type unifier struct {
	lf   *lintFacts
	a, b *ruleFacts
}

type holeKey struct{ side, hole int }

type holeLit struct {
	key  holeKey
	val  rule.Val
	text string
}

type ustate struct {
	ab, ba map[int]int
	// operands records, for a paired op of rule a, the operand pairing used: (a's operand, b's operand) in the
	// order of the matched op's operands.
	operands map[int][][2]int
	parent   map[holeKey]holeKey
	lits     []holeLit
	values   [][2]int
}

func newUState() *ustate {
	return &ustate{ab: map[int]int{}, ba: map[int]int{}, operands: map[int][][2]int{}, parent: map[holeKey]holeKey{}}
}

func (s *ustate) clone() *ustate {
	c := &ustate{ab: map[int]int{}, ba: map[int]int{}, operands: map[int][][2]int{}, parent: map[holeKey]holeKey{},
		lits: append([]holeLit(nil), s.lits...), values: append([][2]int(nil), s.values...)}
	for k, v := range s.ab {
		c.ab[k] = v
	}
	for k, v := range s.ba {
		c.ba[k] = v
	}
	for k, v := range s.operands {
		c.operands[k] = v
	}
	for k, v := range s.parent {
		c.parent[k] = v
	}
	return c
}

func (s *ustate) find(k holeKey) holeKey {
	for {
		p, ok := s.parent[k]
		if !ok || p == k {
			return k
		}
		k = p
	}
}

func (s *ustate) union(x, y holeKey) {
	rx, ry := s.find(x), s.find(y)
	if rx != ry {
		s.parent[rx] = ry
	}
}

// side returns the facts of side 0 (a) or 1 (b).
func (u *unifier) side(i int) *ruleFacts {
	if i == 0 {
		return u.a
	}
	return u.b
}

// key returns the class key of hole h of a side: its where-clause class within its rule.
func (u *unifier) key(side, h int) holeKey { return holeKey{side, u.side(side).find(h)} }

// solve pairs the ops of work (a index, b index) and everything they lead to; it returns the final state, or nil
// if the patterns cannot match one op.
func (u *unifier) solve(st *ustate, work [][2]int) *ustate {
	if len(work) == 0 {
		if u.consistent(st) {
			return st
		}
		return nil
	}
	i, j := work[0][0], work[0][1]
	rest := work[1:]
	if jj, ok := st.ab[i]; ok {
		if jj != j {
			return nil
		}
		return u.solve(st, rest)
	}
	if _, ok := st.ba[j]; ok {
		return nil
	}
	pa, pb := u.a.r.Pattern.Ops[i], u.b.r.Pattern.Ops[j]
	if pa.Name != "" && pb.Name != "" && pa.Name != pb.Name {
		return nil
	}
	if !resultsCompatible(pa, pb) {
		return nil
	}
	orders := [][]int{nil}
	if (pa.Commutative || pb.Commutative) && swappable(pa.Operands) && swappable(pb.Operands) {
		orders = append(orders, []int{1, 0})
	}
	for _, perm := range orders {
		s2 := st.clone()
		s2.ab[i], s2.ba[j] = j, i
		next, ok := u.pairOp(s2, i, j, perm)
		if !ok {
			continue
		}
		if res := u.solve(s2, append(append([][2]int(nil), rest...), next...)); res != nil {
			return res
		}
	}
	return nil
}

func resultsCompatible(pa, pb *rule.OpPattern) bool {
	na, nb := len(pa.Results), len(pb.Results)
	switch {
	case !pa.MoreResults && !pb.MoreResults:
		return na == nb
	case pa.MoreResults && !pb.MoreResults:
		return nb >= na
	case !pa.MoreResults && pb.MoreResults:
		return na >= nb
	}
	return true
}

// pairOp records what pairing op i of a with op j of b implies (attributes, results, operands under the
// permutation perm of a's first two operands) and returns the producer pairs to visit.
func (u *unifier) pairOp(st *ustate, i, j int, perm []int) ([][2]int, bool) {
	A, B := u.a.r.Pattern, u.b.r.Pattern
	pa, pb := A.Ops[i], B.Ops[j]
	// Attributes.
	for _, x := range pa.Attrs {
		for _, y := range pb.Attrs {
			if x.Name != y.Name {
				continue
			}
			switch {
			case x.Kind == rule.AttrEquals && y.Kind == rule.AttrEquals:
				if x.Literal != y.Literal && !rule.Equal(rule.AttrVal(x.Literal), rule.AttrVal(y.Literal)) {
					return nil, false
				}
			case x.Kind == rule.AttrEquals && y.Kind == rule.AttrBind:
				st.lits = append(st.lits, holeLit{u.key(1, y.Hole), rule.AttrVal(x.Literal),
					fmt.Sprintf("%s: %s in %s", x.Name, rule.FormatVal(rule.AttrVal(x.Literal)), u.a.r.ID())})
			case x.Kind == rule.AttrBind && y.Kind == rule.AttrEquals:
				st.lits = append(st.lits, holeLit{u.key(0, x.Hole), rule.AttrVal(y.Literal),
					fmt.Sprintf("%s: %s in %s", y.Name, rule.FormatVal(rule.AttrVal(y.Literal)), u.b.r.ID())})
			case x.Kind == rule.AttrBind && y.Kind == rule.AttrBind:
				st.union(u.key(0, x.Hole), u.key(1, y.Hole))
			}
		}
	}
	// Results.
	for k := 0; k < len(pa.Results) && k < len(pb.Results); k++ {
		if va, vb := pa.Results[k].Value, pb.Results[k].Value; va >= 0 && vb >= 0 {
			st.values = append(st.values, [2]int{va, vb})
		}
	}
	// Operands, in the order of the matched op.
	opsA := append([]rule.OperandPattern(nil), pa.Operands...)
	if perm != nil {
		opsA[0], opsA[1] = pa.Operands[1], pa.Operands[0]
	}
	listA, listB := listIndex(opsA), listIndex(pb.Operands)
	if listA < 0 && listB < 0 && len(opsA) != len(pb.Operands) {
		return nil, false
	}
	if listA >= 0 && listB < 0 && len(pb.Operands) < listA || listB >= 0 && listA < 0 && len(opsA) < listB {
		return nil, false
	}
	var next [][2]int
	var pairs [][2]int
	for k := 0; k < len(opsA) && k < len(pb.Operands); k++ {
		x, y := opsA[k], pb.Operands[k]
		if x.Kind == rule.OperandList || y.Kind == rule.OperandList {
			break
		}
		ka := k
		if perm != nil && k < 2 {
			ka = perm[k]
		}
		pairs = append(pairs, [2]int{ka, k})
		if x.Kind == rule.OperandAny || y.Kind == rule.OperandAny {
			continue
		}
		if (x.Kind == rule.OperandNull) != (y.Kind == rule.OperandNull) {
			return nil, false
		}
		if x.Kind == rule.OperandNull {
			continue
		}
		st.values = append(st.values, [2]int{x.Value, y.Value})
		ha, hb := A.Values[x.Value], B.Values[y.Value]
		if ha.Def >= 0 && hb.Def >= 0 {
			if ha.Result != hb.Result {
				return nil, false
			}
			next = append(next, [2]int{ha.Def, hb.Def})
		}
	}
	st.operands[i] = pairs
	return next, true
}

// swappable reports whether operands 0 and 1 can trade places (both exist and neither is a list).
func swappable(ops []rule.OperandPattern) bool {
	return len(ops) >= 2 && ops[0].Kind != rule.OperandList && ops[1].Kind != rule.OperandList
}

func listIndex(ops []rule.OperandPattern) int {
	for k, o := range ops {
		if o.Kind == rule.OperandList {
			return k
		}
	}
	return -1
}

// consistent checks the literal constraints on every class of paired holes, and the types of paired values.
func (u *unifier) consistent(st *ustate) bool {
	classes := map[holeKey][]holeConstraint{}
	for side := 0; side < 2; side++ {
		rf := u.side(side)
		for _, c := range rf.cons {
			k := st.find(u.key(side, c.hole))
			c.text = fmt.Sprintf("%s in %s", c.text, rf.r.ID())
			classes[k] = append(classes[k], c)
		}
	}
	for _, l := range st.lits {
		k := st.find(l.key)
		classes[k] = append(classes[k], holeConstraint{hasAllowed: true, allowed: []rule.Val{l.val}, text: l.text})
	}
	for _, cs := range classes {
		if conflicting(cs) != nil {
			return false
		}
	}
	A, B := u.a.r.Pattern, u.b.r.Pattern
	for _, p := range st.values {
		if !typesCompatible(A.Values[p[0]].Type, B.Values[p[1]].Type) {
			return false
		}
	}
	return true
}

// typesCompatible reports whether some type can satisfy both type patterns (decided on spellings and fixed element
// types only).
func typesCompatible(x, y *rule.TypePattern) bool {
	if x == nil || y == nil {
		return true
	}
	if x.Exact != nil && y.Exact != nil {
		return x.Exact == y.Exact
	}
	if x.Exact != nil {
		x, y = y, x
	}
	if y.Exact != nil {
		if x.Tensor == nil {
			return true
		}
		t := ir.TensorOf(y.Exact)
		if t == nil {
			return false
		}
		if len(x.Tensor.Spellings) > 0 && !containsString(x.Tensor.Spellings, t.Spelling) {
			return false
		}
		if fixedDType(x.Tensor) && ir.ElemDType(y.Exact) != x.Tensor.DType {
			return false
		}
		return true
	}
	if x.Tensor == nil || y.Tensor == nil {
		return true
	}
	if len(x.Tensor.Spellings) > 0 && len(y.Tensor.Spellings) > 0 {
		common := false
		for _, s := range x.Tensor.Spellings {
			common = common || containsString(y.Tensor.Spellings, s)
		}
		if !common {
			return false
		}
	}
	if fixedDType(x.Tensor) && fixedDType(y.Tensor) && x.Tensor.DType != y.Tensor.DType {
		return false
	}
	return true
}

func fixedDType(t *rule.TensorPattern) bool { return !t.AnyDType && t.DTypeHole < 0 }

func containsString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// render writes the shape both patterns match, from op i of rule a: pd_op.relu(pd_op.add(pd_op.conv2d(…), _)).
func (u *unifier) render(st *ustate, i, depth int) string {
	A, B := u.a.r.Pattern, u.b.r.Pattern
	name := A.Ops[i].Name
	j, paired := st.ab[i]
	if name == "" && paired {
		name = B.Ops[j].Name
	}
	if name == "" {
		name = "(any op)"
	}
	if depth >= 3 {
		return name + "(…)"
	}
	pairs := append([][2]int(nil), st.operands[i]...)
	if !A.Ops[i].Commutative {
		// The matched op's operands are in a's order (b's pattern is the one that swapped them).
		sort.Slice(pairs, func(x, y int) bool { return pairs[x][0] < pairs[y][0] })
	}
	var args []string
	for _, p := range pairs {
		arg := "_"
		x := A.Ops[i].Operands[p[0]]
		if x.Kind == rule.OperandValue {
			if h := A.Values[x.Value]; h.Def >= 0 {
				if _, ok := st.ab[h.Def]; ok {
					arg = u.render(st, h.Def, depth+1)
				} else if n := A.Ops[h.Def].Name; n != "" {
					arg = n + "(…)"
				}
			}
		}
		if arg == "_" && paired {
			y := B.Ops[j].Operands[p[1]]
			if y.Kind == rule.OperandValue {
				if h := B.Values[y.Value]; h.Def >= 0 && B.Ops[h.Def].Name != "" {
					arg = B.Ops[h.Def].Name + "(…)"
				}
			}
		}
		args = append(args, arg)
	}
	if len(st.operands[i]) < len(A.Ops[i].Operands) {
		args = append(args, "…")
	}
	return name + "(" + strings.Join(args, ", ") + ")"
}
