package matcher

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// The reference matcher: the semantics of doc.go, one rule at a time, by plain backtracking over copied maps.
// It is written to be obviously right, not fast; the automaton must agree with it exactly.

// refMatcher caches the pre-order numbering of programs (for the order of users).
type refMatcher struct {
	order map[*ir.Op]map[*ir.Op]int // top op → op → pre-order index
}

func newRef() *refMatcher { return &refMatcher{order: map[*ir.Op]map[*ir.Op]int{}} }

// match returns the matches of every rule of set at op, ordered by benefit then index.
func (rm *refMatcher) match(set *rule.Set, op *ir.Op, o Oracle) []*rule.Match {
	var out []*rule.Match
	for _, r := range set.Rules {
		if m := rm.matchRule(r, op, o); m != nil {
			out = append(out, m)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Rule.Benefit != out[j].Rule.Benefit {
			return out[i].Rule.Benefit > out[j].Rule.Benefit
		}
		return out[i].Rule.Index < out[j].Rule.Index
	})
	return out
}

// index returns op's position in a pre-order walk of its whole program.
func (rm *refMatcher) index(op *ir.Op) int {
	top := op
	for top.ParentOp() != nil {
		top = top.ParentOp()
	}
	idx, ok := rm.order[top]
	if !ok {
		idx = map[*ir.Op]int{}
		n := 0
		var walk func(o *ir.Op)
		walk = func(o *ir.Op) {
			idx[o] = n
			n++
			for _, r := range o.Regions() {
				for _, b := range r.Blocks() {
					for x := range b.Ops() {
						walk(x)
					}
				}
			}
		}
		walk(top)
		rm.order[top] = idx
	}
	return idx[op]
}

type refState struct {
	ops   map[int]*ir.Op
	vals  map[int]*ir.Value
	lists map[int][]*ir.Value
	holes map[int]any
	alts  map[int]int // alternatives → the branch taken
}

func (s refState) clone() refState {
	return refState{ops: maps.Clone(s.ops), vals: maps.Clone(s.vals), lists: maps.Clone(s.lists),
		holes: maps.Clone(s.holes), alts: maps.Clone(s.alts)}
}

// eligible reports whether pattern op k is on the path the state's alternatives took: every branch it is in was
// taken.
func (run *refRun) eligible(s refState, k int) bool {
	for g, a := range run.p.Alts {
		for b, br := range a.Branches {
			if slices.Contains(br.Ops, k) {
				if t, ok := s.alts[g]; !ok || t != b {
					return false
				}
			}
		}
	}
	return true
}

type refRun struct {
	rm     *refMatcher
	r      *rule.Rule
	p      *rule.Pattern
	oracle Oracle
	result *rule.Match
}

func (rm *refMatcher) matchRule(r *rule.Rule, op *ir.Op, o Oracle) *rule.Match {
	run := &refRun{rm: rm, r: r, p: r.Pattern, oracle: o}
	s := refState{ops: map[int]*ir.Op{}, vals: map[int]*ir.Value{}, lists: map[int][]*ir.Value{},
		holes: map[int]any{}, alts: map[int]int{}}
	if r.Pattern.Users != nil {
		return run.users(s, op)
	}
	run.bindOp(s, r.Pattern.Root, op, run.upward)
	return run.result
}

