package rule

func init() {
	register(Builtin{
		Name:   "unused",
		Params: []string{"value", "value..."},
		Result: "bool",
		Doc:    "no value has uses",
		Eval: func(a []Val) (Val, error) {
			for _, x := range a {
				vs, err := valuesArg(x)
				if err != nil {
					return nil, err
				}
				for _, v := range vs {
					if v.HasUses() {
						return false, nil
					}
				}
			}
			return true, nil
		},
		AllUnused: true,
		Paddle:    &PaddleForm{Code: "{0}.use_empty()", Args: []string{"value"}, Each: true, Result: "bool"},
	})
}
