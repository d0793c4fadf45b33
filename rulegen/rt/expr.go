package rt

import (
	"errors"

	"github.com/pirdrr/drr/drr/rule"
)

// The operators of where-constraints on evaluated operands. Each reports ok=false where rule.Eval fails (a
// constraint that fails to evaluate is false, in the automaton as in generated code); the values are rule.Eval's.

// Neg is unary minus.
func Neg(x rule.Val) (rule.Val, bool) {
	switch x := x.(type) {
	case int64:
		return -x, true
	case float64:
		return -x, true
	}
	return nil, false
}

// In is x in list.
func In(x, list rule.Val) (bool, bool) {
	l, ok := list.([]rule.Val)
	if !ok {
		return false, false
	}
	for _, el := range l {
		if rule.Equal(x, el) {
			return true, true
		}
	}
	return false, true
}

// Add is x + y: string and list concatenation, or arithmetic.
func Add(x, y rule.Val) (rule.Val, bool) {
	if xs, ok := x.(string); ok {
		if ys, ok := y.(string); ok {
			return xs + ys, true
		}
	}
	if xl, ok := x.([]rule.Val); ok {
		if yl, ok := y.([]rule.Val); ok {
			return append(append([]rule.Val{}, xl...), yl...), true
		}
	}
	return Arith("+", x, y)
}

// Arith is x op y for op in - * / % (and +, for numbers).
func Arith(op string, x, y rule.Val) (rule.Val, bool) {
	v, err := rule.Arith(op, x, y)
	return v, err == nil
}

// Index is x[i] on a list or a string, negative i counting from the end.
func Index(x, i rule.Val) (rule.Val, bool) {
	n, ok := i.(int64)
	if !ok {
		return nil, false
	}
	switch x := x.(type) {
	case []rule.Val:
		if n < 0 {
			n += int64(len(x))
		}
		if n < 0 || n >= int64(len(x)) {
			return nil, false
		}
		return x[n], true
	case string:
		if n < 0 {
			n += int64(len(x))
		}
		if n < 0 || n >= int64(len(x)) {
			return nil, false
		}
		return x[n : n+1], true
	}
	return nil, false
}

// Call calls a pure builtin (rule.PureBuiltin).
func Call(f func([]rule.Val) (rule.Val, error), args []rule.Val) (rule.Val, bool) {
	v, err := f(args)
	return v, err == nil
}

// Builtin evaluates a program builtin (immutable, aliased, is_param, …) with the matcher's oracle, as the
// automaton does: without an oracle, or for a name the oracle does not know, the constraint fails.
func (m *Matcher) Builtin(name string, args []rule.Val) (rule.Val, bool) {
	if m.Oracle == nil {
		return nil, false
	}
	v, known, err := m.Oracle.Builtin(name, args)
	return v, known && err == nil
}

// Param returns the value of a rule-set parameter: the one the matcher's oracle gives (rule.WithParams), else the
// declared default, as rule.Eval reads a rule.ParamRef.
func (m *Matcher) Param(p *rule.ParamRef) rule.Val {
	if v, ok := rule.OracleParam(m.Oracle, p.Name); ok {
		return v
	}
	return p.Default
}

// ErrNoNative is the error of binding a generated matcher whose rules call a native constraint no registry has.
var ErrNoNative = errors.New("native constraint is not registered")
