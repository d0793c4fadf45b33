package rule

func init() {
	register(Builtin{
		Name:   "is_input",
		Params: []string{"value"},
		Result: "bool",
		Doc:    "the value is a program input (pd_op.data or pd_op.feed result)",
		EvalProgram: func(f Facts, a []Val) (Val, error) {
			v, err := valueArg(a[0])
			if err != nil {
				return nil, err
			}
			return f.IsInput(v), nil
		},
		Implies: ImpliesInput,
	})
}
