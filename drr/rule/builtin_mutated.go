package rule

func init() {
	register(Builtin{
		Name:   "mutated",
		Params: []string{"value"},
		Result: "bool",
		Doc:    "some op may write the value's buffer, through it or through a value sharing it (inplace ops, training batch norms, unregistered ops)",
		EvalProgram: func(f Facts, a []Val) (Val, error) {
			v, err := valueArg(a[0])
			if err != nil {
				return nil, err
			}
			return f.Mutated(v), nil
		},
		Paddle: &PaddleForm{Code: "MayBeWritten({0})", Args: []string{"value"}, Result: "bool", Helpers: []string{"MayBeWritten"}},
	})
}
