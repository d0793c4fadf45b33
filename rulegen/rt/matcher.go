package rt

import (
	"slices"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/matcher"
	"github.com/pirdrr/drr/rewriter"
)

// Matcher is the scratch state of a generated matcher during one pass run; the generated matcher type embeds it.
// Like the automaton's matcher it allocates nothing per op once its buffers have grown: the matches it returns
// reuse the Match values of the slice the driver passes back.
type Matcher struct {
	// Oracle answers the program builtins of where-constraints (immutable, aliased, …); nil makes them false, as
	// for the automaton.
	Oracle rewriter.Oracle

	dst   []*rule.Match
	users []*ir.Op
	arena []*ir.Value
	args  []rule.Val
}

// Begin starts matching at one op: matches are appended to dst[:0], reusing the Match values in its array.
func (m *Matcher) Begin(dst []*rule.Match) {
	m.dst = dst[:0]
	m.users = m.users[:0]
	m.arena = m.arena[:0]
}

// End returns the matches found since Begin, best first (the generated code tries the rules in benefit order).
func (m *Matcher) End() []*rule.Match {
	out := m.dst
	m.dst = nil
	return out
}

// Emit appends a match of rule r and returns it for the generated code to fill (Ops, Values, Lists, Holes, each
// with one entry per pattern op, value hole and $hole, as the automaton fills them).
func (m *Matcher) Emit(r *rule.Rule) *rule.Match {
	n := len(m.dst)
	var mt *rule.Match
	if n < cap(m.dst) {
		mt = m.dst[:n+1][n]
	}
	if mt == nil {
		mt = &rule.Match{}
	}
	mt.Rule = r
	m.dst = append(m.dst, mt)
	return mt
}

// Users appends the distinct users of v, in program order (matcher.AppendUsers), to the matcher's user stack and
// returns where they are: m.User(i) for start <= i < end. PopUsers(start) drops them once they are all tried.
func (m *Matcher) Users(v *ir.Value) (start, end int) {
	start = len(m.users)
	m.users = matcher.AppendUsers(m.users, v)
	return start, len(m.users)
}

// User returns user i of the user stack.
func (m *Matcher) User(i int) *ir.Op { return m.users[i] }

// PopUsers drops the users pushed from start on.
func (m *Matcher) PopUsers(start int) { m.users = m.users[:start] }

// Operands returns operands j… of op as a list binding (never nil; empty when op has no operand from j on), in
// scratch space valid until the next Begin.
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

// Keep returns a list binding for a match: a copy of l, which may be scratch space.
func Keep(l []*ir.Value) []*ir.Value {
	if len(l) == 0 {
		return emptyList
	}
	return append([]*ir.Value(nil), l...)
}

// Args returns the arguments of a builtin call in scratch space, valid until the next call of Args. Builtins and
// oracles read their arguments and keep none of them (native constraints, which might, get a slice of their own).
func (m *Matcher) Args(args ...rule.Val) []rule.Val {
	m.args = append(m.args[:0], args...)
	return m.args
}

// SameOperands reports whether operands j… of op are exactly the values of l (a list hole bound before).
func SameOperands(op *ir.Op, j int, l []*ir.Value) bool {
	if op.NumOperands()-j != len(l) {
		return false
	}
	for i, v := range l {
		if op.Operand(j+i) != v {
			return false
		}
	}
	return true
}

// RestAttrs returns the attributes of op that names does not list, in op's order: the binding of a $attrs...
// hole.
func RestAttrs(op *ir.Op, names ...string) []ir.NamedAttr {
	out := []ir.NamedAttr{}
	for _, a := range op.Attrs() {
		if !slices.Contains(names, a.Name) {
			out = append(out, a)
		}
	}
	return out
}

// SameAttrs reports whether two $attrs... bindings are equal (the same names and attributes, in order).
func SameAttrs(a, b []ir.NamedAttr) bool { return slices.Equal(a, b) }

// ResultsUnused reports whether results from… of op have no uses (the extra results of an op matched with ...).
func ResultsUnused(op *ir.Op, from int) bool {
	for i := from; i < op.NumResults(); i++ {
		if op.Result(i).HasUses() {
			return false
		}
	}
	return true
}

// OnlyUsedBy reports whether every use of v is an operand of one of ops: the closure of a value internal to a
// pattern, whose uses must all be inside the match.
func OnlyUsedBy(v *ir.Value, ops ...*ir.Op) bool {
	for u := v.FirstUse(); u != nil; u = u.Next() {
		if !slices.Contains(ops, u.Owner()) {
			return false
		}
	}
	return true
}

// Dispatch finds the op kinds a generated matcher has functions for: Kind(op) is i+1 for an op named names[i]
// (in the matcher's Context), 0 for any other op.
type Dispatch struct {
	kinds []uint16
	infos []*ir.OpInfo
}

// NewDispatch returns the dispatch table of names in ctx.
func NewDispatch(ctx *ir.Context, names ...string) *Dispatch {
	d := &Dispatch{}
	for i, name := range names {
		info := ctx.OpInfo(name)
		for len(d.kinds) <= info.ID {
			d.kinds = append(d.kinds, 0)
			d.infos = append(d.infos, nil)
		}
		d.kinds[info.ID] = uint16(i + 1)
		d.infos[info.ID] = info
	}
	return d
}

// Kind returns the kind number of op's name (0: none of the names, or an op of another Context).
func (d *Dispatch) Kind(op *ir.Op) int {
	info := op.Info()
	if id := info.ID; id < len(d.kinds) && d.infos[id] == info {
		return int(d.kinds[id])
	}
	return 0
}

// Maybe returns v, or nil when set is false: the binding of a $hole that only the elements of a list could bind
// (a list with no element leaves it unbound).
func Maybe[T any](v T, set bool) any {
	if !set {
		return nil
	}
	return v
}

// AttrOr returns op's attribute name, or def when op does not carry it: op.AttrOrDefault with the default looked
// up once (AttrDefault) for an op whose name the generated code has checked.
func AttrOr(op *ir.Op, name string, def ir.Attribute) ir.Attribute {
	if a := op.Attr(name); a != nil {
		return a
	}
	return def
}

// AttrDefault returns the default of attribute attr in the schema of op name in ctx (nil if the op is
// unregistered or the attribute has no default).
func AttrDefault(ctx *ir.Context, name, attr string) ir.Attribute {
	s := ctx.OpInfo(name).Schema
	if s == nil {
		return nil
	}
	if spec := s.Attr(attr); spec != nil {
		return spec.Default
	}
	return nil
}
