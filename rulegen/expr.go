package rulegen

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
)

// Where-constraints compile to Go statements that compute each subexpression into a variable, in rule.Eval's
// order, with the operations rule.Eval uses (rule.Equal, rule.Compare, rule.Arith, rule.AttrVal, the builtins'
// own functions; see package rt). A subexpression that rule.Eval would fail to evaluate fails the alternative:
// the automaton counts a constraint that does not evaluate as false, and an error anywhere in an expression is an
// error of the whole (&&, || and ?: evaluate only what rule.Eval evaluates).

type exprKind uint8

const (
	kBool     exprKind = iota // a Go bool
	kVal                      // a rule.Val
	kConcrete                 // a Go value of another concrete type (int64, string, *ir.Value, ir.Type, …): a rule.Val once boxed
)

// gexpr is a compiled expression: Go code and what it is.
type gexpr struct {
	code string
	kind exprKind
}

var simpleIdent = regexp.MustCompile(`^[\w.]+$`)

func paren(s string) string {
	if simpleIdent.MatchString(s) {
		return s
	}
	return "(" + s + ")"
}

// where emits the check of one where-constraint (the i-th of the rule).
func (g *ruleGen) where(e rule.Expr, i int) {
	if _, _, _, ok := usesConstraint(g.p, e); ok {
		return // checked when its value was bound (usesChecks)
	}
	g.line("// where %s", oneLine(rule.FormatExpr(g.r, e)))
	g.cond(e, fmt.Sprintf("set.Rules[%d].Where[%d]", g.r.Index, i))
}

// cond emits the check that e evaluates to true. A conjunction is true when both sides are: they are checked one
// after the other.
func (g *ruleGen) cond(e rule.Expr, path string) {
	if b, ok := e.(*rule.Binary); ok && b.Op == "&&" {
		g.cond(b.X, path+".(*rule.Binary).X")
		g.cond(b.Y, path+".(*rule.Binary).Y")
		return
	}
	b := g.asBool(g.expr(e, path))
	g.check("!" + paren(b))
}

// asBool returns x as Go bool code, failing when it is not a bool.
func (g *ruleGen) asBool(x gexpr) string {
	switch x.kind {
	case kBool:
		return x.code
	case kConcrete:
		x.code = "rule.Val(" + x.code + ")"
	}
	b, ok := g.temp("b"), g.temp("ok")
	g.line("%s, %s := %s.(bool)", b, ok, x.code)
	g.check("!" + ok)
	return b
}

// value returns x as code that can be passed where a rule.Val is expected.
func value(x gexpr) string { return x.code }

// result declares t from a call returning (value, ok) and fails when ok is false.
func (g *ruleGen) result(base, call string) string {
	t, ok := g.temp(base), g.temp("ok")
	g.line("%s, %s := %s", t, ok, call)
	g.check("!" + ok)
	return t
}

