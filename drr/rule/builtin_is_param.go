package rule

func init() {
	register(Builtin{
		Name:   "is_param",
		Params: []string{"value"},
		Result: "bool",
		Doc:    "the value is read from a parameter",
		EvalProgram: func(f Facts, a []Val) (Val, error) {
			v, err := valueArg(a[0])
			if err != nil {
				return nil, err
			}
			return f.IsParam(v), nil
		},
		Implies: ImpliesParam,
		Paddle:  &PaddleForm{Code: "IsParameter({0})", Args: []string{"value"}, Result: "bool", Helpers: []string{"IsParameter"}},
	})
}
