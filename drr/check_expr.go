package drr

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// ---------------------------------------------------------------------------
// Literals as attributes

// tagKinds maps the tags of printed PIR literals to attribute kinds.
var tagKinds = map[string]ir.AttrKind{
	"Int32": ir.KindInt32, "Int64": ir.KindInt64, "Index": ir.KindIndex, "Float": ir.KindFloat, "Double": ir.KindDouble,
	"Pointer": ir.KindPointer, "pd_op.IntArray": ir.KindIntArray, "pd_op.DataType": ir.KindDataType,
	"pd_op.Place": ir.KindPlace, "pd_op.DataLayout": ir.KindDataLayout, "TensorName": ir.KindTensorName,
	"Complex64": ir.KindComplex64, "Complex128": ir.KindComplex128,
}

// literalAttr converts a literal expression of a rule into an attribute of type t (KindAny: the kind the literal
// says or, untagged, a guess). Tagged literals keep their kind, which must then fit t.
func (rc *ruleChecker) literalAttr(e Expr, t ir.AttrType) (ir.Attribute, error) {
	ctx := rc.c.ctx
	switch e := e.(type) {
	case *ParenExpr:
		return rc.literalAttr(e.X, t)
	case *TaggedLit:
		k, ok := tagKinds[e.Tag]
		if !ok {
			return nil, fmt.Errorf("unknown literal tag (%s)", e.Tag)
		}
		a, err := rc.taggedAttr(k, e.Value)
		if err != nil {
			return nil, err
		}
		if !t.Accepts(a) {
			return nil, fmt.Errorf("the schema says %s, the literal is %s", t, k)
		}
		return a, nil
	case *ListExpr:
		if t.Array || t.Kind == ir.KindAny {
			elemT := ir.AttrType{Kind: t.Kind}
			elems := make([]ir.Attribute, 0, len(e.Elems))
			for _, x := range e.Elems {
				a, err := rc.literalAttr(x, elemT)
				if err != nil {
					return nil, err
				}
				elems = append(elems, a)
			}
			return ctx.Array(elems...), nil
		}
		lit, err := rc.literal(e)
		if err != nil {
			return nil, err
		}
		return ctx.Coerce(t, lit)
	case *SymbolLit:
		return rc.symbolAttr(e.Text, t)
	case *TypeExpr:
		ty := rc.concreteType(e.Type)
		if ty == nil {
			return nil, fmt.Errorf("a type attribute must be a concrete type")
		}
		a := ir.Attribute(ctx.TypeAttr(ty))
		if !t.Accepts(a) {
			return nil, fmt.Errorf("the schema says %s, the literal is a type", t)
		}
		return a, nil
	}
	lit, err := rc.literal(e)
	if err != nil {
		return nil, err
	}
	return ctx.Coerce(t, lit)
}

// literal turns an untagged literal expression into an ir.Literal.
func (rc *ruleChecker) literal(e Expr) (ir.Literal, error) {
	switch e := e.(type) {
	case *ParenExpr:
		return rc.literal(e.X)
	case *BasicLit:
		switch e.Kind {
		case IntLit, FloatLit:
			if strings.HasPrefix(e.Text, "0x") || strings.HasPrefix(e.Text, "0X") {
				v, err := strconv.ParseInt(e.Text[2:], 16, 64)
				if err != nil {
					return ir.Literal{}, fmt.Errorf("bad number %s", e.Text)
				}
				return ir.Literal{Kind: ir.LitInt, Int: v}, nil
			}
			return ir.ParseNumber(e.Text)
		case StringLit:
			return ir.Literal{Kind: ir.LitString, Str: e.Value}, nil
		case BoolLit:
			return ir.Literal{Kind: ir.LitBool, Bool: e.Text == "true"}, nil
		}
		return ir.Literal{}, fmt.Errorf("%s is not an attribute value", e.Text)
	case *UnaryExpr:
		if e.Op == "-" {
			l, err := rc.literal(e.X)
			if err != nil {
				return l, err
			}
			switch l.Kind {
			case ir.LitInt:
				l.Int = -l.Int
				return l, nil
			case ir.LitFloat:
				l.Float = -l.Float
				return l, nil
			}
		}
	case *NameExpr:
		return ir.Literal{Kind: ir.LitIdent, Str: e.Name}, nil
	case *SymbolLit:
		if strings.HasPrefix(e.Text, "Place(") && strings.HasSuffix(e.Text, ")") {
			return ir.Literal{Kind: ir.LitPlace, Str: e.Text[6 : len(e.Text)-1]}, nil
		}
		return ir.Literal{Kind: ir.LitIdent, Str: e.Text}, nil
	case *ListExpr:
		l := ir.Literal{Kind: ir.LitList, List: []ir.Literal{}}
		for _, x := range e.Elems {
			el, err := rc.literal(x)
			if err != nil {
				return l, err
			}
			l.List = append(l.List, el)
		}
		return l, nil
	}
	return ir.Literal{}, fmt.Errorf("expected a literal attribute value")
}

