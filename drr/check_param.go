package drr

import (
	"fmt"
	"sort"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/internal/suggest"
	"github.com/pirdrr/drr/ir"
)

// Rule-set parameters: `param NAME: KIND = DEFAULT` declares one, a rule reads it as $NAME (a rule.ParamRef), and
// whoever runs the set may give it another value (ParseParam, rule.WithParams). The files loaded together share
// one namespace of parameters, like families and natives: a parameter declared in two files must have the same
// kind and default in both.

// paramInfo is a checked parameter declaration.
type paramInfo struct {
	decl *rule.ParamDecl
	ast  *ParamDecl
}

// param checks a parameter declaration: its kind, its default (a constant of that kind), and that another file
// does not declare it differently.
func (c *checker) param(pd *ParamDecl) {
	name := pd.Name.Name
	t, ok := nativeTypes[pd.Type.Name]
	if !ok {
		c.errorf(pd.Type.Pos(), "parameter %s: unknown kind %q (kinds: bool, i32, i64, f32, f64, str, DataType, …, each also as an array: i64[])%s",
			name, pd.Type.Name, suggestName(pd.Type.Name, nativeTypeNames()))
		return
	}
	if t.Kind == ir.KindType || t.Kind == ir.KindAny && !t.Array {
		c.errorf(pd.Type.Pos(), "parameter %s: a parameter has a value kind, not %s", name, pd.Type.Name)
		return
	}
	def, ok := c.paramDefault(pd, t)
	if !ok {
		return
	}
	d := &rule.ParamDecl{Name: name, Doc: pd.Doc.Text(), Type: t, Default: def, Pos: pd.span().Pos()}
	if prev, dup := c.params[name]; dup {
		if prev.decl.Type != t || !rule.Equal(prev.decl.Default, def) {
			c.errorf(pd.Name.Pos(), "parameter %s is already declared at %s as %s = %s; the files of a rule set share their parameters",
				name, prev.ast.Pos(), prev.decl.Type, rule.FormatVal(prev.decl.Default))
		}
		return
	}
	if _, fam := c.families[name]; fam {
		c.errorf(pd.Name.Pos(), "parameter %s has the name of a family", name)
	}
	c.params[name] = &paramInfo{decl: d, ast: pd}
	c.paramOrder = append(c.paramOrder, d)
}

// paramDefault evaluates the default of a parameter: a constant expression (literals, lists of them, negated
// numbers, data type names) that converts to the parameter's kind.
func (c *checker) paramDefault(pd *ParamDecl, t ir.AttrType) (rule.Val, bool) {
	name := pd.Name.Name
	var bad Node
	Inspect(pd.Default, func(n Node) bool {
		switch n.(type) {
		case *HoleExpr, *ValueExpr, *LabelExpr, *CallExpr, *WildcardExpr, *SpreadExpr:
			if bad == nil {
				bad = n
			}
			return false
		}
		return true
	})
	if bad != nil {
		c.errorf(bad.Pos(), "the default of parameter %s must be a constant (a literal or a list of literals)", name)
		return nil, false
	}
	rc := &ruleChecker{c: c, s: &ruleScratch{maps: newRuleMaps()}, r: &rule.Rule{}, p: &rule.Pattern{}}
	rc.ruleMaps = rc.s.maps
	e, _ := rc.expr(pd.Default, exprScope{})
	if len(rc.diags) > 0 {
		c.diags = append(c.diags, rc.diags...)
		return nil, false
	}
	v, err := rule.Eval(e, constEnv{})
	if err == nil {
		var a ir.Attribute
		if a, err = rule.ToAttr(c.ctx, t, v); err == nil {
			return rule.AttrVal(a), true
		}
	}
	c.errorf(pd.Default.Pos(), "the default of parameter %s is not %s: %v", name, article(t.String()), err)
	return nil, false
}

// unusedParams warns about the parameters no rule of the files mentions (as $name, where the rule has no hole of
// that name: a rule with errors counts too, so that the warning does not repeat them).
func (c *checker) unusedParams(files []*File) {
	if len(c.paramOrder) == 0 {
		return
	}
	used := map[string]bool{}
	for _, f := range files {
		for _, r := range f.Rules {
			Inspect(r, func(n Node) bool {
				if h, ok := n.(*HoleExpr); ok {
					used[h.Name] = true
				}
				return true
			})
		}
	}
	for _, d := range c.paramOrder {
		if !used[d.Name] {
			c.warnf(c.params[d.Name].ast.Name.Pos(), "parameter %s is declared but no rule reads $%s", d.Name, d.Name)
		}
	}
}

// paramRef translates $name where no hole of the rule has that name: a parameter of the set, or an error that
// names the parameter it may have meant.
func (rc *ruleChecker) paramRef(e *HoleExpr, pos diag.Position) (rule.Expr, sType) {
	if p, ok := rc.c.params[e.Name]; ok {
		return &rule.ParamRef{Name: e.Name, Default: p.decl.Default, Pos: pos}, attrSType(p.decl.Type)
	}
	names := make([]string, 0, len(rc.c.params))
	for n := range rc.c.params {
		names = append(names, n)
	}
	sort.Strings(names)
	msg := fmt.Sprintf("$%s is not bound in the match", e.Name)
	holes := make([]string, 0, len(rc.holes))
	for n := range rc.holes {
		holes = append(holes, n)
	}
	sort.Strings(holes)
	if s, ok := suggestBound(e.Name, holes); ok {
		msg += fmt.Sprintf(" (did you mean $%s?)", s)
	} else if s, ok := suggest.Closest(e.Name, names); ok {
		msg += fmt.Sprintf(" (did you mean $%s, the parameter of the rule set?)", s)
	}
	rc.errorf(e.Pos(), "%s", msg)
	return newNode(&rc.s.nodes.lit, rule.Lit{Pos: pos}), stAny
}

// constEnv evaluates constant expressions: nothing is bound.
type constEnv struct{}

func (constEnv) Hole(int) (any, bool)      { return nil, false }
func (constEnv) Value(rule.Ref) *ir.Value  { return nil }
func (constEnv) List(rule.Ref) []*ir.Value { return nil }
func (constEnv) Builtin(string, []rule.Val) (rule.Val, bool, error) {
	return nil, false, nil
}
func (constEnv) Native(name string, _ []rule.Val) (rule.Val, error) {
	return nil, fmt.Errorf("native %s is not evaluated here", name)
}

func nativeTypeNames() []string {
	out := make([]string, 0, len(nativeTypes))
	for n := range nativeTypes {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// suggestBound is the did-you-mean of a mistyped value or hole name among the bound ones; a name of one or two
// letters gets none (%z is no typo of %x).
func suggestBound(name string, names []string) (string, bool) {
	if len(name) < 3 {
		return "", false
	}
	return suggest.Closest(name, names)
}

// suggestName returns " (did you mean X?)" for the closest of names, or "".
func suggestName(name string, names []string) string {
	if s, ok := suggest.Closest(name, names); ok {
		return " (did you mean " + s + "?)"
	}
	return ""
}