// users matches a users group by its definition: the elements are op and every later user of the group's value
// in op's block that matches the element op with the $holes op bound and passes the per-element constraints, in
// program order, at most Max; none before op may, and there must be Min. The other constraints read the lists.
func (run *refRun) users(s refState, op *ir.Op) *rule.Match {
	g, p := run.p.Users, run.p
	if g.Operand >= op.NumOperands() || op.Operand(g.Operand) == nil {
		return nil
	}
	x := op.Operand(g.Operand)
	element := func(o *ir.Op, holes map[int]any) (refState, bool) {
		e := refState{ops: map[int]*ir.Op{}, vals: map[int]*ir.Value{g.Value: x}, lists: map[int][]*ir.Value{},
			holes: maps.Clone(holes), alts: map[int]int{}}
		var got refState
		ok := run.bindOp(e, g.Op, o, func(e refState) bool {
			for _, i := range g.ElemWhere {
				if v, err := rule.Eval(run.r.Where[i], &refEnv{run: run, s: e}); err != nil || v != true {
					return false
				}
			}
			got = e
			return true
		})
		return got, ok
	}
	first, ok := element(op, s.holes)
	if !ok {
		return nil
	}
	elems := []refState{first}
	var users []*ir.Op
	for _, u := range x.Users() {
		if !slices.Contains(users, u) && u.Block() == op.Block() {
			users = append(users, u)
		}
	}
	slices.SortFunc(users, func(a, b *ir.Op) int { return run.rm.index(a) - run.rm.index(b) })
	for _, u := range users {
		if u == op {
			continue
		}
		e, ok := element(u, first.holes)
		switch {
		case !ok:
		case run.rm.index(u) < run.rm.index(op):
			return nil
		case len(elems) < g.Max:
			elems = append(elems, e)
		}
	}
	if len(elems) < g.Min {
		return nil
	}
	all := refState{ops: map[int]*ir.Op{g.Op: op}, vals: map[int]*ir.Value{g.Value: x}, lists: map[int][]*ir.Value{},
		holes: first.holes, alts: map[int]int{}}
	for _, h := range g.Elems {
		for _, e := range elems {
			all.lists[h] = append(all.lists[h], e.vals[h])
		}
	}
	for i, w := range run.r.Where {
		if slices.Contains(g.ElemWhere, i) {
			continue
		}
		if v, err := rule.Eval(w, &refEnv{run: run, s: all}); err != nil || v != true {
			return nil
		}
	}
	m := rule.NewMatch(run.r)
	m.Ops[g.Op], m.Values[g.Value] = op, x
	for _, e := range elems {
		m.Group = append(m.Group, e.ops[g.Op])
	}
	for h := range p.Values {
		if h != g.Value {
			m.Lists[h] = all.lists[h]
		}
	}
	for h := range p.Holes {
		m.Holes[h] = first.holes[h]
	}
	return m
}

