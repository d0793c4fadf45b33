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

	d     *dispatch
	dst   []*rule.Match
	users []*ir.Op
	arena []*ir.Value
	args  []rule.Val
}

// match is the pass's rewriter.MatchFunc: it tries every instance that may match op, best first, and returns the
// matches, at most one per instance.
func (m *Matcher) match(dst []*rule.Match, op *ir.Op) []*rule.Match {
	m.dst = dst[:0]
	m.users = m.users[:0]
	m.arena = m.arena[:0]
	for _, c := range m.d.at(op) {
		c.match(m, c.in, op)
	}
	out := m.dst
	m.dst = nil
	return out
}

// Emit records a match of instance in, with one entry per pattern op, value hole and $hole as the automaton fills
// them (a list hole has its value nil and its list set; an unbound $hole is nil), and returns true. The slices may
// be scratch space: Emit copies them.
func (m *Matcher) Emit(in *Instance, ops []*ir.Op, vals []*ir.Value, lists [][]*ir.Value, holes []any) bool {
	n := len(m.dst)
	var mt *rule.Match
	if n < cap(m.dst) {
		mt = m.dst[:n+1][n]
	}
	if mt == nil {
		mt = &rule.Match{}
	}
	mt.Rule = in.Rule
	mt.Ops = append(mt.Ops[:0], ops...)
	mt.Values = append(mt.Values[:0], vals...)
	mt.Lists = mt.Lists[:0]
	for i := range vals {
		var l []*ir.Value
		if i < len(lists) && lists[i] != nil {
			l = emptyList
			if len(lists[i]) > 0 {
				l = append([]*ir.Value(nil), lists[i]...)
			}
		}
		mt.Lists = append(mt.Lists, l)
	}
	mt.Holes = append(mt.Holes[:0], holes...)
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
