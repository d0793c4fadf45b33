package verify

import (
	"fmt"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// What the where clause wants of the pattern's inputs, read before shapes are proposed: a conjunct
// dtype(%x) in [float16, bfloat16] (or == float16) gives %x's element type, dtype(%k) == dtype(%q) and
// same_type(%k, %q) pass it on,
// and rank(%w) == 2 gives %w's rank. Only conjuncts (the top level of a constraint and the operands of &&) are
// read: what a disjunction wants is a choice the search does not make.

// valueWant is what the where clause wants of one value hole.
type valueWant struct {
	dtype ir.DType // ir.DTypeUndefined: no wish
	rank  int      // -1: no wish
	// shape is the expression shape(%v) is compared with ([dim(%w, 1)], shape(%k)), nil for none; dims are the
	// expressions dim(%v, axis) is compared with (dim(%w, 0)). They are evaluated on the values built before %v.
	shape rule.Expr
	dims  []dimWant
	// keptBy is the pattern op (one operand: this value) whose result keptRes same_type(%a, %b) says has this
	// value's type, -1 for none: the shapes the op keeps are tried (l1_norm keeps only a 0-D operand's).
	keptBy, keptRes int
}

// dimWant is a wish dim(%v, axis) == expr.
type dimWant struct {
	axis int64
	expr rule.Expr
}

// collectWants reads the wants of every value hole from the where clause.
func (in *instantiator) collectWants() {
	in.wants = make([]valueWant, len(in.pat.Values))
	for i := range in.wants {
		in.wants[i].rank = -1
		in.wants[i].keptBy = -1
	}
	var sameDType [][2]int
	var walk func(e rule.Expr)
	walk = func(e rule.Expr) {
		if c, ok := e.(*rule.Call); ok && !c.Native && len(c.Args) == 2 && c.Builtin() != nil && c.Builtin().SameType {
			x, okx := c.Args[0].(*rule.ValueRef)
			y, oky := c.Args[1].(*rule.ValueRef)
			if okx && oky && !x.Ref.New && !y.Ref.New && x.Ref.Index >= 0 && y.Ref.Index >= 0 &&
				x.Ref.Index < len(in.wants) && y.Ref.Index < len(in.wants) {
				sameDType = append(sameDType, [2]int{x.Ref.Index, y.Ref.Index})
				in.wantKept(x.Ref.Index, y.Ref.Index)
				in.wantKept(y.Ref.Index, x.Ref.Index)
			}
			return
		}
		b, ok := e.(*rule.Binary)
		if !ok {
			return
		}
		switch b.Op {
		case "&&":
			walk(b.X)
			walk(b.Y)
		case "||":
			// The first alternative is tried: the matcher decides whether the program satisfies the whole.
			walk(b.X)
		case "==":
			in.wantShape(b.X, b.Y)
			in.wantShape(b.Y, b.X)
			if v, f := valueCall(b.X); v >= 0 {
				in.want(v, f, b.Y, false)
				if w, g := valueCall(b.Y); w >= 0 && f == rule.FacetDType && g == rule.FacetDType {
					sameDType = append(sameDType, [2]int{v, w})
				}
			} else if v, f := valueCall(b.Y); v >= 0 {
				in.want(v, f, b.X, false)
			}
		case "in":
			if v, f := valueCall(b.X); v >= 0 {
				in.want(v, f, b.Y, true)
			}
		}
	}
	for _, w := range in.r.Where {
		walk(w)
	}
	// dtype(%k) == dtype(%q): each takes the other's wish (twice, for chains of two).
	for range 2 {
		for _, p := range sameDType {
			a, b := &in.wants[p[0]], &in.wants[p[1]]
			if a.dtype == ir.DTypeUndefined {
				a.dtype = b.dtype
			} else if b.dtype == ir.DTypeUndefined {
				b.dtype = a.dtype
			}
		}
	}
}

// wantKept records same_type(%a, %b) for an input %a and a result %b of a pattern op whose only operand is %a.
func (in *instantiator) wantKept(a, b int) {
	va, vb := in.pat.Values[a], in.pat.Values[b]
	if va.Def >= 0 || vb.Def < 0 || vb.Def >= len(in.pat.Ops) {
		return
	}
	op := in.pat.Ops[vb.Def]
	s := in.ctx.Schema(op.Name)
	if s == nil || len(s.Operands) != 1 || len(op.Operands) == 0 || op.Operands[0].Value != a {
		return
	}
	in.wants[a].keptBy, in.wants[a].keptRes = vb.Def, vb.Result
}

// keepType adjusts the plan of an input to a shape its pattern op (keptBy) gives back unchanged, when the op's
// type rule says the planned one does not: the planned dims, else 0-D, else one dimension.
func (ib *instBuild) keepType(pl operandPlan, w valueWant) operandPlan {
	ctx := ib.in.ctx
	s := ctx.Schema(ib.in.pat.Ops[w.keptBy].Name)
	for _, dims := range [][]int64{pl.dims, {}, {instN}} {
		t := ctx.Tensor(ir.DenseTensor, dims, ctx.Scalar(pl.dtype))
		v := ctx.NewOp(ir.OpSpec{Name: "verify.value", Results: []ir.Type{t}}).Result(0)
		types, err := ctx.InferResultTypes(s, []*ir.Value{v}, nil)
		if err != nil || w.keptRes >= len(types) {
			return pl
		}
		if types[w.keptRes] == ir.Type(t) {
			pl.dims = dims
			return pl
		}
	}
	return pl
}

// wantShape records shape(%v) == e and dim(%v, i) == e, for x the left side.
func (in *instantiator) wantShape(x, e rule.Expr) {
	c, ok := x.(*rule.Call)
	if !ok || c.Native || len(c.Args) == 0 {
		return
	}
	vr, ok := c.Args[0].(*rule.ValueRef)
	if !ok || vr.Ref.New || vr.Ref.Index < 0 || vr.Ref.Index >= len(in.wants) {
		return
	}
	w := &in.wants[vr.Ref.Index]
	switch {
	case facetOf(c) == rule.FacetShape && len(c.Args) == 1:
		if w.shape == nil {
			w.shape = e
		}
	case facetOf(c) == rule.FacetDim && len(c.Args) == 2:
		if a, ok := constExpr(c.Args[1]); ok {
			if axis, ok := a.(int64); ok {
				w.dims = append(w.dims, dimWant{axis: axis, expr: e})
			}
		}
	}
}

// facetOf returns the part of a type a call of a builtin returns (rule.FacetNone for natives and other builtins).
func facetOf(c *rule.Call) rule.TypeFacet {
	if c.Native {
		return rule.FacetNone
	}
	if b := c.Builtin(); b != nil {
		return b.Facet
	}
	return rule.FacetNone
}

// valueCall returns the value hole and the facet of a call dtype(%v) or rank(%v); -1 otherwise.
func valueCall(e rule.Expr) (int, rule.TypeFacet) {
	c, ok := e.(*rule.Call)
	if !ok || len(c.Args) != 1 || facetOf(c) != rule.FacetDType && facetOf(c) != rule.FacetRank {
		return -1, rule.FacetNone
	}
	vr, ok := c.Args[0].(*rule.ValueRef)
	if !ok || vr.Ref.New || vr.Ref.Index < 0 {
		return -1, rule.FacetNone
	}
	return vr.Ref.Index, facetOf(c)
}

// want records the wish of value hole v that builtin f of it equals lit (or, when list, one of lit's elements:
// the first).
func (in *instantiator) want(v int, f rule.TypeFacet, lit rule.Expr, list bool) {
	if v >= len(in.wants) {
		return
	}
	var val rule.Val
	switch l := lit.(type) {
	case *rule.Lit:
		val = l.Value
		if list {
			vs, ok := val.([]rule.Val)
			if !ok || len(vs) == 0 {
				return
			}
			val = vs[0]
		}
	case *rule.List:
		if !list || len(l.Elems) == 0 {
			return
		}
		x, ok := l.Elems[0].(*rule.Lit)
		if !ok {
			return
		}
		val = x.Value
	default:
		return
	}
	w := &in.wants[v]
	switch f {
	case rule.FacetDType:
		if w.dtype != ir.DTypeUndefined {
			return
		}
		switch d := val.(type) {
		case ir.DType:
			w.dtype = d
		case string:
			if dt, ok := ir.DTypeFromDataType(d); ok {
				w.dtype = dt
			} else if dt, ok := ir.DTypeFromText(d); ok {
				w.dtype = dt
			}
		}
	case rule.FacetRank:
		if n, ok := val.(int64); ok && n >= 0 && w.rank < 0 {
			w.rank = int(n)
		}
	}
}

// applyWant adjusts the plan of an input tensor to what the where clause wants of its value hole: the element
// type, and the rank (the trailing dims are kept, as matrix and broadcast shapes read them; missing leading dims
// are the batch size).
func (ib *instBuild) applyWant(pl operandPlan, hole int) operandPlan {
	in := ib.in
	if hole < 0 || hole >= len(in.wants) || pl.constant() || pl.null || pl.dims == nil {
		return pl
	}
	w := in.wants[hole]
	if w.dtype != ir.DTypeUndefined {
		pl.dtype = w.dtype
	}
	if w.rank >= 0 && w.rank != len(pl.dims) {
		dims := make([]int64, w.rank)
		for i := range dims {
			dims[i] = instN
		}
		for i, k := len(dims)-1, len(pl.dims)-1; i >= 0 && k >= 0; i, k = i-1, k-1 {
			dims[i] = pl.dims[k]
		}
		pl.dims = dims
	}
	pl.dims = in.solveDims(pl.dims, hole, holeEnv{ib.c.assign})
	env := builtEnv{ib}
	if w.shape != nil {
		if v, err := rule.Eval(w.shape, env); err == nil {
			if dims, ok := intList(v); ok {
				pl.dims = dims
			}
		}
	}
	for _, d := range w.dims {
		v, err := rule.Eval(d.expr, env)
		n, ok := v.(int64)
		if err != nil || !ok || n < 0 {
			continue
		}
		axis := d.axis
		if axis < 0 {
			axis += int64(len(pl.dims))
		}
		if axis >= 0 && axis < int64(len(pl.dims)) {
			pl.dims = append([]int64(nil), pl.dims...)
			pl.dims[axis] = n
		}
	}
	if t := in.pat.Values[hole].Type; t != nil && t.Tensor != nil {
		pl = ib.applyTypePattern(pl, t.Tensor)
	}
	if w.keptBy >= 0 && pl.spelling == "" {
		pl = ib.keepType(pl, w)
	}
	return pl
}

// applyTypePattern adjusts the plan of an input tensor to the type pattern the match gives its value
// (%m: tensor<$b x 1 x $s x $t x f32>): its rank (without *), its element type, its literal dims, and the dims of
// its holes that a value built before binds (the same $s in both types: the same size). The match would reject a
// program that does not follow them.
func (ib *instBuild) applyTypePattern(pl operandPlan, tp *rule.TensorPattern) operandPlan {
	if !tp.AnyDType && tp.DTypeHole < 0 {
		pl.dtype = tp.DType
	} else if !tp.AnyDType {
		if d, ok := ib.builtDType(tp.DTypeHole); ok {
			pl.dtype = d
		}
	}
	rest := -1
	for i, d := range tp.Dims {
		if d.Kind == rule.DimRest {
			rest = i
		}
	}
	dims := append([]int64(nil), pl.dims...)
	if rest < 0 && len(dims) != len(tp.Dims) {
		// The trailing dims are kept, as matrix and broadcast shapes read them; missing leading dims are the batch.
		n := make([]int64, len(tp.Dims))
		for i := range n {
			n[i] = instN
		}
		for i, k := len(n)-1, len(dims)-1; i >= 0 && k >= 0; i, k = i-1, k-1 {
			n[i] = dims[k]
		}
		dims = n
	}
	if rest >= 0 && len(dims) < len(tp.Dims)-1 {
		return pl // too few dims for the pattern: the search tries other shapes
	}
	for i, d := range tp.Dims {
		axis := i
		if rest >= 0 && i > rest {
			axis = len(dims) - (len(tp.Dims) - i)
		}
		switch d.Kind {
		case rule.DimExact:
			if d.Value >= 0 {
				dims[axis] = d.Value
			}
		case rule.DimHole:
			if n, ok := ib.builtDim(d.Hole); ok {
				dims[axis] = n
			}
		}
	}
	pl.dims = dims
	return pl
}

// builtDim is the size a dimension hole has in the type of a value built before, when one binds it.
func (ib *instBuild) builtDim(hole int) (int64, bool) {
	for v, vh := range ib.in.pat.Values {
		if vh.Type == nil || vh.Type.Tensor == nil || ib.c.vals[v] == nil {
			continue
		}
		tt := ir.TensorOf(ib.c.vals[v].Type())
		if tt == nil {
			continue
		}
		tp := vh.Type.Tensor
		rest := -1
		for i, d := range tp.Dims {
			if d.Kind == rule.DimRest {
				rest = i
			}
		}
		for i, d := range tp.Dims {
			if d.Kind != rule.DimHole || d.Hole != hole {
				continue
			}
			axis := i
			if rest >= 0 && i > rest {
				axis = tt.Rank() - (len(tp.Dims) - i)
			}
			if axis >= 0 && axis < tt.Rank() && tt.Dims[axis] >= 0 {
				return tt.Dims[axis], true
			}
		}
	}
	return 0, false
}

// builtDType is the element type a dtype hole has in the type of a value built before, when one binds it.
func (ib *instBuild) builtDType(hole int) (ir.DType, bool) {
	for v, vh := range ib.in.pat.Values {
		if vh.Type == nil || vh.Type.Tensor == nil || vh.Type.Tensor.DTypeHole != hole || ib.c.vals[v] == nil {
			continue
		}
		if tt := ir.TensorOf(ib.c.vals[v].Type()); tt != nil {
			return tt.DType(), true
		}
	}
	return ir.DTypeUndefined, false
}

// intList returns v as a list of sizes (each >= 0).
func intList(v rule.Val) ([]int64, bool) {
	l, ok := v.([]rule.Val)
	if !ok {
		return nil, false
	}
	out := make([]int64, len(l))
	for i, x := range l {
		n, ok := x.(int64)
		if !ok || n < 0 {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

// builtEnv evaluates wishes on the values of a candidate built so far (an unbuilt value fails the evaluation).
type builtEnv struct{ ib *instBuild }

func (e builtEnv) Hole(i int) (any, bool) {
	if a := e.ib.c.assign; i >= 0 && i < len(a) && a[i] != nil {
		return a[i], true
	}
	return nil, false
}
func (e builtEnv) Value(r rule.Ref) *ir.Value {
	if r.New || r.Index < 0 || r.Index >= len(e.ib.c.vals) {
		return nil
	}
	return e.ib.c.vals[r.Index]
}
func (builtEnv) List(rule.Ref) []*ir.Value { return nil }
func (builtEnv) Builtin(string, []rule.Val) (rule.Val, bool, error) {
	return nil, false, nil
}
func (builtEnv) Native(name string, _ []rule.Val) (rule.Val, error) {
	return nil, fmt.Errorf("native %s is not evaluated here", name)
}

// dtypeHoleLits adds, per hole compared with an input's element type ($dt == dtype(%x)), the element type the
// where clause wants of that input: the candidate that makes the comparison true.
func (in *instantiator) dtypeHoleLits(lits [][]rule.Val) {
	var walk func(e rule.Expr)
	walk = func(e rule.Expr) {
		b, ok := e.(*rule.Binary)
		if !ok {
			return
		}
		switch b.Op {
		case "&&":
			walk(b.X)
			walk(b.Y)
		case "==":
			for _, p := range [][2]rule.Expr{{b.X, b.Y}, {b.Y, b.X}} {
				h, ok := p[0].(*rule.HoleRef)
				if !ok || h.Hole < 0 || h.Hole >= len(lits) {
					continue
				}
				if v, f := valueCall(p[1]); v >= 0 && v < len(in.wants) && f == rule.FacetDType && in.wants[v].dtype != ir.DTypeUndefined {
					lits[h.Hole] = append(lits[h.Hole], in.wants[v].dtype)
				}
			}
		}
	}
	for _, w := range in.r.Where {
		walk(w)
	}
}
