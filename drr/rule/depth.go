package rule

// MaxExprDepth bounds the height of an expression tree: an expression may nest at most this many levels (each
// operator of a chain, as in a + b + c, is a level, and so is each bracket). Evaluation, the checker, the
// formatter and the code generator walk expressions recursively; the .drr parser and the checker refuse deeper
// expressions with a positioned error, and Builder.Build refuses them in rules built in Go, so that no rule can
// exhaust the stack.
const MaxExprDepth = 1000

// ExprDepth returns the height of e's tree: 1 for a literal or a reference, one more than the deepest operand for
// the others. It walks the tree without recursion, so it is safe on any tree.
func ExprDepth(e Expr) int {
	type item struct {
		e     Expr
		depth int
	}
	deepest := 0
	stack := []item{{e, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.e == nil {
			continue
		}
		deepest = max(deepest, it.depth)
		push := func(xs ...Expr) {
			for _, x := range xs {
				stack = append(stack, item{x, it.depth + 1})
			}
		}
		switch x := it.e.(type) {
		case *Unary:
			push(x.X)
		case *Binary:
			push(x.X, x.Y)
		case *Cond:
			push(x.Cond, x.Then, x.Else)
		case *List:
			push(x.Elems...)
		case *Index:
			push(x.X, x.Index)
		case *Spread:
			push(x.X)
		case *Call:
			push(x.Args...)
		}
	}
	return deepest
}
