package verify

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
)

// Building a candidate program for one assignment of hole values: the pattern's ops in dependency order, operands
// made as inputs, parameters or copies, and a fetch for every value the pattern exposes.

// builder state of one candidate.
type instBuild struct {
	in    *instantiator
	ch    *chooser
	c     *candidate
	b     *ir.Builder
	names map[string]int
	// observed are the copies read again after the pattern.
	observed []*ir.Value
	obsNames []string
	// elems are the outputs of a users group's further elements (elements), fetched after the first's.
	elems    []*ir.Value
	elemName []string
}

// build builds one candidate program for an assignment, taking shape and producer choices from ch.
func (in *instantiator) build(assign []ir.Attribute, ch *chooser) (*candidate, error) {
	ctx := in.ctx
	p := ir.NewProgram(ctx)
	bl := ir.NewBuilder(ctx)
	bl.SetInsertionPointToEnd(p.Body())
	ib := &instBuild{in: in, ch: ch, b: bl, names: map[string]int{},
		c: &candidate{prog: p, ops: make([]*ir.Op, len(in.pat.Ops)), vals: make([]*ir.Value, len(in.pat.Values)),
			assign: append([]ir.Attribute(nil), assign...), holeNames: in.holeNames()}}
	ch.pos = 0
	for _, k := range in.order {
		if in.isDeferred(k) {
			continue // built by its first reader
		}
		start := ch.pos
		if err := ib.op(k); err != nil {
			return nil, err
		}
		if g := in.pat.Users; g != nil && k == g.Op {
			if err := ib.elements(g, start); err != nil {
				return nil, err
			}
		}
	}
	col := 0
	if in.writeOutputs && !ib.writeOutputs() {
		return nil, errors.New("no pattern output can be written")
	}
	for h, vh := range in.pat.Values {
		v := ib.c.vals[h]
		if vh.Def < 0 || in.internal[h] || v == nil {
			continue
		}
		ib.fetch(v, "%"+vh.Name, col)
		col++
	}
	if in.writeOutputs {
		for h, vh := range in.pat.Values {
			if v := ib.c.vals[h]; vh.Def < 0 && v != nil && ir.TensorOf(v.Type()) != nil {
				ib.fetch(v, "%"+vh.Name+" after the outputs are written", col)
				col++
			}
		}
	}
	for i, v := range ib.elems {
		ib.fetch(v, ib.elemName[i], col)
		col++
	}
	for i, v := range ib.observed {
		ib.fetch(v, ib.obsNames[i], col)
		col++
	}
	return ib.c, nil
}

// elements builds the further elements of users group g after its first (pattern op g.Op, built with its choices
// from position start of the chooser): the element op again, reading the group's value, with per-element inputs of
// its own made by the same choices; their outputs are fetched as %y[1], %y[2], …. The candidate's bindings stay
// the first element's, the root of the match.
func (ib *instBuild) elements(g *rule.UsersGroup, start int) error {
	vals, root, end := slices.Clone(ib.c.vals), ib.c.ops[g.Op], ib.ch.pos
	for e := 1; e < ib.in.groupSize; e++ {
		for _, h := range g.Elems {
			ib.c.vals[h] = nil
		}
		ib.ch.pos = start
		if err := ib.op(g.Op); err != nil {
			return err
		}
		for h, vh := range ib.in.pat.Values {
			if v := ib.c.vals[h]; vh.Def == g.Op && v != nil && !ib.in.internal[h] {
				ib.elems = append(ib.elems, v)
				ib.elemName = append(ib.elemName, fmt.Sprintf("%%%s[%d]", vh.Name, e))
			}
		}
	}
	ib.ch.pos = end
	copy(ib.c.vals, vals)
	ib.c.ops[g.Op] = root
	return nil
}

