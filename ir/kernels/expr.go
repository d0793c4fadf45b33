package kernels

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

// Expr is an expression of a kernel table: a condition of a require or a kernel's if, or a part of a message.
type Expr interface {
	eval(e *env) val
	pos() diag.Position
}

// val is a value of the expression language: int64, float64, string, bool, ir.DType, []val, or unknown.
type val = any

// unknown is the value of what the program does not say (a dynamic dimension, an absent attribute without a
// default); comparisons with it are unknown, and a condition that is unknown is not a finding.
type unknownVal struct{}

var unknown val = unknownVal{}

func isUnknown(v val) bool { _, ok := v.(unknownVal); return ok }

// env is what an expression is evaluated against: an op and the target.
type env struct {
	op     *ir.Op
	target ir.Target
}

type (
	lit struct {
		at diag.Position
		v  val
	}
	// attrRef reads $name: the op's attribute, else its schema default.
	attrRef struct {
		at   diag.Position
		name string
	}
	// smRef reads the target's compute capability.
	smRef struct{ at diag.Position }
	// valueRef names an operand or result (%name); only functions take it.
	valueRef struct {
		at   diag.Position
		name string
	}
	call struct {
		at   diag.Position
		fn   fnKind
		args []Expr
	}
	unary struct {
		at diag.Position
		op string
		x  Expr
	}
	binary struct {
		at   diag.Position
		op   string
		x, y Expr
	}
	cond struct {
		at            diag.Position
		c, then, elze Expr
	}
	list struct {
		at    diag.Position
		elems []Expr
	}
	index struct {
		at   diag.Position
		x, i Expr
	}
)

func (x *lit) pos() diag.Position      { return x.at }
func (x *attrRef) pos() diag.Position  { return x.at }
func (x *smRef) pos() diag.Position    { return x.at }
func (x *valueRef) pos() diag.Position { return x.at }
func (x *call) pos() diag.Position     { return x.at }
func (x *unary) pos() diag.Position    { return x.at }
func (x *binary) pos() diag.Position   { return x.at }
func (x *cond) pos() diag.Position     { return x.at }
func (x *list) pos() diag.Position     { return x.at }
func (x *index) pos() diag.Position    { return x.at }

func (x *lit) eval(*env) val { return x.v }

func (x *smRef) eval(e *env) val {
	if e.target.Kind != ir.GPUTarget {
		return int64(0)
	}
	return int64(e.target.SM)
}

func (x *attrRef) eval(e *env) val {
	a := e.op.AttrOrDefault(x.name)
	if a == nil {
		return unknown
	}
	return attrVal(a)
}

// attrVal converts an attribute to a value.
func attrVal(a ir.Attribute) val {
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
		// The shortest decimal of the float32 (1e-05, not 9.999999747378752e-06), as Paddle's yaml and a user write it.
		f, _ := strconv.ParseFloat(strconv.FormatFloat(float64(a.Value), 'g', -1, 32), 64)
		return f
	case *ir.DoubleAttr:
		return a.Value
	case *ir.StrAttr:
		return a.Value
	case *ir.DataTypeAttr:
		return a.DType
	case *ir.DataLayoutAttr:
		return a.Layout
	case *ir.ScalarAttr:
		return attrVal(a.Value)
	case *ir.IntArrayAttr:
		out := make([]val, len(a.Values))
		for i, v := range a.Values {
			out[i] = v
		}
		return out
	case *ir.ArrayAttr:
		out := make([]val, len(a.Elems))
		for i, el := range a.Elems {
			out[i] = attrVal(el)
		}
		return out
	}
	return unknown
}

func (x *valueRef) eval(*env) val { return unknown } // rejected by the parser outside a function

// resolve returns the operand or result a %name designates, and whether the op has it (an optional operand left
// out is not there).
func resolve(op *ir.Op, name string) (*ir.Value, bool) {
	s := op.Schema()
	if s == nil {
		return nil, false
	}
	if i := s.OperandIndex(name); i >= 0 {
		// The tables name no operand after a variadic one (which would not sit at its schema index): Parse checks.
		if i >= op.NumOperands() {
			return nil, false
		}
		v := op.Operand(i)
		return v, v != nil
	}
	if i := s.ResultIndex(name); i >= 0 && i < op.NumResults() {
		return op.Result(i), true
	}
	return nil, false
}

