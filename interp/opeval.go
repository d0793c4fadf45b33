package interp

import "github.com/pirdrr/drr/ir"

// OpEvaluator evaluates the ops of one program one at a time, in float64, each on the values that earlier
// evaluations gave its operands; parameters are read from the program's weight data (ir.Variable.Data). It is for
// passes that compute with real numbers while they rewrite — constant folding (package rules' fold_constants) —
// and shares the kernels, buffer semantics and declared-type rules of Evaluate. Declared static shapes are not
// checked (a folded value takes the shape its kernel computes). It is not safe for concurrent use.
type OpEvaluator struct {
	m *machine[float64]
}

// NewOpEvaluator returns an evaluator of p's ops with no value computed yet.
func NewOpEvaluator(p *ir.Program) *OpEvaluator {
	m := &machine[float64]{prog: p, feed: &Feed{}, kern: registry64,
		env: map[*ir.Value]*value[float64]{}, params: map[string]*value[float64]{}}
	m.opts.IgnoreDeclaredShapes = true
	return &OpEvaluator{m: m}
}

// HasKernel reports whether the interpreter has a kernel for op (by name, or for an inplace op X_ that of X).
func (e *OpEvaluator) HasKernel(op *ir.Op) bool { return e.m.lookup(op) != nil }

// Eval evaluates a regionless op on the values computed for its operands (a parameter op reads its data) and keeps
// its results for the ops that read them. An error (an *OpError) leaves no result bound.
func (e *OpEvaluator) Eval(op *ir.Op) error { return e.m.evalOp(op) }

// Tensor returns the tensor computed for v as a host tensor of v's computed element type and shape; ok is false
// when v has no computed value or its value is a vector (builtin.combine, split).
func (e *OpEvaluator) Tensor(v *ir.Value) (t *Tensor, ok bool) {
	val := e.m.env[v]
	if val == nil || val.vec {
		return nil, false
	}
	return val.host(), true
}
