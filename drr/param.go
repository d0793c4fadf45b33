package drr

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/internal/suggest"
	"github.com/pirdrr/drr/ir"
)

// ParseParam parses text as a value of parameter d, as drrc's -param NAME=TEXT gives it: a constant of the
// language of d's kind ("80", "-1", "1e-5", "true", "[64, 16]", "float16", "\"NCHW\""). For a str parameter,
// text that is not a string literal is the string itself (-param algo=weight_only_int4).
func ParseParam(ctx *ir.Context, d *rule.ParamDecl, text string) (rule.Val, error) {
	if strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("parameter %s: no value (write -param %s=VALUE, a %s)", d.Name, d.Name, d.Type)
	}
	if d.Type == (ir.AttrType{Kind: ir.KindStr}) {
		t := strings.TrimSpace(text)
		if s, err := strconv.Unquote(t); err == nil && strings.HasPrefix(t, `"`) {
			return s, nil
		}
		return text, nil
	}
	if strings.ContainsAny(text, "\n;") {
		return nil, fmt.Errorf("parameter %s: %q is not a constant %s", d.Name, text, d.Type)
	}
	src := "param " + d.Name + ": " + d.Type.String() + " = " + text + "\n"
	f, err := Parse("-param", []byte(src))
	if err != nil || len(f.Params) != 1 {
		return nil, fmt.Errorf("parameter %s: %q is not a constant %s", d.Name, text, d.Type)
	}
	set, diags := Check(ctx, []*File{f}, CheckOptions{})
	if diags.HasErrors() || set == nil || len(set.Params) != 1 {
		msg := ""
		for _, dg := range diags {
			if dg.Severity == diag.Error {
				msg = dg.Message
				break
			}
		}
		if _, why, ok := strings.Cut(msg, ": "); ok {
			msg = why
		}
		return nil, fmt.Errorf("parameter %s: %q is not %s: %s", d.Name, text, article(d.Type.String()), msg)
	}
	return set.Params[0].Default, nil
}

// ParseParams parses NAME=VALUE assignments (drrc -param, repeatable) for the parameters decls declares: the
// parameters of the rule sets that will run, which may declare one name more than once (each declaration must
// accept the value). An unknown name is an error that suggests the nearest declared one; a later assignment of a
// name replaces an earlier one.
func ParseParams(ctx *ir.Context, decls []*rule.ParamDecl, assigns []string) (rule.Params, error) {
	if len(assigns) == 0 {
		return nil, nil
	}
	byName := map[string][]*rule.ParamDecl{}
	var names []string
	for _, d := range decls {
		if _, seen := byName[d.Name]; !seen {
			names = append(names, d.Name)
		}
		byName[d.Name] = append(byName[d.Name], d)
	}
	sort.Strings(names)
	out := rule.Params{}
	for _, a := range assigns {
		name, text, ok := strings.Cut(a, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("-param %q: write NAME=VALUE", a)
		}
		ds := byName[name]
		if len(ds) == 0 {
			if len(names) == 0 {
				return nil, fmt.Errorf("-param %s: the rule sets that run declare no parameter", name)
			}
			return nil, fmt.Errorf("-param %s: %s", name, suggest.Unknown("parameter", name, names))
		}
		var v rule.Val
		for i, d := range ds {
			x, err := ParseParam(ctx, d, text)
			if err != nil {
				return nil, fmt.Errorf("-param %s=%s: %v (declared at %s)", name, text, err, d.Pos)
			}
			if i > 0 && !rule.Equal(x, v) {
				return nil, fmt.Errorf("-param %s=%s: the parameter is declared as %s at %s and as %s at %s", name, text,
					ds[0].Type, ds[0].Pos, d.Type, d.Pos)
			}
			v = x
		}
		out[name] = v
	}
	return out, nil
}

// TargetParams returns params with the value target gives rule.TargetParam (sm_version) when decls declares it: the
// one place where -target reaches the rule sets. An explicit sm_version in params (-param sm_version=N, its alias)
// must agree with the target; with the zero target, or when no set declares the parameter, params is returned as
// it is. The result is a new map when it differs from params.
func TargetParams(decls []*rule.ParamDecl, params rule.Params, target ir.Target) (rule.Params, error) {
	if target.IsZero() {
		return params, nil
	}
	var decl *rule.ParamDecl
	for _, d := range decls {
		if d.Name == rule.TargetParam {
			decl = d
			break
		}
	}
	if decl == nil {
		return params, nil
	}
	if decl.Type != (ir.AttrType{Kind: ir.KindInt64}) {
		return nil, fmt.Errorf("-target %s: the parameter %s is declared as %s at %s; a target sets it as an i64",
			target, rule.TargetParam, decl.Type, decl.Pos)
	}
	want := target.SMVersion()
	if v, ok := params[rule.TargetParam]; ok {
		if got, isInt := v.(int64); !isInt || got != want {
			return nil, fmt.Errorf("-param %s=%s contradicts -target %s, which sets %s=%d (give one of them)",
				rule.TargetParam, rule.FormatVal(v), target, rule.TargetParam, want)
		}
		return params, nil
	}
	out := make(rule.Params, len(params)+1)
	for k, v := range params {
		out[k] = v
	}
	out[rule.TargetParam] = want
	return out, nil
}
