package lint

import (
	"fmt"

	"github.com/pirdrr/drr/analysis"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// fold evaluates e when it does not depend on a match: literals, operators and pure builtins over them, and the
// builtins a pattern alone decides (has_trait and defined_by of a value a named pattern op defines, inplace_op of an
// op name). ok is false when e depends on the match or evaluating it fails.
func (lf *lintFacts) fold(r *rule.Rule, e rule.Expr) (rule.Val, bool) {
	switch e := e.(type) {
	case *rule.Lit:
		return e.Value, true
	case *rule.Unary:
		x, ok := lf.fold(r, e.X)
		if !ok {
			return nil, false
		}
		return evalConst(&rule.Unary{Op: e.Op, X: &rule.Lit{Value: x}, Pos: e.Pos})
	case *rule.Binary:
		x, okx := lf.fold(r, e.X)
		y, oky := lf.fold(r, e.Y)
		if e.Op == "&&" || e.Op == "||" {
			// Three-valued: false && ? is false, true || ? is true.
			short := e.Op == "||"
			if b, isBool := x.(bool); okx && isBool && b == short {
				return short, true
			}
			if b, isBool := y.(bool); oky && isBool && b == short {
				return short, true
			}
		}
		if !okx || !oky {
			return nil, false
		}
		return evalConst(&rule.Binary{Op: e.Op, X: &rule.Lit{Value: x}, Y: &rule.Lit{Value: y}, Pos: e.Pos})
	case *rule.Cond:
		c, ok := lf.fold(r, e.Cond)
		b, isBool := c.(bool)
		if !ok || !isBool {
			return nil, false
		}
		if b {
			return lf.fold(r, e.Then)
		}
		return lf.fold(r, e.Else)
	case *rule.List:
		out := make([]rule.Val, len(e.Elems))
		for i, x := range e.Elems {
			v, ok := lf.fold(r, x)
			if !ok {
				return nil, false
			}
			out[i] = v
		}
		return out, true
	case *rule.Index:
		x, ok1 := lf.fold(r, e.X)
		i, ok2 := lf.fold(r, e.Index)
		if !ok1 || !ok2 {
			return nil, false
		}
		return evalConst(&rule.Index{X: &rule.Lit{Value: x}, Index: &rule.Lit{Value: i}, Pos: e.Pos})
	case *rule.Call:
		if e.Native {
			return nil, false
		}
		b, known := rule.LookupBuiltin(e.Func)
		switch {
		case !known:
			return nil, false
		case b.DefQuery != nil:
			return lf.foldDefQuery(r, b, e)
		case b.SchemaOnly:
			return lf.foldSchemaOnly(r, b, e)
		case b.Alias:
			if lf.patternAliases(r, e) {
				return true, true
			}
			return nil, false
		case b.Program:
			return nil, false
		}
		args := make([]rule.Expr, len(e.Args))
		for i, a := range e.Args {
			v, ok := lf.fold(r, a)
			if !ok {
				return nil, false
			}
			args[i] = &rule.Lit{Value: v}
		}
		return evalConst(&rule.Call{Func: e.Func, Args: args, Pos: e.Pos})
	}
	return nil, false
}

// foldDefQuery decides a builtin about the op defining its first argument (has_trait(%v, T), defined_by(%v, N))
// for a value a named pattern op defines.
func (lf *lintFacts) foldDefQuery(r *rule.Rule, b *rule.Builtin, e *rule.Call) (rule.Val, bool) {
	if len(e.Args) != 2 {
		return nil, false
	}
	ref, ok := e.Args[0].(*rule.ValueRef)
	if !ok || ref.Ref.New || ref.Ref.Index >= len(r.Pattern.Values) {
		return nil, false
	}
	h := r.Pattern.Values[ref.Ref.Index]
	if h.Def < 0 || h.List || r.Pattern.Ops[h.Def].Name == "" || lf.set.Ctx == nil {
		return nil, false
	}
	arg, ok := lf.fold(r, e.Args[1])
	if !ok {
		return nil, false
	}
	return b.DefQuery(lf.set.Ctx, r.Pattern.Ops[h.Def].Name, arg)
}

// patternAliases reports whether aliased(%v, except…) holds in every program the pattern matches: a named pattern
// op takes %v as an operand its schema views or writes in place, and the result sharing %v's buffer is not one of
// the excepted values. (Other ops of a program can only add aliases, never remove one.)
func (lf *lintFacts) patternAliases(r *rule.Rule, e *rule.Call) bool {
	if len(e.Args) == 0 || lf.set.Ctx == nil {
		return false
	}
	ref, ok := e.Args[0].(*rule.ValueRef)
	if !ok || ref.Ref.New || ref.Ref.Index >= len(r.Pattern.Values) {
		return false
	}
	except := map[int]bool{}
	for _, a := range e.Args[1:] {
		vr, ok := a.(*rule.ValueRef)
		if !ok || vr.Ref.New {
			return false
		}
		except[vr.Ref.Index] = true
	}
	for _, op := range r.Pattern.Ops {
		s := lf.set.Ctx.Schema(op.Name)
		if op.Name == "" || s == nil {
			continue
		}
		for j, o := range op.Operands {
			if o.Kind != rule.OperandValue || o.Value != ref.Ref.Index {
				continue
			}
			for _, pairs := range [][]ir.IOPair{s.View, s.Inplace} {
				for _, p := range pairs {
					if p.Operand != j {
						continue
					}
					// The sharing result is there whether the pattern binds it or not.
					if p.Result >= len(op.Results) || op.Results[p.Result].Value < 0 || !except[op.Results[p.Result].Value] {
						return true
					}
				}
			}
		}
	}
	return false
}

// foldSchemaOnly decides a builtin that depends on the catalog only (inplace_op(name, operand, result)) when its
// arguments fold to constants.
func (lf *lintFacts) foldSchemaOnly(r *rule.Rule, b *rule.Builtin, e *rule.Call) (rule.Val, bool) {
	if lf.set.Ctx == nil {
		return nil, false
	}
	args := make([]rule.Val, len(e.Args))
	for i, a := range e.Args {
		v, ok := lf.fold(r, a)
		if !ok {
			return nil, false
		}
		args[i] = v
	}
	v, err := b.EvalProgram(analysis.NewFacts(ir.NewProgram(lf.set.Ctx)), args)
	if err != nil {
		return nil, false
	}
	return v, true
}

// constEnv is the Env of constant folding: nothing is bound, no program builtin is known.
type constEnv struct{}

func (constEnv) Hole(int) (any, bool)      { return nil, false }
func (constEnv) Value(rule.Ref) *ir.Value  { return nil }
func (constEnv) List(rule.Ref) []*ir.Value { return nil }
func (constEnv) Native(string, []rule.Val) (rule.Val, error) {
	return nil, fmt.Errorf("native")
}
func (constEnv) Builtin(string, []rule.Val) (rule.Val, bool, error) { return nil, false, nil }

func evalConst(e rule.Expr) (v rule.Val, ok bool) {
	defer func() {
		if recover() != nil {
			v, ok = nil, false
		}
	}()
	v, err := rule.Eval(e, constEnv{})
	return v, err == nil
}
