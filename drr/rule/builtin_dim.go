package rule

import "fmt"

func init() {
	register(Builtin{
		Name:   "dim",
		Params: []string{"value", "int"},
		Result: "int",
		Doc:    "size of dimension i of a tensor value (negative i counts from the end; -1 if dynamic)",
		Eval: func(a []Val) (Val, error) {
			t, err := tensorArg(a[0])
			if err != nil {
				return nil, err
			}
			i, ok := a[1].(int64)
			if !ok {
				return nil, fmt.Errorf("needs an int index, got %s", Describe(a[1]))
			}
			if i < 0 {
				i += int64(t.Rank())
			}
			if i < 0 || i >= int64(t.Rank()) {
				return nil, fmt.Errorf("dimension %d out of range for rank %d", i, t.Rank())
			}
			return t.Dims[i], nil
		},
		TypeQuery: true,
		Facet:     FacetDim,
		Paddle:    &PaddleForm{Code: "Dim({0}, {1})", Args: []string{"value", "int"}, Result: "int", Helpers: []string{"Dim"}},
	})
}
