package analysis

import (
	"fmt"

	"github.com/pirdrr/drr/ir"
)

// Oracle answers the program-level builtins of the constraint language (immutable, constant, is_param,
// param_name, is_input, aliased, mutated, dies_at, inplace_op) for one program, from the local queries of this package. The matcher calls
// it while evaluating a rule's where clause.
type Oracle struct {
	Program *ir.Program
}

// Builtin evaluates a program-level builtin; ok is false for names it does not know.
func (o Oracle) Builtin(name string, args []any) (any, bool, error) {
	vals := func(from int) ([]*ir.Value, error) {
		var out []*ir.Value
		for _, a := range args[from:] {
			switch a := a.(type) {
			case *ir.Value:
				out = append(out, a)
			case []*ir.Value:
				out = append(out, a...)
			default:
				return nil, fmt.Errorf("needs values, got %T", a)
			}
		}
		return out, nil
	}
	one := func() (*ir.Value, error) {
		if len(args) < 1 {
			return nil, fmt.Errorf("needs a value")
		}
		v, ok := args[0].(*ir.Value)
		if !ok || v == nil {
			return nil, fmt.Errorf("needs a value, got %T", args[0])
		}
		return v, nil
	}
	switch name {
	case "immutable":
		vs, err := vals(0)
		if err != nil {
			return nil, true, err
		}
		for _, v := range vs {
			if !Immutable(o.Program, v) {
				return false, true, nil
			}
		}
		return true, true, nil
	case "is_param", "param_name", "is_input", "mutated", "constant":
		v, err := one()
		if err != nil {
			return nil, true, err
		}
		switch name {
		case "is_param":
			return IsParam(v), true, nil
		case "param_name":
			return ParamName(v), true, nil
		case "is_input":
			return IsInput(v), true, nil
		case "constant":
			return Constant(o.Program, v), true, nil
		}
		return Mutated(v), true, nil
	case "aliased":
		v, err := one()
		if err != nil {
			return nil, true, err
		}
		except, err := vals(1)
		if err != nil {
			return nil, true, err
		}
		return Aliased(v, except...), true, nil
	case "inplace_op":
		name, ok1 := args[0].(string)
		operand, ok2 := args[1].(int64)
		result, ok3 := args[2].(int64)
		if len(args) != 3 || !ok1 || !ok2 || !ok3 {
			return nil, true, fmt.Errorf("needs an op name and two ints")
		}
		s := o.Program.Ctx.Schema(name)
		if s == nil {
			return false, true, nil
		}
		for _, p := range s.Inplace {
			if int64(p.Operand) == operand && int64(p.Result) == result {
				return true, true, nil
			}
		}
		return false, true, nil
	case "dies_at":
		vs, err := vals(0)
		if err != nil {
			return nil, true, err
		}
		if len(vs) != 2 {
			return nil, true, fmt.Errorf("needs two values")
		}
		d := vs[1].DefiningOp()
		if d == nil {
			return false, true, nil
		}
		return DiesAt(vs[0], d), true, nil
	}
	return nil, false, nil
}
