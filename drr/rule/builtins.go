package rule

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// Builtin describes a builtin function of the constraint language, for checking and documentation.
type Builtin struct {
	Name string
	// Params describes the arguments: "value", "int", "string", "list", "any", "opname", "trait". A "..." suffix
	// on the last entry means zero or more further arguments of that kind.
	Params []string
	// Result is "bool", "int", "float", "string", "list", "dtype" or "any".
	Result string
	Doc    string
	// Program marks builtins the matcher evaluates with program-wide knowledge (Env.Builtin).
	Program bool
}

// Builtins lists every builtin function, sorted by name.
var Builtins = []Builtin{
	{Name: "abs", Params: []string{"any"}, Result: "any", Doc: "absolute value of a number"},
	{Name: "aliased", Params: []string{"value", "value..."}, Result: "bool", Doc: "another value may share the first value's buffer (a view, an inplace result, an unregistered op), not counting what is reachable only through the other arguments", Program: true},
	{Name: "constant", Params: []string{"value"}, Result: "bool", Doc: "the value is computed from immutable parameters and constants only (full, full_int_array) by ops without side effects", Program: true},
	{Name: "contains", Params: []string{"list", "any"}, Result: "bool", Doc: "the list contains the element"},
	{Name: "defined_by", Params: []string{"value", "opname"}, Result: "bool", Doc: "the value is a result of an op with that name"},
	{Name: "dies_at", Params: []string{"value", "value"}, Result: "bool", Doc: "the op defining the second value is the last reader of the first: every other use comes before it", Program: true},
	{Name: "dim", Params: []string{"value", "int"}, Result: "int", Doc: "size of dimension i of a tensor value (negative i counts from the end; -1 if dynamic)"},
	{Name: "dtype", Params: []string{"value"}, Result: "dtype", Doc: "element type of a tensor value"},
	{Name: "endswith", Params: []string{"string", "string"}, Result: "bool", Doc: "the string ends with the suffix"},
	{Name: "has_trait", Params: []string{"value", "trait"}, Result: "bool", Doc: "the op defining the value has the trait"},
	{Name: "immutable", Params: []string{"value", "value..."}, Result: "bool", Doc: "every value is a parameter the program never writes", Program: true},
	{Name: "inplace_op", Params: []string{"opname", "int", "int"}, Result: "bool", Doc: "the op writes its result (third argument) into the buffer of its operand (second argument), per its schema's inplace map", Program: true},
	{Name: "is_input", Params: []string{"value"}, Result: "bool", Doc: "the value is a program input (pd_op.data or pd_op.feed result)", Program: true},
	{Name: "is_param", Params: []string{"value"}, Result: "bool", Doc: "the value is read from a parameter", Program: true},
	{Name: "len", Params: []string{"any"}, Result: "int", Doc: "length of a list, string or value list"},
	{Name: "max", Params: []string{"any", "any"}, Result: "any", Doc: "larger of two numbers"},
	{Name: "min", Params: []string{"any", "any"}, Result: "any", Doc: "smaller of two numbers"},
	{Name: "mutated", Params: []string{"value"}, Result: "bool", Doc: "some op may write the value's buffer, through it or through a value sharing it (inplace ops, training batch norms, unregistered ops)", Program: true},
	{Name: "numel", Params: []string{"value"}, Result: "int", Doc: "number of elements of a tensor value (-1 if some dimension is dynamic)"},
	{Name: "param_name", Params: []string{"value"}, Result: "string", Doc: "name of the parameter the value reads (\"\" if none)", Program: true},
	{Name: "rank", Params: []string{"value"}, Result: "int", Doc: "number of dimensions of a tensor value"},
	{Name: "same_type", Params: []string{"value", "value"}, Result: "bool", Doc: "the two values have the same type"},
	{Name: "shape", Params: []string{"value"}, Result: "list", Doc: "dimensions of a tensor value (-1 for dynamic ones)"},
	{Name: "startswith", Params: []string{"string", "string"}, Result: "bool", Doc: "the string starts with the prefix"},
	{Name: "unused", Params: []string{"value", "value..."}, Result: "bool", Doc: "no value has uses"},
	{Name: "uses", Params: []string{"value"}, Result: "int", Doc: "number of uses of the value"},
}

// LookupBuiltin returns the builtin with the given name.
func LookupBuiltin(name string) (*Builtin, bool) {
	i := sort.Search(len(Builtins), func(i int) bool { return Builtins[i].Name >= name })
	if i < len(Builtins) && Builtins[i].Name == name {
		return &Builtins[i], true
	}
	return nil, false
}

type builtinFunc func(args []Val) (Val, error)

