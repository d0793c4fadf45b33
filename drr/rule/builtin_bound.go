package rule

import "errors"

func init() {
	register(Builtin{
		Name:   "bound",
		Params: []string{"any", "any..."},
		Result: "bool",
		Doc:    "the match's path through the pattern's alternatives binds every argument, a %value or $hole (decided when the rule is planned where the path is known, else on the match)",
		Eval: func([]Val) (Val, error) {
			return nil, errors.New("bound(…) reads the bindings, not the values of its arguments (rule.Eval evaluates it)")
		},
		PathQuery: true,
	})
}
