package rule

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

// Builder builds one Rule by hand, in Go, the way the .drr checker would produce it: a compact API for tests and
// plugin authors. It mirrors the rule language: operands and holes are named with their sigils.
//
//	b := rule.NewBuilder(ctx, "conv_bn")
//	b.Op("pd_op.conv2d", "%x", "%w").Attr("groups", "$g").Attr("data_format", ctx.Str("NCHW")).Results("%y")
//	b.Op("pd_op.batch_norm_", "%y", "%mean", "%var", "%scale", "%bias").
//		Attr("data_format", "$fmt").Results("%out", "_", "_", "_", "_", "_")
//	b.Where(rule.Bin("==", b.Uses("%y"), rule.Int(1)))
//	r, err := b.Build()
//
// Operands of Op are strings or nested ops:
//
//	"%x"       a value hole (created on first mention; an input unless some op's Results binds it)
//	"%xs..."   a list hole binding the remaining operands (last operand only)
//	"_"        any operand, present or absent
//	"null"     an absent optional operand
//	*OpBuilder result 0 of that op (a nested pattern); an op without declared results gets one anonymous result
//
// Attribute values (OpBuilder.Attr) are "$h" (bind the attribute to hole $h, or check it equals $h's binding), "_"
// (the attribute must be present) or an ir.Attribute (the attribute, or its schema default, must be exactly it).
//
// Positions: the rule is at line 1 of File and every Op and Where call takes the next line, so diagnostics and
// explanations point at "statements" in call order; OpBuilder.At overrides an op's position.
//
// Errors are collected and reported by Build; the builder methods never panic.
type Builder struct {
	// Ctx is the Context literal attributes and types belong to.
	Ctx *ir.Context
	// File is the file name used in positions (default: the rule name + ".drr").
	File string
	// ChooseRoot, if set, picks the pattern's root when Root was not called (the checker passes
	// matcher.ChooseRoot). Otherwise the root is the last op added.
	ChooseRoot func(*Pattern) int

	r     *Rule
	vals  map[string]int
	holes map[string]int
	ops   []*OpBuilder
	root  *OpBuilder
	line  int
	anon  int
	errs  []error
}

// OpBuilder adds details to one op pattern of a Builder.
type OpBuilder struct {
	b   *Builder
	idx int
}

// NewBuilder starts a rule named name over ctx.
func NewBuilder(ctx *ir.Context, name string) *Builder {
	b := &Builder{Ctx: ctx, vals: map[string]int{}, holes: map[string]int{}, line: 1}
	b.r = &Rule{Name: name, Benefit: 1, Pattern: &Pattern{}, Pos: diag.Position{Line: 1, Column: 1}}
	return b
}

func (b *Builder) errorf(format string, args ...any) {
	b.errs = append(b.errs, fmt.Errorf("rule %s: %s", b.r.Name, fmt.Sprintf(format, args...)))
}

func (b *Builder) nextPos() diag.Position {
	b.line++
	return diag.Position{Line: b.line, Column: 3}
}

// Benefit sets the rule's benefit (default 1).
func (b *Builder) Benefit(n int) *Builder { b.r.Benefit = n; return b }

// Doc sets the rule's documentation.
func (b *Builder) Doc(s string) *Builder { b.r.Doc = s; return b }

// Labels sets the rule's labels.
func (b *Builder) Labels(labels ...string) *Builder { b.r.Labels = labels; return b }

// Instance marks the rule as the instance of an op family for member.
func (b *Builder) Instance(member string) *Builder { b.r.Instance = member; return b }

// Root makes op the pattern's root.
func (b *Builder) Root(op *OpBuilder) *Builder { b.root = op; return b }

// Pattern returns the pattern built so far (for inspection; Build finishes it).
func (b *Builder) Pattern() *Pattern { return b.r.Pattern }

// value returns the index of the value hole named name (with or without '%'), creating it as an input.
func (b *Builder) value(name string, list bool, pos diag.Position) int {
	name = strings.TrimPrefix(name, "%")
	if i, ok := b.vals[name]; ok {
		if b.r.Pattern.Values[i].List != list {
			b.errorf("%%%s is used both as a value and as a list", name)
		}
		return i
	}
	i := len(b.r.Pattern.Values)
	b.r.Pattern.Values = append(b.r.Pattern.Values, &ValueHole{Name: name, Def: -1, List: list, Pos: pos})
	b.vals[name] = i
	return i
}