// writeOutputs writes every pattern output that is a mutable float or integer tensor, in place (scale_ by 2 plus
// 1); false when there is none.
func (ib *instBuild) writeOutputs() bool {
	in, ctx := ib.in, ib.in.ctx
	n := 0
	for h, vh := range in.pat.Values {
		v := ib.c.vals[h]
		if vh.Def < 0 || in.internal[h] || v == nil {
			continue
		}
		tt := ir.TensorOf(v.Type())
		if tt == nil || tt.IsValue() || !(tt.DType().IsFloat() || tt.DType().IsInteger()) {
			continue
		}
		two, err := ib.make(operandPlan{isScalar: true, scalar: 2}, prodInput, "two")
		if err != nil {
			return false
		}
		ib.b.Create(ir.OpSpec{Name: "pd_op.scale_", Operands: []*ir.Value{v, two}, Results: []ir.Type{v.Type()},
			Attrs: []ir.NamedAttr{{Name: "bias", Value: ctx.Float(1)}, {Name: "bias_after_scale", Value: ctx.Bool(true)}}})
		n++
	}
	if n > 0 {
		ib.c.inputs = append(ib.c.inputs, "outputs written after the pattern")
	}
	return n > 0
}

func (ib *instBuild) fetch(v *ir.Value, name string, col int) {
	ctx := ib.in.ctx
	ib.b.Create(ir.OpSpec{Name: "pd_op.fetch", Operands: []*ir.Value{v}, Results: []ir.Type{v.Type()},
		Attrs: []ir.NamedAttr{{Name: "name", Value: ctx.Str(name)}, {Name: "col", Value: ctx.Int32(int32(col))}}})
}

// op builds pattern op k.
func (ib *instBuild) op(k int) error {
	in := ib.in
	ctx := in.ctx
	pop := in.pat.Ops[k]
	s := ctx.Schema(pop.Name)
	if err := ib.bindLate(pop); err != nil {
		return err
	}
	attrs := ib.attrs(pop, s)
	if alts := attrRecipes[ir.NonInplaceName(pop.Name)]; len(alts) > 0 {
		attrs = ib.overrideAttrs(pop, s, attrs, alts[ib.ch.choose(len(alts))])
	}
	n := len(s.Operands)
	nPat := len(pop.Operands)
	hasList := nPat > 0 && pop.Operands[nPat-1].Kind == rule.OperandList
	if n == 1 && s.Operands[0].Variadic && !hasList {
		return ib.variadicOp(k, pop, s, attrs)
	}
	if !hasList && nPat != n {
		return fmt.Errorf("%s: the pattern has %d operands, the schema %d", pop.Name, nPat, n)
	}
	if hasList && nPat-1 > n {
		return fmt.Errorf("%s: the pattern has %d operands before its list, the schema %d", pop.Name, nPat-1, n)
	}
	// Known operands.
	known := make([]*ir.Value, n)
	for j := 0; j < n && j < nPat; j++ {
		o := pop.Operands[j]
		if o.Kind == rule.OperandValue && o.Value >= 0 {
			known[j] = ib.c.vals[o.Value]
		}
	}
	alts := proposeOperands(ctx, s, attrs, known)
	if len(alts) == 0 {
		return fmt.Errorf("%s: no operand shapes to propose", pop.Name)
	}
	plan := alts[ib.ch.choose(len(alts))]
	operands := make([]*ir.Value, n)
	var later []int // operands defined by deferred pattern ops: built after the others
	for j := 0; j < n; j++ {
		kind, hole := rule.OperandList, -1
		if !hasList || j < nPat-1 {
			kind, hole = pop.Operands[j].Kind, pop.Operands[j].Value
		} else {
			hole = pop.Operands[nPat-1].Value
		}
		switch kind {
		case rule.OperandNull:
			continue
		case rule.OperandAny:
			if s.Operands[j].Optional {
				continue
			}
			v, err := ib.make(plan[j], prodInput, s.Operands[j].Name)
			if err != nil {
				return err
			}
			operands[j] = v
		case rule.OperandValue:
			if known[j] != nil {
				operands[j] = known[j]
				continue
			}
			if v := ib.c.vals[hole]; v != nil { // an operand before this one read the same value: multiply(%x, %x)
				operands[j] = v
				continue
			}
			vh := in.pat.Values[hole]
			if in.isDeferred(vh.Def) {
				later = append(later, j)
				continue
			}
			if vh.Def >= 0 {
				return fmt.Errorf("%%%s is used before the op defining it is built", vh.Name)
			}
			prefs := in.prefs[hole]
			pr := prefs[ib.ch.choose(len(prefs))]
			v, err := ib.make(ib.applyWant(plan[j], hole), pr, vh.Name)
			if err != nil {
				return err
			}
			ib.c.vals[hole] = v
			operands[j] = v
		case rule.OperandList:
			if plan[j].null || s.Operands[j].Optional && plan[j].dims == nil && !plan[j].constant() {
				return fmt.Errorf("%s: an absent operand in the list %%%s", pop.Name, in.pat.Values[hole].Name)
			}
			name := in.pat.Values[hole].Name
			v, err := ib.make(plan[j], prodInput, name+"_"+s.Operands[j].Name)
			if err != nil {
				return err
			}
			operands[j] = v
		}
	}
	for _, j := range later {
		hole := pop.Operands[j].Value
		if d := in.pat.Values[hole].Def; ib.c.ops[d] == nil {
			if err := ib.op(d); err != nil {
				return err
			}
		}
		operands[j] = ib.c.vals[hole]
	}
	types, err := resultTypes(ctx, s, operands, attrs)
	if err != nil {
		return err
	}
	op := ib.b.Create(ir.OpSpec{Name: pop.Name, Operands: operands, Results: types, Attrs: attrs})
	ib.c.ops[k] = op
	if s.Infer == "" {
		if err := ib.probe(op); err != nil {
			return err
		}
	}
	if len(pop.Results) > op.NumResults() || !pop.MoreResults && len(pop.Results) != op.NumResults() {
		return fmt.Errorf("%s: the pattern binds %d results, the op has %d", pop.Name, len(pop.Results), op.NumResults())
	}
	for i, rp := range pop.Results {
		if rp.Value >= 0 {
			ib.c.vals[rp.Value] = op.Result(i)
		}
	}
	// A value read again after the pattern must keep its type: an inplace op writing a result of another type
	// (cast_, comparisons, reshape_, …) into its buffer would make that read ill-typed.
	for _, io := range s.Inplace {
		if io.Operand >= len(operands) || io.Result >= op.NumResults() || operands[io.Operand] == nil {
			continue
		}
		v := operands[io.Operand]
		for _, o := range ib.observed {
			if o == v && op.Result(io.Result).Type() != v.Type() {
				return fmt.Errorf("%s writes a %s into the buffer of a %s: reading that value after the pattern is ill-typed",
					pop.Name, op.Result(io.Result).Type(), v.Type())
			}
		}
	}
	return nil
}