func (rc *ruleChecker) taggedAttr(k ir.AttrKind, v Expr) (ir.Attribute, error) {
	ctx := rc.c.ctx
	switch k {
	case ir.KindPointer:
		lit, err := rc.literal(v)
		if err != nil {
			return nil, err
		}
		if lit.Kind == ir.LitInt {
			return ctx.Pointer("0x" + strconv.FormatInt(lit.Int, 16)), nil
		}
		return ctx.Pointer(lit.Str), nil
	case ir.KindComplex64, ir.KindComplex128:
		lit, err := rc.literal(v)
		if err != nil || lit.Kind != ir.LitList || len(lit.List) != 2 {
			return nil, fmt.Errorf("a complex literal is [re,im]")
		}
		re, _ := ir.AsFloat(mustGuess(ctx, lit.List[0]))
		im, _ := ir.AsFloat(mustGuess(ctx, lit.List[1]))
		bits := 128
		if k == ir.KindComplex64 {
			bits = 64
		}
		return ctx.Complex(bits, re, im), nil
	case ir.KindPlace, ir.KindDataLayout:
		if s, ok := v.(*SymbolLit); ok {
			return rc.symbolAttr(s.Text, ir.AttrType{Kind: k})
		}
	}
	lit, err := rc.literal(v)
	if err != nil {
		return nil, err
	}
	return ctx.Coerce(ir.AttrType{Kind: k}, lit)
}

func mustGuess(ctx *ir.Context, l ir.Literal) ir.Attribute {
	a, err := ctx.Guess(l)
	if err != nil {
		return ctx.Double(0)
	}
	return a
}

// symbolAttr converts raw printed-PIR attribute text.
func (rc *ruleChecker) symbolAttr(text string, t ir.AttrType) (ir.Attribute, error) {
	ctx := rc.c.ctx
	switch {
	case text == "<#AttrNull>":
		return ctx.NullAttr(), nil
	case strings.HasPrefix(text, "Place(") && strings.HasSuffix(text, ")"):
		p, ok := ir.ParsePlace(text[6 : len(text)-1])
		if !ok {
			return nil, fmt.Errorf("bad place %s", text)
		}
		a := ir.Attribute(ctx.Place(p))
		if !t.Accepts(a) {
			return nil, fmt.Errorf("the schema says %s, the literal is a Place", t)
		}
		return a, nil
	case t.Kind == ir.KindDataLayout:
		return ctx.DataLayout(text), nil
	}
	if t.Kind != ir.KindAny && t.Kind != ir.KindOpaque {
		return nil, fmt.Errorf("the schema says %s, the literal is %s", t, text)
	}
	return ctx.OpaqueAttr(text), nil
}

// ---------------------------------------------------------------------------
// Expressions

// sType is the static type of an expression.
type sType uint8

const (
	stAny sType = iota
	stBool
	stInt
	stFloat
	stString
	stList
	stDType
	stValue
	stValues
	stType
)

func (t sType) String() string {
	return [...]string{"any value", "a bool", "an int", "a float", "a string", "a list", "a dtype", "a value", "a value list", "a type"}[t]
}

func numeric(t sType) bool { return t == stInt || t == stFloat || t == stAny }

// holeType is the static type of what a hole holds.
func holeType(h *rule.Hole) sType {
	switch h.Kind {
	case rule.HoleDim:
		return stInt
	case rule.HoleDType:
		return stDType
	case rule.HoleType:
		return stType
	case rule.HoleAttrs:
		return stAny
	}
	return attrSType(h.Type)
}