// hole returns the index of the $hole named name (with or without '$'), creating it with kind k.
func (b *Builder) hole(name string, k HoleKind, pos diag.Position) int {
	name = strings.TrimPrefix(name, "$")
	if i, ok := b.holes[name]; ok {
		if h := b.r.Pattern.Holes[i]; h.Kind != k {
			b.errorf("$%s is used as %s and as %s", name, holeKindNames[h.Kind], holeKindNames[k])
		}
		return i
	}
	i := len(b.r.Pattern.Holes)
	b.r.Pattern.Holes = append(b.r.Pattern.Holes, &Hole{Name: name, Kind: k, Pos: pos})
	b.holes[name] = i
	return i
}

var holeKindNames = [...]string{HoleAttr: "an attribute", HoleAttrs: "an attribute list", HoleDim: "a dimension",
	HoleDType: "a dtype", HoleType: "a type"}

// ValueIndex returns the index of value hole name in Pattern.Values, or -1.
func (b *Builder) ValueIndex(name string) int {
	if i, ok := b.vals[strings.TrimPrefix(name, "%")]; ok {
		return i
	}
	return -1
}

// HoleIndex returns the index of $hole name in Pattern.Holes, or -1.
func (b *Builder) HoleIndex(name string) int {
	if i, ok := b.holes[strings.TrimPrefix(name, "$")]; ok {
		return i
	}
	return -1
}

// Op adds an op pattern named name ("" matches any op) with the given operands (see Builder for their forms).
func (b *Builder) Op(name string, operands ...any) *OpBuilder {
	pos := b.nextPos()
	p := b.r.Pattern
	op := &OpPattern{Name: name, RestAttrs: -1, Pos: pos}
	ob := &OpBuilder{b: b, idx: len(p.Ops)}
	for i, x := range operands {
		switch x := x.(type) {
		case string:
			switch {
			case x == "_":
				op.Operands = append(op.Operands, OperandPattern{Kind: OperandAny})
			case x == "null":
				op.Operands = append(op.Operands, OperandPattern{Kind: OperandNull})
			case strings.HasPrefix(x, "%") && strings.HasSuffix(x, "..."):
				if i != len(operands)-1 {
					b.errorf("op %s: list operand %s must be last", name, x)
				}
				v := b.value(strings.TrimSuffix(x, "..."), true, pos)
				op.Operands = append(op.Operands, OperandPattern{Kind: OperandList, Value: v})
			case strings.HasPrefix(x, "%") && len(x) > 1:
				op.Operands = append(op.Operands, OperandPattern{Kind: OperandValue, Value: b.value(x, false, pos)})
			default:
				b.errorf("op %s: bad operand %q (want %%x, %%xs..., _, null or an op)", name, x)
			}
		case *OpBuilder:
			op.Operands = append(op.Operands, OperandPattern{Kind: OperandValue, Value: x.result0()})
		default:
			b.errorf("op %s: bad operand of type %T", name, x)
		}
	}
	p.Ops = append(p.Ops, op)
	b.ops = append(b.ops, ob)
	return ob
}

// result0 returns the value hole bound to result 0 of the op, declaring one anonymous result if none is declared.
func (o *OpBuilder) result0() int {
	op := o.op()
	if len(op.Results) == 0 {
		o.b.anon++
		o.Results("%_" + strconv.Itoa(o.b.anon))
	}
	if v := op.Results[0].Value; v >= 0 {
		return v
	}
	o.b.errorf("op %s: result 0 is _ and cannot be an operand", op.Name)
	return 0
}

func (o *OpBuilder) op() *OpPattern { return o.b.r.Pattern.Ops[o.idx] }

// Builder returns the rule builder, to chain further calls.
func (o *OpBuilder) Builder() *Builder { return o.b }

// Index returns the op's index in Pattern.Ops.
func (o *OpBuilder) Index() int { return o.idx }

// Label sets the op's @label.
func (o *OpBuilder) Label(l string) *OpBuilder { o.op().Label = strings.TrimPrefix(l, "@"); return o }

// At sets the op's position in the rule file.
func (o *OpBuilder) At(line, col int) *OpBuilder {
	o.op().Pos = diag.Position{Filename: o.op().Pos.Filename, Line: line, Column: col}
	return o
}

// Commutative lets operands 0 and 1 match in either order.
func (o *OpBuilder) Commutative() *OpBuilder { o.op().Commutative = true; return o }