// variadicOp builds pattern op k whose schema has one variadic operand (builtin.combine of the list a pattern
// writes [%f0, %f1]): each pattern operand is one of its operands, a value an earlier pattern op defines or an
// input of the first such value's shape (else [N, C, H, W]).
func (ib *instBuild) variadicOp(k int, pop *rule.OpPattern, s *ir.OpSchema, attrs []ir.NamedAttr) error {
	in := ib.in
	operands := make([]*ir.Value, len(pop.Operands))
	plan := tensorPlan(opDType(pop.Name), instN, instC, instH, instW)
	for j, o := range pop.Operands {
		if o.Kind == rule.OperandValue && o.Value >= 0 {
			if v := ib.c.vals[o.Value]; v != nil {
				operands[j] = v
				if t := ir.TensorOf(v.Type()); t != nil && t.Static() && j == 0 {
					plan = tensorPlan(t.DType(), t.Dims...)
				}
			}
		}
	}
	for j, o := range pop.Operands {
		if operands[j] != nil {
			continue
		}
		if o.Kind != rule.OperandValue || o.Value < 0 {
			return fmt.Errorf("%s: operand %d is not a value", pop.Name, j)
		}
		vh := in.pat.Values[o.Value]
		if vh.Def >= 0 {
			return fmt.Errorf("%%%s is used before the op defining it is built", vh.Name)
		}
		prefs := in.prefs[o.Value]
		v, err := ib.make(ib.applyWant(plan, o.Value), prefs[ib.ch.choose(len(prefs))], vh.Name)
		if err != nil {
			return err
		}
		ib.c.vals[o.Value] = v
		operands[j] = v
	}
	types, err := resultTypes(in.ctx, s, operands, attrs)
	if err != nil {
		return err
	}
	op := ib.b.Create(ir.OpSpec{Name: pop.Name, Operands: operands, Results: types, Attrs: attrs})
	ib.c.ops[k] = op
	if len(pop.Results) != op.NumResults() {
		return fmt.Errorf("%s: the pattern binds %d results, the op has %d", pop.Name, len(pop.Results), op.NumResults())
	}
	for i, rp := range pop.Results {
		if rp.Value >= 0 {
			ib.c.vals[rp.Value] = op.Result(i)
		}
	}
	return nil
}

