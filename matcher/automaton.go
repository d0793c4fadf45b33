package matcher

import (
	"fmt"
	"sort"
	"sync"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// Options tune Compile.
type Options struct {
	// NoTree disables the decision tree: Match then runs the full program of every rule whose root name fits the
	// op, one after the other (Paddle's and Go's rulegen's strategy). For debugging and for measuring the tree.
	NoTree bool
}

// Automaton is a compiled rule set: one decision tree per root op name, plus one for ops no rule names, each
// ending in per-rule remainders. It is immutable and safe for concurrent use.
type Automaton struct {
	set   *rule.Set
	opts  Options
	rules []*crule // in set order
	t     *tables

	// dispatch[id] is the tree for ops whose OpInfo has ID id (nil entries: anyTree); infos[id] is that OpInfo,
	// checked so that ops of another Context are never misdispatched.
	dispatch []*node
	infos    []*ir.OpInfo
	anyTree  *node
	// byName lists, per dispatched root name, the rules a NoTree automaton runs (named rules, then any-op rules,
	// merged in set order); anyRules are the any-op rules.
	byName   [][]*crule
	anyRules []*crule
	// roots lists the dispatched root names in sorted order, for Dump and Dot.
	roots []string

	nodes int
	pool  sync.Pool
}

// Compile compiles every rule of set into one automaton. It fails if a rule's pattern is malformed: indices out of
// range, holes of the wrong kind, inconsistent value definitions, or ops not connected to the root.
func Compile(set *rule.Set, opts Options) (*Automaton, error) {
	if set == nil || set.Ctx == nil {
		return nil, fmt.Errorf("matcher: a rule set needs a Context")
	}
	a := &Automaton{set: set, opts: opts, t: newTables()}
	named := map[string][]*crule{}
	for _, r := range set.Rules {
		cr, err := compileRule(r, set.Ctx, a.t)
		if err != nil {
			return nil, fmt.Errorf("rule %s: %w", r.ID(), err)
		}
		a.rules = append(a.rules, cr)
		if name := r.Pattern.Ops[r.Pattern.Root].Name; name != "" {
			if _, ok := named[name]; !ok {
				a.roots = append(a.roots, name)
			}
			named[name] = append(named[name], cr)
		} else {
			a.anyRules = append(a.anyRules, cr)
		}
	}
	sort.Strings(a.roots)
	a.anyTree = buildTree(a.anyRules)
	maxID := -1
	infos := make([]*ir.OpInfo, len(a.roots))
	for i, name := range a.roots {
		infos[i] = set.Ctx.OpInfo(name)
		maxID = max(maxID, infos[i].ID)
	}
	a.dispatch = make([]*node, maxID+1)
	a.infos = make([]*ir.OpInfo, maxID+1)
	a.byName = make([][]*crule, maxID+1)
	for i, name := range a.roots {
		rules := mergeRules(named[name], a.anyRules)
		id := infos[i].ID
		a.dispatch[id] = buildTree(rules)
		a.infos[id] = infos[i]
		a.byName[id] = rules
	}
	a.number()
	a.pool.New = func() any { return a.NewMatcher() }
	return a, nil
}

// mergeRules merges two lists of rules in set order.
func mergeRules(x, y []*crule) []*crule {
	out := make([]*crule, 0, len(x)+len(y))
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		if j == len(y) || i < len(x) && x[i].r.Index <= y[j].r.Index {
			out = append(out, x[i])
			i++
		} else {
			out = append(out, y[j])
			j++
		}
	}
	return out
}

// number gives the tree nodes ids in dump order.
func (a *Automaton) number() {
	var walk func(n *node)
	walk = func(n *node) {
		for ; n != nil; n = n.next {
			n.id = a.nodes
			a.nodes++
			for _, e := range n.kids {
				walk(e.child)
			}
		}
	}
	for _, name := range a.roots {
		walk(a.tree(name))
	}
	walk(a.anyTree)
}

// tree returns the tree for ops named name.
func (a *Automaton) tree(name string) *node {
	info := a.set.Ctx.OpInfo(name)
	if info.ID < len(a.dispatch) && a.infos[info.ID] == info {
		return a.dispatch[info.ID]
	}
	return a.anyTree
}

// Set returns the compiled rule set.
func (a *Automaton) Set() *rule.Set { return a.set }

// NumNodes returns the number of decision tree nodes (switches and success nodes, over all trees).
func (a *Automaton) NumNodes() int { return a.nodes }

