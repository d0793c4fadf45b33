package rule

func init() {
	register(Builtin{
		Name:     "same_type",
		Params:   []string{"value", "value"},
		Result:   "bool",
		Doc:      "the two values have the same type",
		SameType: true,
		Eval: func(a []Val) (Val, error) {
			x, err := valueArg(a[0])
			if err != nil {
				return nil, err
			}
			y, err := valueArg(a[1])
			if err != nil {
				return nil, err
			}
			return x.Type() == y.Type(), nil
		},
		Paddle: &PaddleForm{Code: "{0}.type() == {1}.type()", Args: []string{"value", "value"}, Result: "bool"},
	})
}
