package rule

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

// Env is what expression evaluation sees of a match: the bound holes and values, and the builtins that need the
// whole program (immutable, aliased, …) and native constraints, which the matcher provides.
type Env interface {
	// Hole returns the value bound to hole i (an ir.Attribute for attribute holes, int64 for dims, ir.DType,
	// ir.Type, or []ir.NamedAttr) and whether it is bound.
	Hole(i int) (any, bool)
	// Value returns the value a Ref is bound to (nil if unbound or absent).
	Value(r Ref) *ir.Value
	// List returns the values a list Ref is bound to.
	List(r Ref) []*ir.Value
	// Builtin evaluates a program-level builtin; ok is false if name is not one the Env knows.
	Builtin(name string, args []Val) (v Val, ok bool, err error)
	// Native calls a native constraint.
	Native(name string, args []Val) (Val, error)
}

// EvalError is an evaluation failure at a position of a rule.
type EvalError struct {
	Pos diag.Position
	Msg string
}

func (e *EvalError) Error() string { return e.Pos.String() + ": " + e.Msg }

func errAt(e Expr, format string, args ...any) error {
	return &EvalError{Pos: e.At(), Msg: fmt.Sprintf(format, args...)}
}

// Eval evaluates e in env. It recurses through e: the expressions of checked rules (drr.Check) and of Builder.Build
// are at most MaxExprDepth deep.
func Eval(e Expr, env Env) (Val, error) {
	switch e := e.(type) {
	case *Lit:
		return e.Value, nil
	case *HoleRef:
		v, ok := env.Hole(e.Hole)
		if !ok {
			return nil, errAt(e, "hole is not bound")
		}
		if a, isAttr := v.(ir.Attribute); isAttr {
			return AttrVal(a), nil
		}
		return v, nil
	case *ParamRef:
		if ps, ok := env.(ParamSource); ok {
			if v, ok := ps.Param(e.Name); ok {
				return v, nil
			}
		}
		return e.Default, nil
	case *ValueRef:
		if v := env.Value(e.Ref); v != nil {
			return v, nil
		}
		if l := env.List(e.Ref); l != nil {
			return l, nil
		}
		return nil, errAt(e, "value is not bound")
	case *Unary:
		x, err := Eval(e.X, env)
		if err != nil {
			return nil, err
		}
		switch e.Op {
		case "!":
			b, ok := x.(bool)
			if !ok {
				return nil, errAt(e, "! needs a bool, got %s", Describe(x))
			}
			return !b, nil
		case "-":
			switch x := x.(type) {
			case int64:
				return -x, nil
			case float64:
				return -x, nil
			}
			return nil, errAt(e, "- needs a number, got %s", Describe(x))
		}
		return nil, errAt(e, "unknown operator %s", e.Op)
	case *Binary:
		return evalBinary(e, env)
	case *Cond:
		c, err := Eval(e.Cond, env)
		if err != nil {
			return nil, err
		}
		b, ok := c.(bool)
		if !ok {
			return nil, errAt(e.Cond, "condition is %s, not a bool", Describe(c))
		}
		if b {
			return Eval(e.Then, env)
		}
		return Eval(e.Else, env)
	case *List:
		out := make([]Val, len(e.Elems))
		for i, x := range e.Elems {
			v, err := Eval(x, env)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case *Spread:
		return evalSpread(e, env)
	case *Index:
		x, err := Eval(e.X, env)
		if err != nil {
			return nil, err
		}
		iv, err := Eval(e.Index, env)
		if err != nil {
			return nil, err
		}
		i, ok := iv.(int64)
		if !ok {
			return nil, errAt(e.Index, "index is %s, not an int", Describe(iv))
		}
		switch x := x.(type) {
		case []Val:
			if i < 0 {
				i += int64(len(x))
			}
			if i < 0 || i >= int64(len(x)) {
				return nil, errAt(e, "index %d out of range [0, %d)", i, len(x))
			}
			return x[i], nil
		case string:
			if i < 0 {
				i += int64(len(x))
			}
			if i < 0 || i >= int64(len(x)) {
				return nil, errAt(e, "index %d out of range [0, %d)", i, len(x))
			}
			return x[i : i+1], nil
		}
		return nil, errAt(e, "cannot index %s", Describe(x))
	case *Call:
		if b := e.Builtin(); b != nil && b.PathQuery {
			return boundIn(e, env), nil
		}
		args := make([]Val, len(e.Args))
		for i, a := range e.Args {
			v, err := Eval(a, env)
			if err != nil {
				return nil, err
			}
			args[i] = v
		}
		if e.Native {
			v, err := env.Native(e.Func, args)
			if err != nil {
				return nil, errAt(e, "%s: %v", e.Func, err)
			}
			return v, nil
		}
		if f, ok := builtins[e.Func]; ok {
			v, err := f(args)
			if err != nil {
				return nil, errAt(e, "%s: %v", e.Func, err)
			}
			return v, nil
		}
		v, ok, err := env.Builtin(e.Func, args)
		if err != nil {
			return nil, errAt(e, "%s: %v", e.Func, err)
		}
		if !ok {
			return nil, errAt(e, "unknown function %s", e.Func)
		}
		return v, nil
	}
	return nil, fmt.Errorf("unknown expression %T", e)
}

func evalBinary(e *Binary, env Env) (Val, error) {
	x, err := Eval(e.X, env)
	if err != nil {
		return nil, err
	}
	// && and || short-circuit.
	if e.Op == "&&" || e.Op == "||" {
		b, ok := x.(bool)
		if !ok {
			return nil, errAt(e.X, "%s needs bools, got %s", e.Op, Describe(x))
		}
		if b == (e.Op == "||") {
			return b, nil
		}
		y, err := Eval(e.Y, env)
		if err != nil {
			return nil, err
		}
		yb, ok := y.(bool)
		if !ok {
			return nil, errAt(e.Y, "%s needs bools, got %s", e.Op, Describe(y))
		}
		return yb, nil
	}
	y, err := Eval(e.Y, env)
	if err != nil {
		return nil, err
	}
	switch e.Op {
	case "==":
		return Equal(x, y), nil
	case "!=":
		return !Equal(x, y), nil
	case "in":
		l, ok := y.([]Val)
		if !ok {
			return nil, errAt(e.Y, "in needs a list on the right, got %s", Describe(y))
		}
		for _, el := range l {
			if Equal(x, el) {
				return true, nil
			}
		}
		return false, nil
	case "<", "<=", ">", ">=":
		c, ok := compare(x, y)
		if !ok {
			return nil, errAt(e, "cannot compare %s and %s", Describe(x), Describe(y))
		}
		switch e.Op {
		case "<":
			return c < 0, nil
		case "<=":
			return c <= 0, nil
		case ">":
			return c > 0, nil
		}
		return c >= 0, nil
	case "+":
		if xs, ok := x.(string); ok {
			if ys, ok := y.(string); ok {
				return xs + ys, nil
			}
		}
		if xl, ok := x.([]Val); ok {
			if yl, ok := y.([]Val); ok {
				return append(append([]Val{}, xl...), yl...), nil
			}
		}
		return arith(e, x, y)
	case "-", "*", "/", "%":
		return arith(e, x, y)
	}
	return nil, errAt(e, "unknown operator %s", e.Op)
}

func arith(e *Binary, x, y Val) (Val, error) {
	xi, xInt := x.(int64)
	yi, yInt := y.(int64)
	if xInt && yInt {
		switch e.Op {
		case "+":
			return xi + yi, nil
		case "-":
			return xi - yi, nil
		case "*":
			return xi * yi, nil
		case "/", "%":
			if yi == 0 {
				return nil, errAt(e, "division by zero")
			}
			if e.Op == "/" {
				return xi / yi, nil
			}
			return xi % yi, nil
		}
	}
	xf, ok1 := toFloat(x)
	yf, ok2 := toFloat(y)
	if !ok1 || !ok2 {
		return nil, errAt(e, "%s needs numbers, got %s and %s", e.Op, Describe(x), Describe(y))
	}
	switch e.Op {
	case "+":
		return xf + yf, nil
	case "-":
		return xf - yf, nil
	case "*":
		return xf * yf, nil
	case "/":
		return xf / yf, nil
	case "%":
		return math.Mod(xf, yf), nil
	}
	return nil, errAt(e, "unknown operator %s", e.Op)
}

func toFloat(v Val) (float64, bool) {
	switch v := v.(type) {
	case int64:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}

// compare orders numbers and strings.
func compare(x, y Val) (int, bool) {
	if xs, ok := x.(string); ok {
		if ys, ok := y.(string); ok {
			return strings.Compare(xs, ys), true
		}
		return 0, false
	}
	xf, ok1 := toFloat(x)
	yf, ok2 := toFloat(y)
	if !ok1 || !ok2 {
		return 0, false
	}
	switch {
	case xf < yf:
		return -1, true
	case xf > yf:
		return 1, true
	}
	return 0, true
}

// Equal compares two values: numbers by value (1 == 1.0), lists element-wise, a DType with a string naming it
// ("float32" or "f32"), everything else with ==.
func Equal(x, y Val) bool {
	if xf, ok := toFloat(x); ok {
		yf, ok := toFloat(y)
		return ok && xf == yf
	}
	switch xv := x.(type) {
	case []Val:
		yl, ok := y.([]Val)
		if !ok || len(xv) != len(yl) {
			return false
		}
		for i := range xv {
			if !Equal(xv[i], yl[i]) {
				return false
			}
		}
		return true
	case ir.DType:
		if s, ok := y.(string); ok {
			return s == xv.DataTypeName() || s == xv.String()
		}
	case string:
		if d, ok := y.(ir.DType); ok {
			return Equal(d, xv)
		}
	case []*ir.Value:
		yl, ok := y.([]*ir.Value)
		if !ok || len(xv) != len(yl) {
			return false
		}
		for i := range xv {
			if xv[i] != yl[i] {
				return false
			}
		}
		return true
	}
	defer func() { _ = recover() }() // uncomparable dynamic types are simply unequal
	return x == y
}

// AttrVal converts an attribute to an expression value: numbers to int64/float64, strings to string, arrays and
// IntArrays to []Val, DataType to ir.DType, Place to ir.Place, Type to ir.Type, Scalar to its number; other kinds
// stay ir.Attribute.
func AttrVal(a ir.Attribute) Val {
	switch a := a.(type) {
	case *ir.BoolAttr:
		return a.Value
	case *ir.Int32Attr:
		return int64(a.Value)
	case *ir.Int64Attr:
		return a.Value
	case *ir.IndexAttr:
		return a.Value
	case *ir.FloatAttr:
		return float64(a.Value)
	case *ir.DoubleAttr:
		return a.Value
	case *ir.StrAttr:
		return a.Value
	case *ir.TensorNameAttr:
		return a.Name
	case *ir.DataLayoutAttr:
		return a.Layout
	case *ir.ArrayAttr:
		out := make([]Val, len(a.Elems))
		for i, e := range a.Elems {
			out[i] = AttrVal(e)
		}
		return out
	case *ir.IntArrayAttr:
		out := make([]Val, len(a.Values))
		for i, v := range a.Values {
			out[i] = v
		}
		return out
	case *ir.DataTypeAttr:
		return a.DType
	case *ir.PlaceAttr:
		return a.Place
	case *ir.TypeAttr:
		return a.Type
	case *ir.ScalarAttr:
		return AttrVal(a.Value)
	}
	return a
}

// ToAttr converts an expression value to an attribute of type t (KindAny: a kind guessed from the value).
func ToAttr(ctx *ir.Context, t ir.AttrType, v Val) (ir.Attribute, error) {
	if a, ok := v.(ir.Attribute); ok {
		if t.Accepts(a) {
			return a, nil
		}
		return nil, fmt.Errorf("%s is not %s", a, t)
	}
	if ty, ok := v.(ir.Type); ok && (t.Kind == ir.KindType || t.Kind == ir.KindAny) && !t.Array {
		return ctx.TypeAttr(ty), nil
	}
	lit, err := toLiteral(v)
	if err != nil {
		return nil, err
	}
	return ctx.Coerce(t, lit)
}

func toLiteral(v Val) (ir.Literal, error) {
	switch v := v.(type) {
	case bool:
		return ir.Literal{Kind: ir.LitBool, Bool: v}, nil
	case int64:
		return ir.Literal{Kind: ir.LitInt, Int: v}, nil
	case float64:
		return ir.Literal{Kind: ir.LitFloat, Float: v}, nil
	case string:
		return ir.Literal{Kind: ir.LitString, Str: v}, nil
	case ir.DType:
		return ir.Literal{Kind: ir.LitIdent, Str: v.DataTypeName()}, nil
	case ir.Place:
		return ir.Literal{Kind: ir.LitPlace, Str: strings.TrimSuffix(strings.TrimPrefix(v.String(), "Place("), ")")}, nil
	case []Val:
		l := ir.Literal{Kind: ir.LitList, List: make([]ir.Literal, len(v))}
		for i, e := range v {
			el, err := toLiteral(e)
			if err != nil {
				return l, err
			}
			l.List[i] = el
		}
		return l, nil
	}
	return ir.Literal{}, fmt.Errorf("%s cannot be an attribute", Describe(v))
}

// Describe names the kind of a value for messages.
func Describe(v Val) string {
	switch v := v.(type) {
	case nil:
		return "nothing"
	case bool:
		return fmt.Sprintf("bool %v", v)
	case int64:
		return fmt.Sprintf("int %d", v)
	case float64:
		return "float " + ir.FormatFloat(v, 64)
	case string:
		return "string " + ir.QuoteString(v)
	case []Val:
		return fmt.Sprintf("a list of %d", len(v))
	case ir.DType:
		return "dtype " + v.DataTypeName()
	case ir.Place:
		return v.String()
	case ir.Type:
		return "type " + v.String()
	case *ir.Value:
		return "a value"
	case []*ir.Value:
		return fmt.Sprintf("a list of %d values", len(v))
	case ir.Attribute:
		return "attribute " + v.String()
	}
	return fmt.Sprintf("%T", v)
}

// evalSpread evaluates x... once per element of a users group: the lists of the per-element values x names give
// the elements (they have one length), and each evaluation sees element i's values.
func evalSpread(e *Spread, env Env) (Val, error) {
	n := -1
	lists := make([][]*ir.Value, len(e.Elems))
	for i, h := range e.Elems {
		l := env.List(Ref{Index: h})
		if l == nil || n >= 0 && len(l) != n {
			return nil, errAt(e, "the values of ... are not the elements of one group")
		}
		lists[i], n = l, len(l)
	}
	if n < 0 {
		return nil, errAt(e, "... names no per-element value")
	}
	out := make([]Val, n)
	el := &elementEnv{Env: env, elems: e.Elems, vals: make([]*ir.Value, len(e.Elems))}
	for k := range n {
		for i := range lists {
			el.vals[i] = lists[i][k]
		}
		v, err := Eval(e.X, el)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

// elementEnv is an Env in which the per-element values elems are one element's, vals.
type elementEnv struct {
	Env
	elems []int
	vals  []*ir.Value
}

func (e *elementEnv) Value(r Ref) *ir.Value {
	if !r.New {
		for i, h := range e.elems {
			if h == r.Index {
				return e.vals[i]
			}
		}
	}
	return e.Env.Value(r)
}

func (e *elementEnv) List(r Ref) []*ir.Value {
	if !r.New && slices.Contains(e.elems, r.Index) {
		return nil
	}
	return e.Env.List(r)
}

// Param implements ParamSource when the Env does.
func (e *elementEnv) Param(name string) (Val, bool) {
	if ps, ok := e.Env.(ParamSource); ok {
		return ps.Param(name)
	}
	return nil, false
}

// boundIn evaluates bound(…) on a match: every argument, a %value or $hole, is bound in env. Where a match leaves
// the values and $holes of the branches it did not take unbound (as the matcher's bindings do), that is what
// PathBinds.Fold decides for the match's path.
func boundIn(c *Call, env Env) bool {
	for _, a := range c.Args {
		switch a := a.(type) {
		case *HoleRef:
			if _, ok := env.Hole(a.Hole); !ok {
				return false
			}
		case *ValueRef:
			if env.Value(a.Ref) == nil && env.List(a.Ref) == nil {
				return false
			}
		default:
			return false
		}
	}
	return true
}