// attrSType is the static type of an attribute of kind t in expressions.
func attrSType(t ir.AttrType) sType {
	if t.Array {
		return stList
	}
	switch t.Kind {
	case ir.KindBool:
		return stBool
	case ir.KindInt32, ir.KindInt64, ir.KindIndex:
		return stInt
	case ir.KindFloat, ir.KindDouble:
		return stFloat
	case ir.KindStr, ir.KindTensorName, ir.KindDataLayout:
		return stString
	case ir.KindIntArray:
		return stList
	case ir.KindDataType:
		return stDType
	case ir.KindType:
		return stType
	}
	return stAny
}

// exprScope says which names an expression may use.
type exprScope struct {
	where bool // in a where clause: only match values
	attr  string
	// paths: in a where clause or a rewrite's attribute, native argument or operand choice, where bound(…) is
	// decided per path through the alternatives (language.md §4.8, §6.1).
	paths bool
}

// expr translates an expression and returns its static type. An expression deeper than rule.MaxExprDepth (which
// Parse does not build, but a syntax tree made in Go may hold) is an error, not a walk that exhausts the stack.
func (rc *ruleChecker) expr(e Expr, sc exprScope) (rule.Expr, sType) {
	if rc.depth >= rule.MaxExprDepth {
		rc.errorf(e.Pos(), "expression too deep: more than %d levels of operators and brackets", rule.MaxExprDepth)
		return newNode(&rc.s.nodes.lit, rule.Lit{Pos: e.span().Pos()}), stAny
	}
	rc.depth++
	x, t := rc.exprAt(e, sc)
	rc.depth--
	return x, t
}

