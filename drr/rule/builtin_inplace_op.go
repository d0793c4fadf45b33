package rule

import "fmt"

func init() {
	register(Builtin{
		Name:   "inplace_op",
		Params: []string{"opname", "int", "int"},
		Result: "bool",
		Doc:    "the op writes its result (third argument) into the buffer of its operand (second argument), per its schema's inplace map",
		EvalProgram: func(f Facts, a []Val) (Val, error) {
			if len(a) != 3 {
				return nil, fmt.Errorf("needs an op name and two ints")
			}
			name, ok1 := a[0].(string)
			operand, ok2 := a[1].(int64)
			result, ok3 := a[2].(int64)
			if !ok1 || !ok2 || !ok3 {
				return nil, fmt.Errorf("needs an op name and two ints")
			}
			s := f.Context().Schema(name)
			if s == nil {
				return false, nil
			}
			for _, p := range s.Inplace {
				if int64(p.Operand) == operand && int64(p.Result) == result {
					return true, nil
				}
			}
			return false, nil
		},
		SchemaOnly: true,
	})
}
