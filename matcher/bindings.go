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
}

// Hole implements rule.Env.
func (b *bindings) Hole(i int) (any, bool) {
	if i < 0 || i >= len(b.holes) || !b.holeSet[i] {
		return nil, false
	}
	return b.holes[i], true
}

// Value implements rule.Env.
func (b *bindings) Value(r rule.Ref) *ir.Value {
	if r.New || r.Index < 0 || r.Index >= len(b.vals) || b.pat.Values[r.Index].List {
		return nil
	}
	return b.vals[r.Index]
}

// List implements rule.Env.
func (b *bindings) List(r rule.Ref) []*ir.Value {
	if r.New || r.Index < 0 || r.Index >= len(b.vals) || !b.pat.Values[r.Index].List {
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
