package rule

func init() {
	register(Builtin{
		Name:   "immutable",
		Params: []string{"value", "value..."},
		Result: "bool",
		Doc:    "every value is a parameter the program never writes",
		EvalProgram: func(f Facts, a []Val) (Val, error) {
			vs, err := allValues(a)
			if err != nil {
				return nil, err
			}
			for _, v := range vs {
				if !f.Immutable(v) {
					return false, nil
				}
			}
			return true, nil
		},
		Implies: ImpliesParam,
		Paddle: &PaddleForm{Code: "IsParameter({0}) && !MayBeWritten({0})", Args: []string{"value"}, Each: true, Result: "bool",
			Helpers: []string{"IsParameter", "MayBeWritten"}},
	})
}
