package rules

import (
	"github.com/pirdrr/drr/analysis"
	"github.com/pirdrr/drr/ir"
)

// The fold_constants pass: FoldConstants, preceded by de-inplacing the weight arithmetic that a re-inplacing pass
// turned into inplace ops.

// FoldWeights folds weight arithmetic into new parameters, with real numbers, wherever it stands in a pipeline:
// it first turns inplace ops of the weight arithmetic back into their non-inplace twins (DeinplaceWeightOps: the
// reinplace pass at the end of the inference pipeline makes sqrt(var + ε) a sqrt_ writing into the add's buffer,
// which FoldConstants, folding only ops without inplace writes, would leave alone), then runs FoldConstants.
// Without weight data (no parameter of p has ir.Variable.Data) it changes nothing. It returns the number of folded
// ops erased. This is the Go pass fold_constants of package rules.
func FoldWeights(p *ir.Program, rw *ir.Rewriter) (int, error) {
	if rw == nil {
		rw = ir.NewRewriter(p.Ctx, nil)
	}
	if !hasWeightData(p) {
		return 0, nil
	}
	if _, err := DeinplaceWeightOps(p, rw); err != nil {
		return 0, err
	}
	return FoldConstants(p, rw)
}

// hasWeightData reports whether some parameter of p has data (FoldConstants folds nothing on weights otherwise).
func hasWeightData(p *ir.Program) bool {
	for _, v := range p.Params {
		if v.Data != nil {
			return true
		}
	}
	return false
}

// DeinplaceWeightOps replaces, in the top-level block of p, every inplace op that computes on weight values only
// (WeightValues) by its non-inplace twin, when that is unobservable: the operand it writes is neither a parameter
// nor a program input, dies at the op (no later reader would see the write), and shares its buffer with nothing
// but the op's result. These are exactly the conditions of the inplace rule set's deinplace rule. It returns the
// number of ops replaced. A nil rw is a new rewriter without listener.
func DeinplaceWeightOps(p *ir.Program, rw *ir.Rewriter) (int, error) {
	if rw == nil {
		rw = ir.NewRewriter(p.Ctx, nil)
	}
	weights := analysis.WeightValues(p)
	var ops []*ir.Op
	for op := range p.Body().Ops() {
		ops = append(ops, op)
	}
	n := 0
	for _, op := range ops {
		s := op.Schema()
		if s == nil || len(s.Inplace) == 0 || s.Counterpart == nil || s.Has(ir.SideEffects) || op.NumRegions() > 0 ||
			len(s.Counterpart.Operands) != len(s.Operands) || len(s.Counterpart.Results) != len(s.Results) ||
			op.NumResults() == 0 || !weights[op.Result(0)] {
			continue
		}
		ok := true
		for _, io := range s.Inplace {
			if io.Operand >= op.NumOperands() || io.Result >= op.NumResults() {
				ok = false
				break
			}
			a := op.Operand(io.Operand)
			if a == nil || analysis.IsParam(a) || analysis.IsInput(a) || !analysis.DiesAt(a, op) ||
				analysis.Aliased(a, op.Result(io.Result)) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		operands := make([]*ir.Value, op.NumOperands())
		for i := range operands {
			operands[i] = op.Operand(i)
		}
		types := make([]ir.Type, op.NumResults())
		for i, r := range op.Results() {
			types[i] = r.Type()
		}
		rw.SetInsertionPointBefore(op)
		twin := rw.Create(ir.OpSpec{Name: s.Counterpart.Name, Operands: operands, Results: types, Attrs: op.Attrs(), Loc: op.Loc})
		if err := rw.ReplaceOp(op, twin.Results()); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