// bindOp binds pattern op k to o and checks it, then its operands, then calls cont.
func (run *refRun) bindOp(s refState, k int, o *ir.Op, cont func(refState) bool) bool {
	pat := run.p.Ops[k]
	for k2, other := range s.ops {
		if other == o && !(pat.Constant && run.p.Ops[k2].Constant) {
			return false // two pattern ops never bind the same op, unless both are constants (matched by value)
		}
	}
	if pat.Name != "" && pat.Name != o.Name() {
		return false
	}
	fixed := len(pat.Operands)
	hasList := fixed > 0 && pat.Operands[fixed-1].Kind == rule.OperandList
	if hasList {
		fixed--
		if o.NumOperands() < fixed {
			return false
		}
	} else if o.NumOperands() != fixed {
		return false
	}
	if pat.MoreResults {
		if o.NumResults() < len(pat.Results) {
			return false
		}
	} else if o.NumResults() != len(pat.Results) {
		return false
	}
	s = s.clone()
	s.ops[k] = o
	for _, a := range pat.Attrs {
		switch a.Kind {
		case rule.AttrBind:
			v := o.AttrOrDefault(a.Name)
			if v == nil || !run.bindHole(s, a.Hole, v) {
				return false
			}
		case rule.AttrEquals:
			if o.AttrOrDefault(a.Name) != a.Literal {
				return false
			}
		case rule.AttrPresent:
			if o.Attr(a.Name) == nil {
				return false
			}
		}
	}
	if pat.RestAttrs >= 0 {
		rest := []ir.NamedAttr{}
		for _, na := range o.Attrs() {
			listed := false
			for _, a := range pat.Attrs {
				if a.Name == na.Name {
					listed = true
				}
			}
			if !listed {
				rest = append(rest, na)
			}
		}
		if !run.bindHole(s, pat.RestAttrs, rest) {
			return false
		}
	}
	for i, res := range pat.Results {
		if res.Value < 0 {
			if o.Result(i).NumUses() != 0 {
				return false
			}
			continue
		}
		if !run.bindValue(s, res.Value, o.Result(i)) {
			return false
		}
	}
	for i := len(pat.Results); i < o.NumResults(); i++ {
		if o.Result(i).NumUses() != 0 {
			return false
		}
	}
	orders := [][]int{identity(o.NumOperands())}
	if pat.Commutative {
		swapped := identity(o.NumOperands())
		swapped[0], swapped[1] = 1, 0
		orders = append(orders, swapped)
	}
	for _, order := range orders {
		if run.operands(s, k, order, 0, cont) {
			return true
		}
	}
	return false
}

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// operands matches pattern operands j.. of op k (pattern operand j reads IR operand order[j]).
func (run *refRun) operands(s refState, k int, order []int, j int, cont func(refState) bool) bool {
	pat := run.p.Ops[k]
	if j == len(pat.Operands) {
		return cont(s)
	}
	o := s.ops[k]
	next := func(s refState) bool { return run.operands(s, k, order, j+1, cont) }
	opnd := pat.Operands[j]
	switch opnd.Kind {
	case rule.OperandAny:
		return next(s)
	case rule.OperandNull:
		if o.Operand(order[j]) != nil {
			return false
		}
		return next(s)
	case rule.OperandList:
		list := []*ir.Value{}
		for i := j; i < o.NumOperands(); i++ {
			list = append(list, o.Operand(i))
		}
		s = s.clone()
		if old, ok := s.lists[opnd.Value]; ok {
			if !slices.Equal(old, list) {
				return false
			}
			return next(s)
		}
		s.lists[opnd.Value] = list
		if t := run.p.Values[opnd.Value].Type; t != nil {
			for _, v := range list {
				if v == nil || !run.typeOK(s, t, v.Type()) {
					return false
				}
			}
		}
		return next(s)
	case rule.OperandAlt:
		// Alternatives: the operand's value, then each branch in order, as the value it names or the op that
		// defines it.
		v := o.Operand(order[j])
		if v == nil {
			return false
		}
		s = s.clone()
		if !run.bindValue(s, opnd.Value, v) {
			return false
		}
		for b, br := range run.p.Alts[opnd.Alt].Branches {
			s2 := s.clone()
			s2.alts[opnd.Alt] = b
			w := br.Value
			if old, ok := s2.vals[w]; ok {
				if old == v && next(s2) {
					return true
				}
				continue
			}
			if !run.bindValue(s2, w, v) {
				continue
			}
			hv := run.p.Values[w]
			if hv.Def < 0 {
				if next(s2) {
					return true
				}
				continue
			}
			if def := v.DefiningOp(); def != nil && v.Index() == hv.Result && run.bindOp(s2, hv.Def, def, next) {
				return true
			}
		}
		return false
	}
	v := o.Operand(order[j])
	if v == nil {
		return false
	}
	h := opnd.Value
	if old, ok := s.vals[h]; ok {
		if old != v && !(run.p.Values[h].Def >= 0 && run.p.Ops[run.p.Values[h].Def].Constant && refEqualConst(old, v)) {
			return false
		}
		return next(s)
	}
	s = s.clone()
	if !run.bindValue(s, h, v) {
		return false
	}
	hv := run.p.Values[h]
	if hv.Def < 0 {
		return next(s)
	}
	def := v.DefiningOp()
	if def == nil || v.Index() != hv.Result {
		return false
	}
	return run.bindOp(s, hv.Def, def, next)
}

// bindValue binds value hole h to v (s must be a private copy), checking its type pattern.
func (run *refRun) bindValue(s refState, h int, v *ir.Value) bool {
	if old, ok := s.vals[h]; ok {
		return old == v
	}
	s.vals[h] = v
	if t := run.p.Values[h].Type; t != nil {
		return run.typeOK(s, t, v.Type())
	}
	return true
}

