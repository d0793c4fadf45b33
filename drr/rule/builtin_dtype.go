package rule

import "github.com/pirdrr/drr/ir"

func init() {
	register(Builtin{
		Name:   "dtype",
		Params: []string{"value"},
		Result: "dtype",
		Doc:    "element type of a tensor value",
		Eval: func(a []Val) (Val, error) {
			v, err := valueArg(a[0])
			if err != nil {
				return nil, err
			}
			return ir.ElemDType(v.Type()), nil
		},
		TypeQuery: true,
		Facet:     FacetDType,
		Paddle:    &PaddleForm{Code: "pir::GetValueDtype({0})", Args: []string{"value"}, Result: "dtype"},
	})
}