// tensorOf returns the tensor type of v; for a vector (builtin.combine's result) the type of its first element,
// which is what Paddle's kernel key takes.
func tensorOf(v *ir.Value) *ir.TensorType {
	t := v.Type()
	if vt, ok := t.(*ir.VectorType); ok {
		if len(vt.Elems) == 0 {
			return nil
		}
		t = vt.Elems[0]
	}
	return ir.TensorOf(t)
}

// fnKind is a function of the expression language of kernel tables (a language of its own, not the rule
// language's builtins, though some names are alike).
type fnKind uint8

const (
	fnPresent fnKind = iota // present(%x): the optional operand is given
	fnDType                 // dtype(%x): the element type
	fnRank                  // rank(%x)
	fnDim                   // dim(%x, i): a static dimension
	fnLen                   // len(list or string)
)

// function describes a function: its kind, its arity, and whether its first argument is a tensor (%name).
type function struct {
	kind   fnKind
	arity  int
	tensor bool
}

// functions are the functions of the expression language, by name.
var functions = map[string]function{
	"present": {fnPresent, 1, true},
	"dtype":   {fnDType, 1, true},
	"rank":    {fnRank, 1, true},
	"dim":     {fnDim, 2, true},
	"len":     {fnLen, 1, false},
}

func (x *call) eval(e *env) val {
	switch x.fn {
	case fnPresent:
		_, ok := resolve(e.op, x.args[0].(*valueRef).name)
		return ok
	case fnDType, fnRank, fnDim:
		v, ok := resolve(e.op, x.args[0].(*valueRef).name)
		if !ok {
			return unknown
		}
		tt := tensorOf(v)
		if tt == nil {
			return unknown
		}
		switch x.fn {
		case fnDType:
			if tt.DType() == ir.DTypeUndefined {
				return unknown
			}
			return tt.DType()
		case fnRank:
			if tt.Dims == nil {
				return unknown
			}
			return int64(tt.Rank())
		}
		i, ok := x.args[1].eval(e).(int64)
		if !ok || tt.Dims == nil {
			return unknown
		}
		if i < 0 {
			i += int64(tt.Rank())
		}
		if i < 0 || i >= int64(tt.Rank()) || tt.Dims[i] < 0 {
			return unknown
		}
		return tt.Dims[i]
	case fnLen:
		switch v := x.args[0].eval(e).(type) {
		case []val:
			return int64(len(v))
		case string:
			return int64(len(v))
		}
		return unknown
	}
	panic(fmt.Sprintf("kernels: unknown function %d", x.fn)) // the parser makes only the kinds above
}

func (x *unary) eval(e *env) val {
	v := x.x.eval(e)
	switch x.op {
	case "!":
		if b, ok := v.(bool); ok {
			return !b
		}
	case "-":
		switch v := v.(type) {
		case int64:
			return -v
		case float64:
			return -v
		}
	}
	return unknown
}

func (x *cond) eval(e *env) val {
	switch c := x.c.eval(e).(type) {
	case bool:
		if c {
			return x.then.eval(e)
		}
		return x.elze.eval(e)
	}
	return unknown
}

func (x *list) eval(e *env) val {
	out := make([]val, len(x.elems))
	for i, el := range x.elems {
		out[i] = el.eval(e)
	}
	return out
}

func (x *index) eval(e *env) val {
	l, ok := x.x.eval(e).([]val)
	i, iok := x.i.eval(e).(int64)
	if !ok || !iok {
		return unknown
	}
	if i < 0 {
		i += int64(len(l))
	}
	if i < 0 || i >= int64(len(l)) {
		return unknown
	}
	return l[i]
}

