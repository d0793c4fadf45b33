package rule

import (
	"fmt"

	"github.com/pirdrr/drr/ir"
)

func init() {
	register(Builtin{
		Name:   "defined_by",
		Params: []string{"value", "opname"},
		Result: "bool",
		Doc:    "the value is a result of an op with that name",
		Eval: func(a []Val) (Val, error) {
			v, err := valueArg(a[0])
			if err != nil {
				return nil, err
			}
			name, ok := a[1].(string)
			if !ok {
				return nil, fmt.Errorf("needs an op name, got %s", Describe(a[1]))
			}
			return v.DefiningOp() != nil && v.DefiningOp().Name() == name, nil
		},
		DefQuery: func(_ *ir.Context, opName string, arg Val) (Val, bool) {
			name, ok := arg.(string)
			return opName == name, ok
		},
	})
}
