package analysis

import "github.com/pirdrr/drr/ir"

// Weights: which parameters a program may change, and which values depend on weights and constants only — what
// constant folding (package rules' fold_constants) may evaluate and verify's pipeline check reports as folded.

// MutableParams returns the names of the parameters the program may change: written by builtin.set_parameter,
// marked Mutable, or read by some parameter op whose buffer some op writes (analysis.Mutated). Every read of a name
// shares one buffer at run time, so a write through one read makes all reads of the name non-constant.
func MutableParams(p *ir.Program) map[string]bool {
	out := map[string]bool{}
	for name, v := range p.Params {
		if v.Mutable {
			out[name] = true
		}
	}
	for op := range p.Walk() {
		switch op.Name() {
		case ir.SetParameterOpName:
			if name, ok := ir.AsString(op.Attr("parameter_name")); ok {
				out[name] = true
			}
		case ir.ParameterOpName, ir.GetParameterOpName:
			if op.NumResults() == 1 && Mutated(op.Result(0)) {
				out[ParamName(op.Result(0))] = true
			}
		}
	}
	return out
}

// WeightValues returns the values of p's top-level block that depend on weights and constants only: results of
// immutable parameters (not written by builtin.set_parameter, not Mutable, not written through any read),
// pd_op.full, pd_op.full_int_array and other constant-like ops, and of registered ops without side effects or
// regions all of whose operands are such values — inplace ops included, as long as the buffers they write are not
// parameters.
func WeightValues(p *ir.Program) map[*ir.Value]bool {
	mutable := MutableParams(p)
	out := map[*ir.Value]bool{}
	for op := range p.Body().Ops() {
		s := op.Schema()
		if s == nil || op.NumResults() == 0 || op.NumRegions() > 0 {
			continue
		}
		switch op.Name() {
		case ir.ParameterOpName, ir.GetParameterOpName:
			if name := ParamName(op.Result(0)); name != "" && !mutable[name] {
				if v := p.Params[name]; v == nil || !v.Mutable {
					out[op.Result(0)] = true
				}
			}
			continue
		case "pd_op.data", "pd_op.feed", "pd_op.fetch":
			continue
		}
		if s.Has(ir.ConstantLike) && op.NumOperands() == 0 {
			for _, r := range op.Results() {
				out[r] = true
			}
			continue
		}
		if s.Has(ir.SideEffects) || op.NumOperands() == 0 || !s.Has(ir.ReadOnly) && len(s.Inplace) == 0 {
			continue
		}
		all := true
		for i := 0; i < op.NumOperands() && all; i++ {
			if v := op.Operand(i); v != nil && !out[v] {
				all = false
			}
		}
		for _, io := range s.Inplace {
			if io.Operand < op.NumOperands() && IsParam(op.Operand(io.Operand)) {
				all = false
			}
		}
		if all {
			for _, r := range op.Results() {
				out[r] = true
			}
		}
	}
	return out
}
