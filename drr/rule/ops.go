package rule

// The operations of Eval as functions of evaluated operands, for code that evaluates expressions without walking
// them (the matchers drrc gen writes): what they return is what Eval returns for the same operands.

// PureBuiltin returns the implementation of the builtin function name when it needs nothing but its arguments
// (Builtin.Program is false), or nil.
func PureBuiltin(name string) func(args []Val) (Val, error) {
	if f, ok := builtins[name]; ok {
		return f
	}
	return nil
}

// Compare orders two numbers (int64 or float64, compared as float64) or two strings: -1, 0 or 1, and false when
// the operands cannot be compared. The comparison operators < <= > >= of Eval use it.
func Compare(x, y Val) (int, bool) { return compare(x, y) }

// arithOps are the Binary nodes Arith evaluates with: arith reads only the operator (and the node's position,
// for errors), so one node per operator serves every call.
var arithOps = map[string]*Binary{"+": {Op: "+"}, "-": {Op: "-"}, "*": {Op: "*"}, "/": {Op: "/"}, "%": {Op: "%"}}

// Arith applies the arithmetic operator op (+ - * / %) to two numbers as Eval does: int64 with int64 stays int64
// (division by zero is an error), anything else with a float64 is float64. String and list concatenation by +
// are not arithmetic: Eval handles them before it calls this.
func Arith(op string, x, y Val) (Val, error) {
	e, ok := arithOps[op]
	if !ok {
		return nil, errAt(&Binary{Op: op}, "unknown operator %s", op)
	}
	return arith(e, x, y)
}