// Results declares the op's results in order: "%y" binds a value hole, "_" is a result that must be unused, and a
// final "..." allows further (unused) results.
func (o *OpBuilder) Results(names ...string) *OpBuilder {
	op := o.op()
	if len(op.Results) > 0 || op.MoreResults {
		o.b.errorf("op %s: results declared twice", op.Name)
		return o
	}
	for i, n := range names {
		switch {
		case n == "...":
			if i != len(names)-1 {
				o.b.errorf("op %s: ... must be the last result", op.Name)
			}
			op.MoreResults = true
		case n == "_":
			op.Results = append(op.Results, ResultPattern{Value: -1})
		case strings.HasPrefix(n, "%") && len(n) > 1:
			v := o.b.value(n, false, op.Pos)
			h := o.b.r.Pattern.Values[v]
			if h.Def >= 0 {
				o.b.errorf("%s is defined twice", n)
			}
			h.Def, h.Result = o.idx, len(op.Results)
			op.Results = append(op.Results, ResultPattern{Value: v})
		default:
			o.b.errorf("op %s: bad result %q (want %%y, _ or ...)", op.Name, n)
		}
	}
	return o
}

// Attr constrains attribute name: v is "$h" (bind or check hole $h), "_" (present) or an ir.Attribute (equals).
func (o *OpBuilder) Attr(name string, v any) *OpBuilder {
	op := o.op()
	switch v := v.(type) {
	case string:
		switch {
		case v == "_":
			op.Attrs = append(op.Attrs, AttrPattern{Name: name, Kind: AttrPresent, Hole: -1})
		case strings.HasPrefix(v, "$") && len(v) > 1:
			op.Attrs = append(op.Attrs, AttrPattern{Name: name, Kind: AttrBind, Hole: o.b.hole(v, HoleAttr, op.Pos)})
		default:
			o.b.errorf("op %s: attribute %s: bad value %q (want $h, _ or an ir.Attribute)", op.Name, name, v)
		}
	case ir.Attribute:
		if v == nil {
			o.b.errorf("op %s: attribute %s: nil literal", op.Name, name)
			break
		}
		op.Attrs = append(op.Attrs, AttrPattern{Name: name, Kind: AttrEquals, Hole: -1, Literal: v})
	default:
		o.b.errorf("op %s: attribute %s: bad value of type %T", op.Name, name, v)
	}
	return o
}

// Constant marks the op pattern as constant-like: it matches by value (OpPattern.Constant).
func (o *OpBuilder) Constant() *OpBuilder { o.op().Constant = true; return o }

// RestAttrs binds every attribute not constrained by Attr to the $hole (an ordered []ir.NamedAttr).
func (o *OpBuilder) RestAttrs(hole string) *OpBuilder {
	o.op().RestAttrs = o.b.hole(hole, HoleAttrs, o.op().Pos)
	return o
}

// Shared marks the value hole name as allowed to have uses outside the match.
func (b *Builder) Shared(name string) *Builder {
	if i := b.ValueIndex(name); i >= 0 {
		b.r.Pattern.Values[i].Shared = true
	} else {
		b.errorf("Shared: unknown value %s", name)
	}
	return b
}

// Type constrains the type of value hole name (see ExactType, TypeHole and Tensor).
func (b *Builder) Type(name string, t *TypePattern) *Builder {
	i := b.ValueIndex(name)
	if i < 0 {
		b.errorf("Type: unknown value %s", name)
		return b
	}
	b.r.Pattern.Values[i].Type = t
	return b
}

// ExactType returns the type pattern matching exactly t.
func (b *Builder) ExactType(t ir.Type) *TypePattern { return &TypePattern{Exact: t, Hole: -1} }

// TypeHole returns the type pattern binding the whole type to $hole.
func (b *Builder) TypeHole(hole string) *TypePattern {
	return &TypePattern{Hole: b.hole(hole, HoleType, diag.Position{Line: b.line, Column: 3})}
}

