package rule

func init() {
	register(Builtin{
		Name:   "param_name",
		Params: []string{"value"},
		Result: "string",
		Doc:    "name of the parameter the value reads (\"\" if none)",
		EvalProgram: func(f Facts, a []Val) (Val, error) {
			v, err := valueArg(a[0])
			if err != nil {
				return nil, err
			}
			return f.ParamName(v), nil
		},
	})
}
