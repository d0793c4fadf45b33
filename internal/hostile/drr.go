package hostile

import (
	"fmt"
	"strings"
)

// The .drr inputs: rules whose where clause holds one generated expression. Each is a whole rule file that drrc
// check accepts when the expression is shallow enough, so that the only thing wrong with a deep one is its depth.

// Rule returns a rule file whose where clause is the constraint expr (over the match's %y, an int: uses(%y)).
func Rule(expr string) string {
	return "rule r {\n  match { %y = pd_op.relu(%x) }\n  where { " + expr + " }\n  rewrite { replace %y with %x }\n}\n"
}

// ParenExpr returns uses(%y) == 1 inside n parentheses: (((uses(%y) == 1))).
func ParenExpr(n int) string {
	return strings.Repeat("(", n) + "uses(%y) == 1" + strings.Repeat(")", n)
}

// ChainExpr returns a left-associative chain of n additions compared with a number: uses(%y) + 1 + … + 1 == n+1.
// The text is flat, but the tree it parses into is n levels deep.
func ChainExpr(n int) string {
	return "uses(%y)" + strings.Repeat(" + 1", n) + fmt.Sprintf(" == %d", n+1)
}

// CondExpr returns n nested conditionals without brackets: uses(%y) == 1 ? true : uses(%y) == 2 ? true : … false.
func CondExpr(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "uses(%%y) == %d ? true : ", i+1)
	}
	b.WriteString("false")
	return b.String()
}

// ListExpr returns uses(%y) in a list nested n deep: uses(%y) in [[[1]]][0][0] … (n lists, n-1 indexes).
func ListExpr(n int) string {
	return "uses(%y) in " + strings.Repeat("[", n) + "1" + strings.Repeat("]", n) + strings.Repeat("[0]", max(n-1, 0))
}

// NotExpr returns n negations of uses(%y) == 1: !!!…(uses(%y) == 1) (true for even n when %y has one use).
func NotExpr(n int) string {
	return strings.Repeat("!", n) + "(uses(%y) == 1)"
}

// CallExpr returns n nested calls of a builtin: max(max(max(uses(%y), 1), 1), 1) == 1.
func CallExpr(n int) string {
	return strings.Repeat("max(", n) + "uses(%y)" + strings.Repeat(", 1)", n) + " == 1"
}
