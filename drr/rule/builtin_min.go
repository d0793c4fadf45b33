package rule

func init() {
	register(Builtin{
		Name:   "min",
		Params: []string{"any", "any"},
		Result: "any",
		Doc:    "smaller of two numbers",
		Eval:   func(a []Val) (Val, error) { return minMax(a, -1) },
		Paddle: &PaddleForm{Code: "std::min<{T}>({0}, {1})", Args: []string{"number", "number"}, Result: "arg",
			Includes: []string{"algorithm"}},
	})
}
