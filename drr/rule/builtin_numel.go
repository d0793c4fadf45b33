package rule

func init() {
	register(Builtin{
		Name:   "numel",
		Params: []string{"value"},
		Result: "int",
		Doc:    "number of elements of a tensor value (-1 if some dimension is dynamic)",
		Eval: func(a []Val) (Val, error) {
			t, err := tensorArg(a[0])
			if err != nil {
				return nil, err
			}
			return t.NumElements(), nil
		},
		TypeQuery: true,
		Facet:     FacetNumel,
		Paddle:    &PaddleForm{Code: "Numel({0})", Args: []string{"value"}, Result: "int", Helpers: []string{"Numel"}},
	})
}