// NumQuestions returns the number of distinct questions the trees ask.
func (a *Automaton) NumQuestions() int { return len(a.t.ques) }

// Matcher matches ops against an Automaton with reusable scratch state: the allocation-free way to match in a
// driver's loop. A Matcher is not safe for concurrent use; use one per goroutine.
type Matcher struct {
	a      *Automaton
	oracle rule.Oracle
	root   *ir.Op
	// Position values, valid for positions whose stamp is gen.
	gen   uint32
	stamp []uint32
	pops  []*ir.Op
	pvals []*ir.Value
	patts []ir.Attribute
	x     exec
	dst   []*rule.Match
}

// NewMatcher returns a Matcher for a.
func (a *Automaton) NewMatcher() *Matcher {
	n := len(a.t.pos)
	return &Matcher{a: a, stamp: make([]uint32, n), pops: make([]*ir.Op, n), pvals: make([]*ir.Value, n),
		patts: make([]ir.Attribute, n)}
}

// Match returns the matches at op, at most one per rule, ordered by benefit (higher first) then rule index. The
// matches are new and belong to the caller. o evaluates program builtins and native constraints (nil: they are
// unavailable and count as false).
func (a *Automaton) Match(op *ir.Op, o rule.Oracle) []*rule.Match {
	m := a.pool.Get().(*Matcher)
	out := m.MatchInto(nil, op, o)
	a.pool.Put(m)
	return out
}

// MatchInto is Match appending to dst[:0] and reusing the Match values in dst's backing array, so a driver that
// passes the previous result back does not allocate. The returned matches are valid until the next call that is
// given the same array; Clone one to keep it.
func (a *Automaton) MatchInto(dst []*rule.Match, op *ir.Op, o rule.Oracle) []*rule.Match {
	m := a.pool.Get().(*Matcher)
	out := m.MatchInto(dst, op, o)
	a.pool.Put(m)
	return out
}

// Match is Automaton.Match with m's scratch state.
func (m *Matcher) Match(op *ir.Op, o rule.Oracle) []*rule.Match { return m.MatchInto(nil, op, o) }

// MatchInto is Automaton.MatchInto with m's scratch state.
func (m *Matcher) MatchInto(dst []*rule.Match, op *ir.Op, o rule.Oracle) []*rule.Match {
	a := m.a
	m.dst = dst[:0]
	m.oracle = o
	m.x.oracle = o
	m.root = op
	info := op.Info()
	id := info.ID
	known := id < len(a.dispatch) && a.infos[id] == info
	if a.opts.NoTree {
		rules := a.anyRules
		if known {
			rules = a.byName[id]
		}
		for _, cr := range rules {
			if m.x.run(cr.full, op) {
				m.emit()
			}
		}
	} else {
		m.gen++
		if m.gen == 0 {
			clear(m.stamp)
			m.gen = 1
		}
		t := a.anyTree
		if known {
			t = a.dispatch[id]
		}
		m.walk(t)
	}
	out := m.dst
	sortMatches(out)
	m.dst = nil
	m.root = nil
	m.oracle, m.x.oracle = nil, nil
	return out
}

// emit appends the executor's match to m.dst, reusing a Match left in the backing array.
func (m *Matcher) emit() {
	n := len(m.dst)
	var mt *rule.Match
	if n < cap(m.dst) {
		mt = m.dst[:n+1][n]
	}
	if mt == nil {
		mt = &rule.Match{}
	}
	m.x.fill(mt)
	m.dst = append(m.dst, mt)
}

// sortMatches orders matches by benefit (descending) then rule index (ascending); there are few, so insertion sort.
func sortMatches(ms []*rule.Match) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && matchLess(ms[j], ms[j-1]); j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

func matchLess(a, b *rule.Match) bool {
	if a.Rule.Benefit != b.Rule.Benefit {
		return a.Rule.Benefit > b.Rule.Benefit
	}
	return a.Rule.Index < b.Rule.Index
}

// walk evaluates a tree (a node and its next siblings).
func (m *Matcher) walk(n *node) {
	for ; n != nil; n = n.next {
		if n.q == nil {
			if m.x.run(n.leaf, m.root) {
				m.emit()
			}
			continue
		}
		if c := n.child(m.ask(n.q)); c != nil {
			m.walk(c)
		}
	}
}

