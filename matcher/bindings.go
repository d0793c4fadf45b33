package matcher

import (
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// bindings are what a match of a pattern has bound so far: its ops (and the operand order chosen for each), values,
// lists and $holes. With the oracle of the run they are the rule.Env of where constraints, for the executor and
// for Explain alike.
type bindings struct {
	pat     *rule.Pattern
	ops     []*ir.Op
	swap    []bool
	vals    []*ir.Value
	lists   [][]*ir.Value
	holes   []any
	holeSet []bool
	oracle  rule.Oracle
	// elem marks the value holes bound per element of a users group (nil without one); inElem says an element's
	// code is running: its per-element holes are then single values (vals), else the lists of all elements.
	elem   []bool
	inElem bool
}

// elemMask returns the per-element value holes of p's users group, or nil.
func elemMask(p *rule.Pattern) []bool {
	if p.Users == nil {
		return nil
	}
	m := make([]bool, len(p.Values))
	for _, h := range p.Users.Elems {
		m[h] = true
	}
	return m
}

// isElemList reports whether value hole h is per element and read as a list (outside an element's code).
func (b *bindings) isElemList(h int) bool { return b.elem != nil && b.elem[h] && !b.inElem }

// Hole implements rule.Env.
func (b *bindings) Hole(i int) (any, bool) {
	if i < 0 || i >= len(b.holes) || !b.holeSet[i] {
		return nil, false
	}
	return b.holes[i], true
}

// Value implements rule.Env.
func (b *bindings) Value(r rule.Ref) *ir.Value {
	if r.New || r.Index < 0 || r.Index >= len(b.vals) || b.pat.Values[r.Index].List || b.isElemList(r.Index) {
		return nil
	}
	return b.vals[r.Index]
}

// List implements rule.Env.
func (b *bindings) List(r rule.Ref) []*ir.Value {
	if r.New || r.Index < 0 || r.Index >= len(b.vals) || !b.pat.Values[r.Index].List && !b.isElemList(r.Index) {
		return nil
	}
	return b.lists[r.Index]
}

// Builtin implements rule.Env.
func (b *bindings) Builtin(name string, args []rule.Val) (rule.Val, bool, error) {
	return oracleBuiltin(b.oracle, name, args)
}

// Native implements rule.Env.
func (b *bindings) Native(name string, args []rule.Val) (rule.Val, error) {
	return oracleNative(b.oracle, name, args)
}

// Param implements rule.ParamSource: the rule-set parameters the oracle gives (rule.WithParams).
func (b *bindings) Param(name string) (rule.Val, bool) { return rule.OracleParam(b.oracle, name) }
