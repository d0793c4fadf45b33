package rule

import (
	"fmt"
	"math"
)

func init() {
	register(Builtin{
		Name:   "abs",
		Params: []string{"any"},
		Result: "any",
		Doc:    "absolute value of a number",
		Eval: func(a []Val) (Val, error) {
			switch x := a[0].(type) {
			case int64:
				if x < 0 {
					return -x, nil
				}
				return x, nil
			case float64:
				return math.Abs(x), nil
			}
			return nil, fmt.Errorf("needs a number, got %s", Describe(a[0]))
		},
		Paddle: &PaddleForm{Code: "std::abs({0})", Args: []string{"number"}, Result: "arg", Includes: []string{"cmath"}},
	})
}
