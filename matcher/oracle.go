package matcher

import (
	"errors"
	"fmt"

	"github.com/pirdrr/drr/drr/rule"
)

// Oracle evaluates what a rule's where-constraints need beyond the match itself: the program builtins of package
// rule (immutable, aliased, is_param, …: rule.Builtin.Program) and native constraints. The rewrite driver supplies
// one backed by the program's analyses and the registered plugins.
//
// Oracle functions must be pure: the automaton may evaluate a rule's constraints fewer times than the documented
// order suggests (a constraint it can decide without the oracle may reject a match first), never more.
type Oracle interface {
	// Builtin evaluates a program builtin; ok is false if the oracle does not know the name.
	Builtin(name string, args []rule.Val) (v rule.Val, ok bool, err error)
	// Native calls a native constraint.
	Native(name string, args []rule.Val) (rule.Val, error)
}

// ErrUnavailable is the error of program builtins and native constraints evaluated without an Oracle.
var ErrUnavailable = errors.New("unavailable: no oracle")

func oracleBuiltin(o Oracle, name string, args []rule.Val) (rule.Val, bool, error) {
	if o == nil {
		return nil, true, ErrUnavailable
	}
	return o.Builtin(name, args)
}

func oracleNative(o Oracle, name string, args []rule.Val) (rule.Val, error) {
	if o == nil {
		return nil, ErrUnavailable
	}
	return o.Native(name, args)
}

// Funcs is an Oracle made of Go functions, for tests and small drivers.
type Funcs struct {
	// Builtins maps program builtin names to their implementation.
	Builtins map[string]func(args []rule.Val) (rule.Val, error)
	// Natives maps native constraint names to their implementation.
	Natives map[string]func(args []rule.Val) (rule.Val, error)
}

// Builtin implements Oracle.
func (f *Funcs) Builtin(name string, args []rule.Val) (rule.Val, bool, error) {
	fn, ok := f.Builtins[name]
	if !ok {
		return nil, false, nil
	}
	v, err := fn(args)
	return v, true, err
}

// Native implements Oracle.
func (f *Funcs) Native(name string, args []rule.Val) (rule.Val, error) {
	fn, ok := f.Natives[name]
	if !ok {
		return nil, fmt.Errorf("unknown native constraint %s", name)
	}
	return fn(args)
}