// builtins holds the pure builtins, those that need nothing but their arguments.
var builtins = map[string]builtinFunc{
	"abs": func(a []Val) (Val, error) {
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
	"contains": func(a []Val) (Val, error) {
		l, ok := a[0].([]Val)
		if !ok {
			return nil, fmt.Errorf("needs a list, got %s", Describe(a[0]))
		}
		for _, e := range l {
			if Equal(e, a[1]) {
				return true, nil
			}
		}
		return false, nil
	},
	"defined_by": func(a []Val) (Val, error) {
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
	"dim": func(a []Val) (Val, error) {
		t, err := tensorArg(a[0])
		if err != nil {
			return nil, err
		}
		i, ok := a[1].(int64)
		if !ok {
			return nil, fmt.Errorf("needs an int index, got %s", Describe(a[1]))
		}
		if i < 0 {
			i += int64(t.Rank())
		}
		if i < 0 || i >= int64(t.Rank()) {
			return nil, fmt.Errorf("dimension %d out of range for rank %d", i, t.Rank())
		}
		return t.Dims[i], nil
	},
	"dtype": func(a []Val) (Val, error) {
		v, err := valueArg(a[0])
		if err != nil {
			return nil, err
		}
		return ir.ElemDType(v.Type()), nil
	},
	"endswith": func(a []Val) (Val, error) {
		s, p, err := twoStrings(a)
		return err == nil && strings.HasSuffix(s, p), err
	},
	"has_trait": func(a []Val) (Val, error) {
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
	"len": func(a []Val) (Val, error) {
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
	"max": func(a []Val) (Val, error) { return minMax(a, 1) },
	"min": func(a []Val) (Val, error) { return minMax(a, -1) },
	"numel": func(a []Val) (Val, error) {
		t, err := tensorArg(a[0])
		if err != nil {
			return nil, err
		}
		return t.NumElements(), nil
	},
	"rank": func(a []Val) (Val, error) {
		t, err := tensorArg(a[0])
		if err != nil {
			return nil, err
		}
		return int64(t.Rank()), nil
	},
	"same_type": func(a []Val) (Val, error) {
		x, err := valueArg(a[0])
		if err != nil {
			return nil, err
		}
		y, err := valueArg(a[1])
		if err != nil {
			return nil, err
		}
		return x.Type() == y.Type(), nil
	},
	"shape": func(a []Val) (Val, error) {
		t, err := tensorArg(a[0])
		if err != nil {
			return nil, err
		}
		out := make([]Val, len(t.Dims))
		for i, d := range t.Dims {
			out[i] = d
		}
		return out, nil
	},
	"startswith": func(a []Val) (Val, error) {
		s, p, err := twoStrings(a)
		return err == nil && strings.HasPrefix(s, p), err
	},
	"unused": func(a []Val) (Val, error) {
		for _, x := range a {
			vs, err := valuesArg(x)
			if err != nil {
				return nil, err
			}
			for _, v := range vs {
				if v.HasUses() {
					return false, nil
				}
			}
		}
		return true, nil
	},
	"uses": func(a []Val) (Val, error) {
		v, err := valueArg(a[0])
		if err != nil {
			return nil, err
		}
		return int64(v.NumUses()), nil
	},
}

func valueArg(v Val) (*ir.Value, error) {
	if x, ok := v.(*ir.Value); ok && x != nil {
		return x, nil
	}
	return nil, fmt.Errorf("needs a value, got %s", Describe(v))
}

func valuesArg(v Val) ([]*ir.Value, error) {
	switch x := v.(type) {
	case *ir.Value:
		return []*ir.Value{x}, nil
	case []*ir.Value:
		return x, nil
	}
	return nil, fmt.Errorf("needs values, got %s", Describe(v))
}

func tensorArg(v Val) (*ir.TensorType, error) {
	x, err := valueArg(v)
	if err != nil {
		return nil, err
	}
	t := ir.TensorOf(x.Type())
	if t == nil {
		return nil, fmt.Errorf("needs a tensor value, got one of type %s", x.Type())
	}
	return t, nil
}

func twoStrings(a []Val) (string, string, error) {
	s, ok1 := a[0].(string)
	p, ok2 := a[1].(string)
	if !ok1 || !ok2 {
		return "", "", fmt.Errorf("needs two strings, got %s and %s", Describe(a[0]), Describe(a[1]))
	}
	return s, p, nil
}

func minMax(a []Val, sign int) (Val, error) {
	c, ok := compare(a[0], a[1])
	if !ok {
		return nil, fmt.Errorf("needs two numbers or strings, got %s and %s", Describe(a[0]), Describe(a[1]))
	}
	if c*sign >= 0 {
		return a[0], nil
	}
	return a[1], nil
}