func (run *refRun) bindHole(s refState, h int, v any) bool {
	old, ok := s.holes[h]
	if !ok {
		s.holes[h] = v
		return true
	}
	if l, isList := old.([]ir.NamedAttr); isList {
		l2, isList2 := v.([]ir.NamedAttr)
		return isList2 && slices.Equal(l, l2)
	}
	return old == v
}

func (run *refRun) typeOK(s refState, tp *rule.TypePattern, t ir.Type) bool {
	if tp.Exact != nil {
		return t == tp.Exact
	}
	if tp.Tensor != nil {
		tt, ok := t.(*ir.TensorType)
		if !ok {
			return false
		}
		if len(tp.Tensor.Spellings) > 0 && !slices.Contains(tp.Tensor.Spellings, tt.Spelling) {
			return false
		}
		pats := tp.Tensor.Dims
		rest := -1
		for i, d := range pats {
			if d.Kind == rule.DimRest {
				rest = i
			}
		}
		// Pair every pattern dimension (except *) with the tensor dimension it stands for.
		var pairs [][2]int // pattern index, tensor index
		if rest < 0 {
			if len(tt.Dims) != len(pats) {
				return false
			}
			for i := range pats {
				pairs = append(pairs, [2]int{i, i})
			}
		} else {
			after := len(pats) - rest - 1
			if len(tt.Dims) < rest+after {
				return false
			}
			for i := 0; i < rest; i++ {
				pairs = append(pairs, [2]int{i, i})
			}
			for i := 0; i < after; i++ {
				pairs = append(pairs, [2]int{rest + 1 + i, len(tt.Dims) - after + i})
			}
		}
		for _, pr := range pairs {
			d, got := pats[pr[0]], tt.Dims[pr[1]]
			switch d.Kind {
			case rule.DimExact:
				if got != d.Value {
					return false
				}
			case rule.DimHole:
				if !run.bindHole(s, d.Hole, got) {
					return false
				}
			}
		}
		switch {
		case tp.Tensor.AnyDType:
		case tp.Tensor.DTypeHole >= 0:
			return run.bindHole(s, tp.Tensor.DTypeHole, tt.DType())
		default:
			return tt.DType() == tp.Tensor.DType
		}
		return true
	}
	if tp.Hole >= 0 {
		return run.bindHole(s, tp.Hole, t)
	}
	return true
}

// upward binds the lowest-numbered unbound op that has an operand whose value is bound (preferring values that no
// constant op pattern defines), trying the users of that value in program order; with every op bound it finishes.
func (run *refRun) upward(s refState) bool {
	k, v := run.pivot(s)
	if k < 0 {
		for k := range run.p.Ops {
			if _, bound := s.ops[k]; !bound && run.eligible(s, k) {
				return false
			}
		}
		return run.finish(s)
	}
	var users []*ir.Op
	for u := range v.Uses() {
		if !slices.Contains(users, u.Owner()) {
			users = append(users, u.Owner())
		}
	}
	sort.Slice(users, func(i, j int) bool { return run.rm.index(users[i]) < run.rm.index(users[j]) })
	for _, u := range users {
		if run.bindOp(s, k, u, run.upward) {
			return true
		}
	}
	return false
}

// pivot returns the op upward binds next and the bound value whose users it tries, or k = -1.
func (run *refRun) pivot(s refState) (int, *ir.Value) {
	for _, consts := range []bool{false, true} {
		for k, pat := range run.p.Ops {
			if _, bound := s.ops[k]; bound || !run.eligible(s, k) {
				continue
			}
			for _, opnd := range pat.Operands {
				if opnd.Kind != rule.OperandValue {
					continue
				}
				if d := run.p.Values[opnd.Value].Def; (d >= 0 && run.p.Ops[d].Constant) != consts {
					continue
				}
				if v, ok := s.vals[opnd.Value]; ok {
					return k, v
				}
			}
		}
	}
	return -1, nil
}

