package rule

func init() {
	register(Builtin{
		Name:   "uses",
		Params: []string{"value"},
		Result: "int",
		Doc:    "number of uses of the value",
		Eval: func(a []Val) (Val, error) {
			v, err := valueArg(a[0])
			if err != nil {
				return nil, err
			}
			return int64(v.NumUses()), nil
		},
		CountsUses: true,
		Paddle:     &PaddleForm{Code: "static_cast<int64_t>({0}.use_count())", Args: []string{"value"}, Result: "int"},
	})
}
