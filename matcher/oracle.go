package matcher

import (
	"errors"
	"fmt"

	"github.com/pirdrr/drr/drr/rule"
)

// Oracle is rule.Oracle: what a rule's where-constraints need beyond the match itself, the program builtins and
// native constraints. The rewrite driver supplies one over the program's analyses and the registered plugins
// (rewriter.NewOracle).
//
// Deprecated: use rule.Oracle; this name stays for the code written against it.
type Oracle = rule.Oracle

// ErrUnavailable is the error of program builtins and native constraints evaluated without an Oracle.
var ErrUnavailable = errors.New("unavailable: no oracle")

func oracleBuiltin(o rule.Oracle, name string, args []rule.Val) (rule.Val, bool, error) {
	if o == nil {
		return nil, true, ErrUnavailable
	}
	return o.Builtin(name, args)
}

func oracleNative(o rule.Oracle, name string, args []rule.Val) (rule.Val, error) {
	if o == nil {
		return nil, ErrUnavailable
	}
	return o.Native(name, args)
}

// Funcs is a rule.Oracle made of Go functions, for tests and small drivers.
type Funcs struct {
	// Builtins maps program builtin names to their implementation.
	Builtins map[string]func(args []rule.Val) (rule.Val, error)
	// Natives maps native constraint names to their implementation.
	Natives map[string]func(args []rule.Val) (rule.Val, error)
}

// Builtin implements rule.Oracle.
func (f *Funcs) Builtin(name string, args []rule.Val) (rule.Val, bool, error) {
	fn, ok := f.Builtins[name]
	if !ok {
		return nil, false, nil
	}
	v, err := fn(args)
	return v, true, err
}

// Native implements rule.Oracle.
func (f *Funcs) Native(name string, args []rule.Val) (rule.Val, error) {
	fn, ok := f.Natives[name]
	if !ok {
		return nil, fmt.Errorf("unknown native constraint %s", name)
	}
	return fn(args)
}
