package paddle

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// The where constraints and computed attributes become C++ expressions over a paddle::drr::MatchContext: a
// $hole is MatchContext::Attr<T> with T from the attribute-type table, a %value MatchContext::Tensor, a builtin
// pir::GetShapeFromValue, pir::GetValueDtype and the helpers of helpers.go, a parameter a member of the pattern
// class. Expressions are typed as the language types them (bool, int, float, string, dtype, place, lists), and
// a list literal takes the C++ type its use asks for (std::vector<int32_t> beside an i32[] attribute).

// ctype is the type of a C++ expression.
type ctype uint8

const (
	tBool ctype = iota
	tInt
	tFloat
	tStr
	tDType
	tPlace
	tList
	tValue
)

// cx is a translated expression.
type cx struct {
	code string
	t    ctype
	// elem is a list's C++ element type; "" for a list literal, whose type its use decides (elems).
	elem  string
	elems []cx
	// raw marks a string literal ("…", not yet a std::string).
	raw bool
	// f32 marks a float expression of C++ type float, which the language's float64 arithmetic widens first.
	f32 bool
}

// exprGen translates the expressions of one lambda.
type exprGen struct {
	pt   *pattern
	mc   string // the MatchContext variable
	this bool   // the code reads a parameter member
	// match: the code reads the match (a tensor or an attribute through mc), so it can only be a lambda's body,
	// never an argument of a result attribute builder (res.VectorInt64Attr(…) is built before any match).
	match bool
}

func newExprGen(pt *pattern, mc string) *exprGen { return &exprGen{pt: pt, mc: mc} }

// exprError is a construct the translation refuses, at its position.
type exprError struct {
	pos diag.Position
	msg string
}

func (e *exprError) Error() string { return e.msg }

func errAt(pos diag.Position, format string, args ...any) error {
	return &exprError{pos: pos, msg: fmt.Sprintf(format, args...)}
}

func (pt *pattern) failExpr(err error) {
	if ee, ok := err.(*exprError); ok {
		pt.fail(ee.pos, "%s", ee.msg)
		return
	}
	pt.fail(pt.r.Pos, "%v", err)
}

// cond translates a constraint: a bool expression.
func (e *exprGen) cond(x rule.Expr) (string, error) {
	c, err := e.expr(x)
	if err != nil {
		return "", err
	}
	if c.t != tBool {
		return "", errAt(x.At(), "the constraint is not a bool")
	}
	return c.code, nil
}

// compute translates a computed attribute: an expression of exactly C++ type cpp.
func (e *exprGen) compute(x rule.Expr, cpp string) (string, error) {
	if c, ok := x.(*rule.Cond); ok { // each branch of the type asked for (list literals need it)
		cond, err := e.cond(c.Cond)
		if err != nil {
			return "", err
		}
		a, err := e.compute(c.Then, cpp)
		if err != nil {
			return "", err
		}
		b, err := e.compute(c.Else, cpp)
		if err != nil {
			return "", err
		}
		return paren(cond) + " ? " + paren(a) + " : " + paren(b), nil
	}
	c, err := e.expr(x)
	if err != nil {
		return "", err
	}
	return e.as(c, cpp, x.At())
}

// as converts c to C++ type cpp.
func (e *exprGen) as(c cx, cpp string, pos diag.Position) (string, error) {
	switch cpp {
	case "bool":
		if c.t == tBool {
			return c.code, nil
		}
	case "int32_t", "int64_t", "float", "double":
		if c.t == tInt || c.t == tFloat {
			if c.t == tInt && (cpp == "int64_t" || cpp == "int32_t") && isNumber(c.code) {
				return c.code, nil
			}
			if c.t == tFloat && cpp == "double" && isNumber(c.code) {
				return c.code, nil
			}
			if c.t == tInt && (cpp == "double" || cpp == "float") && isNumber(c.code) { // -2 as -2.0
				lit := c.code + ".0"
				if cpp == "float" {
					lit += "f"
				}
				return lit, nil
			}
			if c.t == tFloat && cpp == "float" && isNumber(c.code) {
				return c.code + "f", nil
			}
			if c.t == tFloat && (cpp == "double" && !c.f32 || cpp == "float" && c.f32) {
				return c.code, nil
			}
			return "static_cast<" + cpp + ">(" + c.code + ")", nil
		}
	case "std::string":
		if c.t == tStr {
			if c.raw {
				return "std::string(" + c.code + ")", nil
			}
			return c.code, nil
		}
	case "phi::DataType":
		if c.t == tDType {
			return c.code, nil
		}
	case "phi::Place":
		if c.t == tPlace {
			return c.code, nil
		}
	default:
		if elem, ok := strings.CutPrefix(cpp, "std::vector<"); ok && c.t == tList {
			elem = strings.TrimSuffix(elem, ">")
			if c.elems != nil || c.elem == "" {
				return e.listLiteral(c, elem, pos, true)
			}
			if c.elem == elem {
				return c.code, nil
			}
			return "", errAt(pos, "a list of %s where Paddle needs a list of %s", c.elem, elem)
		}
	}
	return "", errAt(pos, "the expression gives %s where Paddle's attribute needs %s", e.typeName(c), cpp)
}

