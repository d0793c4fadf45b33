package drr

import (
	"strconv"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// rewrite translates the rewrite block into actions.
func (rc *ruleChecker) rewrite(b *RewriteBlock) {
	if len(b.Stmts) == 0 {
		rc.errorf(b.Pos(), "empty rewrite block")
		return
	}
	for _, st := range b.Stmts {
		switch st := st.(type) {
		case *AssignStmt:
			rc.assign(st)
		case *ReplaceStmt:
			rc.replace(st)
		case *EraseStmt:
			rc.erase(st)
		case *ExprStmt:
			call, ok := st.X.(*CallExpr)
			if !ok {
				rc.errorf(st.Pos(), "a rewrite statement builds ops, replaces values, erases ops or calls a native rewrite")
				continue
			}
			if n, isNative := rc.c.natives[call.Func.Name]; isNative && call.Func.IsBare() {
				rc.nativeRewrite(call, n, nil)
				continue
			}
			// An op without results, or one kept for its effects (set_parameter, fetch), is a statement of its own.
			if s := rc.c.ctx.Schema(call.Func.Name); s != nil && (len(s.Results) == 0 || s.Has(ir.SideEffects)) {
				rc.createOp(call, []*Result{}, nil)
				continue
			}
			rc.errorf(st.Pos(), "the result of %s(…) is not used; name it (%%x = …) or replace a value with it", call.Func.Name)
		}
	}
}

// newValue defines a value of the rewrite.
func (rc *ruleChecker) newValue(name string, pos diag.Position) int {
	if _, clash := rc.values[name]; clash {
		rc.errorf(pos, "%%%s is already bound in the match; the rewrite defines new names", name)
	}
	if _, dup := rc.newValues[name]; dup {
		rc.errorf(pos, "%%%s is defined twice in the rewrite", name)
	}
	i := len(rc.r.NewValues)
	rc.r.NewValues = append(rc.r.NewValues, newNode(&rc.s.nodes.newValue, rule.NewValue{Name: name, Pos: pos}))
	rc.newValues[name] = i
	return i
}

func (rc *ruleChecker) anonNewValue(pos diag.Position) int {
	rc.anon++
	i := len(rc.r.NewValues)
	rc.r.NewValues = append(rc.r.NewValues, newNode(&rc.s.nodes.newValue, rule.NewValue{Name: anonName(rc.anon), Pos: pos}))
	return i
}

func (rc *ruleChecker) assign(st *AssignStmt) {
	call, ok := st.Value.(*CallExpr)
	if !ok {
		rc.errorf(st.Value.Pos(), "the right side of = builds an op (pd_op.relu(%%x)) or calls a native rewrite")
		return
	}
	if n, isNative := rc.c.natives[call.Func.Name]; isNative && call.Func.IsBare() {
		var results []int
		for _, r := range st.Results {
			if r.Kind == ResultValue {
				results = append(results, rc.newValue(r.Name, r.Pos()))
			} else {
				results = append(results, -1)
			}
		}
		rc.nativeRewrite(call, n, results)
		return
	}
	rc.createOp(call, st.Results, st.Types)
}

// createOp translates an op construction (and its nested constructions) into Create actions; it returns the new
// value holding the op's first result (for nested use), or -1.
func (rc *ruleChecker) createOp(call *CallExpr, results []*Result, types []TypePattern) int {
	if _, builtin := rule.LookupBuiltin(call.Func.Name); builtin && call.Func.IsBare() {
		rc.errorf(call.Pos(), "%s is a builtin function; functions compute attribute values, ops are written with their dialect", call.Func.Name)
		return -1
	}
	name, _, ok := rc.resolveOp(call.Func)
	if !ok {
		return rc.unknownOp(call, results)
	}
	schema := rc.c.ctx.Schema(name)
	c := newNode(&rc.s.nodes.create, rule.Create{Op: name, RestAttrs: -1, Pos: call.span().Pos()})
	c.Operands = make([]rule.RewriteOperand, 0, len(call.Args))
	lists := false
	for i, a := range call.Args {
		if o, ok := rc.rewriteOperand(a, i, name, schema); ok {
			lists = lists || o.List
			c.Operands = append(c.Operands, o)
		}
	}
	if schema != nil {
		// The operands as written: one that is wrong is reported for itself, not again as missing from the count.
		n := len(call.Args)
		fits := schema.OperandCountOK(n)
		if lists {
			fits = n-1 <= len(schema.Operands) || schema.IsVariadic()
		}
		if !fits {
			rc.errorf(call.Pos(), "%s takes %s; the rewrite gives %d", name, operandCount(schema), n)
		}
	}
	rc.createAttrs(c, call.Attrs, schema, name)

	// Results.
	nres := -1
	if schema != nil && !schema.IsVariadic() {
		nres = len(schema.Results)
	}
	if types != nil {
		for _, t := range types {
			te, ok := rc.typeExpr(t)
			if ok {
				c.ResultTypes = append(c.ResultTypes, te)
			}
		}
		if nres >= 0 && len(types) != nres {
			rc.errorf(call.Pos(), "%s has %s; the rewrite gives %d types", name, resultCount(schema), len(types))
		}
		if nres < 0 {
			nres = len(types)
		}
	} else if nres != 0 && (schema == nil || schema.Infer == "") {
		// Decided after the whole rewrite is read: an op whose result replaces a matched value gets that value's type.
		rc.untyped = append(rc.untyped, untypedCreate{c: c, pos: call.Pos()})
	}
	first := -1
	if results == nil {
		if nres == 0 {
			rc.errorf(call.Pos(), "%s has no result to use as an operand or replacement", name)
			return -1
		}
		first = rc.anonNewValue(call.Pos())
		c.Results = []int{first}
	} else {
		if nres >= 0 && len(results) > nres {
			rc.errorf(call.Pos(), "%s has %s; the rewrite names %d", name, resultCount(schema), len(results))
		}
		for i, r := range results {
			switch r.Kind {
			case ResultValue:
				v := rc.newValue(r.Name, r.Pos())
				if r.Spread {
					if rc.users == nil {
						rc.errorf(r.Pos(), "%%%s... (every result of the op, as a list) is for the pieces of a users group; this rule has none", r.Name)
					}
					rc.r.NewValues[v].List = true
				}
				c.Results = append(c.Results, v)
				if i == 0 {
					first = v
				}
			case ResultWildcard:
				c.Results = append(c.Results, -1)
			case ResultEllipsis:
			}
		}
	}
	rc.r.Actions = append(rc.r.Actions, c)
	return first
}

// rewriteOperand translates operand i of a created op (name, schema): a value, a spread list, a nested op or list
// (created first), null, or a choice per path (operandChoice); it reports false after an error.
func (rc *ruleChecker) rewriteOperand(a Expr, i int, name string, schema *ir.OpSchema) (rule.RewriteOperand, bool) {
	switch a := a.(type) {
	case *ValueExpr:
		ref, list, ok := rc.valueRef(a.Name, a.Pos(), false)
		if !ok {
			return rule.RewriteOperand{}, false
		}
		if list {
			rc.errorf(a.Pos(), "%%%s binds a list of values; spread it with %%%s...", a.Name, a.Name)
			return rule.RewriteOperand{}, false
		}
		return rule.RewriteOperand{Ref: ref}, true
	case *SpreadExpr:
		v, ok := a.X.(*ValueExpr)
		if !ok {
			rc.errorf(a.Pos(), "only a value list (%%xs...) can be spread")
			return rule.RewriteOperand{}, false
		}
		ref, list, ok := rc.valueRef(v.Name, v.Pos(), false)
		if !ok {
			return rule.RewriteOperand{}, false
		}
		if !list {
			rc.errorf(a.Pos(), "%%%s is a single value, not a list", v.Name)
			return rule.RewriteOperand{}, false
		}
		return rule.RewriteOperand{Ref: ref, List: true}, true
	case *CallExpr:
		if n, isNative := rc.c.natives[a.Func.Name]; isNative && a.Func.IsBare() && n.Rewrite {
			rc.errorf(a.Pos(), "call the native rewrite %s in its own statement and use its result", a.Func.Name)
			return rule.RewriteOperand{}, false
		}
		v := rc.createOp(a, nil, nil)
		if v < 0 {
			return rule.RewriteOperand{}, false
		}
		return rule.RewriteOperand{Ref: rule.Ref{New: true, Index: v}}, true
	case *ListExpr:
		v := rc.combineOp(a)
		if v < 0 {
			return rule.RewriteOperand{}, false
		}
		return rule.RewriteOperand{Ref: rule.Ref{New: true, Index: v}}, true
	case *BasicLit:
		if a.Kind != NullLit {
			rc.errorf(a.Pos(), "operand %d of %s is a value (%%x), an op, a list [%%a, %%b] or null, not a literal", i, name)
			return rule.RewriteOperand{}, false
		}
		if schema != nil && i < len(schema.Operands) && !schema.Operands[i].Optional {
			rc.errorf(a.Pos(), "operand %d (%s) of %s is not optional", i, schema.Operands[i].Name, name)
		}
		return rule.RewriteOperand{Null: true}, true
	case *ParenExpr:
		return rc.rewriteOperand(a.X, i, name, schema)
	case *CondExpr:
		return rc.operandChoice(a, i, name, schema)
	default:
		rc.errorf(a.Pos(), "operand %d of %s is a value (%%x), an op, a list [%%a, %%b] or null", i, name)
	}
	return rule.RewriteOperand{}, false
}

// unusedHoleHint says what to write instead of a hole bound but never used: what matches the same without binding.
func unusedHoleHint(k rule.HoleKind) string {
	switch k {
	case rule.HoleDim:
		return "write ? to match any size"
	case rule.HoleDType:
		return "write ? to match any element type"
	case rule.HoleType:
		return "write _ to match any type"
	}
	return "write _ to only require the attribute"
}

// unknownOp checks what it can of the construction of an op that is not known (resolveOp reported it): its
// operands, so that an unbound value beside it is reported too, and its results, which are defined so that their
// later uses are not reported as unbound. It returns the value of its first result, or -1.
func (rc *ruleChecker) unknownOp(call *CallExpr, results []*Result) int {
	for _, a := range call.Args {
		switch a := a.(type) {
		case *ValueExpr:
			rc.valueRef(a.Name, a.Pos(), false)
		case *SpreadExpr:
			if v, ok := a.X.(*ValueExpr); ok {
				rc.valueRef(v.Name, v.Pos(), false)
			}
		case *CallExpr:
			if _, isNative := rc.c.natives[a.Func.Name]; !isNative || !a.Func.IsBare() {
				rc.createOp(a, nil, nil)
			}
		case *ListExpr:
			rc.combineOp(a)
		}
	}
	if results == nil {
		return rc.anonNewValue(call.Pos())
	}
	first := -1
	for _, r := range results {
		if r.Kind == ResultValue {
			if v := rc.newValue(r.Name, r.Pos()); first < 0 {
				first = v
			}
		}
	}
	return first
}

// combineOp builds a builtin.combine of the listed values; it returns the vector value.
func (rc *ruleChecker) combineOp(l *ListExpr) int {
	c := newNode(&rc.s.nodes.create, rule.Create{Op: "builtin.combine", RestAttrs: -1, Pos: l.span().Pos()})
	for _, e := range l.Elems {
		switch e := e.(type) {
		case *ValueExpr:
			ref, list, ok := rc.valueRef(e.Name, e.Pos(), false)
			if ok {
				c.Operands = append(c.Operands, rule.RewriteOperand{Ref: ref, List: list})
			}
		case *SpreadExpr:
			v, ok := e.X.(*ValueExpr)
			if !ok {
				rc.errorf(e.Pos(), "only a value list (%%xs...) can be spread")
				continue
			}
			ref, _, ok := rc.valueRef(v.Name, v.Pos(), false)
			if ok {
				c.Operands = append(c.Operands, rule.RewriteOperand{Ref: ref, List: true})
			}
		case *CallExpr:
			if v := rc.createOp(e, nil, nil); v >= 0 {
				c.Operands = append(c.Operands, rule.RewriteOperand{Ref: rule.Ref{New: true, Index: v}})
			}
		default:
			rc.errorf(e.Pos(), "a combine list [..] holds values")
		}
	}
	v := rc.anonNewValue(l.Pos())
	c.Results = []int{v}
	rc.r.Actions = append(rc.r.Actions, c)
	return v
}

// createAttrs translates the attribute map of a created op.
func (rc *ruleChecker) createAttrs(c *rule.Create, m *AttrMap, schema *ir.OpSchema, name string) {
	if m != nil {
		c.Attrs = make([]rule.AttrSet, 0, len(m.Entries))
		for _, e := range m.Entries {
			key := e.Key.Name
			if setsAttr(c.Attrs, key) {
				rc.errorf(e.Key.Pos(), "attribute %s is set twice", key)
				continue
			}
			spec := rc.attrSpec(schema, name, key, e.Key.Pos())
			x, t := rc.expr(e.Value, exprScope{attr: key, paths: true})
			if spec != nil && !attrTypeFits(spec.Type, t) {
				rc.errorf(e.Value.Pos(), "attribute %s of %s is %s; this is %s", key, name, spec.Type, t)
			}
			// A literal that cannot become the declared kind is caught now rather than at rewrite time.
			if lit, ok := x.(*rule.Lit); ok && spec != nil {
				if _, err := rule.ToAttr(rc.c.ctx, spec.Type, lit.Value); err != nil {
					rc.errorf(e.Value.Pos(), "attribute %s of %s: %v", key, name, err)
				}
			}
			c.Attrs = append(c.Attrs, rule.AttrSet{Name: key, Value: x})
		}
		if m.Rest != nil {
			i, ok := rc.holes[m.Rest.Name]
			if !ok || rc.p.Holes[i].Kind != rule.HoleAttrs {
				rc.errorf(m.Rest.Pos(), "$%s... is not bound to the attributes of a matched op", m.Rest.Name)
			} else {
				c.RestAttrs = i
				rc.holeRefs[i] = true
				rc.partialHoleUse(i, m.Rest.Pos())
			}
		}
	}
	if schema == nil || c.RestAttrs >= 0 {
		return
	}
	for _, a := range schema.Attrs {
		if a.Default == nil && !a.Optional && !setsAttr(c.Attrs, a.Name) {
			rc.errorf(c.Pos, "%s needs attribute %s (%s): the schema gives it no default; set it, e.g. {%s: %s}",
				name, a.Name, a.Type, a.Name, rc.attrSuggestion(a))
		}
	}
}

// attrSuggestion is a value to suggest for a created op's attribute a: the hole the match binds to an attribute of
// the same name and type (the matched op's epsilon for the fused op's), or a literal of a's type.
func (rc *ruleChecker) attrSuggestion(a ir.AttrSpec) string {
	for _, op := range rc.p.Ops {
		for _, m := range op.Attrs {
			if m.Name != a.Name || m.Kind != rule.AttrBind || m.Hole < 0 || m.Hole >= len(rc.p.Holes) {
				continue
			}
			if h := rc.p.Holes[m.Hole]; h.Kind == rule.HoleAttr && (h.Type == ir.AttrType{} || h.Type == a.Type) {
				return "$" + h.Name
			}
		}
	}
	if a.Type.Array {
		return "[]"
	}
	switch a.Type.Kind {
	case ir.KindBool:
		return "false"
	case ir.KindInt32, ir.KindInt64, ir.KindIndex:
		return "0"
	case ir.KindFloat, ir.KindDouble, ir.KindScalar:
		return "0.0"
	case ir.KindStr:
		return `""`
	case ir.KindIntArray:
		return "[1]"
	case ir.KindDataType:
		return "float32"
	case ir.KindPlace:
		return "Place(cpu)"
	case ir.KindDataLayout:
		return `"NCHW"`
	}
	return "…"
}

// setsAttr reports whether attrs sets the attribute name. Ops have few attributes: a scan beats a map.
func setsAttr(attrs []rule.AttrSet, name string) bool {
	for _, a := range attrs {
		if a.Name == name {
			return true
		}
	}
	return false
}

// attrTypeFits reports whether an expression of static type t can become an attribute of type want.
func attrTypeFits(want ir.AttrType, t sType) bool {
	if t == stAny {
		return true
	}
	if want.Array {
		return t == stList
	}
	switch want.Kind {
	case ir.KindAny, ir.KindOpaque, ir.KindPointer, ir.KindScalar:
		return true
	case ir.KindBool:
		return t == stBool
	case ir.KindInt32, ir.KindInt64, ir.KindIndex:
		return t == stInt
	case ir.KindFloat, ir.KindDouble:
		return t == stInt || t == stFloat
	case ir.KindStr, ir.KindTensorName, ir.KindDataLayout:
		return t == stString
	case ir.KindIntArray:
		return t == stList
	case ir.KindDataType:
		return t == stDType || t == stString
	case ir.KindType:
		return t == stType
	case ir.KindPlace:
		return true
	}
	return true
}

// typeExpr translates an explicit result type.
func (rc *ruleChecker) typeExpr(t TypePattern) (rule.TypeExpr, bool) {
	switch t := t.(type) {
	case *TypeOf:
		ref, list, ok := rc.valueRef(t.Value, t.Pos(), false)
		if !ok {
			return rule.TypeExpr{}, false
		}
		if list {
			rc.errorf(t.Pos(), "type(%%%s): %%%s is a list of values", t.Value, t.Value)
			return rule.TypeExpr{}, false
		}
		return rule.TypeExpr{Of: &ref}, true
	case *HoleType:
		rc.errorf(t.Pos(), "use type(%%v) for the type of a matched value")
		return rule.TypeExpr{}, false
	}
	if ty := rc.concreteType(t); ty != nil {
		return rule.TypeExpr{Exact: ty}, true
	}
	tt, ok := t.(*TensorType)
	if !ok {
		rc.errorf(t.Pos(), "a result type must be concrete, type(%%v), or a tensor type whose holes the match binds")
		return rule.TypeExpr{}, false
	}
	rc.resultTypes = true
	tp := rc.typePattern(tt)
	rc.resultTypes = false
	if tp == nil || tp.Tensor == nil {
		return rule.TypeExpr{}, false
	}
	for _, d := range tp.Tensor.Dims {
		if d.Kind == rule.DimAny || d.Kind == rule.DimRest {
			rc.errorf(tt.Pos(), "a result type needs every dimension (? and * only match)")
			return rule.TypeExpr{}, false
		}
	}
	if tp.Tensor.AnyDType {
		rc.errorf(tt.Pos(), "a result type needs an element type")
		return rule.TypeExpr{}, false
	}
	for _, d := range tt.Dims {
		if d.Kind == DimHole {
			rc.holeRefs[rc.holes[d.Text]] = true
			rc.partialHoleUse(rc.holes[d.Text], d.Pos())
		}
	}
	if tt.Dtype != nil && tt.Dtype.Kind == DtypeHole {
		rc.holeRefs[rc.holes[tt.Dtype.Name]] = true
		rc.partialHoleUse(rc.holes[tt.Dtype.Name], tt.Dtype.Pos())
	}
	return rule.TypeExpr{Tensor: tp.Tensor}, true
}

func (rc *ruleChecker) nativeRewrite(call *CallExpr, n *rule.NativeDecl, results []int) {
	if !n.Rewrite {
		rc.errorf(call.Pos(), "%s is a native constraint; use it in the where clause", n.Name)
		return
	}
	a := &rule.NativeRewrite{Name: n.Name, Results: results, Pos: call.span().Pos()}
	if len(call.Args) != len(n.Params) {
		rc.errorf(call.Pos(), "%s takes %s, not %d", n.Name, nouns(len(n.Params), "argument"), len(call.Args))
	}
	for _, arg := range call.Args {
		x, _ := rc.expr(arg, exprScope{paths: true})
		a.Args = append(a.Args, x)
	}
	if n.Results >= 0 && len(results) > n.Results {
		rc.errorf(call.Pos(), "%s returns %s; the rewrite names %d", n.Name, nouns(n.Results, "value"), len(results))
	}
	rc.r.Actions = append(rc.r.Actions, a)
}

func (rc *ruleChecker) replace(st *ReplaceStmt) {
	i, ok := rc.values[st.Old.Name]
	if !ok {
		if _, isNew := rc.newValues[st.Old.Name]; isNew {
			rc.errorf(st.Old.Pos(), "%%%s is defined by the rewrite; only matched values can be replaced", st.Old.Name)
		} else {
			rc.errorf(st.Old.Pos(), "%%%s is not bound in the match", st.Old.Name)
		}
		return
	}
	if rc.p.Values[i].List {
		rc.errorf(st.Old.Pos(), "%%%s is a list of values; replace single values", st.Old.Name)
		return
	}
	if st.Each {
		rc.replaceEach(st, i)
		return
	}
	if rc.isElem(i) {
		rc.errorf(st.Old.Pos(), "%%%s is bound per element of the users group: replace %%%s... with %%parts..., pairwise", st.Old.Name, st.Old.Name)
		return
	}
	if rc.partialValue(i, st.Old.Pos()) {
		return
	}
	if prev, dup := rc.replaced[i]; dup {
		rc.errorf(st.Old.Pos(), "%%%s is replaced twice (also at %s)", st.Old.Name, prev.String())
		return
	}
	rc.replaced[i] = st.Old.Pos()
	var with rule.Ref
	switch n := st.New.(type) {
	case *ValueExpr:
		ref, list, ok := rc.valueRef(n.Name, n.Pos(), false)
		if !ok {
			return
		}
		if list {
			rc.errorf(n.Pos(), "%%%s is a list of values", n.Name)
			return
		}
		if !ref.New && ref.Index == i {
			rc.errorf(n.Pos(), "%%%s is replaced with itself", n.Name)
			return
		}
		with = ref
	case *CallExpr:
		v := rc.createOp(n, nil, nil)
		if v < 0 {
			return
		}
		with = rule.Ref{New: true, Index: v}
	default:
		rc.errorf(st.New.Pos(), "replace %%%s with a value or an op", st.Old.Name)
		return
	}
	rc.r.Actions = append(rc.r.Actions, &rule.Replace{Value: rule.Ref{Index: i}, With: with, Later: st.Later, Pos: st.span().Pos()})
}

func (rc *ruleChecker) erase(st *EraseStmt) {
	k := -1
	switch t := st.Target.(type) {
	case *LabelExpr:
		op, ok := rc.labels[t.Name]
		if !ok || op < 0 {
			rc.errorf(t.Pos(), "@%s does not label an op of the match", t.Name)
			return
		}
		k = op
	case *ValueExpr:
		i, ok := rc.values[t.Name]
		if !ok || rc.p.Values[i].Def < 0 {
			rc.errorf(t.Pos(), "%%%s is not a result of an op of the match", t.Name)
			return
		}
		k = rc.p.Values[i].Def
	default:
		rc.errorf(st.Pos(), "erase @label or erase %%value")
		return
	}
	if rc.partialOp[k] {
		rc.errorf(st.Target.Pos(), "%s is an op of an alternative; the rewrite may erase only ops every alternative binds", rc.p.Ops[k].Name)
		return
	}
	if rc.erased[k] {
		rc.errorf(st.Pos(), "%s is erased twice", rc.p.Ops[k].Name)
		return
	}
	rc.erased[k] = true
	rc.r.Actions = append(rc.r.Actions, &rule.Erase{Op: k, Pos: st.span().Pos()})
}

// untypedCreate is a created op with no explicit result types and no type rule.
type untypedCreate struct {
	c   *rule.Create
	pos diag.Position
}

// typesFromReplacements gives a single-result op that has no type rule the type of the matched value its result
// replaces (replace %b with X(…), as family rules do), and reports the others.
func (rc *ruleChecker) typesFromReplacements() {
	for _, u := range rc.untyped {
		done := false
		if len(u.c.Results) == 1 && u.c.Results[0] >= 0 {
			for _, a := range rc.r.Actions {
				rep, ok := a.(*rule.Replace)
				if ok && rep.With.New && rep.With.Index == u.c.Results[0] && !rep.Value.New && !rep.Later {
					of := rep.Value
					u.c.ResultTypes = []rule.TypeExpr{{Of: &of}}
					done = true
					break
				}
			}
		}
		if !done {
			rc.errorf(u.pos, "the result type of %s cannot be inferred (its schema has no type rule); write -> TYPE after the op", u.c.Op)
		}
	}
}

// ---------------------------------------------------------------------------
// Checks of the whole rule

// lint reports what is legal but almost certainly wrong: results that may stay used after the rewrite (dangling),
// holes bound and never used, rewrites that change nothing.
func (rc *ruleChecker) lint() {
	p := rc.p
	// Dangling results.
	for k, op := range p.Ops {
		for ri, res := range op.Results {
			v := res.Value
			if v < 0 {
				continue
			}
			if _, ok := rc.replaced[v]; ok {
				continue
			}
			if rc.operandOf[v] || rc.unusedOK[v] {
				continue // internal (closure or the rule's own use constraint decides), or required unused
			}
			pos := rc.resultPos[[2]int{k, ri}]
			what := "the result"
			if ri > 0 || len(op.Results) > 1 {
				what = "result " + strconv.Itoa(ri)
			}
			rc.errorf(pos, "%%%s (%s of %s) may still be used after the rewrite: replace it, or write _ to require that it has no uses",
				p.Values[v].Name, what, op.Name)
		}
	}
	// Holes bound once and never used.
	for i, h := range p.Holes {
		if rc.holeUses[i] == 1 && !rc.holeRefs[i] && h.Kind != rule.HoleAttrs {
			rc.warnf(h.Pos, "$%s is bound but never used (%s)", h.Name, unusedHoleHint(h.Kind))
		}
	}
	// A rewrite must change something.
	changes := len(rc.replaced) > 0 || len(rc.erased) > 0
	for _, a := range rc.r.Actions {
		if _, ok := a.(*rule.NativeRewrite); ok {
			changes = true
		}
	}
	if !changes {
		rc.errorf(rc.ast.Rewrite.Pos(), "the rewrite neither replaces a value nor erases an op, so the rule would change nothing")
	}
}

// anonNames are the names of the first anonymous values, which every rule uses.
var anonNames = func() (names [32]string) {
	for i := range names {
		names[i] = "_" + strconv.Itoa(i)
	}
	return
}()

// anonName names the n-th anonymous value of a rule.
func anonName(n int) string {
	if n < len(anonNames) {
		return anonNames[n]
	}
	return "_" + strconv.Itoa(n)
}
