package rulegen

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/rulegen/rt"
)

// A where constraint compiles to one Go expression of rule.Val that applies rt's operators to its operands, in
// rule.Eval's order, with rt.Fail where rule.Eval would fail (see package rt): the constraint holds when the
// expression is true (rt.True). &&, || and ?: pass the operands they may skip as functions, so that nothing is
// evaluated that rule.Eval would not evaluate. Where only a true value counts (a constraint, and the operands of
// its &&, ||, ! and ?: branches), the expression is a Go bool instead (cond): && is Go's own, and no rule.Val is
// built for the connectives.

var simpleIdent = regexp.MustCompile(`^[\w.]+$`)

func paren(s string) string {
	if simpleIdent.MatchString(s) {
		return s
	}
	return "(" + s + ")"
}

// binaryOps are the rt functions of the binary operators other than && and ||.
var binaryOps = map[string]string{"==": "rt.Equal", "!=": "rt.NotEqual", "<": "rt.Less", "<=": "rt.LessEqual",
	">": "rt.Greater", ">=": "rt.GreaterEqual", "in": "rt.In", "+": "rt.Add"}

// val returns the Go code of e's value.
func (g *fnGen) val(e rule.Expr) string {
	if i, ok := g.const_[e]; ok {
		if pr, isParam := e.(*rule.ParamRef); isParam {
			// The value comes with the oracle of the pass run; the default from the checked rule.
			return fmt.Sprintf("m.Param(%q, in.Consts[%d])", pr.Name, i)
		}
		return fmt.Sprintf("in.Consts[%d]", i)
	}
	switch e := e.(type) {
	case *rule.Lit:
		if code, ok := goConstant(e.Value); ok {
			return code
		}
	case *rule.HoleRef:
		h := e.Hole
		switch {
		case h < 0 || h >= len(g.p.Holes) || !g.bound[h]:
			g.f.errorf(e.Pos, "drrc gen: the $hole is not bound by the pattern when the constraint is evaluated")
			return "rt.Fail"
		case g.p.Holes[h].Kind == rule.HoleAttr:
			return "rule.AttrVal(" + g.holeVar[h] + ")"
		}
		return g.holeVar[h]
	case *rule.ValueRef:
		if e.Ref.New || e.Ref.Index < 0 || e.Ref.Index >= len(g.p.Values) {
			g.f.errorf(e.Pos, "drrc gen: a constraint can only read values of the pattern")
			return "rt.Fail"
		}
		if g.p.IsElem(e.Ref.Index) && g.first == "" {
			g.f.errorf(e.Pos, "drrc gen: only a per-element constraint can read a per-element value of a users group")
			return "rt.Fail"
		}
		return g.valVar[e.Ref.Index]
	case *rule.Unary:
		switch e.Op {
		case "!":
			return "rt.Not(" + g.val(e.X) + ")"
		case "-":
			return "rt.Neg(" + g.val(e.X) + ")"
		}
	case *rule.Binary:
		x, y := g.val(e.X), g.val(e.Y)
		switch e.Op {
		case "&&":
			return "rt.And(" + x + ", " + lazy(y) + ")"
		case "||":
			return "rt.Or(" + x + ", " + lazy(y) + ")"
		case "-", "*", "/", "%":
			return fmt.Sprintf("rt.Arith(%q, %s, %s)", e.Op, x, y)
		}
		if f, ok := binaryOps[e.Op]; ok {
			return f + "(" + x + ", " + y + ")"
		}
	case *rule.Cond:
		return "rt.Cond(" + g.val(e.Cond) + ", " + lazy(g.val(e.Then)) + ", " + lazy(g.val(e.Else)) + ")"
	case *rule.List:
		elems := make([]string, len(e.Elems))
		for i, x := range e.Elems {
			elems[i] = g.val(x)
		}
		return "rt.List(" + strings.Join(elems, ", ") + ")"
	case *rule.Index:
		return "rt.Index(" + g.val(e.X) + ", " + g.val(e.Index) + ")"
	case *rule.Call:
		if b := e.Builtin(); b != nil && b.PathQuery {
			return "(" + g.boundCall(e) + ")"
		}
		args := ""
		for _, a := range e.Args {
			args += ", " + g.val(a)
		}
		switch {
		case e.Native:
			return fmt.Sprintf("m.Native(%q%s)", e.Func, args)
		case rule.PureBuiltin(e.Func) != nil:
			return fmt.Sprintf("m.Pure(%q%s)", e.Func, args)
		}
		return fmt.Sprintf("m.Builtin(%q%s)", e.Func, args)
	}
	g.f.errorf(e.At(), "drrc gen: cannot compile the expression %s", rule.FormatExpr(g.r, e))
	return "rt.Fail"
}