// refEqualConst is the reference's reading of by-value constants: distinct registered ConstantLike ops without
// operands or regions, printed alike (name, sorted attributes, result types), whose results no op's schema says
// it writes in place (through views, too).
func refEqualConst(v, w *ir.Value) bool {
	key := func(v *ir.Value) (string, bool) {
		d := v.DefiningOp()
		if d == nil || d.Schema() == nil || !d.Has(ir.ConstantLike) || d.NumOperands() > 0 || d.NumRegions() > 0 {
			return "", false
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s#%d", d.Name(), v.Index())
		for _, a := range d.SortedAttrs() {
			fmt.Fprintf(&b, "|%s=%s", a.Name, a.Value)
		}
		for i := 0; i < d.NumResults(); i++ {
			fmt.Fprintf(&b, "|%s", d.Result(i).Type())
		}
		return b.String(), !refWritten(v)
	}
	kv, okv := key(v)
	kw, okw := key(w)
	return okv && okw && kv == kw
}

func refWritten(v *ir.Value) bool {
	for u := range v.Uses() {
		s := u.Owner().Schema()
		if s == nil {
			return true
		}
		for _, p := range s.Inplace {
			if p.Operand == u.Index() {
				return true
			}
		}
		for _, p := range s.View {
			if p.Operand == u.Index() && refWritten(u.Owner().Result(p.Result)) {
				return true
			}
		}
	}
	return false
}

// finish checks closure and the where constraints; on success it records the match.
func (run *refRun) finish(s refState) bool {
	p := run.p
	for h, hv := range p.Values {
		if hv.Def < 0 || hv.Shared || hv.List || p.Ops[hv.Def].Constant || s.vals[h] == nil {
			continue // an input, a value the rule lets others read, or one of an alternative not taken
		}
		usedInside := false
		for _, op := range p.Ops {
			for _, o := range op.Operands {
				if o.Kind == rule.OperandValue && o.Value == h {
					usedInside = true
				}
			}
		}
		for _, a := range p.Alts {
			for _, br := range a.Branches {
				usedInside = usedInside || br.Value == h // read by the alternatives' operand
			}
		}
		if !usedInside {
			continue
		}
		for u := range s.vals[h].Uses() {
			inMatch := false
			for _, op := range s.ops {
				if op == u.Owner() {
					inMatch = true
				}
			}
			if !inMatch {
				return false
			}
		}
	}
	env := &refEnv{run: run, s: s}
	for _, w := range run.r.Where {
		v, err := rule.Eval(w, env)
		if err != nil || v != true {
			return false
		}
	}
	m := rule.NewMatch(run.r)
	for k := range p.Ops {
		m.Ops[k] = s.ops[k]
	}
	for h, hv := range p.Values {
		if hv.List {
			m.Lists[h] = s.lists[h]
		} else {
			m.Values[h] = s.vals[h]
		}
	}
	for h := range p.Holes {
		m.Holes[h] = s.holes[h]
	}
	run.result = m
	return true
}

type refEnv struct {
	run *refRun
	s   refState
}

func (e *refEnv) Hole(i int) (any, bool) { v, ok := e.s.holes[i]; return v, ok }

func (e *refEnv) Value(r rule.Ref) *ir.Value {
	if r.New {
		return nil
	}
	return e.s.vals[r.Index]
}

func (e *refEnv) List(r rule.Ref) []*ir.Value {
	if r.New {
		return nil
	}
	return e.s.lists[r.Index]
}

func (e *refEnv) Builtin(name string, args []rule.Val) (rule.Val, bool, error) {
	if e.run.oracle == nil {
		return nil, true, ErrUnavailable
	}
	return e.run.oracle.Builtin(name, args)
}

func (e *refEnv) Native(name string, args []rule.Val) (rule.Val, error) {
	if e.run.oracle == nil {
		return nil, ErrUnavailable
	}
	return e.run.oracle.Native(name, args)
}