// Tensor returns a tensor type pattern. dims are "64" or "-1" (exact), "?" (any one), "$c" (a dimension hole) or
// "*" (any number of dimensions, once); dtype is a scalar spelling ("f32" or "float32"), "$dt" (a dtype hole) or
// "?"; spellings are the accepted tensor spellings (none: builtin.tensor, pd_op.tensor and tensor, the spellings of
// the language's tensor<…>).
func (b *Builder) Tensor(dims []string, dtype string, spellings ...string) *TypePattern {
	pos := diag.Position{Line: b.line, Column: 3}
	tp := &TensorPattern{DTypeHole: -1, Spellings: spellings}
	if len(spellings) == 0 {
		tp.Spellings = []string{ir.DenseTensor, ir.LegacyTensor, ir.BareTensor}
	}
	rest := 0
	for _, d := range dims {
		switch {
		case d == "?":
			tp.Dims = append(tp.Dims, DimPattern{Kind: DimAny, Hole: -1})
		case d == "*":
			rest++
			tp.Dims = append(tp.Dims, DimPattern{Kind: DimRest, Hole: -1})
		case strings.HasPrefix(d, "$"):
			tp.Dims = append(tp.Dims, DimPattern{Kind: DimHole, Hole: b.hole(d, HoleDim, pos)})
		default:
			n, err := strconv.ParseInt(d, 10, 64)
			if err != nil {
				b.errorf("Tensor: bad dimension %q", d)
			}
			tp.Dims = append(tp.Dims, DimPattern{Kind: DimExact, Value: n, Hole: -1})
		}
	}
	if rest > 1 {
		b.errorf("Tensor: * may appear once")
	}
	switch {
	case dtype == "?":
		tp.AnyDType = true
	case strings.HasPrefix(dtype, "$"):
		tp.DTypeHole = b.hole(dtype, HoleDType, pos)
	default:
		d, ok := ir.DTypeFromText(dtype)
		if !ok {
			d, ok = ir.DTypeFromDataType(dtype)
		}
		if !ok {
			b.errorf("Tensor: unknown dtype %q", dtype)
		}
		tp.DType = d
	}
	return &TypePattern{Hole: -1, Tensor: tp}
}

// Where appends constraints; each is placed on the next line.
func (b *Builder) Where(exprs ...Expr) *Builder {
	for _, e := range exprs {
		setPos(e, b.nextPos())
		b.r.Where = append(b.r.Where, e)
	}
	return b
}

// setPos gives e and its subexpressions that have no position the position pos.
func setPos(e Expr, pos diag.Position) {
	WalkExpr(e, func(x Expr) {
		if p := exprPos(x); p != nil && *p == (diag.Position{}) {
			*p = pos
		}
	})
}

// exprPos returns a pointer to the position field of e.
func exprPos(e Expr) *diag.Position {
	switch e := e.(type) {
	case *Lit:
		return &e.Pos
	case *HoleRef:
		return &e.Pos
	case *ParamRef:
		return &e.Pos
	case *ValueRef:
		return &e.Pos
	case *Unary:
		return &e.Pos
	case *Binary:
		return &e.Pos
	case *Cond:
		return &e.Pos
	case *List:
		return &e.Pos
	case *Index:
		return &e.Pos
	case *Spread:
		return &e.Pos
	case *Call:
		return &e.Pos
	}
	return nil
}

// WalkExpr calls f on e and then on each of its subexpressions, in pre-order.
func WalkExpr(e Expr, f func(Expr)) {
	f(e)
	for _, x := range Operands(e) {
		WalkExpr(x, f)
	}
}

// Operands returns the direct subexpressions of e, in evaluation order (nil for a leaf).
func Operands(e Expr) []Expr {
	switch e := e.(type) {
	case *Unary:
		return []Expr{e.X}
	case *Binary:
		return []Expr{e.X, e.Y}
	case *Cond:
		return []Expr{e.Cond, e.Then, e.Else}
	case *List:
		return e.Elems
	case *Index:
		return []Expr{e.X, e.Index}
	case *Spread:
		return []Expr{e.X}
	case *Call:
		return e.Args
	}
	return nil
}

// V returns a reference to value hole name (%y) for constraints; the hole must exist.
func (b *Builder) V(name string) Expr {
	i := b.ValueIndex(name)
	if i < 0 {
		b.errorf("unknown value %s", name)
		i = 0
	}
	return &ValueRef{Ref: Ref{Index: i}}
}

// H returns a reference to $hole name for constraints; the hole must exist.
func (b *Builder) H(name string) Expr {
	i := b.HoleIndex(name)
	if i < 0 {
		b.errorf("unknown hole %s", name)
		i = 0
	}
	return &HoleRef{Hole: i}
}

// Uses returns uses(%name).
func (b *Builder) Uses(name string) Expr { return Fn("uses", b.V(name)) }

// Int returns an int literal.
func Int(n int64) Expr { return &Lit{Value: n} }

// Float returns a float literal.
func Float(f float64) Expr { return &Lit{Value: f} }

// Str returns a string literal.
func Str(s string) Expr { return &Lit{Value: s} }

// Bool returns a bool literal.
func Bool(v bool) Expr { return &Lit{Value: v} }

// LitOf returns a literal of any expression value (int64, float64, string, bool, []Val, ir.DType, …).
func LitOf(v Val) Expr { return &Lit{Value: v} }

