package rule

import "strings"

func init() {
	register(Builtin{
		Name:   "endswith",
		Params: []string{"string", "string"},
		Result: "bool",
		Doc:    "the string ends with the suffix",
		Eval: func(a []Val) (Val, error) {
			s, p, err := twoStrings(a)
			return err == nil && strings.HasSuffix(s, p), err
		},
	})
}