// opAt returns the op at an op position (nil if there is none).
func (m *Matcher) opAt(p *position) *ir.Op {
	if p.kind == posRoot {
		return m.root
	}
	if m.stamp[p.id] == m.gen {
		return m.pops[p.id]
	}
	var op *ir.Op
	if v := m.valAt(p.parent); v != nil {
		op = v.DefiningOp()
	}
	m.stamp[p.id], m.pops[p.id] = m.gen, op
	return op
}

// valAt returns the value at a value position (nil if absent or out of range).
func (m *Matcher) valAt(p *position) *ir.Value {
	if m.stamp[p.id] == m.gen {
		return m.pvals[p.id]
	}
	var v *ir.Value
	if op := m.opAt(p.parent); op != nil {
		switch p.kind {
		case posOperand:
			if p.index < op.NumOperands() {
				v = op.Operand(p.index)
			}
		case posResult:
			if p.index < op.NumResults() {
				v = op.Result(p.index)
			}
		}
	}
	m.stamp[p.id], m.pvals[p.id] = m.gen, v
	return v
}

// attrAt returns the attribute (or default) at an attribute position.
func (m *Matcher) attrAt(p *position) ir.Attribute {
	if m.stamp[p.id] == m.gen {
		return m.patts[p.id]
	}
	var a ir.Attribute
	if op := m.opAt(p.parent); op != nil {
		a = op.AttrOrDefault(p.name)
	}
	m.stamp[p.id], m.patts[p.id] = m.gen, a
	return a
}

func boolAnswer(b bool) answer {
	if b {
		return answerTrue
	}
	return answer{}
}

// ask answers a question about the current op. Answers at positions that do not exist never equal an answer a
// rule expects, except where noted; a rule also expects the predicates that make its positions exist, so the
// conjunction is exact.
func (m *Matcher) ask(q *question) answer {
	switch q.kind {
	case qName:
		if op := m.opAt(q.pos); op != nil {
			return answer{ref: op.Info()}
		}
	case qResultIndex:
		if v := m.valAt(q.pos); v != nil && v.DefiningOp() != nil {
			return answer{n: int64(v.Index())}
		}
		return answer{n: -1}
	case qNumOperands:
		if op := m.opAt(q.pos); op != nil {
			return answer{n: int64(op.NumOperands())}
		}
		return answer{n: -1}
	case qNumOperandsGE:
		op := m.opAt(q.pos)
		return boolAnswer(op != nil && op.NumOperands() >= q.n)
	case qNumResults:
		if op := m.opAt(q.pos); op != nil {
			return answer{n: int64(op.NumResults())}
		}
		return answer{n: -1}
	case qNumResultsGE:
		op := m.opAt(q.pos)
		return boolAnswer(op != nil && op.NumResults() >= q.n)
	case qAttr:
		if a := m.attrAt(q.pos); a != nil {
			return answer{ref: a}
		}
	case qAttrPresent:
		op := m.opAt(q.pos)
		return boolAnswer(op != nil && op.Attr(q.name) != nil)
	case qAttrEq:
		x := m.attrAt(q.pos)
		return boolAnswer(x != nil && x == m.attrAt(q.other))
	case qIsNull:
		op := m.opAt(q.pos)
		return boolAnswer(op != nil && q.n < op.NumOperands() && op.Operand(q.n) == nil)
	case qValueEq:
		v := m.valAt(q.pos)
		return boolAnswer(v != nil && v == m.valAt(q.other))
	case qNoUses:
		v := m.valAt(q.pos)
		return boolAnswer(v != nil && !v.HasUses())
	case qExtraUnused:
		op := m.opAt(q.pos)
		if op == nil {
			return answer{}
		}
		for i := q.n; i < op.NumResults(); i++ {
			if op.Result(i).HasUses() {
				return answer{}
			}
		}
		return answerTrue
	case qType:
		if v := m.valAt(q.pos); v != nil {
			return answer{ref: v.Type()}
		}
	case qTensor:
		v := m.valAt(q.pos)
		return boolAnswer(v != nil && tensorStatic(q.tensor, v.Type()))
	case qUses:
		if v := m.valAt(q.pos); v != nil {
			return answer{n: int64(v.NumUses())}
		}
		return answer{n: -1}
	case qUsesCmp:
		v := m.valAt(q.pos)
		return boolAnswer(v != nil && q.cmp.Eval(int64(v.NumUses()), int64(q.n)))
	}
	return answer{}
}
