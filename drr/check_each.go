package drr

import (
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
)

// Variadic groups: `[each(min, max) elem]` in a match block (language.md §4.9). A rule with a group is checked once
// per element count n from min to max, as a family rule is once per member: each instance is the rule with the
// group's list written out as n copies of elem. A value first bound inside elem (%x) is bound per element: in
// instance n it is the values %x[0] … %x[n-1]. In the where clause a constraint that names %x holds for every
// element (it is repeated per element); %x... is the list of them and %x[k] one of them (k < min), in the where
// clause and in the rewrite, where %x alone is an error. Attribute holes and values bound outside the group are
// shared by every element, so the elements must agree on them.

// MaxEach is the largest element count of a group, each(min, max): the rule is checked and compiled once per count.
const MaxEach = 16

// MaxUsers is the largest element count of a users group, each(min, max) %x: the matcher collects the users,
// it does not write the rule out per count.
const MaxUsers = 4096

// MaxEachOps is the largest number of op patterns a group is written out to (its element's op patterns times its
// largest count), so that a large element cannot multiply a rule sixteenfold.
const MaxEachOps = 256

// eachInst is one instance of a rule with a group: the count and the rule written out for it.
type eachInst struct {
	n   int
	ast *Rule
}

// eachGroup is what expanding a rule's group needs to know.
type eachGroup struct {
	each  *EachOperand
	names map[string]bool // the values bound per element
}

// expandEach returns the instances of a rule with a variadic group, one per count (nil for a rule without one), and
// false after reporting an error in the group or in its uses.
func (c *checker) expandEach(r *Rule) ([]eachInst, bool) {
	var found []*EachOperand
	ok := true
	var walk func(o Operand, list *CombineOperand, inGroup, inChoice bool)
	walk = func(o Operand, list *CombineOperand, inGroup, inChoice bool) {
		switch o := o.(type) {
		case *EachOperand:
			switch {
			case list == nil || len(list.Elems) != 1:
				c.errorf(o.Pos(), "each(…) must be the only element of a list operand: [each(%d, %d) …]", o.Min, o.Max)
				ok = false
			case inGroup:
				c.errorf(o.Pos(), "groups cannot nest: each(…) inside the element of another each(…)")
				ok = false
			case inChoice:
				c.errorf(o.Pos(), "a group cannot be inside alternatives or either(…)")
				ok = false
			default:
				found = append(found, o)
			}
			walk(o.Elem, nil, true, inChoice)
		case *CombineOperand:
			for _, e := range o.Elems {
				walk(e, o, inGroup, inChoice)
			}
		case *EitherOperand:
			for _, e := range o.Operands {
				walk(e, nil, inGroup, true)
			}
		case *AltOperand:
			for i, e := range o.Alts {
				if i == 1 && o.Optional {
					break // the optional op's first operand, walked in the op
				}
				walk(e, nil, inGroup, true)
			}
		case *OpPattern:
			for _, e := range o.Operands {
				walk(e, nil, inGroup, inChoice)
			}
		}
	}
	users := 0
	for _, st := range r.Match.Stmts {
		if st.Op != nil {
			for _, o := range st.Op.Operands {
				if isUsersGroup(o) {
					users++
					ok = c.checkUsersGroup(r, st, o.(*EachOperand), users) && ok
					continue
				}
				walk(o, nil, false, false)
			}
		}
	}
	if users > 0 && len(found) > 0 {
		c.errorf(found[0].Pos(), "a rule has at most one group: this one and a users group")
		return nil, false
	}
	if len(found) == 0 || !ok {
		return nil, ok
	}
	if len(found) > 1 {
		c.errorf(found[1].Pos(), "a rule has at most one group: another each(…) is at %s", found[0].Pos())
		return nil, false
	}
	if len(r.Fors) > 0 {
		c.errorf(found[0].Pos(), "a rule over a family cannot have a group (each(…)): write the rule without the family or without the group")
		return nil, false
	}
	g := &eachGroup{each: found[0], names: map[string]bool{}}
	if g.each.Max > MaxEach {
		c.errorf(g.each.Pos(), "each(%d, %d): at most %d elements (the rule is checked once per count)", g.each.Min,
			g.each.Max, MaxEach)
		return nil, false
	}
	ops := 0
	Inspect(g.each.Elem, func(n Node) bool {
		if _, isOp := n.(*OpPattern); isOp {
			ops++
		}
		return true
	})
	if ops*g.each.Max > MaxEachOps {
		c.errorf(g.each.Pos(), "each(%d, %d) of %d op patterns is %d op patterns for %d elements: at most %d (a smaller largest count, or a smaller element)",
			g.each.Min, g.each.Max, ops, ops*g.each.Max, g.each.Max, MaxEachOps)
		return nil, false
	}
	if !c.groupNames(r, g) {
		return nil, false
	}
	if !c.checkGroupUses(r, g) {
		return nil, false
	}
	var out []eachInst
	for n := g.each.Min; n <= g.each.Max; n++ {
		out = append(out, eachInst{n: n, ast: g.instance(r, n)})
	}
	return out, true
}

