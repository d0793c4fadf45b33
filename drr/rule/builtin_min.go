package rule

func init() {
	register(Builtin{
		Name:   "min",
		Params: []string{"any", "any"},
		Result: "any",
		Doc:    "smaller of two numbers",
		Eval:   func(a []Val) (Val, error) { return minMax(a, -1) },
	})
}