func (x *binary) eval(e *env) val {
	switch x.op {
	case "&&":
		a := x.x.eval(e)
		if a == false {
			return false
		}
		b := x.y.eval(e)
		if b == false {
			return false
		}
		if a == true && b == true {
			return true
		}
		return unknown
	case "||":
		a := x.x.eval(e)
		if a == true {
			return true
		}
		b := x.y.eval(e)
		if b == true {
			return true
		}
		if a == false && b == false {
			return false
		}
		return unknown
	}
	a, b := x.x.eval(e), x.y.eval(e)
	if isUnknown(a) || isUnknown(b) {
		return unknown
	}
	switch x.op {
	case "==", "!=":
		eq, ok := equal(a, b)
		if !ok {
			return unknown
		}
		return eq == (x.op == "==")
	case "in":
		l, ok := b.([]val)
		if !ok {
			return unknown
		}
		sawUnknown := false
		for _, el := range l {
			eq, ok := equal(a, el)
			if !ok {
				sawUnknown = true
				continue
			}
			if eq {
				return true
			}
		}
		if sawUnknown {
			return unknown
		}
		return false
	case "<", "<=", ">", ">=":
		c, ok := compare(a, b)
		if !ok {
			return unknown
		}
		switch x.op {
		case "<":
			return c < 0
		case "<=":
			return c <= 0
		case ">":
			return c > 0
		}
		return c >= 0
	}
	return arith(x.op, a, b)
}

// equal compares two known values; ok is false for values of kinds that do not compare (a list and a number).
func equal(a, b val) (eq, ok bool) {
	if isUnknown(a) || isUnknown(b) {
		return false, false
	}
	if fa, aok := number(a); aok {
		fb, bok := number(b)
		return fa == fb, bok
	}
	switch a := a.(type) {
	case string:
		s, ok := b.(string)
		return a == s, ok
	case bool:
		v, ok := b.(bool)
		return a == v, ok
	case ir.DType:
		d, ok := b.(ir.DType)
		return a == d, ok
	case []val:
		l, ok := b.([]val)
		if !ok {
			return false, false
		}
		if len(a) != len(l) {
			return false, true
		}
		for i := range a {
			eq, ok := equal(a[i], l[i])
			if !ok || !eq {
				return eq, ok
			}
		}
		return true, true
	}
	return false, false
}

func number(v val) (float64, bool) {
	switch v := v.(type) {
	case int64:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}

func compare(a, b val) (int, bool) {
	fa, aok := number(a)
	fb, bok := number(b)
	if !aok || !bok {
		return 0, false
	}
	switch {
	case fa < fb:
		return -1, true
	case fa > fb:
		return 1, true
	}
	return 0, true
}

func arith(op string, a, b val) val {
	ia, aInt := a.(int64)
	ib, bInt := b.(int64)
	if aInt && bInt {
		switch op {
		case "+":
			return ia + ib
		case "-":
			return ia - ib
		case "*":
			return ia * ib
		case "/":
			if ib == 0 {
				return unknown
			}
			return ia / ib
		case "%":
			if ib == 0 {
				return unknown
			}
			return ia % ib
		}
		return unknown
	}
	fa, aok := number(a)
	fb, bok := number(b)
	if !aok || !bok {
		return unknown
	}
	switch op {
	case "+":
		return fa + fb
	case "-":
		return fa - fb
	case "*":
		return fa * fb
	case "/":
		if fb == 0 {
			return unknown
		}
		return fa / fb
	case "%":
		if fb == 0 {
			return unknown
		}
		return math.Mod(fa, fb)
	}
	return unknown
}

// format prints a value in a message: strings quoted, data types by Paddle's name, lists in brackets.
func format(v val) string {
	switch v := v.(type) {
	case unknownVal:
		return "?"
	case string:
		return strconv.Quote(v)
	case bool:
		return strconv.FormatBool(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case ir.DType:
		return v.DataTypeName()
	case []val:
		parts := make([]string, len(v))
		for i, el := range v {
			parts[i] = format(el)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

// Message is a finding's text: literal parts and expressions printed in between ({$activation}).
type Message struct {
	parts []string // literal text; len(parts) == len(exprs)+1
	exprs []Expr
}

func (m *Message) render(e *env) string {
	var b strings.Builder
	for i, p := range m.parts {
		b.WriteString(p)
		if i < len(m.exprs) {
			b.WriteString(format(m.exprs[i].eval(e)))
		}
	}
	return b.String()
}