// groupNames finds the values bound per element: the values the element names that nothing outside the group
// names. A group needs an op pattern and may not hold a value list.
func (c *checker) groupNames(r *Rule, g *eachGroup) bool {
	ok := true
	hasOp := false
	inside := map[string]bool{}
	Inspect(g.each.Elem, func(n Node) bool {
		switch n := n.(type) {
		case *OpPattern:
			hasOp = true
		case *VariadicOperand:
			c.errorf(n.Pos(), "%%%s... cannot be in a group: each element is one value", n.Name)
			ok = false
		case *ValueOperand:
			inside[n.Name] = true
		}
		return true
	})
	if !hasOp {
		c.errorf(g.each.Elem.Pos(), "the elements of each(…) need an op pattern (a list of any values is [%%xs...])")
		return false
	}
	outside := map[string]bool{}
	for _, st := range r.Match.Stmts {
		for _, res := range st.Results {
			if res.Kind == ResultValue {
				outside[res.Name] = true
			}
		}
		Inspect(st.Op, func(n Node) bool {
			switch n := n.(type) {
			case *EachOperand:
				return false
			case *ValueOperand:
				outside[n.Name] = true
			case *VariadicOperand:
				outside[n.Name] = true
			}
			return true
		})
	}
	for name := range inside {
		if !outside[name] {
			g.names[name] = true
		}
	}
	return ok
}

// checkGroupUses reports the uses of group values that no instance can have: %x alone in the rewrite (it is one
// value per element), %x[k] with k not a literal below the group's smallest count.
func (c *checker) checkGroupUses(r *Rule, g *eachGroup) bool {
	ok := true
	var visit func(n Node, rewrite bool)
	visit = func(n Node, rewrite bool) {
		Inspect(n, func(n Node) bool {
			switch n := n.(type) {
			case *SpreadExpr:
				if v, isV := n.X.(*ValueExpr); isV && g.names[v.Name] {
					return false
				}
			case *IndexExpr:
				v, isV := n.X.(*ValueExpr)
				if !isV || !g.names[v.Name] {
					return true
				}
				k, isK := groupIndex(n)
				switch {
				case !isK:
					c.errorf(n.Index.Pos(), "%%%s[…] picks an element of a group: the index must be an integer literal", v.Name)
					ok = false
				case k >= g.each.Min:
					c.errorf(n.Index.Pos(), "%%%s[%d]: the group has at least %d elements (each(%d, %d)), so the index must be below %d",
						v.Name, k, g.each.Min, g.each.Min, g.each.Max, g.each.Min)
					ok = false
				}
				visit(n.Index, rewrite)
				return false
			case *ValueExpr:
				if rewrite && g.names[n.Name] {
					c.errorf(n.Pos(), "%%%s is bound per element of the group at %s: spread the values with %%%s... or pick one with %%%s[0]",
						n.Name, g.each.Pos(), n.Name, n.Name)
					ok = false
				}
			}
			return true
		})
	}
	if r.Where != nil {
		for _, e := range r.Where.Constraints {
			visit(e, false)
		}
	}
	for _, st := range r.Rewrite.Stmts {
		visit(st, true)
	}
	return ok
}

