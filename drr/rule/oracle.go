package rule

import (
	"fmt"

	"github.com/pirdrr/drr/ir"
)

// Oracle is what evaluating a rule may ask beyond the match itself: the program builtins (Builtin.Program:
// immutable, aliased, is_param, …) and native constraints. It is the one interface the matcher, the rewriter and
// the verifier use; NewOracle makes one from a program's Facts (package analysis has them) and the native
// constraints a registry holds.
//
// Oracle functions must be pure: the matcher may evaluate a rule's constraints fewer times than the documented
// order suggests (a constraint it can decide without the oracle may reject a match first), never more.
type Oracle interface {
	// Builtin evaluates a program builtin; ok is false if the oracle does not know the name.
	Builtin(name string, args []Val) (v Val, ok bool, err error)
	// Native calls a native constraint.
	Native(name string, args []Val) (Val, error)
}

// Facts are the questions about a program that the program builtins ask: buffers, parameters, inputs and the
// context's op schemas. analysis.Facts answers them for an ir.Program.
type Facts interface {
	// Context is the context of the program, for op schemas.
	Context() *ir.Context
	// Immutable: v is a parameter the program never writes.
	Immutable(v *ir.Value) bool
	// Constant: v is computed from immutable parameters and constants only, by ops without side effects.
	Constant(v *ir.Value) bool
	// IsParam: v is read from a parameter.
	IsParam(v *ir.Value) bool
	// ParamName is the name of the parameter v reads, or "".
	ParamName(v *ir.Value) string
	// IsInput: v is a program input.
	IsInput(v *ir.Value) bool
	// Aliased: another value may share v's buffer, not counting what is reachable only through except.
	Aliased(v *ir.Value, except []*ir.Value) bool
	// Mutated: some op may write v's buffer.
	Mutated(v *ir.Value) bool
	// DiesAt: op is the last reader of v.
	DiesAt(v *ir.Value, op *ir.Op) bool
}

// NativeFunc calls the native constraint name, or fails when there is none of that name.
type NativeFunc func(name string, args []Val) (Val, error)

// NewOracle returns the Oracle of a program: program builtins evaluated by their Builtin.EvalProgram with f,
// native constraints called through natives (nil: none is available).
func NewOracle(f Facts, natives NativeFunc) Oracle { return &factsOracle{facts: f, natives: natives} }

type factsOracle struct {
	facts   Facts
	natives NativeFunc
}

func (o *factsOracle) Builtin(name string, args []Val) (Val, bool, error) {
	b, ok := LookupBuiltin(name)
	if !ok || b.EvalProgram == nil {
		return nil, false, nil
	}
	v, err := b.EvalProgram(o.facts, args)
	return v, true, err
}

func (o *factsOracle) Native(name string, args []Val) (Val, error) {
	if o.natives == nil {
		return nil, fmt.Errorf("native constraint %s is not available", name)
	}
	return o.natives(name, args)
}
