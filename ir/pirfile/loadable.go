package pirfile

import (
	"fmt"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// InternalFormsError reports a program that holds pirdrr's internal forms, written to a format Paddle loads:
// values of type pd_op.v_tensor (also as elements of a vector) and the pd_op.to_tensor / pd_op.to_vtensor copies
// between value tensors and tensors (seed 000 §2.5). Paddle has neither, so it would refuse the file.
type InternalFormsError struct {
	// File is the file the program was read from ("" if none).
	File string
	// Values counts the values whose type holds a value tensor; Ops the copy ops.
	Values, Ops int
	// First describes the first offending op: its results and name, and where it was read from.
	First string
	// Format is the format being written; a format with no spelling for the internal forms (GraphNet) cannot be
	// asked to write them.
	Format string
}

// Error says what was found and how to get rid of it.
func (e *InternalFormsError) Error() string {
	var what []string
	if e.Values > 0 {
		what = append(what, nouns(e.Values, "value")+" of type "+ir.ValueTensor)
	}
	if e.Ops > 0 {
		what = append(what, nouns(e.Ops, "pd_op.to_tensor/pd_op.to_vtensor copy", "pd_op.to_tensor/pd_op.to_vtensor copies"))
	}
	how := "or ask for the internal form (drrc: -internal)"
	if e.Format == "graphnet" {
		how = "GraphNet has no spelling for them"
	}
	return fmt.Sprintf("the program holds pirdrr's internal forms, which Paddle cannot load: %s (the first: %s); "+
		"the pass value_semantics.lower turns them into tensors and pd_op.assign (the inference pipeline ends with it); %s",
		strings.Join(what, " and "), e.First, how)
}

func nouns(n int, one string, many ...string) string {
	if n == 1 {
		return "1 " + one
	}
	if len(many) > 0 {
		return fmt.Sprintf("%d %s", n, many[0])
	}
	return fmt.Sprintf("%d %ss", n, one)
}

// Loadable returns an *InternalFormsError when p holds forms only pirdrr knows (see InternalFormsError), nil when
// Paddle can load it as far as types go. Writers of formats Paddle reads call it unless Options.Internal is set.
func Loadable(p *ir.Program) error {
	return loadable(p, "")
}

func loadable(p *ir.Program, format string) error {
	e := &InternalFormsError{File: p.File, Format: format}
	var first *ir.Op
	for op := range p.Walk() {
		bad := false
		if isInternalOp(op.Name()) {
			e.Ops++
			bad = true
		}
		for _, r := range op.Results() {
			if HoldsValueTensor(r.Type()) {
				e.Values++
				bad = true
			}
		}
		for _, r := range op.Regions() {
			for _, b := range r.Blocks() {
				for _, a := range b.Args() {
					if HoldsValueTensor(a.Type()) {
						e.Values++
						bad = true
					}
				}
			}
		}
		if bad && first == nil {
			first = op
		}
	}
	if first == nil {
		return nil
	}
	num := ir.NumberValues(p.Body())
	e.First = num.Describe(first)
	if first.Loc.IsKnown() && p.File != "" {
		e.First += fmt.Sprintf(" at %s:%d:%d", p.File, first.Loc.Line, first.Loc.Col)
	}
	return e
}

// HoldsValueTensor reports whether t is a pd_op.v_tensor type or a vector holding one.
func HoldsValueTensor(t ir.Type) bool {
	switch t := t.(type) {
	case *ir.TensorType:
		return t.IsValue()
	case *ir.VectorType:
		for _, e := range t.Elems {
			if HoldsValueTensor(e) {
				return true
			}
		}
	}
	return false
}

func isInternalOp(name string) bool { return name == "pd_op.to_tensor" || name == "pd_op.to_vtensor" }