// overrideAttrs replaces attributes by the values of an attribute recipe, except those the pattern binds or fixes.
func (ib *instBuild) overrideAttrs(pop *rule.OpPattern, s *ir.OpSchema, attrs []ir.NamedAttr, vals map[string]rule.Val) []ir.NamedAttr {
	fixed := map[string]bool{}
	for _, a := range pop.Attrs {
		fixed[a.Name] = true
	}
	out := append([]ir.NamedAttr(nil), attrs...)
	for name, v := range vals {
		spec := s.Attr(name)
		if spec == nil || fixed[name] {
			continue
		}
		at, err := rule.ToAttr(ib.in.ctx, spec.Type, v)
		if err != nil {
			continue
		}
		replaced := false
		for i := range out {
			if out[i].Name == name {
				out[i].Value, replaced = at, true
			}
		}
		if !replaced {
			out = append(out, ir.NamedAttr{Name: name, Value: at})
		}
	}
	return out
}

// probe sets the result types of an op whose schema has no type rule from what its kernel computes: the candidate
// built so far is evaluated on random inputs, and each tensor result takes the computed shape (the element type
// of its provisional type, the operand's or the op's dtype attribute). An op that cannot be evaluated on these
// operands makes the candidate fail.
func (ib *instBuild) probe(op *ir.Op) error {
	ctx := ib.in.ctx
	var fetches []*ir.Op
	var which []int
	for i := 0; i < op.NumResults(); i++ {
		r := op.Result(i)
		if ir.TensorOf(r.Type()) == nil {
			continue
		}
		fetches = append(fetches, ib.b.Create(ir.OpSpec{Name: "pd_op.fetch", Operands: []*ir.Value{r}, Results: []ir.Type{r.Type()},
			Attrs: []ir.NamedAttr{{Name: "name", Value: ctx.Str(fmt.Sprintf("probe %d", i))}, {Name: "col", Value: ctx.Int32(int32(i))}}}))
		which = append(which, i)
	}
	opts := feeds.Options{Options: interp.Options{IgnoreDeclaredShapes: true}}
	feed, err := feeds.Random(0, opts, ib.c.prog)
	var res *interp.Result
	if err == nil {
		res, err = interp.Evaluate(ib.c.prog, feed, opts.Options)
	}
	rw := ir.NewRewriter(ctx, nil)
	for _, f := range fetches {
		if e := rw.Erase(f); e != nil && err == nil {
			err = e
		}
	}
	if err != nil {
		return fmt.Errorf("%s on these operands: %w", op.Name(), err)
	}
	for k, i := range which {
		o := res.Output(fmt.Sprintf("probe %d", i))
		if o == nil {
			return fmt.Errorf("%s: result %d was not computed", op.Name(), i)
		}
		tt := ir.TensorOf(op.Result(i).Type())
		dims := make([]int64, len(o.Value.Shape))
		for d, n := range o.Value.Shape {
			dims[d] = int64(n)
		}
		rw.SetType(op.Result(i), ctx.Tensor(tt.Spelling, dims, ctx.Scalar(probedDType(op, i, tt.DType()))))
		_ = k
	}
	return nil
}

// statResults are the result names of normalisation statistics: Paddle's infer-meta functions (group_norm's,
// layer_norm's, …) make them float32 when the input is float16 or bfloat16.
var statResults = map[string]bool{"mean": true, "variance": true, "saved_mean": true, "saved_variance": true}