// ListOf returns the list expression [elems…].
func ListOf(elems ...Expr) Expr { return &List{Elems: elems} }

// Bin returns the binary expression x op y (op: || && == != < <= > >= in + - * / %).
func Bin(op string, x, y Expr) Expr { return &Binary{Op: op, X: x, Y: y} }

// Not returns !x.
func Not(x Expr) Expr { return &Unary{Op: "!", X: x} }

// Neg returns -x.
func Neg(x Expr) Expr { return &Unary{Op: "-", X: x} }

// CondOf returns c ? a : b.
func CondOf(c, a, b Expr) Expr { return &Cond{Cond: c, Then: a, Else: b} }

// At returns x[i].
func At(x, i Expr) Expr { return &Index{X: x, Index: i} }

// Fn returns a call of builtin function name.
func Fn(name string, args ...Expr) Expr { return &Call{Func: name, Args: args} }

// NativeFn returns a call of native constraint name.
func NativeFn(name string, args ...Expr) Expr { return &Call{Func: name, Args: args, Native: true} }

// Build finishes the rule: it checks the pattern (every value hole is bound by an operand or a result, list
// operands come last, …), fills in positions and picks the root.
func (b *Builder) Build() (*Rule, error) {
	for _, e := range b.r.Where {
		// Before anything walks them recursively.
		if d := ExprDepth(e); d > MaxExprDepth {
			return nil, fmt.Errorf("a where expression nests %d levels deep, more than %d (MaxExprDepth)", d, MaxExprDepth)
		}
	}
	p := b.r.Pattern
	file := b.File
	if file == "" {
		file = b.r.Name + ".drr"
	}
	b.r.Pos.Filename = file
	for _, op := range p.Ops {
		op.Pos.Filename = file
	}
	for _, v := range p.Values {
		v.Pos.Filename = file
	}
	for _, h := range p.Holes {
		h.Pos.Filename = file
	}
	for _, e := range b.r.Where {
		fileExpr(e, file)
	}
	if len(p.Ops) == 0 {
		b.errorf("the pattern has no ops")
	}

	for i, v := range p.Values {
		if v.List {
			continue
		}
		used := v.Def >= 0
		for _, op := range p.Ops {
			for _, o := range op.Operands {
				if o.Kind == OperandValue && o.Value == i {
					used = true
				}
			}
		}
		if !used {
			b.errorf("%%%s is not bound by the pattern", v.Name)
		}
	}
	if len(b.errs) > 0 {
		return nil, errors.Join(b.errs...)
	}
	switch {
	case b.root != nil:
		p.Root = b.root.idx
	case b.ChooseRoot != nil:
		p.Root = b.ChooseRoot(p)
	default:
		p.Root = len(p.Ops) - 1
	}
	if g := p.Users; g != nil {
		g.Op = p.Root
		g.Operand = -1
		for j, o := range p.Ops[p.Root].Operands {
			if o.Kind == OperandValue && o.Value == g.Value && g.Operand < 0 {
				g.Operand = j
			}
		}
		g.Elems = nil
		for h := range p.Values {
			if h != g.Value {
				g.Elems = append(g.Elems, h)
			}
		}
		if g.Operand < 0 {
			return nil, fmt.Errorf("rule %s: the users group's value %%%s is no operand of the root", b.r.Name,
				p.Values[g.Value].Name)
		}
	}
	return b.r, nil
}

// Users makes the pattern a users group (UsersGroup) over the users of value name: the root op pattern is the
// element, read min to max times; every other value is bound per element; the where constraints at indices
// elemWhere are checked per element.
func (b *Builder) Users(name string, min, max int, elemWhere ...int) *Builder {
	b.r.Pattern.Users = &UsersGroup{Value: b.value(name, false, b.nextPos()), Min: min, Max: max,
		ElemWhere: elemWhere, Pos: diag.Position{Line: b.line, Column: 3}}
	return b
}

func fileExpr(e Expr, file string) {
	WalkExpr(e, func(x Expr) {
		if p := exprPos(x); p != nil {
			p.Filename = file
		}
	})
}

// MustBuild is Build for rules known to be well-formed; it panics on error.
func (b *Builder) MustBuild() *Rule {
	r, err := b.Build()
	if err != nil {
		panic(err)
	}
	return r
}

// NewSet returns a Set of the given rules over ctx, numbering them (Rule.Index) in order.
func NewSet(ctx *ir.Context, rules ...*Rule) *Set {
	for i, r := range rules {
		r.Index = i
	}
	return &Set{Ctx: ctx, Rules: rules, Natives: map[string]*NativeDecl{}}
}
