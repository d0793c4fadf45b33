package rule

func init() {
	register(Builtin{
		Name:   "aliased",
		Params: []string{"value", "value..."},
		Result: "bool",
		Doc:    "another value may share the first value's buffer (a view, an inplace result, an unregistered op), not counting what is reachable only through the other arguments",
		EvalProgram: func(f Facts, a []Val) (Val, error) {
			v, err := valueArg(a[0])
			if err != nil {
				return nil, err
			}
			except, err := allValues(a[1:])
			if err != nil {
				return nil, err
			}
			return f.Aliased(v, except), nil
		},
		Alias: true,
	})
}
