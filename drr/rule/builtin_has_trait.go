package rule

import (
	"fmt"

	"github.com/pirdrr/drr/ir"
)

func init() {
	register(Builtin{
		Name:   "has_trait",
		Params: []string{"value", "trait"},
		Result: "bool",
		Doc:    "the op defining the value has the trait",
		Eval: func(a []Val) (Val, error) {
			v, err := valueArg(a[0])
			if err != nil {
				return nil, err
			}
			name, _ := a[1].(string)
			t, ok := ir.TraitFromName(name)
			if !ok {
				return nil, fmt.Errorf("unknown trait %q", name)
			}
			return v.DefiningOp() != nil && v.DefiningOp().Has(t), nil
		},
		DefQuery: func(ctx *ir.Context, opName string, arg Val) (Val, bool) {
			name, isString := arg.(string)
			t, known := ir.TraitFromName(name)
			if ctx == nil || !isString || !known {
				return nil, false
			}
			s := ctx.Schema(opName)
			if s == nil {
				return nil, false
			}
			return s.Has(t), true
		},
	})
}
