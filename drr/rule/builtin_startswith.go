package rule

import "strings"

func init() {
	register(Builtin{
		Name:   "startswith",
		Params: []string{"string", "string"},
		Result: "bool",
		Doc:    "the string starts with the prefix",
		Eval: func(a []Val) (Val, error) {
			s, p, err := twoStrings(a)
			return err == nil && strings.HasPrefix(s, p), err
		},
	})
}
