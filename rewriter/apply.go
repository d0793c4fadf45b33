package rewriter

import (
	"fmt"
	"slices"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// NativeRewrite is a rewrite written in Go and called by name from a rule's rewrite block. It gets the rewriter
// (to create ops at the rewrite's insertion point and to change the program) and the evaluated arguments (values,
// attributes converted to plain Go values, …), and returns the values it defines.
type NativeRewrite func(rw *ir.Rewriter, args []any) ([]*ir.Value, error)

// Applier applies matches: it builds a rule's result ops, redirects uses and erases what died. It never leaves a
// program half rewritten when a rule's own actions fail: every op of the rewrite is built (attributes computed,
// result types inferred) before anything is inserted. Only native rewrites, which change the program themselves,
// run in the commit phase.
type Applier struct {
	Rewriter *ir.Rewriter
	Program  *ir.Program
	// Natives resolves native rewrite names.
	Natives map[string]NativeRewrite
	// Oracle answers program-level builtins in attribute expressions (rarely needed there).
	Oracle Oracle

	plans     map[*rule.Create]*createPlan
	rulePlans map[*rule.Rule]*rulePlan

	// Scratch space reused by every Apply.
	env      matchEnv
	built    []*ir.Op
	operands []*ir.Value
	types    []ir.Type
	attrBuf  []ir.NamedAttr
	attrVals []ir.Attribute
}

// rulePlan is what applying a rule needs that depends only on the rule.
type rulePlan struct {
	// replaced maps a new value index to the pattern value it replaces (first Replace wins).
	replaced map[int]int
}

func (a *Applier) rulePlan(r *rule.Rule) *rulePlan {
	if p, ok := a.rulePlans[r]; ok {
		return p
	}
	p := &rulePlan{replaced: replacedBy(r)}
	if a.rulePlans == nil {
		a.rulePlans = map[*rule.Rule]*rulePlan{}
	}
	a.rulePlans[r] = p
	return p
}

// createPlan is what a Create action needs that does not depend on the match: the op's schema, the type of each
// attribute the rule sets and the attributes its literal values convert to, and where each attribute of the
// built op comes from. Applying the same rule a hundred thousand times works these out once.
type createPlan struct {
	schema *ir.OpSchema
	types  []ir.AttrType  // per AttrSet: its type in the schema (any if unknown)
	lits   []ir.Attribute // per AttrSet: the converted literal, or nil
	holes  []int          // per AttrSet: the hole it is (a HoleRef), or -1
	anyOK  []bool         // per AttrSet: its type accepts any attribute
	// sg says where the stop_gradient flags of the op's results come from (see stopGradient), once sgDone.
	sg     []sgSource
	sgDone bool
	// layout lists the built op's attributes in their final order (schema order, then the others in rule
	// order), for rules that copy no matched attributes (RestAttrs < 0): the order is then the same every time.
	layout []attrSlot
	// last is the attribute list of the op built last. Ops never change their attribute slice in place, so the
	// ops a rule builds with equal attributes (the common case) share one slice.
	last []ir.NamedAttr
}

// attrSlot is an attribute of a built op: the value of the rule's AttrSet set (the last one with its name), or,
// when set is negative, the schema default def.
type attrSlot struct {
	name string
	set  int
	def  ir.Attribute
}

// share returns the plan's last attribute list if it equals attrs (attributes are interned: equal means the same
// names and the same pointers), else a copy of attrs, which becomes the last one. attrs may be scratch space.
func (p *createPlan) share(attrs []ir.NamedAttr) []ir.NamedAttr {
	if len(attrs) == 0 {
		return nil
	}
	if !slices.Equal(p.last, attrs) {
		p.last = slices.Clone(attrs)
	}
	return p.last
}

func (a *Applier) plan(c *rule.Create) *createPlan {
	if p, ok := a.plans[c]; ok {
		return p
	}
	ctx := a.Rewriter.Ctx
	n := len(c.Attrs)
	p := &createPlan{schema: ctx.Schema(c.Op), types: make([]ir.AttrType, n), lits: make([]ir.Attribute, n),
		holes: make([]int, n), anyOK: make([]bool, n)}
	for i, set := range c.Attrs {
		p.types[i] = ir.AttrType{Kind: ir.KindAny}
		if p.schema != nil {
			if spec := p.schema.Attr(set.Name); spec != nil {
				p.types[i] = spec.Type
			}
		}
		p.anyOK[i] = p.types[i] == ir.AttrType{Kind: ir.KindAny}
		p.holes[i] = -1
		if h, ok := set.Value.(*rule.HoleRef); ok {
			p.holes[i] = h.Hole
		}
		if lit, ok := set.Value.(*rule.Lit); ok {
			if attr, err := rule.ToAttr(ctx, p.types[i], lit.Value); err == nil {
				p.lits[i] = attr
			}
		}
	}
	if c.RestAttrs < 0 {
		// The general construction (Applier.attrs and orderAttrs) run on names only: where each value goes.
		layout := []attrSlot{}
		for i, set := range c.Attrs {
			if k := slices.IndexFunc(layout, func(sl attrSlot) bool { return sl.name == set.Name }); k >= 0 {
				layout[k].set = i
			} else {
				layout = append(layout, attrSlot{name: set.Name, set: i})
			}
		}
		if p.schema != nil {
			for _, spec := range p.schema.Attrs {
				if spec.Default != nil && !slices.ContainsFunc(layout, func(sl attrSlot) bool { return sl.name == spec.Name }) {
					layout = append(layout, attrSlot{name: spec.Name, set: -1, def: spec.Default})
				}
			}
			sortBySchema(layout, func(sl attrSlot) string { return sl.name }, p.schema)
		}
		p.layout = layout
	}
	if a.plans == nil {
		a.plans = map[*rule.Create]*createPlan{}
	}
	a.plans[c] = p
	return p
}

// Oracle answers program-level builtins and native constraints during expression evaluation (see
// analysis.Oracle for the builtins).
type Oracle interface {
	Builtin(name string, args []any) (any, bool, error)
	Native(name string, args []any) (any, error)
}

// ApplyError is a rewrite that could not be carried out. Committed reports whether the program was already
// changed when it failed (only native rewrites and explicit erasures can fail that late).
type ApplyError struct {
	Rule      *rule.Rule
	Root      *ir.Op
	Committed bool
	Err       error
}

func (e *ApplyError) Error() string { return fmt.Sprintf("rule %s: %v", e.Rule.ID(), e.Err) }

func (e *ApplyError) Unwrap() error { return e.Err }

// matchEnv evaluates expressions against a match and the values the rewrite has defined so far.
type matchEnv struct {
	m      *rule.Match
	newV   []*ir.Value
	oracle Oracle
}

func (e *matchEnv) Hole(i int) (any, bool) {
	v := e.m.Holes[i]
	return v, v != nil
}

func (e *matchEnv) Value(r rule.Ref) *ir.Value {
	if r.New {
		return e.newV[r.Index]
	}
	return e.m.Values[r.Index]
}

func (e *matchEnv) List(r rule.Ref) []*ir.Value {
	if r.New {
		return nil
	}
	return e.m.Lists[r.Index]
}

func (e *matchEnv) Builtin(name string, args []any) (any, bool, error) {
	if e.oracle == nil {
		return nil, false, nil
	}
	return e.oracle.Builtin(name, args)
}

func (e *matchEnv) Native(name string, args []any) (any, error) {
	if e.oracle == nil {
		return nil, fmt.Errorf("native constraint %s is not available", name)
	}
	return e.oracle.Native(name, args)
}

// Apply carries out match m. On success it returns the ops it created; the slice is the applier's and is reused
// by its next Apply.
func (a *Applier) Apply(m *rule.Match) ([]*ir.Op, error) {
	r := m.Rule
	root := m.Root()
	env := &a.env
	env.m, env.oracle = m, a.Oracle
	env.newV = append(env.newV[:0], make([]*ir.Value, len(r.NewValues))...)

	ip, err := insertionPoint(m)
	if err != nil {
		return nil, a.fail(m, false, "%v", err)
	}
	replaced := a.rulePlan(r).replaced

	// Phase 1: build the result ops detached, up to the first native rewrite.
	a.built = a.built[:0]
	next := 0
	for ; next < len(r.Actions); next++ {
		c, ok := r.Actions[next].(*rule.Create)
		if !ok {
			if _, native := r.Actions[next].(*rule.NativeRewrite); native {
				break
			}
			continue
		}
		op, err := a.build(c, env, m, replaced)
		if err != nil {
			a.release()
			return nil, a.fail(m, false, "%s: %v", c.Op, err)
		}
		a.built = append(a.built, op)
	}
	if !inputsDominate(r, m, ip) {
		a.release()
		return nil, a.fail(m, false, "an input of the rewrite is not defined before the insertion point")
	}
	// A replacement must keep the type the users read: a fused op built with the wrong attributes (a conv's
	// paddings left at their defaults) infers another shape, and its users would silently read a wrong one.
	for _, act := range r.Actions {
		rep, ok := act.(*rule.Replace)
		if !ok {
			continue
		}
		from, to := env.Value(rep.Value), env.Value(rep.With)
		if from == nil || to == nil || replaceableBy(from.Type(), to.Type()) {
			continue
		}
		name := rule.ValueName(r.Pattern, rep.Value.Index)
		if rep.Value.New {
			name = "%" + r.NewValues[rep.Value.Index].Name
		}
		a.release()
		return nil, a.fail(m, false, "%s is replaced by a value of type %s, not %s: its users would read another type",
			name, to.Type(), from.Type())
	}

	// Phase 2: commit. The created ops are a.built, to which the ops built after a native rewrite are added.
	b := a.Rewriter
	b.SetInsertionPointBefore(ip)
	for _, op := range a.built {
		b.Insert(op)
	}
	for i := 0; i < len(r.Actions); i++ {
		act := r.Actions[i]
		if i < next {
			if _, isCreate := act.(*rule.Create); isCreate {
				continue
			}
		}
		switch act := act.(type) {
		case *rule.Create:
			op, err := a.build(act, env, m, replaced)
			if err != nil {
				return a.built, a.fail(m, true, "%s: %v", act.Op, err)
			}
			b.SetInsertionPointBefore(ip)
			b.Insert(op)
			a.built = append(a.built, op)
		case *rule.NativeRewrite:
			f := a.Natives[act.Name]
			if f == nil {
				return a.built, a.fail(m, true, "native rewrite %s is not registered", act.Name)
			}
			args := make([]any, len(act.Args))
			for j, x := range act.Args {
				v, err := rule.Eval(x, env)
				if err != nil {
					return a.built, a.fail(m, true, "%v", err)
				}
				args[j] = v
			}
			b.SetInsertionPointBefore(ip)
			vals, err := f(b, args)
			if err != nil {
				return a.built, a.fail(m, true, "native rewrite %s: %v", act.Name, err)
			}
			if len(vals) != len(act.Results) {
				return a.built, a.fail(m, true, "native rewrite %s returned %d values, the rule expects %d", act.Name, len(vals), len(act.Results))
			}
			for j, k := range act.Results {
				if k >= 0 {
					env.newV[k] = vals[j]
				}
			}
		case *rule.Replace:
			from, to := env.Value(act.Value), env.Value(act.With)
			if from == nil || to == nil {
				return a.built, a.fail(m, true, "replace: value not bound")
			}
			if act.Later {
				created := a.built
				b.ReplaceUsesIf(from, to, func(u *ir.Use) bool {
					o := u.Owner()
					if slices.Contains(created, o) {
						return false
					}
					l := ir.LiftTo(o, root.Block())
					return l != nil && l != root && root.IsBefore(l)
				})
			} else {
				b.ReplaceAllUsesWith(from, to)
			}
		case *rule.Erase:
			op := m.Ops[act.Op]
			if op.Erased() {
				continue
			}
			if err := b.Erase(op); err != nil {
				return a.built, a.fail(m, true, "erase: %v", err)
			}
		}
	}
	a.eraseDead(m)
	return a.built, nil
}

// fail returns the ApplyError of a rewrite of m that could not be carried out.
func (a *Applier) fail(m *rule.Match, committed bool, format string, args ...any) error {
	return &ApplyError{Rule: m.Rule, Root: m.Root(), Committed: committed, Err: fmt.Errorf(format, args...)}
}

// release destroys the ops built for a rewrite that is abandoned before its commit.
func (a *Applier) release() {
	rel := ir.NewRewriter(a.Rewriter.Ctx, nil)
	for i := len(a.built) - 1; i >= 0; i-- {
		_ = rel.Erase(a.built[i])
	}
	a.built = a.built[:0]
}

// eraseDead erases the matched ops that have no uses left, consumers before producers. Ops with the SideEffects
// trait stay unless the rule erased them explicitly.
func (a *Applier) eraseDead(m *rule.Match) {
	for changed := true; changed; {
		changed = false
		for i := len(m.Ops) - 1; i >= 0; i-- {
			op := m.Ops[i]
			if op == nil || op.Erased() || op.HasUses() || op.Has(ir.SideEffects) {
				continue
			}
			if a.Rewriter.Erase(op) == nil {
				changed = true
			}
		}
	}
}

// insertionPoint returns the op before which the rewrite's ops go: the root, or the first user (in the root's
// block) of a value the rewrite replaces, whichever comes first.
func insertionPoint(m *rule.Match) (*ir.Op, error) {
	root := m.Root()
	blk := root.Block()
	ip := root
	for _, act := range m.Rule.Actions {
		rep, ok := act.(*rule.Replace)
		if !ok || rep.Later || rep.Value.New {
			continue
		}
		v := m.Values[rep.Value.Index]
		if v == nil {
			continue
		}
		for u := range v.Uses() {
			l := ir.LiftTo(u.Owner(), blk)
			if l == nil {
				return nil, fmt.Errorf("%s is used outside the block of the root", "a replaced value")
			}
			if l.IsBefore(ip) {
				ip = l
			}
		}
	}
	return ip, nil
}

// inputsDominate reports whether every matched value the rewrite's ops read is defined before ip.
func inputsDominate(r *rule.Rule, m *rule.Match, ip *ir.Op) bool {
	for _, act := range r.Actions {
		c, ok := act.(*rule.Create)
		if !ok {
			continue
		}
		for _, o := range c.Operands {
			if o.Null || o.Ref.New {
				continue
			}
			if o.List {
				for _, v := range m.Lists[o.Ref.Index] {
					if v != nil && !ir.Dominates(v, ip) { // nil: an absent optional operand in the list
						return false
					}
				}
			} else if v := m.Values[o.Ref.Index]; v != nil && !ir.Dominates(v, ip) {
				return false
			}
		}
	}
	return true
}

// replacedBy maps a new value index to the pattern value it replaces (first Replace wins).
func replacedBy(r *rule.Rule) map[int]int {
	out := map[int]int{}
	for _, act := range r.Actions {
		if rep, ok := act.(*rule.Replace); ok && rep.With.New && !rep.Value.New && !rep.Later {
			if _, seen := out[rep.With.Index]; !seen {
				out[rep.With.Index] = rep.Value.Index
			}
		}
	}
	return out
}

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
	spec := ir.OpSpec{Name: c.Op, Operands: operands, Results: types, Attrs: attrs}
	var op *ir.Op
	if a.Rewriter.Alloc != nil {
		op = a.Rewriter.Alloc.NewOp(ctx, spec)
	} else {
		op = ctx.NewOp(spec)
	}
	for i, k := range c.Results {
		if k >= 0 && i < op.NumResults() {
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

// replaceableBy reports whether a value of type to may take the place of one of type from: the same type, or
// tensors of the same kind and element type whose dimensions agree wherever both are known.
func replaceableBy(from, to ir.Type) bool {
	if from == to {
		return true
	}
	ft, tt := ir.TensorOf(from), ir.TensorOf(to)
	if ft == nil || tt == nil {
		return false
	}
	if ft.Spelling != tt.Spelling || ft.Elem != tt.Elem || len(ft.Dims) != len(tt.Dims) {
		return false
	}
	for i, d := range ft.Dims {
		if d >= 0 && tt.Dims[i] >= 0 && d != tt.Dims[i] {
			return false
		}
	}
	return true
}