// exprAt is expr one level down.
func (rc *ruleChecker) exprAt(e Expr, sc exprScope) (rule.Expr, sType) {
	pos := e.span().Pos()
	switch e := e.(type) {
	case *ParenExpr:
		return rc.expr(e.X, sc)
	case *BasicLit:
		switch e.Kind {
		case IntLit:
			l, err := rc.literal(e)
			if err != nil {
				rc.errorf(e.Pos(), "%v", err)
				return newNode(&rc.s.nodes.lit, rule.Lit{Pos: pos}), stAny
			}
			if l.Kind == ir.LitFloat {
				return newNode(&rc.s.nodes.lit, rule.Lit{Value: l.Float, Pos: pos}), stFloat
			}
			return newNode(&rc.s.nodes.lit, rule.Lit{Value: l.Int, Pos: pos}), stInt
		case FloatLit:
			l, err := ir.ParseNumber(e.Text)
			if err != nil {
				rc.errorf(e.Pos(), "%v", err)
			}
			return newNode(&rc.s.nodes.lit, rule.Lit{Value: l.Float, Pos: pos}), stFloat
		case StringLit:
			return newNode(&rc.s.nodes.lit, rule.Lit{Value: e.Value, Pos: pos}), stString
		case BoolLit:
			return newNode(&rc.s.nodes.lit, rule.Lit{Value: e.Text == "true", Pos: pos}), stBool
		}
		rc.errorf(e.Pos(), "null is an operand (an absent value), not an expression value")
		return newNode(&rc.s.nodes.lit, rule.Lit{Pos: pos}), stAny
	case *TaggedLit:
		a, err := rc.literalAttr(e, ir.AttrType{Kind: ir.KindAny})
		if err != nil {
			rc.errorf(e.Pos(), "%v", err)
			return newNode(&rc.s.nodes.lit, rule.Lit{Pos: pos}), stAny
		}
		v := rule.AttrVal(a)
		return newNode(&rc.s.nodes.lit, rule.Lit{Value: v, Pos: pos}), valType(v)
	case *SymbolLit:
		a, err := rc.symbolAttr(e.Text, ir.AttrType{Kind: ir.KindAny})
		if err != nil {
			rc.errorf(e.Pos(), "%v", err)
			return newNode(&rc.s.nodes.lit, rule.Lit{Pos: pos}), stAny
		}
		v := rule.AttrVal(a)
		return newNode(&rc.s.nodes.lit, rule.Lit{Value: v, Pos: pos}), valType(v)
	case *NameExpr:
		if m, ok := rc.bind[e.Name]; ok {
			// A family variable stands for its member's op name without the dialect ("relu").
			_, short := ir.SplitOpName(m)
			return newNode(&rc.s.nodes.lit, rule.Lit{Value: short, Pos: pos}), stString
		}
		if d, ok := ir.DTypeFromDataType(e.Name); ok {
			return newNode(&rc.s.nodes.lit, rule.Lit{Value: d, Pos: pos}), stDType
		}
		return newNode(&rc.s.nodes.lit, rule.Lit{Value: e.Name, Pos: pos}), stString
	case *TypeExpr:
		ty := rc.concreteType(e.Type)
		if ty == nil {
			rc.errorf(e.Pos(), "a type used as a value must be concrete")
			return newNode(&rc.s.nodes.lit, rule.Lit{Pos: pos}), stAny
		}
		return newNode(&rc.s.nodes.lit, rule.Lit{Value: ty, Pos: pos}), stType
	case *ListExpr:
		if sp, ok := oneSpread(e); ok && rc.users != nil && !sc.where {
			return rc.spread(sp, sc) // [x...]: x per element of the users group
		}
		out := newNode(&rc.s.nodes.list, rule.List{Pos: pos, Elems: make([]rule.Expr, 0, len(e.Elems))})
		for _, x := range e.Elems {
			xe, _ := rc.expr(x, sc)
			out.Elems = append(out.Elems, xe)
		}
		return out, stList
	case *HoleExpr:
		i, ok := rc.holes[e.Name]
		if !ok {
			return rc.paramRef(e, pos)
		}
		h := rc.p.Holes[i]
		if h.Kind == rule.HoleAttrs {
			rc.errorf(e.Pos(), "$%s... binds a list of attributes; use it as $%s... in an attribute map", e.Name, e.Name)
		}
		rc.holeRefs[i] = true
		rc.partialHoleUse(i, e.Pos())
		return newNode(&rc.s.nodes.holeRef, rule.HoleRef{Hole: i, Pos: pos}), holeType(h)
	case *ValueExpr:
		ref, list, ok := rc.valueRef(e.Name, e.Pos(), sc.where)
		if !ok {
			return newNode(&rc.s.nodes.lit, rule.Lit{Pos: pos}), stAny
		}
		if list {
			return newNode(&rc.s.nodes.valueRef, rule.ValueRef{Ref: ref, Pos: pos}), stValues
		}
		return newNode(&rc.s.nodes.valueRef, rule.ValueRef{Ref: ref, Pos: pos}), stValue
	case *UnaryExpr:
		x, t := rc.expr(e.X, sc)
		switch e.Op {
		case "!":
			if t != stBool && t != stAny {
				rc.errorf(e.Pos(), "! needs a bool, this is %s", t)
			}
			return newNode(&rc.s.nodes.unary, rule.Unary{Op: "!", X: x, Pos: pos}), stBool
		case "-":
			if !numeric(t) {
				rc.errorf(e.Pos(), "- needs a number, this is %s", t)
			}
			return newNode(&rc.s.nodes.unary, rule.Unary{Op: "-", X: x, Pos: pos}), t
		}
	case *BinaryExpr:
		return rc.binary(e, sc)
	case *CondExpr:
		c, ct := rc.expr(e.Cond, sc)
		if ct != stBool && ct != stAny {
			rc.errorf(e.Cond.Pos(), "the condition of ?: must be a bool, this is %s", ct)
		}
		a, at := rc.guarded(e.Cond, true, sc, e.Then)
		b, bt := rc.guarded(e.Cond, false, sc, e.Else)
		t := at
		if at != bt {
			switch {
			case numeric(at) && numeric(bt):
				t = stFloat
			default:
				t = stAny
			}
		}
		return newNode(&rc.s.nodes.cond, rule.Cond{Cond: c, Then: a, Else: b, Pos: pos}), t
	case *IndexExpr:
		x, xt := rc.expr(e.X, sc)
		i, it := rc.expr(e.Index, sc)
		if it != stInt && it != stAny {
			rc.errorf(e.Index.Pos(), "an index must be an int, this is %s", it)
		}
		if xt != stList && xt != stString && xt != stAny {
			rc.errorf(e.X.Pos(), "cannot index %s", xt)
		}
		t := stAny
		if xt == stString {
			t = stString
		}
		return newNode(&rc.s.nodes.index, rule.Index{X: x, Index: i, Pos: pos}), t
	case *CallExpr:
		return rc.call(e, sc)
	case *SpreadExpr:
		if rc.users != nil && !sc.where {
			rc.errorf(e.Pos(), "x... is the list of x per element of the users group: write it as the only element of a list, [x...]")
			return newNode(&rc.s.nodes.lit, rule.Lit{Pos: pos}), stAny
		}
		rc.errorf(e.Pos(), "... spreads a value list into operands; it is not an expression value")
		return newNode(&rc.s.nodes.lit, rule.Lit{Pos: pos}), stAny
	case *WildcardExpr:
		rc.errorf(e.Pos(), "_ matches any attribute in a match; it is not an expression value")
		return newNode(&rc.s.nodes.lit, rule.Lit{Pos: pos}), stAny
	case *LabelExpr:
		rc.errorf(e.Pos(), "@%s names an op for erase; it is not an expression value", e.Name)
		return newNode(&rc.s.nodes.lit, rule.Lit{Pos: pos}), stAny
	}
	rc.errorf(e.Pos(), "unsupported expression")
	return newNode(&rc.s.nodes.lit, rule.Lit{Pos: pos}), stAny
}

