package rule

import "fmt"

func init() {
	register(Builtin{
		Name:   "contains",
		Params: []string{"list", "any"},
		Result: "bool",
		Doc:    "the list contains the element",
		Eval: func(a []Val) (Val, error) {
			l, ok := a[0].([]Val)
			if !ok {
				return nil, fmt.Errorf("needs a list, got %s", Describe(a[0]))
			}
			for _, e := range l {
				if Equal(e, a[1]) {
					return true, nil
				}
			}
			return false, nil
		},
		Membership: true,
	})
}