// expr compiles e, found at the Go path path of the bound set (for literals that are not Go constants).
func (g *ruleGen) expr(e rule.Expr, path string) gexpr {
	switch e := e.(type) {
	case *rule.Lit:
		return g.lit(e, path)
	case *rule.HoleRef:
		h := e.Hole
		if h < 0 || h >= len(g.p.Holes) || g.hole[h] == holeUnbound {
			g.f.errorf(e.Pos, "drrc gen: the $hole is not bound by the pattern when the constraint is evaluated")
			return gexpr{"nil", kVal}
		}
		if g.hole[h] == holeMaybe {
			g.check("!" + g.holeFlag[h])
		}
		if g.p.Holes[h].Kind == rule.HoleAttr {
			return gexpr{"rule.AttrVal(" + g.holeVar[h] + ")", kVal}
		}
		return gexpr{g.holeVar[h], kConcrete}
	case *rule.ParamRef:
		// The value comes with the oracle of the pass run; the declaration (name, default) from the bound set.
		fld := g.f.field(fmt.Sprintf("r%d_param", g.r.Index), "*rule.ParamRef", "rule "+g.r.ID()+": $"+e.Name,
			path+".(*rule.ParamRef)")
		return gexpr{"m.Param(m." + fld + ")", kVal}
	case *rule.ValueRef:
		if e.Ref.New || e.Ref.Index < 0 || e.Ref.Index >= len(g.p.Values) {
			g.f.errorf(e.Pos, "drrc gen: a constraint can only read values of the pattern")
			return gexpr{"nil", kVal}
		}
		return gexpr{g.valVar[e.Ref.Index], kConcrete}
	case *rule.Unary:
		x := g.expr(e.X, path+".(*rule.Unary).X")
		switch e.Op {
		case "!":
			return gexpr{"!" + paren(g.asBool(x)), kBool}
		case "-":
			return gexpr{g.result("n", "rt.Neg("+value(x)+")"), kVal}
		}
	case *rule.Binary:
		return g.binary(e, path+".(*rule.Binary)")
	case *rule.Cond:
		c := g.asBool(g.expr(e.Cond, path+".(*rule.Cond).Cond"))
		t := g.temp("c")
		var kinds [2]exprKind
		g.mark(func() string {
			if kinds[0] == kBool && kinds[1] == kBool {
				return "var " + t + " bool"
			}
			return "var " + t + " rule.Val"
		})
		g.line("if %s {", c)
		x := g.expr(e.Then, path+".(*rule.Cond).Then")
		kinds[0] = x.kind
		g.line("%s = %s", t, value(x))
		g.line("} else {")
		y := g.expr(e.Else, path+".(*rule.Cond).Else")
		kinds[1] = y.kind
		g.line("%s = %s", t, value(y))
		g.line("}")
		if x.kind == kBool && y.kind == kBool {
			return gexpr{t, kBool}
		}
		return gexpr{t, kVal}
	case *rule.List:
		var elems []string
		for i, x := range e.Elems {
			elems = append(elems, value(g.expr(x, fmt.Sprintf("%s.(*rule.List).Elems[%d]", path, i))))
		}
		return gexpr{"[]rule.Val{" + strings.Join(elems, ", ") + "}", kVal}
	case *rule.Index:
		x := g.expr(e.X, path+".(*rule.Index).X")
		i := g.expr(e.Index, path+".(*rule.Index).Index")
		return gexpr{g.result("ix", fmt.Sprintf("rt.Index(%s, %s)", value(x), value(i))), kVal}
	case *rule.Call:
		return g.call(e, path+".(*rule.Call)")
	}
	g.f.errorf(e.At(), "drrc gen: cannot compile the expression %s", rule.FormatExpr(g.r, e))
	return gexpr{"nil", kVal}
}

// lit compiles a literal: a Go constant when it is a bool, an int, a finite float or a string; otherwise the Lit's
// value in the bound set (its list, dtype, place, type or attribute), read once.
func (g *ruleGen) lit(e *rule.Lit, path string) gexpr {
	switch v := e.Value.(type) {
	case bool:
		return gexpr{strconv.FormatBool(v), kBool}
	case int64:
		return gexpr{"int64(" + strconv.FormatInt(v, 10) + ")", kConcrete}
	case float64:
		if !math.IsInf(v, 0) && !math.IsNaN(v) && !(v == 0 && math.Signbit(v)) {
			return gexpr{"float64(" + strconv.FormatFloat(v, 'g', -1, 64) + ")", kConcrete}
		}
	case string:
		return gexpr{strconv.Quote(v), kConcrete}
	}
	fld := g.f.field(fmt.Sprintf("r%d_lit", g.r.Index), "rule.Val", "rule "+g.r.ID()+": "+rule.FormatVal(e.Value),
		path+".(*rule.Lit).Value")
	return gexpr{"m." + fld, kVal}
}

// constList returns the Go code of a package-level []rule.Val holding l's elements when they are all Go
// constants, for the right side of in (which only reads it).
func (g *ruleGen) constList(l *rule.List) (string, bool) {
	var elems []string
	for _, x := range l.Elems {
		lit, ok := x.(*rule.Lit)
		if !ok {
			return "", false
		}
		switch v := lit.Value.(type) {
		case bool:
			elems = append(elems, strconv.FormatBool(v))
		case int64:
			elems = append(elems, "int64("+strconv.FormatInt(v, 10)+")")
		case string:
			elems = append(elems, strconv.Quote(v))
		default:
			return "", false
		}
	}
	code := "[]rule.Val{" + strings.Join(elems, ", ") + "}"
	if name, ok := g.f.lists[code]; ok {
		return name, true
	}
	name := g.f.globalNames.fresh(g.f.prefix + "List" + strconv.Itoa(len(g.f.lists)+1))
	g.f.lists[code] = name
	g.f.globals = append(g.f.globals, fmt.Sprintf("// %s is a constant list of the rules' constraints.\nvar %s = %s", name, name, code))
	return name, true
}

var cmpOps = map[string]bool{"<": true, "<=": true, ">": true, ">=": true}

