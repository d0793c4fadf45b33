package rt

import (
	"errors"
	"math"

	"github.com/pirdrr/drr/analysis"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// Instance is what a generated function reads of one rule instance checked against a Context: the rule, whose
// matches it emits, and the constants of its plan, resolved once per Context. The instances of a family share
// their function and differ in these.
type Instance struct {
	Rule *rule.Rule
	// Ops are the op kinds of the pattern ops (nil: any op).
	Ops []*ir.OpInfo
	// Defaults and Literals are, per attribute pattern (AttrSlot), the schema default of the attribute for the
	// pattern op's kind (nil: none, or any op) and the literal it must be (rule.AttrEquals).
	Defaults, Literals []ir.Attribute
	// Types and DTypes are, per value hole, the exact type of its type pattern and the element type of its
	// tensor pattern.
	Types  []ir.Type
	DTypes []ir.DType
	// Consts are the values of the subexpressions Constraints lists: constant ones evaluated (Fail where
	// rule.Eval fails), the defaults of parameter references.
	Consts []rule.Val

	values int // the number of value holes
}

// NewInstance resolves the constants of rule instance r, checked against ctx.
func NewInstance(ctx *ir.Context, r *rule.Rule) *Instance {
	p := r.Pattern
	in := &Instance{Rule: r, Ops: make([]*ir.OpInfo, len(p.Ops)), Types: make([]ir.Type, len(p.Values)),
		DTypes: make([]ir.DType, len(p.Values)), values: len(p.Values)}
	for k, op := range p.Ops {
		if op.Name != "" {
			in.Ops[k] = ctx.OpInfo(op.Name)
		}
		for _, a := range op.Attrs {
			var def ir.Attribute
			if s := ctx.Schema(op.Name); s != nil && op.Name != "" {
				if spec := s.Attr(a.Name); spec != nil {
					def = spec.Default
				}
			}
			in.Defaults = append(in.Defaults, def)
			in.Literals = append(in.Literals, a.Literal)
		}
	}
	for h, v := range p.Values {
		if t := v.Type; t != nil {
			in.Types[h] = t.Exact
			if t.Tensor != nil {
				in.DTypes[h] = t.Tensor.DType
			}
		}
	}
	_, consts := Constraints(ctx, r)
	for _, e := range consts {
		if pr, ok := e.(*rule.ParamRef); ok {
			in.Consts = append(in.Consts, pr.Default)
			continue
		}
		v, ok := EvalConstant(e)
		if !ok {
			v = Fail
		}
		in.Consts = append(in.Consts, v)
	}
	return in
}

// AttrSlot returns the index in Instance.Defaults and Instance.Literals of the attribute pattern name of pattern
// op k: the attribute patterns are numbered in pattern order (-1: no such pattern).
func AttrSlot(p *rule.Pattern, k int, name string) int {
	n := 0
	for i, op := range p.Ops {
		for _, a := range op.Attrs {
			if i == k && a.Name == name {
				return n
			}
			n++
		}
	}
	return -1
}

// Constraints returns r's where constraints as generated code evaluates them, with the calls the catalog decides
// folded (Fold), and the subexpressions of them whose values the code reads from Instance.Consts, in pre-order:
// the largest constant ones (literals and what pure operators and builtins compute from them) that are not Go
// constants (GoConstant), and the references to rule-set parameters.
func Constraints(ctx *ir.Context, r *rule.Rule) (where, consts []rule.Expr) {
	var collect func(e rule.Expr)
	collect = func(e rule.Expr) {
		if lit, ok := e.(*rule.Lit); ok && GoConstant(lit.Value) {
			return
		}
		if _, ok := e.(*rule.ParamRef); ok || Constant(e) {
			consts = append(consts, e)
			return
		}
		for _, x := range rule.Operands(e) {
			collect(x)
		}
	}
	for _, e := range r.Where {
		e = Fold(ctx, r, e)
		where = append(where, e)
		collect(e)
	}
	return where, consts
}

// Constant reports whether e is computed from literals alone, by operators and pure builtins.
func Constant(e rule.Expr) bool {
	switch e := e.(type) {
	case *rule.Lit:
		return true
	case *rule.HoleRef, *rule.ValueRef, *rule.ParamRef:
		return false
	case *rule.Call:
		if e.Native || rule.PureBuiltin(e.Func) == nil {
			return false
		}
	}
	for _, x := range rule.Operands(e) {
		if !Constant(x) {
			return false
		}
	}
	return true
}

// GoConstant reports whether a literal's value is written in generated code as a Go constant: a bool, an int64, a
// string, or a finite float64 other than -0.
func GoConstant(v rule.Val) bool {
	switch v := v.(type) {
	case bool, int64, string:
		return true
	case float64:
		return !math.IsInf(v, 0) && !math.IsNaN(v) && !(v == 0 && math.Signbit(v))
	}
	return false
}

// Fold returns the where constraint e of rule r with the calls the catalog of ctx decides replaced by their
// values: a schema-only builtin (inplace_op) whose arguments are constant, and a builtin about the op defining a
// value (has_trait, defined_by) whose value a pattern op of a given kind defines. They are decided once, when
// drrc gen writes the code, instead of at every match; Fingerprint covers their values, so that a catalog that
// decides them otherwise refuses the code. Nothing else of e changes.
func Fold(ctx *ir.Context, r *rule.Rule, e rule.Expr) rule.Expr { return fold(ctx, r, e, nil) }

// fold is Fold, telling decided (when not nil) of each call it decides.
func fold(ctx *ir.Context, r *rule.Rule, e rule.Expr, decided func(*rule.Call, rule.Val)) rule.Expr {
	switch x := e.(type) {
	case *rule.Unary:
		if y := fold(ctx, r, x.X, decided); y != x.X {
			return &rule.Unary{Op: x.Op, X: y, Pos: x.Pos}
		}
	case *rule.Binary:
		if a, b := fold(ctx, r, x.X, decided), fold(ctx, r, x.Y, decided); a != x.X || b != x.Y {
			return &rule.Binary{Op: x.Op, X: a, Y: b, Pos: x.Pos}
		}
	case *rule.Cond:
		c, a, b := fold(ctx, r, x.Cond, decided), fold(ctx, r, x.Then, decided), fold(ctx, r, x.Else, decided)
		if c != x.Cond || a != x.Then || b != x.Else {
			return &rule.Cond{Cond: c, Then: a, Else: b, Pos: x.Pos}
		}
	case *rule.List:
		elems, changed := foldAll(ctx, r, x.Elems, decided)
		if changed {
			return &rule.List{Elems: elems, Pos: x.Pos}
		}
	case *rule.Index:
		if a, b := fold(ctx, r, x.X, decided), fold(ctx, r, x.Index, decided); a != x.X || b != x.Index {
			return &rule.Index{X: a, Index: b, Pos: x.Pos}
		}
	case *rule.Call:
		args, changed := foldAll(ctx, r, x.Args, decided)
		if v, ok := decide(ctx, r, x, args); ok {
			if decided != nil {
				decided(x, v)
			}
			return &rule.Lit{Value: v, Pos: x.Pos}
		}
		if changed {
			return &rule.Call{Func: x.Func, Args: args, Native: x.Native, Pos: x.Pos}
		}
	}
	return e
}

func foldAll(ctx *ir.Context, r *rule.Rule, es []rule.Expr, decided func(*rule.Call, rule.Val)) ([]rule.Expr, bool) {
	out := make([]rule.Expr, len(es))
	changed := false
	for i, e := range es {
		out[i] = fold(ctx, r, e, decided)
		changed = changed || out[i] != e
	}
	return out, changed
}

// decide evaluates call c (with its arguments folded: args) from the catalog alone, when it can.
func decide(ctx *ir.Context, r *rule.Rule, c *rule.Call, args []rule.Expr) (rule.Val, bool) {
	b := c.Builtin()
	if b == nil || ctx == nil {
		return nil, false
	}
	switch {
	case b.SchemaOnly:
		vals := make([]rule.Val, len(args))
		for i, a := range args {
			if !Constant(a) {
				return nil, false
			}
			v, ok := EvalConstant(a)
			if !ok {
				return nil, false
			}
			vals[i] = v
		}
		v, err := b.EvalProgram(analysis.NewFacts(ir.NewProgram(ctx)), vals)
		return v, err == nil
	case b.DefQuery != nil && len(args) == 2 && Constant(args[1]):
		ref, ok := args[0].(*rule.ValueRef)
		p := r.Pattern
		if !ok || ref.Ref.New || ref.Ref.Index < 0 || ref.Ref.Index >= len(p.Values) {
			return nil, false
		}
		d := p.Values[ref.Ref.Index].Def
		if d < 0 || p.Ops[d].Name == "" {
			return nil, false
		}
		arg, ok := EvalConstant(args[1])
		if !ok {
			return nil, false
		}
		return b.DefQuery(ctx, p.Ops[d].Name, arg)
	}
	return nil, false
}

// evalConstant evaluates a Constant expression; ok is false where rule.Eval fails (or a builtin panics on
// arguments no checked rule gives it).
func EvalConstant(e rule.Expr) (v rule.Val, ok bool) {
	defer func() {
		if recover() != nil {
			v, ok = nil, false
		}
	}()
	v, err := rule.Eval(e, noEnv{})
	return v, err == nil
}

// noEnv is the rule.Env of constant expressions: nothing is bound, no program builtin is known.
type noEnv struct{}

func (noEnv) Hole(int) (any, bool)                               { return nil, false }
func (noEnv) Value(rule.Ref) *ir.Value                           { return nil }
func (noEnv) List(rule.Ref) []*ir.Value                          { return nil }
func (noEnv) Builtin(string, []rule.Val) (rule.Val, bool, error) { return nil, false, nil }
func (noEnv) Native(string, []rule.Val) (rule.Val, error)        { return nil, errNoNative }

var errNoNative = errors.New("a native constraint is not a constant")
