package rules

import (
	"fmt"
	"slices"

	"github.com/pirdrr/drr/analysis"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
)

// FoldPrefix starts the names of the parameters FoldConstants creates.
const FoldPrefix = "constant_folding@_"

// FoldConstants folds weight math into weights, with real numbers: it evaluates (in float64) every op whose
// operands are all constants — immutable parameters with data (analysis.Immutable, ir.Variable.Data present, and
// no read of the same name written),
// pd_op.full, pd_op.full_int_array and pd_op.assign_value results, and results of ops folded before — and
// replaces each folded result that a non-folded op reads by a NEW parameter: a builtin.parameter op named
// FoldPrefix+N inserted before the folded op, with an immutable ir.Variable holding the data in the result's
// element type. Folded ops left without uses are erased, and so are parameter and constant ops that folding left
// unused (their variables are removed from Params when no op reads them any more). After it, a conv→batch_norm fold
// written as weight ops (full/add/sqrt/divide/reshape/multiply on the filter) leaves conv2d reading one new filter
// parameter.
//
// Only ops without side effects, regions or inplace writes that the interpreter can evaluate are folded; an op
// whose evaluation fails is left alone. Uses in mutable-attribute operand slots (reshape's shape, scale's scale,
// …) keep their constant producers, whose kind the type rules read. Every change goes through rw (a new rewriter
// without listener when nil). It returns the number of folded ops erased.
func FoldConstants(p *ir.Program, rw *ir.Rewriter) (int, error) {
	if rw == nil {
		rw = ir.NewRewriter(p.Ctx, nil)
	}
	m := interp.NewOpEvaluator(p)
	mutable := analysis.MutableParams(p)
	constant := map[*ir.Value]bool{}
	folded := map[*ir.Op]bool{}
	var order []*ir.Op
	var sources []*ir.Op
	for op := range p.Walk() {
		switch {
		case isConstSource(p, op, mutable):
			if m.Eval(op) == nil {
				constant[op.Result(0)] = true
				sources = append(sources, op)
			}
		case foldable(m, op, constant):
			if m.Eval(op) != nil {
				continue
			}
			folded[op] = true
			order = append(order, op)
			for _, r := range op.Results() {
				constant[r] = true
			}
		}
	}
	// Sources read by folded ops may die with them.
	var feeding []*ir.Op
	for _, src := range sources {
		for u := range src.Result(0).Uses() {
			if folded[u.Owner()] {
				feeding = append(feeding, src)
				break
			}
		}
	}
	for _, op := range order {
		for j := 0; j < op.NumResults(); j++ {
			if err := materialize(p, rw, m, op, j, folded); err != nil {
				return 0, err
			}
		}
	}
	n := 0
	for _, op := range slices.Backward(order) {
		if !op.HasUses() {
			if err := rw.Erase(op); err != nil {
				return n, err
			}
			n++
		}
	}
	for _, op := range slices.Backward(feeding) {
		if op.HasUses() || op.Erased() {
			continue
		}
		name := analysis.ParamName(op.Result(0))
		if err := rw.Erase(op); err != nil {
			return n, err
		}
		if name != "" && !readsParam(p, name) {
			delete(p.Params, name)
		}
	}
	return n, nil
}

// isConstSource reports whether op produces a constant FoldConstants can start from.
func isConstSource(p *ir.Program, op *ir.Op, mutable map[string]bool) bool {
	switch op.Name() {
	case "pd_op.full", "pd_op.full_int_array", "pd_op.assign_value":
		return op.NumResults() == 1
	case ir.ParameterOpName, ir.GetParameterOpName:
		if op.NumResults() != 1 || !analysis.Immutable(p, op.Result(0)) {
			return false
		}
		name := analysis.ParamName(op.Result(0))
		v := p.Params[name]
		return v != nil && v.Data != nil && !mutable[name]
	}
	return false
}

// foldable reports whether op is pure, evaluable and reads only constants.
func foldable(m *interp.OpEvaluator, op *ir.Op, constant map[*ir.Value]bool) bool {
	s := op.Schema()
	if s == nil || !s.Has(ir.ReadOnly) || s.Has(ir.SideEffects) || len(s.Inplace) > 0 || op.NumRegions() > 0 ||
		op.NumResults() == 0 || op.NumOperands() == 0 || !m.HasKernel(op) {
		return false
	}
	if ir.IsOutputOp(op) {
		return false
	}
	switch op.Name() {
	case "pd_op.data", "pd_op.feed", "cf.yield":
		return false
	}
	any := false
	for i := 0; i < op.NumOperands(); i++ {
		v := op.Operand(i)
		if v == nil {
			continue
		}
		if !constant[v] {
			return false
		}
		any = true
	}
	return any
}

// materialize replaces the uses of result j of a folded op by non-folded ops with a new parameter.
func materialize(p *ir.Program, rw *ir.Rewriter, m *interp.OpEvaluator, op *ir.Op, j int, folded map[*ir.Op]bool) error {
	r := op.Result(j)
	keep := func(u *ir.Use) bool { return !folded[u.Owner()] && !mutableSlot(u) }
	need := false
	for u := range r.Uses() {
		if keep(u) {
			need = true
		}
	}
	host, ok := m.Tensor(r)
	tt := ir.TensorOf(r.Type())
	if !need || !ok || tt == nil {
		return nil
	}
	host.DType = tt.DType()
	t := ir.Type(tt)
	if dims := dims64(host.Shape); !slices.Equal(tt.Dims, dims) || !tt.Static() {
		t = p.Ctx.WithDims(tt, dims)
	}
	raw, err := interp.EncodeData(host)
	if err != nil {
		return fmt.Errorf("fold_constants: folding %s at %s: %w", op.Name(), interp.Where(p, op), err)
	}
	name := freshParamName(p)
	rw.SetInsertionPointBefore(op)
	c := p.Ctx
	pop := rw.Create(ir.OpSpec{Name: ir.ParameterOpName, Results: []ir.Type{t}, Attrs: []ir.NamedAttr{
		{Name: "parameter_name", Value: c.Str(name)},
		{Name: "persistable", Value: c.Bools(true)},
		{Name: "stop_gradient", Value: c.Bools(true)},
	}})
	p.Params[name] = &ir.Variable{Name: name, Type: t, Data: raw}
	rw.ReplaceUsesIf(r, pop.Result(0), keep)
	return nil
}

// mutableSlot reports whether a use is a mutable-attribute operand (IntArray/Scalar slot), whose producer type
// rules read as a constant.
func mutableSlot(u *ir.Use) bool {
	s := u.Owner().Schema()
	if s == nil || u.Index() >= len(s.Operands) {
		return false
	}
	return s.Operands[u.Index()].Mutable != ir.KindAny
}

// freshParamName returns FoldPrefix+N for the smallest N not naming a parameter of p.
func freshParamName(p *ir.Program) string {
	for i := 0; ; i++ {
		n := fmt.Sprintf("%s%d", FoldPrefix, i)
		if _, taken := p.Params[n]; !taken {
			return n
		}
	}
}

// readsParam reports whether some parameter op of p reads name.
func readsParam(p *ir.Program, name string) bool {
	for op := range p.Walk() {
		if opResult0(op) != nil && analysis.ParamName(opResult0(op)) == name {
			return true
		}
	}
	return false
}

func opResult0(op *ir.Op) *ir.Value {
	if op.NumResults() == 0 {
		return nil
	}
	return op.Result(0)
}

// dims64 converts a computed shape to the dims of a type.
func dims64(shape []int) []int64 {
	out := make([]int64, len(shape))
	for i, d := range shape {
		out[i] = int64(d)
	}
	return out
}
