package rule

func init() {
	register(Builtin{
		Name:   "rank",
		Params: []string{"value"},
		Result: "int",
		Doc:    "number of dimensions of a tensor value",
		Eval: func(a []Val) (Val, error) {
			t, err := tensorArg(a[0])
			if err != nil {
				return nil, err
			}
			return int64(t.Rank()), nil
		},
		TypeQuery: true,
		Facet:     FacetRank,
		Paddle:    &PaddleForm{Code: "static_cast<int64_t>(pir::GetShapeFromValue({0}).size())", Args: []string{"value"}, Result: "int"},
	})
}
