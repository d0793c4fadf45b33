package rule

import (
	"fmt"

	"github.com/pirdrr/drr/ir"
)

func init() {
	register(Builtin{
		Name:   "len",
		Params: []string{"any"},
		Result: "int",
		Doc:    "length of a list, string or value list",
		Eval: func(a []Val) (Val, error) {
			switch x := a[0].(type) {
			case []Val:
				return int64(len(x)), nil
			case string:
				return int64(len(x)), nil
			case []*ir.Value:
				return int64(len(x)), nil
			}
			return nil, fmt.Errorf("needs a list or string, got %s", Describe(a[0]))
		},
		Paddle: &PaddleForm{Code: "static_cast<int64_t>({0}.size())", Args: []string{"sized"}, Result: "int"},
	})
}
