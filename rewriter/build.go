package rewriter

import (
	"fmt"
	"slices"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// build creates the detached op of a Create action and records its results in env.
func (a *Applier) build(c *rule.Create, env *matchEnv, m *rule.Match, replaced map[int]int) (*ir.Op, error) {
	ctx := a.Rewriter.Ctx
	operands := a.operands[:0] // ir.NewOp copies the operands and result types: scratch will do
	for _, o := range c.Operands {
		switch {
		case o.Null:
			operands = append(operands, nil)
		case o.List:
			operands = append(operands, env.List(o.Ref)...)
		default:
			v := env.Value(o.Ref)
			if v == nil {
				return nil, fmt.Errorf("operand %d is not bound", len(operands))
			}
			operands = append(operands, v)
		}
	}
	plan := a.plan(c)
	schema := plan.schema
	attrs, err := a.attrs(c, env, plan)
	if err != nil {
		return nil, err
	}
	// Results replacing matched values inherit their stop_gradient flag, as Paddle's passes keep it.
	if sg, ok := stopGradient(c, m, plan.sgSources(c, replaced), ctx); ok {
		attrs = setAttr(attrs, "stop_gradient", sg)
	}
	attrs = plan.share(attrs)
	var types []ir.Type
	if c.ResultTypes != nil {
		types = a.types[:0]
		for i, te := range c.ResultTypes {
			t, err := resolveType(ctx, te, env)
			if err != nil {
				return nil, fmt.Errorf("result %d: %v", i, err)
			}
			types = append(types, t)
		}
	} else {
		types, err = ctx.InferResultTypes(schema, operands, attrs)
		if err != nil {
			return nil, err
		}
	}
	a.operands = operands[:0]
	if c.ResultTypes != nil {
		a.types = types[:0]
	}
	// A created op stands where the matched root stood: it takes the root's position in the source, so that what
	// is reported about it afterwards (the kernel check, a verifier) points at the code it came from.
	spec := ir.OpSpec{Name: c.Op, Operands: operands, Results: types, Attrs: attrs, Loc: m.Root().Loc}
	var op *ir.Op
	if a.Rewriter.Alloc != nil {
		op = a.Rewriter.Alloc.NewOp(ctx, spec)
	} else {
		op = ctx.NewOp(spec)
	}
	for i, k := range c.Results {
		switch {
		case k >= 0 && env.m.Rule.NewValues[k].List: // all the results, as one list
			env.newL[k] = op.Results()
		case k >= 0 && i < op.NumResults():
			env.newV[k] = op.Result(i)
		}
	}
	return op, nil
}

// attrs computes the attributes of a created op in schema order (then any others in rule order), filling schema
// defaults for attributes the rule does not set, as Paddle's op builders do.
func (a *Applier) attrs(c *rule.Create, env *matchEnv, plan *createPlan) ([]ir.NamedAttr, error) {
	n := len(c.Attrs) + 1
	if plan.schema != nil {
		n += len(plan.schema.Attrs)
	}
	var rest []ir.NamedAttr
	if c.RestAttrs >= 0 {
		rest, _ = env.m.Holes[c.RestAttrs].([]ir.NamedAttr)
	}
	out := slices.Grow(a.attrBuf[:0], n+len(rest)) // scratch: build copies what it keeps (createPlan.share)
	if plan.layout != nil {
		// Every value is computed, in rule order, as the general construction does; then they take their places.
		vals := a.attrVals[:0]
		for i := range c.Attrs {
			v, err := a.attrValue(c, i, env, plan)
			if err != nil {
				return nil, err
			}
			vals = append(vals, v)
		}
		for _, sl := range plan.layout {
			if sl.set >= 0 {
				out = append(out, ir.NamedAttr{Name: sl.name, Value: vals[sl.set]})
			} else {
				out = append(out, ir.NamedAttr{Name: sl.name, Value: sl.def})
			}
		}
		a.attrBuf, a.attrVals = out[:0], vals[:0]
		return out, nil
	}
	out = append(out, rest...)
	for i, set := range c.Attrs {
		v, err := a.attrValue(c, i, env, plan)
		if err != nil {
			return nil, err
		}
		out = setAttr(out, set.Name, v)
	}
	out = orderAttrs(out, plan.schema)
	a.attrBuf = out[:0]
	return out, nil
}

// attrValue computes the value of the rule's AttrSet i.
func (a *Applier) attrValue(c *rule.Create, i int, env *matchEnv, plan *createPlan) (ir.Attribute, error) {
	if lit := plan.lits[i]; lit != nil {
		return lit, nil
	}
	if h := plan.holes[i]; h >= 0 {
		if bound, ok := env.m.Holes[h].(ir.Attribute); ok && (plan.anyOK[i] || plan.types[i].Accepts(bound)) {
			return bound, nil
		}
	}
	set, t := &c.Attrs[i], plan.types[i]
	v, err := rule.Eval(set.Value, env)
	if err != nil {
		return nil, err
	}
	attr, err := rule.ToAttr(a.Rewriter.Ctx, t, v)
	if err != nil {
		return nil, fmt.Errorf("attribute %s: %v", set.Name, err)
	}
	return attr, nil
}

// orderAttrs completes the attributes of an op of the given schema (nil: unregistered) with the schema's defaults
// and puts them in schema order, the others after them in their order.
func orderAttrs(out []ir.NamedAttr, schema *ir.OpSchema) []ir.NamedAttr {
	if schema == nil {
		return out
	}
	for _, spec := range schema.Attrs {
		if spec.Default != nil && findAttr(out, spec.Name) < 0 {
			out = append(out, ir.NamedAttr{Name: spec.Name, Value: spec.Default})
		}
	}
	sortBySchema(out, func(a ir.NamedAttr) string { return a.Name }, schema)
	return out
}

// sortBySchema puts xs in the order of their names' attributes in schema, names the schema does not declare after
// them in their order: a stable insertion sort (attribute lists are short).
func sortBySchema[T any](xs []T, name func(T) string, schema *ir.OpSchema) {
	rank := func(x T) int {
		if i := schema.AttrIndex(name(x)); i >= 0 {
			return i
		}
		return len(schema.Attrs)
	}
	for i := 1; i < len(xs); i++ {
		x, rx := xs[i], rank(xs[i])
		j := i
		for ; j > 0 && rank(xs[j-1]) > rx; j-- {
			xs[j] = xs[j-1]
		}
		xs[j] = x
	}
}

func findAttr(attrs []ir.NamedAttr, name string) int {
	for i, a := range attrs {
		if a.Name == name {
			return i
		}
	}
	return -1
}

func setAttr(attrs []ir.NamedAttr, name string, a ir.Attribute) []ir.NamedAttr {
	if i := findAttr(attrs, name); i >= 0 {
		attrs[i].Value = a
		return attrs
	}
	return append(attrs, ir.NamedAttr{Name: name, Value: a})
}

// sgSource is a result of a built op that replaces a matched value: the result's stop_gradient flag is the
// value's.
type sgSource struct{ result, value int }

// sgSources returns the results of c's op whose stop_gradient flags come from matched values they replace
// (replaced is the rule's rulePlan.replaced); none if the rule sets stop_gradient itself.
func (p *createPlan) sgSources(c *rule.Create, replaced map[int]int) []sgSource {
	if !p.sgDone {
		p.sgDone = true
		if !findAttrExpr(c, "stop_gradient") {
			for i, k := range c.Results {
				if pv, ok := replaced[k]; ok && k >= 0 {
					p.sg = append(p.sg, sgSource{result: i, value: pv})
				}
			}
		}
	}
	return p.sg
}

// stopGradient returns the stop_gradient attribute for a created op whose results replace matched values.
func stopGradient(c *rule.Create, m *rule.Match, sources []sgSource, ctx *ir.Context) (ir.Attribute, bool) {
	var flags []bool
	for _, src := range sources {
		v := m.Values[src.value]
		if v == nil || v.DefiningOp() == nil {
			continue
		}
		arr, ok := v.DefiningOp().Attr("stop_gradient").(*ir.ArrayAttr)
		if !ok || v.Index() >= len(arr.Elems) {
			continue
		}
		if b, ok := ir.AsBool(arr.Elems[v.Index()]); ok {
			if flags == nil {
				flags = make([]bool, len(c.Results))
			}
			flags[src.result] = b
		}
	}
	if flags == nil {
		return nil, false
	}
	return ctx.Bools(flags...), true
}

func findAttrExpr(c *rule.Create, name string) bool {
	for _, s := range c.Attrs {
		if s.Name == name {
			return true
		}
	}
	return false
}

// resolveType computes an explicit result type.
func resolveType(ctx *ir.Context, te rule.TypeExpr, env *matchEnv) (ir.Type, error) {
	switch {
	case te.Exact != nil:
		return te.Exact, nil
	case te.Of != nil:
		v := env.Value(*te.Of)
		if v == nil {
			return nil, fmt.Errorf("type(): value not bound")
		}
		return v.Type(), nil
	case te.Tensor != nil:
		tp := te.Tensor
		dims := make([]int64, 0, len(tp.Dims))
		for _, d := range tp.Dims {
			switch d.Kind {
			case rule.DimExact:
				dims = append(dims, d.Value)
			case rule.DimHole:
				v, ok := env.m.Holes[d.Hole].(int64)
				if !ok {
					return nil, fmt.Errorf("dimension hole is not bound")
				}
				dims = append(dims, v)
			case rule.DimExpr:
				if unknownDim(d.Expr, env) {
					dims = append(dims, ir.Dynamic) // a size computed from an unknown size is unknown
					continue
				}
				v, err := rule.Eval(d.Expr, env)
				if err != nil {
					return nil, err
				}
				n, ok := v.(int64)
				if !ok {
					return nil, fmt.Errorf("dimension %d is %s, not an integer", len(dims), rule.Describe(v))
				}
				if n < -1 {
					return nil, fmt.Errorf("dimension %d is %d", len(dims), n)
				}
				dims = append(dims, n)
			default:
				return nil, fmt.Errorf("a result type needs every dimension")
			}
		}
		dt := tp.DType
		if tp.DTypeHole >= 0 {
			d, ok := env.m.Holes[tp.DTypeHole].(ir.DType)
			if !ok {
				return nil, fmt.Errorf("dtype hole is not bound")
			}
			dt = d
		} else if tp.AnyDType {
			return nil, fmt.Errorf("a result type needs a dtype")
		}
		spelling := ir.DenseTensor
		if len(tp.Spellings) > 0 {
			spelling = tp.Spellings[0]
		}
		return ctx.Tensor(spelling, dims, ctx.Scalar(dt)), nil
	}
	return nil, fmt.Errorf("empty type expression")
}

// unknownDim reports whether a dimension expression reads a dimension hole bound to an unknown size (-1).
func unknownDim(e rule.Expr, env *matchEnv) bool {
	unknown := false
	rule.WalkExpr(e, func(x rule.Expr) {
		if h, ok := x.(*rule.HoleRef); ok {
			if n, ok := env.m.Holes[h.Hole].(int64); ok && n == ir.Dynamic {
				unknown = true
			}
		}
	})
	return unknown
}