// probedDType is the element type of result i of an op without a type rule, whose provisional type has dt:
// statistics of a half-precision input are float32, other results keep dt.
func probedDType(op *ir.Op, i int, dt ir.DType) ir.DType {
	s := op.Schema()
	if s == nil || i >= len(s.Results) || !statResults[s.Results[i].Name] {
		return dt
	}
	if dt == ir.DTypeFloat16 || dt == ir.DTypeBFloat16 {
		return ir.DTypeFloat32
	}
	return dt
}

// resultTypes infers an op's result types; ops without a type rule take their first operand's type (provisionally:
// the builder then probes them), with the element type of the first floating-point operand when the first is not
// one, or the dtype their dtype attribute names.
func resultTypes(ctx *ir.Context, s *ir.OpSchema, operands []*ir.Value, attrs []ir.NamedAttr) ([]ir.Type, error) {
	if s.Infer == "" && len(operands) > 0 && operands[0] != nil && ir.TensorOf(operands[0].Type()) != nil {
		t := operands[0].Type()
		tt := ir.TensorOf(t)
		if !tt.DType().IsFloat() {
			// Indices or a condition first (embedding's ids, where's cond): the values come from the first
			// floating-point operand.
			for _, o := range operands[1:] {
				if o == nil {
					continue
				}
				if ot := ir.TensorOf(o.Type()); ot != nil && ot.DType().IsFloat() {
					t = ctx.Tensor(tt.Spelling, tt.Dims, ctx.Scalar(ot.DType()))
					tt = ir.TensorOf(t)
					break
				}
			}
		}
		if da, ok := attrOf(attrs, "dtype").(*ir.DataTypeAttr); ok && da.DType != ir.DTypeUndefined {
			dt := da.DType
			t = ctx.Tensor(tt.Spelling, tt.Dims, ctx.Scalar(dt))
		}
		types := make([]ir.Type, len(s.Results))
		for i := range types {
			types[i] = t
		}
		return types, nil
	}
	return ctx.InferResultTypes(s, operands, attrs)
}

// attrs computes the attributes of a pattern op under the assignment: bound holes, literals, defaults, and values
// for required attributes the pattern leaves free. Every schema attribute is set, in schema order, as Paddle's
// programs carry them.
func (ib *instBuild) attrs(pop *rule.OpPattern, s *ir.OpSchema) []ir.NamedAttr {
	in := ib.in
	set := map[string]ir.Attribute{}
	for _, a := range pop.Attrs {
		switch a.Kind {
		case rule.AttrBind:
			if a.Hole >= 0 && a.Hole < len(ib.c.assign) && ib.c.assign[a.Hole] != nil {
				set[a.Name] = ib.c.assign[a.Hole]
			}
		case rule.AttrEquals:
			set[a.Name] = a.Literal
		}
	}
	var out []ir.NamedAttr
	for i := range s.Attrs {
		spec := &s.Attrs[i]
		v := set[spec.Name]
		if v == nil {
			v = spec.Default
		}
		if v == nil && !spec.Optional {
			v = in.fillAttr(pop.Name, spec)
		}
		if v != nil {
			out = append(out, ir.NamedAttr{Name: spec.Name, Value: v})
		}
	}
	return out
}

// requiredAttrs gives values to attributes without a schema default, by op and attribute name.
var requiredAttrs = map[string]rule.Val{
	"is_test":              true,
	"momentum":             0.9,
	"epsilon":              1e-5,
	"data_format":          "NCHW",
	"use_global_stats":     false,
	"trainable_statistics": false,
	"axis":                 int64(-1),
	"perm":                 []rule.Val{int64(0), int64(2), int64(3), int64(1)},
	"pooling_type":         "max",
	// Weight-only linears (fused_weight_only_linear): int8 weights, as weight_quantize's default algo makes them.
	"weight_dtype": "int8",
	// Normalisations with an optional int8 output (rms_norm, fused_bias_residual_layernorm): no quantisation.
	"quant_scale":           -1.0,
	"quant_max_bound":       0.0,
	"quant_min_bound":       0.0,
	"pd_op.cast.dtype":      ir.DTypeFloat64,
	"pd_op.cast_.dtype":     ir.DTypeFloat64,
	"pd_op.softmax.axis":    int64(-1),
	"pd_op.softmax_.axis":   int64(-1),
	"pd_op.full.value":      0.5,
	"pd_op.full_.value":     0.5,
	"pd_op.full_like.value": 0.5,
	// set_value: assign 0.5 to the slice (here the whole tensor: no axes).
	"pd_op.set_value.shape":   []rule.Val{int64(1)},
	"pd_op.set_value.values":  []rule.Val{0.5},
	"pd_op.set_value_.shape":  []rule.Val{int64(1)},
	"pd_op.set_value_.values": []rule.Val{0.5},
}