// cond returns the Go code of a bool that is true exactly when e's value is true (rt.True of val(e)), for a
// constraint or an operand of one whose value only counts if it is true: && is Go's &&, an || or ?: passes the
// operands it may skip as functions of bool (rt.TrueOr, rt.TrueCond), ! is rt.False; any other expression is
// rt.True of its value. Evaluated in rule.Eval's order, it skips what rule.Eval skips.
func (g *fnGen) cond(e rule.Expr) string {
	if _, ok := g.const_[e]; !ok {
		switch e := e.(type) {
		case *rule.Unary:
			if e.Op == "!" {
				return "rt.False(" + g.val(e.X) + ")"
			}
		case *rule.Binary:
			switch e.Op {
			case "&&":
				return g.cond(e.X) + " && " + g.cond(e.Y)
			case "||":
				return "rt.TrueOr(" + g.val(e.X) + ", " + lazyCond(g.cond(e.Y)) + ")"
			}
		case *rule.Cond:
			return "rt.TrueCond(" + g.val(e.Cond) + ", " + lazyCond(g.cond(e.Then)) + ", " + lazyCond(g.cond(e.Else)) + ")"
		case *rule.Call:
			if b := e.Builtin(); b != nil && b.PathQuery {
				return g.boundCall(e)
			}
		}
	}
	return "rt.True(" + g.val(e) + ")"
}

// lazyCond wraps the code of a bool operand that is evaluated only when needed.
func lazyCond(code string) string { return "func() bool { return " + code + " }" }

// lazy wraps the code of an operand that is evaluated only when needed.
func lazy(code string) string { return "func() rule.Val { return " + code + " }" }

// goConstant writes a literal that rt.GoConstant accepts (rt.Constraints lists every other one).
func goConstant(v rule.Val) (string, bool) {
	switch v := v.(type) {
	case bool:
		return strconv.FormatBool(v), true
	case int64:
		return "int64(" + strconv.FormatInt(v, 10) + ")", true
	case float64:
		return "float64(" + strconv.FormatFloat(v, 'g', -1, 64) + ")", rt.GoConstant(v)
	case string:
		return strconv.Quote(v), true
	}
	return "", false
}

// boundCall returns the Go bool of a bound(…) the plan left to the match (after alternatives that joined): the
// variables of what a branch not taken binds are nil there. A single value or an attribute $hole is tested
// itself; a list by the op whose operands it is, a $hole of another kind by what binds it (an op's rest of
// attributes, a value's type pattern).
func (g *fnGen) boundCall(c *rule.Call) string {
	var tests []string
	for _, a := range c.Args {
		tests = append(tests, g.boundTest(a, c))
	}
	return strings.Join(tests, " && ")
}

func (g *fnGen) boundTest(a rule.Expr, c *rule.Call) string {
	p := g.p
	switch a := a.(type) {
	case *rule.ValueRef:
		h := a.Ref.Index
		if a.Ref.New || h < 0 || h >= len(p.Values) {
			break
		}
		if !p.Values[h].List {
			return g.valVar[h] + " != nil"
		}
		for k, op := range p.Ops {
			for _, o := range op.Operands {
				if o.Kind == rule.OperandList && o.Value == h {
					return g.opVar[k] + " != nil"
				}
			}
		}
	case *rule.HoleRef:
		h := a.Hole
		if h < 0 || h >= len(p.Holes) {
			break
		}
		if p.Holes[h].Kind == rule.HoleAttr {
			return g.holeVar[h] + " != nil"
		}
		for k, op := range p.Ops {
			if op.RestAttrs == h {
				return g.opVar[k] + " != nil"
			}
		}
		for v, vh := range p.Values {
			if vh.Type != nil && slices.Contains(vh.Type.Holes(), h) {
				return g.boundTest(&rule.ValueRef{Ref: rule.Ref{Index: v}}, c)
			}
		}
	}
	g.f.errorf(c.Pos, "drrc gen: cannot decide bound(%s) on the match", rule.FormatExpr(g.r, a))
	return "false"
}
