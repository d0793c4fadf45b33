package rule

import (
	"fmt"
	"sort"

	"github.com/pirdrr/drr/ir"
)

// Builtin is a builtin function of the constraint language: everything pirdrr knows about it, in one value. The
// checker reads its signature, the matcher and the rewriter evaluate it (Eval, or EvalProgram through an Oracle),
// `drrc` and the language server show its doc, and the tools that reason about constraints without a program (the
// lint, verify's instantiation of rules, the language server's hover) read the facts below instead of
// matching on its name. Each builtin is declared in its own file, builtin_NAME.go, by one call of register.
type Builtin struct {
	Name string
	// Params describes the arguments: "value", "int", "string", "list", "any", "opname", "trait". A "..." suffix
	// on the last entry means zero or more further arguments of that kind.
	Params []string
	// Result is "bool", "int", "float", "string", "list", "dtype" or "any".
	Result string
	Doc    string
	// Program marks builtins that need program-wide knowledge: those with EvalProgram, which the matcher
	// evaluates through its Oracle (Env.Builtin). register sets it.
	Program bool

	// Eval evaluates a pure builtin, one that needs nothing but its arguments (the checker has checked their
	// number and kinds).
	Eval func(args []Val) (Val, error)
	// EvalProgram evaluates a program builtin with the facts of the program being matched.
	EvalProgram func(f Facts, args []Val) (Val, error)

	// CountsUses: the result is the number of uses of the only argument (uses). The checker reads `== 0` as
	// "unused", the matcher turns comparisons with a literal into predicates of its decision tree.
	CountsUses bool
	// AllUnused: true exactly when none of the arguments has uses (unused).
	AllUnused bool
	// TypeQuery: the builtin reads only the type of its first argument (dtype, rank, shape, numel, dim), so a
	// comparison of its result describes that value's type.
	TypeQuery bool
	// Facet is the part of the type a TypeQuery builtin returns (FacetNone for other builtins): a comparison
	// of its result with a constant says what the value's type must be (verify's instantiator proposes it).
	Facet TypeFacet
	// SameType: true exactly when the two value arguments have one type (same_type).
	SameType bool
	// Membership: true exactly when the second argument is an element of the first (contains).
	Membership bool
	// Implies says what a true call says of where its value arguments come from.
	Implies Implication
	// DefQuery answers the builtin for a first argument defined by an op named opName, from the name and the
	// context's schemas alone, and the builtin's remaining argument; ok is false when that does not decide it
	// (has_trait, defined_by).
	DefQuery func(ctx *ir.Context, opName string, arg Val) (v Val, ok bool)
	// SchemaOnly: the result depends on the op schemas of the context only, not on the program, so a call with
	// constant arguments can be decided without one (inplace_op).
	SchemaOnly bool
	// Alias: the builtin asks whether its first argument may share a buffer with a value outside the other
	// arguments (aliased), which a pattern that makes it a view already answers.
	Alias bool
	// PathQuery: the result says whether the match's path through the pattern's alternatives binds the arguments
	// (bound). It depends on the path only, so it is decided when a path is planned (PathBinds.Fold): the
	// planner, Paths and the generators fold it away, and it is never evaluated.
	PathQuery bool
	// Paddle is the builtin's form in C++ for drrc gen -lang paddle; nil when Paddle's API has none (the export
	// then refuses a rule that calls it).
	Paddle *PaddleForm
}

// TypeFacet is the part of a value's type a TypeQuery builtin returns.
type TypeFacet uint8

const (
	FacetNone  TypeFacet = iota // not a type query
	FacetDType                  // the element type (dtype)
	FacetRank                   // the number of dimensions (rank)
	FacetShape                  // the list of dimensions (shape)
	FacetDim                    // one dimension, the second argument its index (dim)
	FacetNumel                  // the number of elements (numel)
)

// Implication is what a true builtin call says of the origin of its value arguments.
type Implication uint8

const (
	// ImpliesNothing: the call says nothing of where its arguments come from.
	ImpliesNothing Implication = iota
	// ImpliesParam: a true call needs its arguments to be parameters (immutable, constant, is_param); a false
	// one, that they are not.
	ImpliesParam
	// ImpliesInput: a true call needs its argument to be a program input; a false one, that it is not (is_input).
	ImpliesInput
)

// Builtins lists every builtin function, sorted by name. The builtin_*.go files fill it when the package is
// initialized; it is not to be changed afterwards.
var Builtins []Builtin

// builtinIndex maps a name to its builtin in Builtins; builtins maps the name of a pure builtin to its Eval.
var (
	builtinIndex = map[string]int{}
	builtins     = map[string]func(args []Val) (Val, error){}
)

// register adds b to Builtins. It is called from the init function of b's file; a builtin declared twice, or
// without exactly one evaluator, is a programming error and panics at initialization.
func register(b Builtin) {
	if _, dup := builtinIndex[b.Name]; dup {
		panic("rule: builtin " + b.Name + " registered twice")
	}
	if (b.Eval == nil) == (b.EvalProgram == nil) {
		panic("rule: builtin " + b.Name + " needs exactly one of Eval and EvalProgram")
	}
	b.Program = b.EvalProgram != nil
	i := sort.Search(len(Builtins), func(i int) bool { return Builtins[i].Name >= b.Name })
	Builtins = append(Builtins, Builtin{})
	copy(Builtins[i+1:], Builtins[i:])
	Builtins[i] = b
	for j := i; j < len(Builtins); j++ {
		builtinIndex[Builtins[j].Name] = j
	}
	if b.Eval != nil {
		builtins[b.Name] = b.Eval
	}
}

// LookupBuiltin returns the builtin with the given name.
func LookupBuiltin(name string) (*Builtin, bool) {
	if i, ok := builtinIndex[name]; ok {
		return &Builtins[i], true
	}
	return nil, false
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

// allValues flattens value and value-list arguments.
func allValues(a []Val) ([]*ir.Value, error) {
	out := make([]*ir.Value, 0, len(a))
	for _, x := range a {
		switch x := x.(type) {
		case *ir.Value:
			out = append(out, x)
		case []*ir.Value:
			out = append(out, x...)
		default:
			return nil, fmt.Errorf("needs values, got %s", Describe(x))
		}
	}
	return out, nil
}

// Builtin returns the builtin c calls, or nil when c calls a native constraint or no builtin has its name.
func (c *Call) Builtin() *Builtin {
	if c.Native {
		return nil
	}
	b, _ := LookupBuiltin(c.Func)
	return b
}