// fillAttr returns a value for an attribute without default: from requiredAttrs, else a plain value of its kind.
func (in *instantiator) fillAttr(opName string, spec *ir.AttrSpec) ir.Attribute {
	v, ok := requiredAttrs[opName+"."+spec.Name]
	if !ok {
		v, ok = requiredAttrs[spec.Name]
	}
	if !ok {
		switch {
		case spec.Type.Array:
			v = []rule.Val{}
		case spec.Type.Kind == ir.KindBool:
			v = false
		case spec.Type.Kind == ir.KindInt32 || spec.Type.Kind == ir.KindInt64 || spec.Type.Kind == ir.KindIndex:
			v = int64(0)
		case spec.Type.Kind == ir.KindFloat || spec.Type.Kind == ir.KindDouble || spec.Type.Kind == ir.KindScalar:
			v = 0.5
		case spec.Type.Kind == ir.KindStr:
			v = ""
		case spec.Type.Kind == ir.KindIntArray:
			v = []rule.Val{}
		case spec.Type.Kind == ir.KindDataType:
			v = ir.DTypeFloat32
		case spec.Type.Kind == ir.KindPlace:
			return in.ctx.Place(ir.Place{Type: ir.PlaceCPU})
		default:
			return nil
		}
	}
	a, err := rule.ToAttr(in.ctx, spec.Type, v)
	if err != nil {
		return nil
	}
	return a
}