func valType(v any) sType {
	switch v.(type) {
	case bool:
		return stBool
	case int64:
		return stInt
	case float64:
		return stFloat
	case string:
		return stString
	case []rule.Val:
		return stList
	case ir.DType:
		return stDType
	case ir.Type:
		return stType
	}
	return stAny
}

// valueRef resolves %name: a match value, or (outside where clauses) a value the rewrite defined.
func (rc *ruleChecker) valueRef(name string, pos diag.Position, where bool) (rule.Ref, bool, bool) {
	if i, ok := rc.values[name]; ok {
		rc.partialValue(i, pos)
		// A per-element value of a users group is, in a rewrite, the list of the elements' values (except in the x of
		// a spread [x...], where it is one element's).
		return rule.Ref{Index: i}, rc.p.Values[i].List || !where && !rc.inSpread && rc.isElem(i), true
	}
	if !where {
		if i, ok := rc.newValues[name]; ok {
			return rule.Ref{New: true, Index: i}, rc.r.NewValues[i].List, true
		}
	}
	names := make([]string, 0, len(rc.values)+len(rc.newValues))
	for n := range rc.values {
		names = append(names, n)
	}
	if !where {
		for n := range rc.newValues {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	hint := ""
	if s, ok := suggestBound(name, names); ok {
		hint = " (did you mean %" + s + "?)"
	}
	if where {
		rc.errorf(pos, "%%%s is not bound in the match%s", name, hint)
	} else {
		rc.errorf(pos, "%%%s is not bound in the match or defined earlier in the rewrite%s", name, hint)
	}
	return rule.Ref{}, false, false
}

func (rc *ruleChecker) binary(e *BinaryExpr, sc exprScope) (rule.Expr, sType) {
	pos := e.OpSpan.span().Pos()
	x, xt := rc.expr(e.X, sc)
	var y rule.Expr
	var yt sType
	switch e.Op {
	case "&&", "||": // the right operand is evaluated when the left is true (&&) or false (||)
		y, yt = rc.guarded(e.X, e.Op == "&&", sc, e.Y)
	default:
		y, yt = rc.expr(e.Y, sc)
	}
	out := newNode(&rc.s.nodes.binary, rule.Binary{Op: e.Op, X: x, Y: y, Pos: pos})
	bad := func(format string, args ...any) { rc.errorf(e.OpSpan.Pos(), format, args...) }
	switch e.Op {
	case "&&", "||":
		if xt != stBool && xt != stAny || yt != stBool && yt != stAny {
			bad("%s needs bools, these are %s and %s", e.Op, xt, yt)
		}
		return out, stBool
	case "==", "!=":
		if !comparable(xt, yt) {
			bad("cannot compare %s and %s", xt, yt)
		}
		return out, stBool
	case "<", "<=", ">", ">=":
		if !(numeric(xt) && numeric(yt) || xt == stString && yt == stString || xt == stAny || yt == stAny) {
			bad("cannot order %s and %s", xt, yt)
		}
		return out, stBool
	case "in":
		if yt != stList && yt != stAny {
			bad("in needs a list on the right, this is %s", yt)
		}
		return out, stBool
	case "+":
		switch {
		case xt == stString && yt == stString:
			return out, stString
		case xt == stList && yt == stList:
			return out, stList
		}
		fallthrough
	case "-", "*", "/", "%":
		if !numeric(xt) || !numeric(yt) {
			bad("%s needs numbers, these are %s and %s", e.Op, xt, yt)
			return out, stAny
		}
		if xt == stInt && yt == stInt {
			return out, stInt
		}
		if xt == stAny || yt == stAny {
			return out, stAny
		}
		return out, stFloat
	}
	bad("unknown operator %s", e.Op)
	return out, stAny
}

func comparable(a, b sType) bool {
	switch {
	case a == stAny || b == stAny || a == b:
		return true
	case numeric(a) && numeric(b):
		return true
	case a == stDType && b == stString || a == stString && b == stDType:
		return true
	}
	return false
}

// call translates a builtin or native function call in an expression.
func (rc *ruleChecker) call(e *CallExpr, sc exprScope) (rule.Expr, sType) {
	pos := e.span().Pos()
	name := e.Func.Name
	if e.Attrs != nil || !e.Func.IsBare() {
		rc.errorf(e.Pos(), "%s(…) builds an op; ops are built in a rewrite's statements and operands, not in expressions", name)
		return newNode(&rc.s.nodes.lit, rule.Lit{Pos: pos}), stAny
	}
	if n, ok := rc.c.natives[name]; ok {
		if n.Rewrite {
			rc.errorf(e.Pos(), "%s is a native rewrite; call it as a rewrite statement", name)
			return newNode(&rc.s.nodes.lit, rule.Lit{Pos: pos}), stAny
		}
		return rc.nativeCall(e, n, sc), stBool
	}
	b, ok := rule.LookupBuiltin(name)
	if !ok {
		rc.errorf(e.Func.Pos(), "unknown function %s", name)
		return newNode(&rc.s.nodes.lit, rule.Lit{Pos: pos}), stAny
	}
	if b.PathQuery {
		return rc.boundCall(e, sc)
	}
	out := newNode(&rc.s.nodes.call, rule.Call{Func: name, Pos: pos, Args: make([]rule.Expr, 0, len(e.Args))})
	fixed, variadic := len(b.Params), false
	if fixed > 0 && strings.HasSuffix(b.Params[fixed-1], "...") {
		fixed--
		variadic = true
	}
	if len(e.Args) < fixed || !variadic && len(e.Args) > fixed {
		want := nouns(fixed, "argument")
		if variadic {
			want = "at least " + want
		}
		rc.errorf(e.Pos(), "%s takes %s, not %d", name, want, len(e.Args))
		return out, resultType(b)
	}
	for i, a := range e.Args {
		kind := b.Params[min(i, len(b.Params)-1)]
		kind = strings.TrimSuffix(kind, "...")
		switch kind {
		case "opname":
			n, ok := opNameArg(a)
			if m, isVar := rc.bind[n]; ok && isVar {
				n = m // a family variable names its member
			}
			if !ok {
				rc.errorf(a.Pos(), "%s: argument %d is an op name (pd_op.full)", name, i+1)
				continue
			}
			if rc.c.ctx.Schema(n) == nil && !rc.c.opts.Unregistered {
				rc.errorf(a.Pos(), "unknown op %s%s", n, rc.c.suggestOp(n))
			}
			out.Args = append(out.Args, newNode(&rc.s.nodes.lit, rule.Lit{Value: n, Pos: a.span().Pos()}))
			continue
		case "trait":
			n, ok := opNameArg(a)
			if _, known := ir.TraitFromName(n); !ok || !known {
				rc.errorf(a.Pos(), "%s: argument %d is a trait (%s)", name, i+1, strings.Join(ir.TraitNames(), ", "))
				continue
			}
			out.Args = append(out.Args, newNode(&rc.s.nodes.lit, rule.Lit{Value: n, Pos: a.span().Pos()}))
			continue
		}
		x, t := rc.expr(a, sc)
		out.Args = append(out.Args, x)
		switch kind {
		case "value":
			if t != stValue && !(t == stValues && variadic && i >= fixed-1) && t != stAny {
				rc.errorf(a.Pos(), "%s: argument %d must be a value (%%x), this is %s", name, i+1, t)
			}
			if vr, ok := x.(*rule.ValueRef); ok && !vr.Ref.New && (b.CountsUses || b.AllUnused) {
				rc.sharedBy(vr.Ref.Index)
			}
		case "int":
			if t != stInt && t != stAny {
				rc.errorf(a.Pos(), "%s: argument %d must be an int, this is %s", name, i+1, t)
			}
		case "string":
			if t != stString && t != stAny {
				rc.errorf(a.Pos(), "%s: argument %d must be a string, this is %s", name, i+1, t)
			}
		case "list":
			if t != stList && t != stAny {
				rc.errorf(a.Pos(), "%s: argument %d must be a list, this is %s", name, i+1, t)
			}
		}
	}
	return out, resultType(b)
}

// sharedBy records that a where clause constrains the uses of a value itself: an internal value so constrained is
// not subject to the default use-set closure.
func (rc *ruleChecker) sharedBy(v int) {
	h := rc.p.Values[v]
	if h.Def >= 0 {
		h.Shared = true
	}
}

func opNameArg(a Expr) (string, bool) {
	switch a := a.(type) {
	case *NameExpr:
		return a.Name, true
	case *BasicLit:
		if a.Kind == StringLit {
			return a.Value, true
		}
	}
	return "", false
}

// resultType is the checker's type of what builtin b returns.
func resultType(b *rule.Builtin) sType {
	switch b.Result {
	case "bool":
		return stBool
	case "int":
		return stInt
	case "float":
		return stFloat
	case "string":
		return stString
	case "list":
		return stList
	case "dtype":
		return stDType
	}
	return stAny
}

func (rc *ruleChecker) nativeCall(e *CallExpr, n *rule.NativeDecl, sc exprScope) rule.Expr {
	out := newNode(&rc.s.nodes.call, rule.Call{Func: n.Name, Native: true, Pos: e.span().Pos()})
	if len(e.Args) != len(n.Params) {
		rc.errorf(e.Pos(), "%s takes %s, not %d", n.Name, nouns(len(n.Params), "argument"), len(e.Args))
		return out
	}
	for i, a := range e.Args {
		x, t := rc.expr(a, sc)
		out.Args = append(out.Args, x)
		p := n.Params[i]
		if p.Value && t != stValue && t != stValues && t != stAny {
			rc.errorf(a.Pos(), "%s: argument %d (%%%s) must be a value, this is %s", n.Name, i+1, p.Name, t)
		}
		if !p.Value && (t == stValue || t == stValues) {
			rc.errorf(a.Pos(), "%s: argument %d ($%s) is %s, not a value", n.Name, i+1, p.Name, article(p.Type.String()))
		}
	}
	return out
}

// where translates the constraints.
func (rc *ruleChecker) where(w *WhereBlock) {
	for _, e := range w.Constraints {
		x, t := rc.expr(e, exprScope{where: true, paths: true})
		if t != stBool && t != stAny {
			rc.errorf(e.Pos(), "a constraint must be a bool, this is %s", t)
		}
		rc.r.Where = append(rc.r.Where, x)
		rc.requiredUnused(x)
	}
}

// requiredUnused records the values a constraint requires to have no uses — unused(%v, …) or uses(%v) == 0 at the
// top level of a conjunction — so that the dangling check accepts them like `_` results.
func (rc *ruleChecker) requiredUnused(e rule.Expr) {
	switch e := e.(type) {
	case *rule.Binary:
		switch e.Op {
		case "&&":
			rc.requiredUnused(e.X)
			rc.requiredUnused(e.Y)
		case "==":
			if c, ok := e.X.(*rule.Call); ok && c.Builtin() != nil && c.Builtin().CountsUses && len(c.Args) == 1 {
				if lit, ok := e.Y.(*rule.Lit); ok && rule.Equal(lit.Value, int64(0)) {
					rc.markUnused(c.Args[0])
				}
			}
		}
	case *rule.Call:
		if b := e.Builtin(); b != nil && b.AllUnused {
			for _, a := range e.Args {
				rc.markUnused(a)
			}
		}
	}
}

func (rc *ruleChecker) markUnused(a rule.Expr) {
	if v, ok := a.(*rule.ValueRef); ok && !v.Ref.New {
		rc.unusedOK[v.Ref.Index] = true
	}
}
