package rule

func init() {
	register(Builtin{
		Name:   "shape",
		Params: []string{"value"},
		Result: "list",
		Doc:    "dimensions of a tensor value (-1 for dynamic ones)",
		Eval: func(a []Val) (Val, error) {
			t, err := tensorArg(a[0])
			if err != nil {
				return nil, err
			}
			out := make([]Val, len(t.Dims))
			for i, d := range t.Dims {
				out[i] = d
			}
			return out, nil
		},
		TypeQuery: true,
		Facet:     FacetShape,
		Paddle:    &PaddleForm{Code: "pir::GetShapeFromValue({0})", Args: []string{"value"}, Result: "list"},
	})
}