// listLiteral prints a list literal as a std::vector of elem (typed: the type spelt; else a braced list).
func (e *exprGen) listLiteral(c cx, elem string, pos diag.Position, typed bool) (string, error) {
	parts := make([]string, len(c.elems))
	for i, x := range c.elems {
		s, err := e.asElem(x, elem, pos)
		if err != nil {
			return "", err
		}
		parts[i] = s
	}
	if typed {
		return "std::vector<" + elem + ">{" + strings.Join(parts, ", ") + "}", nil
	}
	return "{" + strings.Join(parts, ", ") + "}", nil
}

// asElem prints an element of a list literal of elem: literals as written, nested lists braced.
func (e *exprGen) asElem(x cx, elem string, pos diag.Position) (string, error) {
	if inner, ok := strings.CutPrefix(elem, "std::vector<"); ok && x.t == tList && x.elems != nil {
		return e.listLiteral(x, strings.TrimSuffix(inner, ">"), pos, false)
	}
	if x.t == tStr && x.raw {
		return x.code, nil
	}
	if (elem == "int32_t" || elem == "int64_t") && x.t == tInt {
		return x.code, nil
	}
	return e.as(x, elem, pos)
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

func (e *exprGen) typeName(c cx) string {
	switch c.t {
	case tBool:
		return "a bool"
	case tInt:
		return "an int"
	case tFloat:
		return "a float"
	case tStr:
		return "a string"
	case tDType:
		return "a dtype"
	case tPlace:
		return "a place"
	case tList:
		return "a list"
	}
	return "a value"
}

// cppOf is the C++ type of c (a list literal's from its first element).
func (e *exprGen) cppOf(c cx) string {
	switch c.t {
	case tBool:
		return "bool"
	case tInt:
		return "int64_t"
	case tFloat:
		return "double"
	case tStr:
		return "std::string"
	case tDType:
		return "phi::DataType"
	case tPlace:
		return "phi::Place"
	case tList:
		if c.elem != "" {
			return "std::vector<" + c.elem + ">"
		}
		if len(c.elems) > 0 {
			return "std::vector<" + e.cppOf(c.elems[0]) + ">"
		}
		return "std::vector<int64_t>"
	}
	return "pir::Value"
}

// expr translates one expression.
func (e *exprGen) expr(x rule.Expr) (cx, error) {
	switch x := x.(type) {
	case *rule.Lit:
		return e.lit(x.Value, x.Pos)
	case *rule.HoleRef:
		return e.hole(x.Hole, x.Pos)
	case *rule.ParamRef:
		d := e.pt.g.paramDecl(x.Name)
		if d == nil {
			return cx{}, errAt(x.Pos, "unknown parameter $%s", x.Name)
		}
		e.this = true
		e.pt.params[x.Name] = true
		t := paramType(d)
		return cx{code: x.Name + "_", t: t.t, elem: t.elem}, nil
	case *rule.ValueRef:
		if x.Ref.New {
			return cx{}, errAt(x.Pos, "a value the rewrite creates cannot be read in a Paddle lambda")
		}
		e.match = true
		return cx{code: fmt.Sprintf("%s.Tensor(%q)", e.mc, e.pt.tensor(x.Ref.Index)), t: tValue}, nil
	case *rule.Unary:
		a, err := e.expr(x.X)
		if err != nil {
			return cx{}, err
		}
		switch {
		case x.Op == "!" && a.t == tBool:
			return cx{code: "!" + paren(a.code), t: tBool}, nil
		case x.Op == "-" && (a.t == tInt || a.t == tFloat):
			if isNumber(a.code) {
				return cx{code: "-" + a.code, t: a.t}, nil
			}
			return cx{code: "-" + paren(a.code), t: a.t}, nil
		}
		return cx{}, errAt(x.Pos, "%s on %s", x.Op, e.typeName(a))
	case *rule.Binary:
		return e.binary(x)
	case *rule.Cond:
		return e.condExpr(x)
	case *rule.List:
		out := cx{t: tList, elems: []cx{}}
		for _, el := range x.Elems {
			c, err := e.expr(el)
			if err != nil {
				return cx{}, err
			}
			out.elems = append(out.elems, c)
		}
		return out, nil
	case *rule.Index:
		return e.index(x)
	case *rule.Call:
		return e.call(x)
	}
	return cx{}, errAt(x.At(), "this expression has no C++ form")
}

// lit translates a constant.
func (e *exprGen) lit(v rule.Val, pos diag.Position) (cx, error) {
	switch v := v.(type) {
	case bool:
		return cx{code: strconv.FormatBool(v), t: tBool}, nil
	case int64:
		return cx{code: strconv.FormatInt(v, 10), t: tInt}, nil
	case float64:
		return cx{code: floatLit(v), t: tFloat}, nil
	case string:
		return cx{code: strconv.Quote(v), t: tStr, raw: true}, nil
	case ir.DType:
		return cx{code: dtypeCpp(v), t: tDType}, nil
	case ir.Place:
		s, err := placeCpp(v)
		if err != nil {
			return cx{}, errAt(pos, "%v", err)
		}
		return cx{code: s, t: tPlace}, nil
	case []rule.Val:
		out := cx{t: tList, elems: []cx{}}
		for _, el := range v {
			c, err := e.lit(el, pos)
			if err != nil {
				return cx{}, err
			}
			out.elems = append(out.elems, c)
		}
		return out, nil
	case ir.Attribute:
		return e.attrLit(v, pos)
	}
	return cx{}, errAt(pos, "the constant %v has no C++ form", v)
}

// attrLit translates an attribute constant.
func (e *exprGen) attrLit(a ir.Attribute, pos diag.Position) (cx, error) {
	switch a := a.(type) {
	case *ir.BoolAttr:
		return e.lit(a.Value, pos)
	case *ir.Int32Attr:
		return e.lit(int64(a.Value), pos)
	case *ir.Int64Attr:
		return e.lit(a.Value, pos)
	case *ir.FloatAttr:
		return e.lit(float64(a.Value), pos)
	case *ir.DoubleAttr:
		return e.lit(a.Value, pos)
	case *ir.StrAttr:
		return e.lit(a.Value, pos)
	case *ir.DataTypeAttr:
		return e.lit(a.DType, pos)
	case *ir.PlaceAttr:
		return e.lit(a.Place, pos)
	case *ir.IntArrayAttr:
		out := cx{t: tList, elems: []cx{}}
		for _, v := range a.Values {
			out.elems = append(out.elems, cx{code: strconv.FormatInt(v, 10), t: tInt})
		}
		return out, nil
	case *ir.ArrayAttr:
		out := cx{t: tList, elems: []cx{}}
		for _, el := range a.Elems {
			c, err := e.attrLit(el, pos)
			if err != nil {
				return cx{}, err
			}
			out.elems = append(out.elems, c)
		}
		return out, nil
	}
	return cx{}, errAt(pos, "the attribute %s has no C++ form in Paddle's DRR", a)
}

// floatLit prints a double literal that reads back exactly.
func floatLit(v float64) string {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		switch {
		case math.IsNaN(v):
			return "std::numeric_limits<double>::quiet_NaN()"
		case v > 0:
			return "std::numeric_limits<double>::infinity()"
		}
		return "-std::numeric_limits<double>::infinity()"
	}
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// dtypeCpp is the phi::DataType enumerator of d.
func dtypeCpp(d ir.DType) string {
	switch d {
	case ir.DTypeBFloat16:
		return "phi::DataType::BFLOAT16"
	case ir.DTypeUndefined:
		return "phi::DataType::UNDEFINED"
	}
	return "phi::DataType::" + strings.ToUpper(d.DataTypeName())
}

func placeCpp(p ir.Place) (string, error) {
	switch p.Type {
	case ir.PlaceCPU:
		return "phi::Place(phi::AllocationType::CPU)", nil
	case ir.PlaceGPU:
		return fmt.Sprintf("phi::Place(phi::AllocationType::GPU, %d)", p.Device), nil
	case ir.PlaceUndefined:
		return "phi::Place()", nil
	}
	return "", fmt.Errorf("the place %v has no C++ form here", p)
}

// hole reads an attribute $hole: MatchContext::Attr<T> with T the table's for the attribute that bound it.
func (e *exprGen) hole(h int, pos diag.Position) (cx, error) {
	pt := e.pt
	if pt.p.Holes[h].Kind != rule.HoleAttr || pt.holeAttr[h] == "" {
		return cx{}, errAt(pos, "$%s is not bound to an attribute (Paddle's lambdas read attributes and tensors only)",
			holeName(pt.p, h))
	}
	from := pt.holeFrom[h]
	if t := pt.holeCut[h]; t != "" {
		e.match = true
		code, cpp, err := pt.cutRead(fmt.Sprintf("%s.Tensor(%q)", e.mc, t), from[0], from[1])
		if err != nil {
			return cx{}, errAt(pos, "$%s: %v", holeName(pt.p, h), err)
		}
		return typed(code, cpp), nil
	}
	cpp, err := pt.readType(from[0], from[1])
	if err != nil {
		return cx{}, errAt(pos, "$%s: %v", holeName(pt.p, h), err)
	}
	e.match = true
	code := fmt.Sprintf("%s.Attr<%s>(%q)", e.mc, cpp, pt.holeAttr[h])
	return typed(code, cpp), nil
}

// typed is the cx of C++ code of type cpp.
func typed(code, cpp string) cx {
	switch cpp {
	case "bool":
		return cx{code: code, t: tBool}
	case "int32_t", "int64_t":
		return cx{code: code, t: tInt}
	case "float":
		return cx{code: code, t: tFloat, f32: true}
	case "double":
		return cx{code: code, t: tFloat}
	case "std::string":
		return cx{code: code, t: tStr}
	case "phi::DataType":
		return cx{code: code, t: tDType}
	case "phi::Place":
		return cx{code: code, t: tPlace}
	}
	elem := strings.TrimSuffix(strings.TrimPrefix(cpp, "std::vector<"), ">")
	return cx{code: code, t: tList, elem: elem}
}

func paren(s string) string {
	if isNumber(s) || isSimple(s) {
		return s
	}
	return "(" + s + ")"
}

// isSimple reports whether s needs no parentheses as an operand: an identifier, a call or a member access, or
// one negated with !.
func isSimple(s string) bool {
	s = strings.ReplaceAll(strings.TrimPrefix(s, "!"), "->", ".") // a member access through a pointer
	depth := 0
	for _, c := range s {
		switch c {
		case '(', '[', '<', '{':
			depth++
		case ')', ']', '>', '}':
			depth--
		case ' ', '!', '-', '+', '*', '/', '%', '?', ':', '=', '&', '|':
			if depth == 0 && c != ':' {
				return false
			}
		}
	}
	return !strings.HasPrefix(s, "-")
}

// binary translates x op y.
func (e *exprGen) binary(x *rule.Binary) (cx, error) {
	a, err := e.expr(x.X)
	if err != nil {
		return cx{}, err
	}
	b, err := e.expr(x.Y)
	if err != nil {
		return cx{}, err
	}
	bad := func() (cx, error) {
		return cx{}, errAt(x.Pos, "%s between %s and %s has no C++ form here", x.Op, e.typeName(a), e.typeName(b))
	}
	switch x.Op {
	case "&&", "||":
		if a.t != tBool || b.t != tBool {
			return bad()
		}
		return cx{code: paren(a.code) + " " + x.Op + " " + paren(b.code), t: tBool}, nil
	case "in":
		if b.t != tList {
			return bad()
		}
		e.pt.g.helpers["Contains"] = true
		elem := e.cppOf(a)
		if a.t == tList && a.elems != nil {
			return bad()
		}
		var list string
		if b.elems != nil {
			list, err = e.listLiteral(b, elem, x.Pos, false)
		} else {
			list, err = e.as(b, "std::vector<"+elem+">", x.Pos)
		}
		if err != nil {
			return cx{}, err
		}
		return cx{code: fmt.Sprintf("Contains<%s>(%s, %s)", elem, list, a.code), t: tBool}, nil
	case "==", "!=", "<", "<=", ">", ">=":
		if a.t == tList || b.t == tList {
			if x.Op != "==" && x.Op != "!=" || a.t != tList || b.t != tList {
				return bad()
			}
			if a.elems != nil && b.elems != nil {
				return bad()
			}
			if a.elems != nil {
				a, b = b, a
			}
			bs, err := e.as(b, e.cppOf(a), x.Pos)
			if err != nil {
				return cx{}, err
			}
			return cx{code: paren(a.code) + " " + x.Op + " " + bs, t: tBool}, nil
		}
		num := (a.t == tInt || a.t == tFloat) && (b.t == tInt || b.t == tFloat)
		if !num && (a.t != b.t || x.Op != "==" && x.Op != "!=") {
			return bad()
		}
		if a.t == tValue {
			return cx{code: a.code + " " + x.Op + " " + b.code, t: tBool}, nil
		}
		if a.t == tStr && a.raw && b.raw {
			a.code, a.raw = "std::string("+a.code+")", false
		}
		return cx{code: paren(a.code) + " " + x.Op + " " + paren(b.code), t: tBool}, nil
	case "+", "-", "*", "/", "%":
		if x.Op == "+" && a.t == tStr && b.t == tStr {
			if a.raw {
				a.code = "std::string(" + a.code + ")"
			}
			return cx{code: a.code + " + " + paren(b.code), t: tStr}, nil
		}
		if (a.t != tInt && a.t != tFloat) || (b.t != tInt && b.t != tFloat) {
			return bad()
		}
		t := tInt
		if a.t == tFloat || b.t == tFloat {
			t = tFloat
			if x.Op == "%" {
				return bad()
			}
		}
		ac, bc := paren(a.code), paren(b.code)
		if t == tFloat && a.f32 && b.f32 {
			// The language computes in float64: so does the C++ (a float widened first).
			ac = "static_cast<double>(" + a.code + ")"
		}
		return cx{code: ac + " " + x.Op + " " + bc, t: t}, nil
	}
	return bad()
}

// condExpr translates c ? a : b, both branches of one C++ type.
func (e *exprGen) condExpr(x *rule.Cond) (cx, error) {
	c, err := e.cond(x.Cond)
	if err != nil {
		return cx{}, err
	}
	a, err := e.expr(x.Then)
	if err != nil {
		return cx{}, err
	}
	b, err := e.expr(x.Else)
	if err != nil {
		return cx{}, err
	}
	var t cx
	switch {
	case a.t == tList && a.elems != nil && b.t == tList && b.elems != nil:
		// Both literals: the use decides their type; keep the choice a literal of its own.
		return cx{}, errAt(x.Pos, "a choice between two list literals: Paddle needs their C++ type (write it where an "+
			"attribute of known type takes it)")
	case a.t == tList || b.t == tList:
		if a.t != tList || b.t != tList {
			return cx{}, errAt(x.Pos, "the branches of ?: have different types")
		}
		cpp := e.cppOf(a)
		if a.elems != nil {
			cpp = e.cppOf(b)
		}
		t = cx{t: tList, elem: strings.TrimSuffix(strings.TrimPrefix(cpp, "std::vector<"), ">")}
		as, err1 := e.as(a, cpp, x.Pos)
		bs, err2 := e.as(b, cpp, x.Pos)
		if err := firstErr(err1, err2); err != nil {
			return cx{}, err
		}
		a.code, b.code = as, bs
	case (a.t == tInt || a.t == tFloat) && (b.t == tInt || b.t == tFloat):
		t = cx{t: tInt}
		if a.t == tFloat || b.t == tFloat {
			t = cx{t: tFloat, f32: a.f32 && b.f32}
			if !t.f32 {
				// One C++ type for both branches: double (a literal or an int converts as it is).
				for _, c := range []*cx{&a, &b} {
					if c.f32 || c.t == tInt && !isNumber(c.code) {
						c.code = "static_cast<double>(" + c.code + ")"
					}
				}
			}
		}
	case a.t == b.t:
		t = cx{t: a.t}
		if a.t == tStr {
			as, _ := e.as(a, "std::string", x.Pos)
			bs, _ := e.as(b, "std::string", x.Pos)
			a.code, b.code = as, bs
		}
	default:
		return cx{}, errAt(x.Pos, "the branches of ?: have different types")
	}
	t.code = paren(c) + " ? " + paren(a.code) + " : " + paren(b.code)
	t.code = "(" + t.code + ")"
	return t, nil
}

// index translates x[i]: the At helper (negative i counts from the end).
func (e *exprGen) index(x *rule.Index) (cx, error) {
	l, err := e.expr(x.X)
	if err != nil {
		return cx{}, err
	}
	i, err := e.expr(x.Index)
	if err != nil {
		return cx{}, err
	}
	if l.t != tList || l.elems != nil || i.t != tInt {
		return cx{}, errAt(x.Pos, "indexing %s has no C++ form here", e.typeName(l))
	}
	e.pt.g.helpers["At"] = true
	return typed(fmt.Sprintf("At(%s, %s)", l.code, i.code), l.elem), nil
}

// call translates a builtin or a native constraint.
func (e *exprGen) call(x *rule.Call) (cx, error) {
	args := make([]cx, len(x.Args))
	for i, a := range x.Args {
		c, err := e.expr(a)
		if err != nil {
			return cx{}, err
		}
		args[i] = c
	}
	g := e.pt.g
	if x.Native {
		if !g.natives[x.Func] {
			return cx{}, errAt(x.Pos, "the native constraint %s has no C++ definition (give one with -native-cpp FILE: "+
				"a function bool %s(…) taking pir::Value for %%values and the attribute types of docs/paddle-export.md)",
				x.Func, x.Func)
		}
		parts := make([]string, len(args))
		for i, a := range args {
			if a.elems != nil {
				return cx{}, errAt(x.Args[i].At(), "a list literal as an argument of a native constraint")
			}
			parts[i] = a.code
		}
		return cx{code: x.Func + "(" + strings.Join(parts, ", ") + ")", t: tBool}, nil
	}
	return e.builtin(x, args)
}

// builtin translates a call of a builtin from its Paddle form (rule.PaddleForm, kept with the builtin): the
// arguments checked against the form's kinds, then its code with the arguments in place.
func (e *exprGen) builtin(x *rule.Call, args []cx) (cx, error) {
	refuse := errAt(x.Pos, "the builtin %s (with these arguments) has no Paddle form in this exporter", x.Func)
	b := x.Builtin()
	if b == nil || b.Paddle == nil {
		return cx{}, refuse
	}
	f := b.Paddle
	kinds := f.Args
	if f.Each {
		kinds = slices.Repeat(f.Args[:1], len(args))
	}
	if len(args) != len(kinds) || len(args) == 0 {
		return cx{}, refuse
	}
	codes := make([]string, len(args))
	for i, a := range args {
		switch kinds[i] {
		case "value":
			if a.t != tValue {
				return cx{}, errAt(x.Args[i].At(), "%s: argument %d must be a %%value", x.Func, i+1)
			}
		case "int":
			if a.t != tInt {
				return cx{}, refuse
			}
		case "number":
			if a.t != tInt && a.t != tFloat || a.t != args[0].t {
				return cx{}, refuse
			}
		case "sized":
			if !(a.t == tList && a.elems == nil || a.t == tStr && !a.raw) {
				return cx{}, refuse
			}
		default:
			return cx{}, refuse
		}
		codes[i] = a.code
	}
	code := f.Code
	if strings.Contains(code, "{T}") {
		cpp := e.cppOf(args[0])
		for i, a := range args {
			c, err := e.as(a, cpp, x.Pos)
			if err != nil {
				return cx{}, err
			}
			codes[i] = c
		}
		code = strings.ReplaceAll(code, "{T}", cpp)
	}
	if f.Each {
		parts := make([]string, len(codes))
		for i, c := range codes {
			parts[i] = strings.ReplaceAll(code, "{0}", c)
		}
		code = strings.Join(parts, " && ")
	} else {
		for i, c := range codes {
			code = strings.ReplaceAll(code, "{"+strconv.Itoa(i)+"}", c)
		}
	}
	for _, h := range f.Helpers {
		e.pt.g.helpers[h] = true
	}
	for _, inc := range f.Includes {
		e.pt.g.includes[inc] = true
	}
	switch f.Result {
	case "bool":
		return cx{code: code, t: tBool}, nil
	case "int":
		return cx{code: code, t: tInt}, nil
	case "dtype":
		return cx{code: code, t: tDType}, nil
	case "list":
		return cx{code: code, t: tList, elem: "int64_t"}, nil
	case "arg":
		return cx{code: code, t: args[0].t}, nil
	}
	return cx{}, refuse
}
