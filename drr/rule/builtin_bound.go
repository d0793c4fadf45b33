package rule

import "errors"

func init() {
	register(Builtin{
		Name:   "bound",
		Params: []string{"any", "any..."},
		Result: "bool",
		Doc:    "the match's path through the pattern's alternatives binds every argument, a %value or $hole (decided when the rule is planned)",
		Eval: func([]Val) (Val, error) {
			return nil, errors.New("bound(…) is decided per path through the alternatives (FoldBound), not evaluated")
		},
		PathQuery: true,
	})
}