// groupIndex returns k of %x[k] when k is an integer literal (possibly in parentheses).
func groupIndex(n *IndexExpr) (int, bool) {
	idx := n.Index
	for {
		p, isP := idx.(*ParenExpr)
		if !isP {
			break
		}
		idx = p.X
	}
	lit, isLit := idx.(*BasicLit)
	if !isLit || lit.Kind != IntLit {
		return 0, false
	}
	k, err := strconv.Atoi(lit.Text)
	return k, err == nil && k >= 0
}

// elemName is the name of a group value in element i of an instance: x[i], which no name in a rule can be.
func elemName(name string, i int) string { return name + "[" + strconv.Itoa(i) + "]" }

// instance writes r out for n elements: a deep copy in which the group's list holds n copies of its element, group
// values in element i are renamed x[i], %x... becomes x[0], …, x[n-1], %x[k] becomes x[k], and a where constraint
// that names a group value alone is repeated for each element.
func (g *eachGroup) instance(r *Rule, n int) *Rule {
	cp := &eachCopier{g: g, n: n, elem: -1}
	out := cp.copy(reflect.ValueOf(r)).Interface().(*Rule)
	if r.Where == nil {
		return out
	}
	var where []Expr
	for i, e := range r.Where.Constraints {
		if !g.namesAlone(e) {
			where = append(where, out.Where.Constraints[i])
			continue
		}
		for k := range n {
			ek := &eachCopier{g: g, n: n, elem: k}
			where = append(where, ek.copy(reflect.ValueOf(&e).Elem()).Interface().(Expr))
		}
	}
	out.Where.Constraints = where
	return out
}

// namesAlone reports whether e names a group value other than through %x... or %x[k].
func (g *eachGroup) namesAlone(e Expr) bool {
	alone := false
	Inspect(e, func(n Node) bool {
		switch n := n.(type) {
		case *SpreadExpr:
			if v, isV := n.X.(*ValueExpr); isV && g.names[v.Name] {
				return false
			}
		case *IndexExpr:
			if v, isV := n.X.(*ValueExpr); isV && g.names[v.Name] {
				return false
			}
		case *ValueExpr:
			alone = alone || g.names[n.Name]
		}
		return !alone
	})
	return alone
}

// eachCopier deep-copies syntax for one instance of a group. elem >= 0 renames group values to their names in
// that element.
type eachCopier struct {
	g    *eachGroup
	n    int
	elem int
}

var exprListType = reflect.TypeFor[[]Expr]()

// copy returns a deep copy of v with the instance's changes.
func (cp *eachCopier) copy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		if r := cp.node(v.Interface()); r != nil {
			return reflect.ValueOf(r)
		}
		out := reflect.New(v.Type().Elem())
		out.Elem().Set(v.Elem())
		cp.fields(out.Elem())
		return out
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(cp.copy(v.Elem()))
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		if v.Type() == exprListType {
			return reflect.ValueOf(cp.exprs(v.Interface().([]Expr)))
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(cp.copy(v.Index(i)))
		}
		return out
	case reflect.Struct:
		out := reflect.New(v.Type()).Elem()
		out.Set(v)
		cp.fields(out)
		return out
	}
	return v
}

// fields replaces the exported fields of the struct s by their copies.
func (cp *eachCopier) fields(s reflect.Value) {
	for i := range s.NumField() {
		if s.Type().Field(i).IsExported() {
			s.Field(i).Set(cp.copy(s.Field(i)))
		}
	}
}

// node copies the nodes an instance changes; nil for the others.
func (cp *eachCopier) node(n any) any {
	rename := func(name string) string {
		if cp.elem >= 0 && cp.g.names[name] {
			return elemName(name, cp.elem)
		}
		return name
	}
	switch n := n.(type) {
	case *CombineOperand:
		if len(n.Elems) != 1 || n.Elems[0] != Operand(cp.g.each) {
			return nil
		}
		out := &CombineOperand{Span: n.Span, Elems: make([]Operand, cp.n)}
		for i := range cp.n {
			ei := &eachCopier{g: cp.g, n: cp.n, elem: i}
			out.Elems[i] = ei.copy(reflect.ValueOf(&cp.g.each.Elem).Elem()).Interface().(Operand)
		}
		return out
	case *ValueOperand:
		out := *n
		out.Name = rename(n.Name)
		if n.Type != nil {
			out.Type = cp.copy(reflect.ValueOf(&n.Type).Elem()).Interface().(TypePattern)
		}
		return &out
	case *ValueExpr:
		out := *n
		out.Name = rename(n.Name)
		return &out
	case *TypeOf:
		out := *n
		out.Value = rename(n.Value)
		return &out
	case *IndexExpr:
		if v, isV := n.X.(*ValueExpr); isV && cp.g.names[v.Name] {
			k, _ := groupIndex(n)
			return &ValueExpr{Span: n.Span, Name: elemName(v.Name, k)}
		}
	}
	return nil
}

