package rule

import "fmt"

func init() {
	register(Builtin{
		Name:   "dies_at",
		Params: []string{"value", "value"},
		Result: "bool",
		Doc:    "the op defining the second value is the last reader of the first: every other use comes before it",
		EvalProgram: func(f Facts, a []Val) (Val, error) {
			vs, err := allValues(a)
			if err != nil {
				return nil, err
			}
			if len(vs) != 2 {
				return nil, fmt.Errorf("needs two values")
			}
			d := vs[1].DefiningOp()
			if d == nil {
				return false, nil
			}
			return f.DiesAt(vs[0], d), nil
		},
	})
}
