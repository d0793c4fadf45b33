package rt

import "github.com/pirdrr/drr/drr/rule"

// A where constraint compiles to one Go expression of these operators, each the operator rule.Eval applies to
// the values of its operands. A subexpression rule.Eval could not evaluate is Fail, and every operator given Fail
// returns Fail, so a constraint is true (True) exactly when rule.Eval evaluates it to true: the automaton counts a
// constraint that does not evaluate as false. &&, || and ?: take the operands they may skip as functions, and
// evaluate them only when rule.Eval does.

// failure is the type of Fail.
type failure struct{}

// Fail is the value of a subexpression that rule.Eval fails to evaluate.
var Fail rule.Val = failure{}

func failed(xs ...rule.Val) bool {
	for _, x := range xs {
		if x == Fail {
			return true
		}
	}
	return false
}

// True reports whether x is true: a constraint holds.
func True(x rule.Val) bool { return x == true }

// False reports whether x is false: !x holds.
func False(x rule.Val) bool { return x == false }

// TrueOr reports whether x || y is true: x is true, or x is false and y (a constraint's operand in bool form, see
// True) holds; y runs only in that case.
func TrueOr(x rule.Val, y func() bool) bool {
	switch x {
	case true:
		return true
	case false:
		return y()
	}
	return false
}

// TrueCond reports whether c ? x : y is true: x holds when c is true, y when c is false, and neither runs otherwise.
func TrueCond(c rule.Val, x, y func() bool) bool {
	switch c {
	case true:
		return x()
	case false:
		return y()
	}
	return false
}

// Not is !x.
func Not(x rule.Val) rule.Val {
	if b, ok := x.(bool); ok {
		return !b
	}
	return Fail
}

// Neg is unary minus.
func Neg(x rule.Val) rule.Val {
	switch x := x.(type) {
	case int64:
		return -x
	case float64:
		return -x
	}
	return Fail
}

// And is x && y.
func And(x rule.Val, y func() rule.Val) rule.Val { return shortCircuit(x, false, y) }

// Or is x || y.
func Or(x rule.Val, y func() rule.Val) rule.Val { return shortCircuit(x, true, y) }

// shortCircuit is x && y (stop false) or x || y (stop true): x when it is stop, else y, both bools.
func shortCircuit(x rule.Val, stop bool, y func() rule.Val) rule.Val {
	if b, ok := x.(bool); !ok {
		return Fail
	} else if b == stop {
		return b
	}
	if v := y(); v == true || v == false {
		return v
	}
	return Fail
}

// Cond is c ? x : y.
func Cond(c rule.Val, x, y func() rule.Val) rule.Val {
	switch c {
	case true:
		return x()
	case false:
		return y()
	}
	return Fail
}

// Equal is x == y.
func Equal(x, y rule.Val) rule.Val {
	if failed(x, y) {
		return Fail
	}
	return rule.Equal(x, y)
}

// NotEqual is x != y.
func NotEqual(x, y rule.Val) rule.Val {
	if failed(x, y) {
		return Fail
	}
	return !rule.Equal(x, y)
}

// Less, LessEqual, Greater and GreaterEqual are x < y, x <= y, x > y and x >= y.
func Less(x, y rule.Val) rule.Val         { return order(x, y, func(c int) bool { return c < 0 }) }
func LessEqual(x, y rule.Val) rule.Val    { return order(x, y, func(c int) bool { return c <= 0 }) }
func Greater(x, y rule.Val) rule.Val      { return order(x, y, func(c int) bool { return c > 0 }) }
func GreaterEqual(x, y rule.Val) rule.Val { return order(x, y, func(c int) bool { return c >= 0 }) }

func order(x, y rule.Val, holds func(int) bool) rule.Val {
	c, ok := rule.Compare(x, y)
	if !ok {
		return Fail
	}
	return holds(c)
}

// In is x in list.
func In(x, list rule.Val) rule.Val {
	l, ok := list.([]rule.Val)
	if !ok || x == Fail {
		return Fail
	}
	for _, el := range l {
		if rule.Equal(x, el) {
			return true
		}
	}
	return false
}

// Add is x + y: string and list concatenation, or arithmetic.
func Add(x, y rule.Val) rule.Val {
	if xs, ok := x.(string); ok {
		if ys, ok := y.(string); ok {
			return xs + ys
		}
	}
	if xl, ok := x.([]rule.Val); ok {
		if yl, ok := y.([]rule.Val); ok {
			return append(append([]rule.Val{}, xl...), yl...)
		}
	}
	return Arith("+", x, y)
}

// Arith is x op y for op in - * / % (and +, for numbers).
func Arith(op string, x, y rule.Val) rule.Val {
	if failed(x, y) {
		return Fail
	}
	v, err := rule.Arith(op, x, y)
	if err != nil {
		return Fail
	}
	return v
}

// Index is x[i] on a list or a string, negative i counting from the end.
func Index(x, i rule.Val) rule.Val {
	n, ok := i.(int64)
	if !ok {
		return Fail
	}
	switch x := x.(type) {
	case []rule.Val:
		if n < 0 {
			n += int64(len(x))
		}
		if n < 0 || n >= int64(len(x)) {
			return Fail
		}
		return x[n]
	case string:
		if n < 0 {
			n += int64(len(x))
		}
		if n < 0 || n >= int64(len(x)) {
			return Fail
		}
		return x[n : n+1]
	}
	return Fail
}

// List is the list [xs...].
func List(xs ...rule.Val) rule.Val {
	if failed(xs...) {
		return Fail
	}
	return append([]rule.Val(nil), xs...)
}