// exprs copies a list of expressions, spreading %x... of a group value x into its elements' values.
func (cp *eachCopier) exprs(es []Expr) []Expr {
	out := make([]Expr, 0, len(es))
	for _, e := range es {
		if s, isS := e.(*SpreadExpr); isS {
			if v, isV := s.X.(*ValueExpr); isV && cp.g.names[v.Name] {
				for i := range cp.n {
					out = append(out, &ValueExpr{Span: v.Span, Name: elemName(v.Name, i)})
				}
				continue
			}
		}
		out = append(out, cp.copy(reflect.ValueOf(&e).Elem()).Interface().(Expr))
	}
	return out
}

// finishEach reports the diagnostics of a group rule's instances, each once (an error with the counts it is for
// when not every instance has it), and returns the instances that passed.
func (c *checker) finishEach(w *ruleWork) []*rule.Rule {
	type key struct {
		pos  diag.Position
		sev  diag.Severity
		text string
	}
	var order []key
	counts := map[key][]string{}
	var out []*rule.Rule
	for i, inst := range w.checked {
		for _, d := range inst.diags {
			k := key{d.Pos, d.Severity, d.Message}
			if _, seen := counts[k]; !seen {
				order = append(order, k)
			}
			counts[k] = append(counts[k], "n="+strconv.Itoa(w.counts[i]))
		}
		if hasErrors(inst.diags) {
			continue
		}
		inst.rule.Labels = w.labels
		out = append(out, inst.rule)
	}
	for _, k := range order {
		msg := k.text
		// An error some counts only have is said with them; a warning (a hole bound once, used by the copies of
		// larger counts) is about the source, written once.
		if n := counts[k]; len(n) < len(w.checked) && k.sev == diag.Error {
			msg += " (in " + strings.Join(n, ", ") + ")"
		}
		c.report(k.sev, k.pos, "%s", msg)
	}
	return out
}

// isUsersGroup reports whether operand o of a statement's op is a users group, `each(min, max) %x`: the op is each
// of min to max users of %x that read it there (language.md §4.10).
func isUsersGroup(o Operand) bool {
	e, ok := o.(*EachOperand)
	if !ok {
		return false
	}
	_, isValue := e.Elem.(*ValueOperand)
	return isValue
}

// checkUsersGroup checks what a users group asks of its rule: the only group (n is its number), the statement
// that holds it the only statement of the match, no family, counts up to MaxUsers.
func (c *checker) checkUsersGroup(r *Rule, st *PatternStmt, e *EachOperand, n int) bool {
	switch {
	case n > 1:
		c.errorf(e.Pos(), "a rule has at most one group: another each(…) is in the match")
	case len(r.Match.Stmts) > 1:
		c.errorf(e.Pos(), "a users group's op must be the only statement of the match (the element is one op)")
	case len(r.Fors) > 0:
		c.errorf(e.Pos(), "a rule over a family cannot have a group (each(…)): write the rule without the family or without the group")
	case e.Max > MaxUsers:
		c.errorf(e.Pos(), "each(%d, %d) %%%s: at most %d users", e.Min, e.Max, e.Elem.(*ValueOperand).Name, MaxUsers)
	case len(st.Results) == 0:
		c.errorf(e.Pos(), "a users group's op names its result (%%y = …): the rewrite replaces %%y...")
	default:
		return true
	}
	return false
}

// usersGroup completes the pattern's users group, if it has one: the element is the root (the match's only op),
// and every value but the group's is bound per element.
func (rc *ruleChecker) usersGroup() {
	g := rc.users
	if g == nil || hasErrors(rc.diags) {
		return
	}
	g.Op = rc.p.Root
	for h := range rc.p.Values {
		if h != g.Value {
			g.Elems = append(g.Elems, h)
		}
	}
	rc.p.Users = g
}