// make creates the value of one operand: a constant for mutable-attribute operands, else the producer's value.
func (ib *instBuild) make(pl operandPlan, pr producer, name string) (*ir.Value, error) {
	ctx := ib.in.ctx
	place := ir.NamedAttr{Name: "place", Value: ctx.Place(ir.Place{Type: ir.PlaceCPU})}
	if pl.isInts {
		attrs := []ir.NamedAttr{{Name: "value", Value: ctx.Int64s(pl.ints...)},
			{Name: "dtype", Value: ctx.DataType(ir.DTypeInt64)}, place}
		return ib.create("pd_op.full_int_array", nil, attrs)
	}
	if pl.isScalar {
		attrs := []ir.NamedAttr{{Name: "shape", Value: ctx.IntArray([]int64{1})}, {Name: "value", Value: ctx.Double(pl.scalar)},
			{Name: "dtype", Value: ctx.DataType(ir.DTypeFloat32)}, place}
		return ib.create("pd_op.full", nil, attrs)
	}
	if pl.data != nil {
		vals := make([]ir.Attribute, len(pl.data))
		for i, v := range pl.data {
			vals[i] = ctx.Double(v)
		}
		dims := make([]int64, len(pl.dims))
		copy(dims, pl.dims)
		t := ctx.Tensor(ir.DenseTensor, dims, ctx.Scalar(pl.dtype))
		attrs := []ir.NamedAttr{{Name: "shape", Value: ctx.Int32s(dims...)}, {Name: "dtype", Value: ctx.DataType(pl.dtype)},
			{Name: "values", Value: ctx.Array(vals...)}, place}
		v := ib.b.Create(ir.OpSpec{Name: "pd_op.assign_value", Results: []ir.Type{t}, Attrs: attrs}).Result(0)
		ib.c.inputs = append(ib.c.inputs, fmt.Sprintf("%%%s: %s constant %v", name, t, pl.data))
		return v, nil
	}
	if pl.elems != nil {
		var elems []*ir.Value
		var types []ir.Type
		for k, e := range pl.elems {
			v, err := ib.make(e, pr, fmt.Sprintf("%s_%d", name, k))
			if err != nil {
				return nil, err
			}
			elems = append(elems, v)
			types = append(types, v.Type())
		}
		return ib.b.Create(ir.OpSpec{Name: "builtin.combine", Operands: elems, Results: []ir.Type{ctx.Vector(types...)}}).Result(0), nil
	}
	if pl.dims == nil {
		return nil, fmt.Errorf("no shape for %%%s", name)
	}
	dt := pl.dtype
	if dt == ir.DTypeUndefined {
		dt = ir.DTypeFloat32
	}
	t := ctx.Tensor(ir.DenseTensor, pl.dims, ctx.Scalar(dt))
	uname := ib.unique(sanitize(name))
	var v *ir.Value
	desc := ""
	switch pr {
	case prodParam:
		ib.c.prog.Params[uname] = &ir.Variable{Name: uname, Type: t}
		v = ib.b.Create(ir.OpSpec{Name: ir.ParameterOpName, Results: []ir.Type{t},
			Attrs: []ir.NamedAttr{{Name: "parameter_name", Value: ctx.Str(uname)}}}).Result(0)
		desc = "parameter"
	default:
		v = ib.b.Create(ir.OpSpec{Name: "pd_op.data", Results: []ir.Type{t}, Attrs: []ir.NamedAttr{
			{Name: "name", Value: ctx.Str(uname)}, {Name: "shape", Value: ctx.IntArray(pl.dims)},
			{Name: "dtype", Value: ctx.DataType(dt)}, place}}).Result(0)
		desc = "input"
		if pr == prodCopy || pr == prodObserved {
			var err error
			if v, err = ib.create("pd_op.assign", []*ir.Value{v}, nil); err != nil {
				return nil, err
			}
			desc = pr.String()
		}
	}
	if pl.spelling == ir.ValueTensor {
		var err error
		if v, err = ib.create("pd_op.to_vtensor", []*ir.Value{v}, nil); err != nil {
			return nil, err
		}
		desc += " as a value tensor"
	}
	if pr == prodObserved {
		ib.observed = append(ib.observed, v)
		ib.obsNames = append(ib.obsNames, "%"+name+" after")
	}
	ib.c.inputs = append(ib.c.inputs, fmt.Sprintf("%%%s: %s %s", name, v.Type(), desc))
	return v, nil
}

// create builds an op with inferred result types at the end of the program.
func (ib *instBuild) create(name string, operands []*ir.Value, attrs []ir.NamedAttr) (*ir.Value, error) {
	ctx := ib.in.ctx
	s := ctx.Schema(name)
	types, err := resultTypes(ctx, s, operands, attrs)
	if err != nil {
		return nil, err
	}
	return ib.b.Create(ir.OpSpec{Name: name, Operands: operands, Results: types, Attrs: attrs}).Result(0), nil
}

func (ib *instBuild) unique(name string) string {
	n := ib.names[name]
	ib.names[name] = n + 1
	if n == 0 {
		return name
	}
	return fmt.Sprintf("%s_%d", name, n)
}

func sanitize(name string) string {
	name = strings.TrimPrefix(name, "%")
	if name == "" {
		return "v"
	}
	return name
}

// holeNames returns the names of the pattern's holes.
func (in *instantiator) holeNames() []string {
	out := make([]string, len(in.pat.Holes))
	for h, x := range in.pat.Holes {
		out[h] = x.Name
	}
	return out
}

// attrText formats an attribute as the rule language writes values: 1, 0.001, "NCHW", [1, 1], float32.
func attrText(a ir.Attribute) string {
	var f func(v rule.Val) string
	f = func(v rule.Val) string {
		switch v := v.(type) {
		case string:
			return ir.QuoteString(v)
		case float64:
			return ir.FormatFloat(v, 64)
		case []rule.Val:
			parts := make([]string, len(v))
			for i, x := range v {
				parts[i] = f(x)
			}
			return "[" + strings.Join(parts, ", ") + "]"
		case ir.DType:
			return v.DataTypeName()
		}
		return fmt.Sprint(v)
	}
	if fa, ok := a.(*ir.FloatAttr); ok {
		return ir.FormatFloat(float64(fa.Value), 32)
	}
	return f(rule.AttrVal(a))
}
