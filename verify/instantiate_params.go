package verify

import (
	"github.com/pirdrr/drr/drr/rule"
)

// Rule-set parameters ($sm_version): a rule that reads one is instantiated once per parameter value worth trying,
// as attribute holes are: the value the caller fixed (InstantiateOptions.Params), else the default and the literals
// the where clause compares the parameter with (both values of a bool), each assignment checked first against the
// constraints that read parameters and literals only.

// paramAssignments lists the parameter values to instantiate r with: one assignment when r reads no parameter (or
// only fixed ones), else a few assignments that together give every candidate value of every parameter, defaults
// first.
func paramAssignments(r *rule.Rule, fixed rule.Params) []rule.Params {
	names := r.UsesParams()
	cands := map[string][]rule.Val{}
	defaults := map[string]rule.Val{}
	var free []string
	visit := func(e rule.Expr) {
		rule.WalkExpr(e, func(e rule.Expr) {
			if p, ok := e.(*rule.ParamRef); ok {
				defaults[p.Name] = p.Default
			}
		})
	}
	for _, w := range r.Where {
		visit(w)
	}
	for _, a := range r.Actions {
		switch a := a.(type) {
		case *rule.Create:
			for _, s := range a.Attrs {
				visit(s.Value)
			}
		case *rule.NativeRewrite:
			for _, x := range a.Args {
				visit(x)
			}
		}
	}
	lits := paramLiterals(r)
	for _, n := range names {
		if v, ok := fixed[n]; ok {
			cands[n] = []rule.Val{v}
			continue
		}
		free = append(free, n)
		add := func(v rule.Val) {
			for _, x := range cands[n] {
				if rule.Equal(x, v) {
					return
				}
			}
			cands[n] = append(cands[n], v)
		}
		if d, ok := defaults[n]; ok {
			add(d)
			if b, isBool := d.(bool); isBool {
				// A bool parameter is a switch (use_cutlass, enable_gpu_mixed) the where clause reads as a
				// condition, comparing it with no literal: both of its values are worth trying.
				add(!b)
			}
		}
		for _, v := range lits[n] {
			add(v)
		}
	}
	base := rule.Params{}
	for n, v := range fixed {
		base[n] = v
	}
	if len(free) == 0 {
		return []rule.Params{base}
	}
	// Every combination (the candidates are a few literals each), admissible ones only.
	combos := []rule.Params{base}
	for _, n := range free {
		var next []rule.Params
		for _, c := range combos {
			for _, v := range cands[n] {
				p := rule.Params{}
				for k, x := range c {
					p[k] = x
				}
				p[n] = v
				next = append(next, p)
			}
		}
		combos = next
	}
	var ok []rule.Params
	for _, c := range combos {
		if paramsAdmissible(r, c) {
			ok = append(ok, c)
		}
	}
	// Keep the assignments that give a candidate value not given yet (greedily, in order).
	seen := map[string]bool{}
	var out []rule.Params
	for _, c := range ok {
		fresh := false
		for _, n := range free {
			if k := n + "=" + rule.FormatVal(c[n]); !seen[k] {
				seen[k], fresh = true, true
			}
		}
		if fresh {
			out = append(out, c)
		}
	}
	return out
}

// paramLiterals records, per parameter, the literals the where clause compares it with (collectLiterals' rules).
func paramLiterals(r *rule.Rule) map[string][]rule.Val {
	out := map[string][]rule.Val{}
	param := func(x rule.Expr) string {
		if p, ok := x.(*rule.ParamRef); ok {
			return p.Name
		}
		return ""
	}
	consts := func(x rule.Expr, list bool) []rule.Val {
		v, ok := constExpr(x)
		if !ok {
			return nil
		}
		if l, isList := v.([]rule.Val); isList && list {
			return l
		}
		return []rule.Val{v}
	}
	for _, w := range r.Where {
		rule.WalkExpr(w, func(e rule.Expr) {
			b, ok := e.(*rule.Binary)
			if !ok {
				return
			}
			switch b.Op {
			case "==", "!=", "<", "<=", ">", ">=":
				if n := param(b.X); n != "" {
					out[n] = append(out[n], consts(b.Y, false)...)
				}
				if n := param(b.Y); n != "" {
					out[n] = append(out[n], consts(b.X, false)...)
				}
			case "in":
				if n := param(b.X); n != "" {
					out[n] = append(out[n], consts(b.Y, true)...)
				}
			}
		})
	}
	return out
}

// paramsAdmissible reports whether no conjunct of r's where clause that reads parameters and literals only is false
// under the assignment p.
func paramsAdmissible(r *rule.Rule, p rule.Params) bool {
	env := paramEnv{p: p}
	var conj func(e rule.Expr) bool
	conj = func(e rule.Expr) bool {
		if b, ok := e.(*rule.Binary); ok && b.Op == "&&" {
			return conj(b.X) && conj(b.Y)
		}
		if !paramsOnly(e) {
			return true
		}
		v, err := rule.Eval(e, env)
		b, isBool := v.(bool)
		return err != nil || !isBool || b
	}
	for _, w := range r.Where {
		if !conj(w) {
			return false
		}
	}
	return true
}

// paramsOnly reports whether e reads parameters and literals only (through pure builtins).
func paramsOnly(e rule.Expr) bool {
	only := true
	rule.WalkExpr(e, func(x rule.Expr) {
		switch x := x.(type) {
		case *rule.HoleRef, *rule.ValueRef:
			only = false
		case *rule.Call:
			if b, ok := rule.LookupBuiltin(x.Func); x.Native || !ok || b.Program {
				only = false
			}
		}
	})
	return only
}

// paramEnv evaluates constraints over parameters: it gives the assignment's values, and binds no hole or value.
type paramEnv struct {
	holeEnv
	p rule.Params
}

// Param implements rule.ParamSource.
func (e paramEnv) Param(name string) (rule.Val, bool) {
	v, ok := e.p[name]
	return v, ok
}