// elemWhere sorts the where constraints of a rule with a users group: one that names a per-element value holds
// for each element (a user failing it is no element); the others are checked once, on the group.
func (rc *ruleChecker) elemWhere() {
	g := rc.p.Users
	if g == nil {
		return
	}
	for i, e := range rc.r.Where {
		if rc.namesElem(e) {
			g.ElemWhere = append(g.ElemWhere, i)
		}
	}
}

// namesElem reports whether where constraint e reads a per-element value of the users group (a where clause has
// no spreads: there it is one element's value).
func (rc *ruleChecker) namesElem(e rule.Expr) bool {
	found := false
	rule.WalkExpr(e, func(x rule.Expr) {
		if v, ok := x.(*rule.ValueRef); ok && !v.Ref.New && rc.p.IsElem(v.Ref.Index) {
			found = true
		}
	})
	return found
}

// isElem reports whether match value i is bound per element of the rule's users group.
func (rc *ruleChecker) isElem(i int) bool { return rc.users != nil && rc.p.IsElem(i) }

// spread checks `[x...]` in a rewrite of a rule with a users group: x once per element, its per-element values
// single values; the list of the results.
func (rc *ruleChecker) spread(e *SpreadExpr, sc exprScope) (rule.Expr, sType) {
	if rc.p.Users == nil || sc.where {
		rc.errorf(e.Pos(), "[x...] computes x once per element of a users group (each(min, max) %%x); this rule has none")
		return &rule.Lit{Pos: e.Pos()}, stAny
	}
	rc.inSpread = true
	x, _ := rc.expr(e.X, sc)
	rc.inSpread = false
	var elems []int
	rule.WalkExpr(x, func(y rule.Expr) {
		if v, ok := y.(*rule.ValueRef); ok && !v.Ref.New && rc.p.IsElem(v.Ref.Index) && !slices.Contains(elems, v.Ref.Index) {
			elems = append(elems, v.Ref.Index)
		}
	})
	if len(elems) == 0 {
		rc.errorf(e.Pos(), "[x...] needs x to name a per-element value of the users group (one bound by its op)")
	}
	return &rule.Spread{X: x, Elems: elems, Pos: e.Pos()}, stList
}

// replaceEach checks `replace %y... with %parts...`: %y bound per element of the users group, %parts every result
// of an op the rewrite created; the two are replaced pairwise.
func (rc *ruleChecker) replaceEach(st *ReplaceStmt, i int) {
	if !rc.isElem(i) {
		rc.errorf(st.Old.Pos(), "replace %%%s... replaces the values of every element of a users group; %%%s is not bound per element of one", st.Old.Name, st.Old.Name)
		return
	}
	sp, ok := st.New.(*SpreadExpr)
	var v *ValueExpr
	if ok {
		v, ok = sp.X.(*ValueExpr)
	}
	if !ok {
		rc.errorf(st.New.Pos(), "replace %%%s... with %%parts..., every result of an op the rewrite creates (%%parts... = builtin.split(…))", st.Old.Name)
		return
	}
	j, isNew := rc.newValues[v.Name]
	if !isNew || !rc.r.NewValues[j].List {
		rc.errorf(v.Pos(), "%%%s is not a list the rewrite defines: write %%%s... = an op whose results are the pieces", v.Name, v.Name)
		return
	}
	if prev, dup := rc.replaced[i]; dup {
		rc.errorf(st.Old.Pos(), "%%%s is replaced twice (also at %s)", st.Old.Name, prev.String())
		return
	}
	rc.replaced[i] = st.Old.Pos()
	rc.r.Actions = append(rc.r.Actions, &rule.Replace{Value: rule.Ref{Index: i}, With: rule.Ref{New: true, Index: j},
		Each: true, Pos: st.span().Pos()})
}

// oneSpread returns the spread a list holds as its only element, `[x...]`.
func oneSpread(l *ListExpr) (*SpreadExpr, bool) {
	if len(l.Elems) != 1 {
		return nil, false
	}
	sp, ok := l.Elems[0].(*SpreadExpr)
	return sp, ok
}
