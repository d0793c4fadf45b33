package rule

import (
	"sort"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

// Rule-set parameters: a rule file declares `param sm_version: i64 = 0`, its rules read $sm_version, and whoever
// runs the set may give the parameter another value. The value is not part of the checked set: the set is compiled
// (automaton, generated Go) once, and the value reaches evaluation at run time through the Oracle of a pass run
// (WithParams), as program builtins do. A ParamRef evaluated where no value was given reads the default.

// TargetParam is the rule-set parameter a target sets: Paddle's sm_version, the compute capability of the GPU the
// rules rewrite for (ir.Target.SMVersion; 0 without a GPU target). A set that declares it reads drrc's -target
// gpu:smNN; -param sm_version=N stays as an alias.
const TargetParam = "sm_version"

// ParamDecl is a parameter of a rule set.
type ParamDecl struct {
	Name string
	// Doc is the declaration's doc comment.
	Doc string
	// Type is the parameter's kind (the kinds of a native's $parameters).
	Type ir.AttrType
	// Default is the value when none is given, as a plain Val of Type (int64, float64, string, bool, ir.DType,
	// []Val, …).
	Default Val
	Pos     diag.Position
}

// ParamRef reads a rule-set parameter ($sm_version): the value the Env or its Oracle gives for Name (ParamSource),
// else Default.
type ParamRef struct {
	Name    string
	Default Val
	Pos     diag.Position
}

// At returns the expression's position.
func (e *ParamRef) At() diag.Position { return e.Pos }

// Params are values of rule-set parameters by name, as ParseParam returns them (plain Vals of the declared kind).
type Params map[string]Val

// Names returns the parameter names, sorted.
func (p Params) Names() []string {
	out := make([]string, 0, len(p))
	for n := range p {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ParamSource is implemented by an Env or an Oracle that knows values of rule-set parameters. Param returns the
// value of the named parameter and whether one was given (otherwise the parameter has its default).
type ParamSource interface {
	Param(name string) (Val, bool)
}

// OracleParam returns the value o gives the named parameter, when o is a ParamSource that gives one. The Envs of
// the matcher and the rewriter answer Param with it.
func OracleParam(o Oracle, name string) (Val, bool) {
	if ps, ok := o.(ParamSource); ok && ps != nil {
		return ps.Param(name)
	}
	return nil, false
}

// WithParams returns an Oracle that answers like o and gives the parameters p (o itself when p is empty). o may
// be nil: program builtins and natives are then unavailable, as with a nil Oracle.
func WithParams(o Oracle, p Params) Oracle {
	if len(p) == 0 {
		return o
	}
	return &paramOracle{o: o, p: p}
}

type paramOracle struct {
	o Oracle
	p Params
}

func (po *paramOracle) Builtin(name string, args []Val) (Val, bool, error) {
	if po.o == nil {
		return nil, true, errUnavailable
	}
	return po.o.Builtin(name, args)
}

func (po *paramOracle) Native(name string, args []Val) (Val, error) {
	if po.o == nil {
		return nil, errUnavailable
	}
	return po.o.Native(name, args)
}

func (po *paramOracle) Param(name string) (Val, bool) {
	if v, ok := po.p[name]; ok {
		return v, true
	}
	return OracleParam(po.o, name)
}

// errUnavailable is what a program builtin or native evaluated without an Oracle fails with.
var errUnavailable = &EvalError{Msg: "unavailable: no oracle"}

// UsesParams returns the rule-set parameters the rule reads (in its where clause, rewrite attributes and native
// rewrite arguments), in order of first use; nil when it reads none.
func (r *Rule) UsesParams() []string {
	var out []string
	seen := map[string]bool{}
	visit := func(e Expr) {
		WalkExpr(e, func(x Expr) {
			if p, ok := x.(*ParamRef); ok && !seen[p.Name] {
				seen[p.Name] = true
				out = append(out, p.Name)
			}
		})
	}
	for _, w := range r.Where {
		visit(w)
	}
	for _, a := range r.Actions {
		switch a := a.(type) {
		case *Create:
			for _, s := range a.Attrs {
				visit(s.Value)
			}
		case *NativeRewrite:
			for _, x := range a.Args {
				visit(x)
			}
		}
	}
	return out
}
