package rule

func init() {
	register(Builtin{
		Name:   "constant",
		Params: []string{"value"},
		Result: "bool",
		Doc:    "the value is computed from immutable parameters and constants only (full, full_int_array) by ops without side effects",
		EvalProgram: func(f Facts, a []Val) (Val, error) {
			v, err := valueArg(a[0])
			if err != nil {
				return nil, err
			}
			return f.Constant(v), nil
		},
		Implies: ImpliesParam,
		Paddle:  &PaddleForm{Code: "IsConstant({0})", Args: []string{"value"}, Result: "bool", Helpers: []string{"IsConstant"}},
	})
}
