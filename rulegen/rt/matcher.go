package rt

import (
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/matcher"
)

// Matcher is the state of a compiled rule pass during one run: the oracle of program builtins, the matches found
// at the current op, and scratch space. Like the automaton's matcher it allocates nothing per op once its buffers
// have grown: the matches it returns reuse the Match values of the slice the driver passes back.
type Matcher struct {
	// Oracle answers the program builtins and native constraints of where constraints; nil makes them fail, as
	// for the automaton.
	Oracle rule.Oracle

	d   *dispatch
	dst []*rule.Match
	// lists says whether a match with a list was emitted: until then no Match this Matcher filled has a list to
	// clear (the driver passes back the matches of the previous op).
	lists bool
	// pending is the Match the next Emit records, once Ops, Values or Holes gave out its slices.
	pending *rule.Match
	users   []*ir.Op
	arena   []*ir.Value
	args    []rule.Val
	// A users group's scratch (Collect): the users of its value, the elements, their per-element values
	// (element-major).
	gusers, group []*ir.Op
	gvals         []*ir.Value
}

// match is the pass's rewriter.MatchFunc: it tries every instance that may match op, best first, and returns the
// matches, at most one per instance.
func (m *Matcher) match(dst []*rule.Match, op *ir.Op) []*rule.Match {
	m.dst = dst[:0]
	m.users = m.users[:0]
	m.arena = m.arena[:0]
	cs := m.d.at(op)
	for i := range cs {
		c := &cs[i]
		if c.j >= 0 {
			if c.j >= op.NumOperands() {
				continue
			}
			if v := op.Operand(c.j); v == nil || v.DefiningOp() == nil || v.DefiningOp().Info() != c.def {
				continue
			}
		}
		c.match(m, c.in, op)
	}
	out := m.dst
	m.dst = nil
	return out
}

// Ops, Values and Holes return the binding slices of the match the next Emit records, empty with the capacity
// they had: the generated code appends the bindings to them right in the call of Emit, which records them.
func (m *Matcher) Ops() []*ir.Op { return m.next().Ops[:0] }

// Values is explained at Ops.
func (m *Matcher) Values() []*ir.Value { return m.next().Values[:0] }

// Holes is explained at Ops.
func (m *Matcher) Holes() []any { return m.next().Holes[:0] }

// next returns the match the next Emit records: a Match left in the array of the matches the driver passed back,
// or a new one.
func (m *Matcher) next() *rule.Match {
	if m.pending == nil {
		if n := len(m.dst); n < cap(m.dst) {
			m.pending = m.dst[:n+1][n]
		}
		if m.pending == nil {
			m.pending = &rule.Match{}
		}
	}
	return m.pending
}

// Emit records a match of instance in: one binding per pattern op, value hole and $hole as the automaton makes
// them (a list hole's value is nil, an unbound $hole nil), appended to Ops, Values and Holes, and lists, the lists
// bound to the list holes in value order (which Emit copies: they are scratch space). For a pattern with a users
// group it adds the elements Collect found and their per-element values (Match.Group, Match.Lists). It returns
// true.
func (m *Matcher) Emit(in *Instance, ops []*ir.Op, vals []*ir.Value, holes []any, lists ...[]*ir.Value) bool {
	mt := m.next()
	m.pending = nil
	mt.Rule, mt.Ops, mt.Values, mt.Holes, mt.Group = in.Rule, ops, vals, holes, nil
	if nv := in.values; cap(mt.Lists) < nv {
		mt.Lists = make([][]*ir.Value, nv)
	} else if mt.Lists = mt.Lists[:nv]; m.lists {
		clear(mt.Lists)
	}
	if len(lists) > 0 {
		m.lists = true
		for h, v := range in.Rule.Pattern.Values {
			if !v.List {
				continue
			}
			mt.Lists[h] = emptyList
			if l := lists[0]; len(l) > 0 {
				mt.Lists[h] = append([]*ir.Value(nil), l...)
			}
			lists = lists[1:]
		}
	}
	if g := in.Rule.Pattern.Users; g != nil {
		m.emitGroup(mt, g)
	}
	m.dst = append(m.dst, mt)
	return true
}

// Users returns the distinct users of v in program order (matcher.AppendUsers): the alternatives of a ChooseUser,
// in scratch space valid until the next op.
func (m *Matcher) Users(v *ir.Value) []*ir.Op {
	start := len(m.users)
	m.users = matcher.AppendUsers(m.users, v)
	return m.users[start:len(m.users):len(m.users)]
}

// Operands returns operands j… of op as a list binding (never nil; empty when op has no operand from j on), in
// scratch space valid until the next op.
func (m *Matcher) Operands(op *ir.Op, j int) []*ir.Value {
	n := op.NumOperands()
	if n <= j {
		return emptyList
	}
	start := len(m.arena)
	for i := j; i < n; i++ {
		m.arena = append(m.arena, op.Operand(i))
	}
	return m.arena[start:len(m.arena):len(m.arena)]
}

// emptyList is the binding of a list hole that matched no operands (the automaton's, too, is empty but not nil).
var emptyList = []*ir.Value{}

// Builtin calls a program builtin (immutable, aliased, is_param, …) with the oracle, as the automaton does: Fail
// without an oracle, for a name it does not know or an error.
func (m *Matcher) Builtin(name string, args ...rule.Val) rule.Val {
	if m.Oracle == nil || failed(args...) {
		return Fail
	}
	m.args = append(m.args[:0], args...)
	v, known, err := m.Oracle.Builtin(name, m.args)
	if !known || err != nil {
		return Fail
	}
	return v
}

// Native calls a native constraint with the oracle (Fail on an error). It gets arguments of its own, which it
// may keep.
func (m *Matcher) Native(name string, args ...rule.Val) rule.Val {
	if m.Oracle == nil || failed(args...) {
		return Fail
	}
	v, err := m.Oracle.Native(name, append([]rule.Val(nil), args...))
	if err != nil {
		return Fail
	}
	return v
}

// Pure calls the pure builtin name (rule.PureBuiltin). Builtins read their arguments and keep none of them.
func (m *Matcher) Pure(name string, args ...rule.Val) rule.Val {
	f := rule.PureBuiltin(name)
	if f == nil || failed(args...) {
		return Fail
	}
	m.args = append(m.args[:0], args...)
	v, err := f(m.args)
	if err != nil {
		return Fail
	}
	return v
}

// Param returns the value of the rule-set parameter name: the one the oracle gives (rule.WithParams), else its
// declared default def, as rule.Eval reads a rule.ParamRef.
func (m *Matcher) Param(name string, def rule.Val) rule.Val {
	if v, ok := rule.OracleParam(m.Oracle, name); ok {
		return v
	}
	return def
}
