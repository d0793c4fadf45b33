package analysis

import (
	"sync"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// Facts answers the questions of the program builtins (rule.Facts) for one program, from the local queries of
// this package, so that they are current while the program is rewritten. rule.NewOracle turns it into the
// Oracle the matcher evaluates where clauses with.
type Facts struct {
	program *ir.Program
	params  sync.Once
}

// NewFacts returns the facts of p. The parameter table of p is brought up to date (ir.Program.CollectParams) the
// first time a question about parameters is asked.
func NewFacts(p *ir.Program) *Facts { return &Facts{program: p} }

var _ rule.Facts = (*Facts)(nil)

// Context implements rule.Facts.
func (f *Facts) Context() *ir.Context { return f.program.Ctx }

// Immutable implements rule.Facts (see Immutable).
func (f *Facts) Immutable(v *ir.Value) bool {
	f.params.Do(f.program.CollectParams)
	return Immutable(f.program, v)
}

// Constant implements rule.Facts (see Constant).
func (f *Facts) Constant(v *ir.Value) bool {
	f.params.Do(f.program.CollectParams)
	return Constant(f.program, v)
}

// IsParam implements rule.Facts (see IsParam).
func (f *Facts) IsParam(v *ir.Value) bool { return IsParam(v) }

// ParamName implements rule.Facts (see ParamName).
func (f *Facts) ParamName(v *ir.Value) string { return ParamName(v) }

// IsInput implements rule.Facts (see IsInput).
func (f *Facts) IsInput(v *ir.Value) bool { return IsInput(v) }

// Aliased implements rule.Facts (see Aliased).
func (f *Facts) Aliased(v *ir.Value, except []*ir.Value) bool { return Aliased(v, except...) }

// Mutated implements rule.Facts (see Mutated).
func (f *Facts) Mutated(v *ir.Value) bool { return Mutated(v) }

// DiesAt implements rule.Facts (see DiesAt).
func (f *Facts) DiesAt(v *ir.Value, op *ir.Op) bool { return DiesAt(v, op) }