func (g *ruleGen) binary(e *rule.Binary, path string) gexpr {
	if e.Op == "&&" || e.Op == "||" {
		x := g.asBool(g.expr(e.X, path+".X"))
		t := g.temp("l")
		g.line("%s := %s", t, x)
		if e.Op == "&&" {
			g.line("if %s {", t)
		} else {
			g.line("if !%s {", t)
		}
		y := g.asBool(g.expr(e.Y, path+".Y"))
		g.line("%s = %s", t, y)
		g.line("}")
		return gexpr{t, kBool}
	}
	x := g.expr(e.X, path+".X")
	var y gexpr
	if l, ok := e.Y.(*rule.List); ok && e.Op == "in" {
		if name, ok := g.constList(l); ok {
			y = gexpr{name, kVal}
		} else {
			y = g.expr(e.Y, path+".Y")
		}
	} else {
		y = g.expr(e.Y, path+".Y")
	}
	switch {
	case e.Op == "==":
		return gexpr{fmt.Sprintf("rule.Equal(%s, %s)", value(x), value(y)), kBool}
	case e.Op == "!=":
		return gexpr{fmt.Sprintf("!rule.Equal(%s, %s)", value(x), value(y)), kBool}
	case e.Op == "in":
		return gexpr{g.result("in", fmt.Sprintf("rt.In(%s, %s)", value(x), value(y))), kBool}
	case cmpOps[e.Op]:
		c := g.result("cmp", fmt.Sprintf("rule.Compare(%s, %s)", value(x), value(y)))
		return gexpr{c + " " + e.Op + " 0", kBool}
	case e.Op == "+":
		return gexpr{g.result("sum", fmt.Sprintf("rt.Add(%s, %s)", value(x), value(y))), kVal}
	case e.Op == "-" || e.Op == "*" || e.Op == "/" || e.Op == "%":
		return gexpr{g.result("ar", fmt.Sprintf("rt.Arith(%q, %s, %s)", e.Op, value(x), value(y))), kVal}
	}
	g.f.errorf(e.Pos, "drrc gen: unknown operator %s", e.Op)
	return gexpr{"nil", kVal}
}

// call compiles a call: a native constraint (looked up when the pass is built), a pure builtin (its function,
// looked up once), or a program builtin (the matcher's oracle), in rule.Eval's order of precedence.
func (g *ruleGen) call(e *rule.Call, path string) gexpr {
	var args []string
	for i, a := range e.Args {
		args = append(args, value(g.expr(a, fmt.Sprintf("%s.Args[%d]", path, i))))
	}
	switch {
	case e.Native:
		fld := g.f.nativeField(e.Func)
		t, err := g.temp("nat"), g.temp("err")
		g.line("%s, %s := m.%s([]any{%s})", t, err, fld, strings.Join(args, ", "))
		g.check(err + " != nil")
		return gexpr{t, kBool}
	case rule.PureBuiltin(e.Func) != nil:
		fld := g.f.pureField(e.Func)
		return gexpr{g.result("f", fmt.Sprintf("rt.Call(m.%s, m.Args(%s))", fld, strings.Join(args, ", "))), kVal}
	}
	return gexpr{g.result("p", fmt.Sprintf("m.Builtin(%q, m.Args(%s))", e.Func, strings.Join(args, ", "))), kVal}
}

// usesConstraint recognizes a constraint `uses(%v) cmp n` (or `n cmp uses(%v)`) on a single value hole with an
// integer literal that fits an int32, as the matcher does, and returns it with the comparison as Go writes it.
func usesConstraint(p *rule.Pattern, e rule.Expr) (h int, cmp string, n int64, ok bool) {
	b, isBin := e.(*rule.Binary)
	if !isBin {
		return
	}
	mirror := map[string]string{"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
	cmp, ok = mirror[b.Op]
	if !ok {
		return 0, "", 0, false
	}
	cmp = b.Op
	x, y := b.X, b.Y
	if _, lit := x.(*rule.Lit); lit {
		x, y = y, x
		cmp = mirror[cmp]
	}
	call, isCall := x.(*rule.Call)
	lit, isLit := y.(*rule.Lit)
	if !isCall || !isLit || call.Native || call.Builtin() == nil || !call.Builtin().CountsUses || len(call.Args) != 1 {
		return 0, "", 0, false
	}
	ref, isRef := call.Args[0].(*rule.ValueRef)
	iv, isInt := lit.Value.(int64)
	if !isRef || !isInt || ref.Ref.New || ref.Ref.Index < 0 || ref.Ref.Index >= len(p.Values) ||
		p.Values[ref.Ref.Index].List || iv < -1<<31 || iv > 1<<31-1 {
		return 0, "", 0, false
	}
	return ref.Ref.Index, cmp, iv, true
}
