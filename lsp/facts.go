package lsp

import (
	"fmt"
	"strings"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// What is known of a value or a hole of a rule: how the rule binds it, the type the checker resolved for it, and
// the where clauses that constrain it. Hover shows all of it; inlay hints the short form.

// valueFacts is what is known of a %value.
type valueFacts struct {
	binding string   // how the rule binds it, in markdown
	typ     string   // its type pattern as the checker resolved it ("" when unconstrained or unknown)
	where   []string // the where conjuncts about it, as written
	short   string   // the type, or dtype/rank facts from where, for an inlay hint ("" when nothing is known)
}

// holeFacts is what is known of a $hole.
type holeFacts struct {
	binding string // how the rule binds it, in markdown
	kind    string // attribute (with its kind), dimension, dtype, type or attribute list ("" unknown)
	where   []string
}

// text returns the source text of a node.
func (s *snapshot) nodeText(n drr.Node) string {
	start, end := n.Pos().Offset, n.End().Offset
	if start < 0 || end > len(s.text) || start > end {
		return ""
	}
	return s.text[start:end]
}

// shorten cuts a source text to one line of at most 60 characters.
func shorten(t string) string {
	t = strings.Join(strings.Fields(t), " ")
	if len(t) > 60 {
		t = t[:57] + "…"
	}
	return t
}

// checkedRule returns the checked form of rule r (its first instance), if a check of this version is done and
// succeeded.
func (s *snapshot) checkedRule(r *drr.Rule) *rule.Rule {
	res := s.checkedNow()
	if res == nil || res.set == nil || r == nil || r.Name == nil {
		return nil
	}
	for _, cr := range res.set.Rules {
		if cr.Name == r.Name.Name && cr.Pos.Line == r.Name.Pos().Line {
			return cr
		}
	}
	for _, cr := range res.set.Rules {
		if cr.Name == r.Name.Name {
			return cr
		}
	}
	return nil
}

// enclosing returns the innermost node of type T on the path to offset off, and the node just inside it.
func enclosing[T drr.Node](f *drr.File, off int) (T, drr.Node) {
	var zero T
	path := drr.PathAt(f, off)
	for i := len(path) - 1; i >= 0; i-- {
		if t, ok := path[i].(T); ok {
			var child drr.Node
			if i+1 < len(path) {
				child = path[i+1]
			}
			return t, child
		}
	}
	return zero, nil
}

// opLabel names the op of an op pattern or call for people: `pd_op.conv2d`, or `C` (over its family).
func opLabel(n *drr.OpName) string {
	if n == nil {
		return "?"
	}
	return "`" + n.Name + "`"
}

// valueFacts describes %name of rule r.
func (s *snapshot) valueFacts(r *drr.Rule, o *occurrence) valueFacts {
	var vf valueFacts
	f, _ := s.parsed()
	def := s.index().def(o)
	if def != nil {
		line := s.lines.position(def.start).Line + 1
		switch def.role {
		case roleResult:
			if st, _ := enclosing[*drr.PatternStmt](f, def.start); st != nil && st.Op != nil {
				i := indexOf(st.Results, def.node)
				vf.binding = fmt.Sprintf("result %d%s of %s (line %d)", i, s.resultName(r, st.Op.Name, i), opLabel(st.Op.Name), line)
				if st.Optional && len(st.Op.Operands) > 0 {
					// language.md §4.8, optional statements: the op's result, or its first operand.
					vf.binding += fmt.Sprintf(", or `%s` where the op is absent (an optional statement)",
						shorten(s.nodeText(st.Op.Operands[0])))
				}
			}
		case roleOperand:
			if op, child := enclosing[*drr.OpPattern](f, def.start); op != nil {
				i := indexOf(op.Operands, child)
				vf.binding = fmt.Sprintf("operand %d%s of %s (line %d): an input of the pattern", i, s.operandName(r, op.Name, i), opLabel(op.Name), line)
			}
		case roleAssign:
			if st, _ := enclosing[*drr.AssignStmt](f, def.start); st != nil && st.Value != nil {
				vf.binding = fmt.Sprintf("built by the rewrite (line %d): `%s`", line, shorten(s.nodeText(st.Value)))
			}
		}
	}
	if cr := s.checkedRule(r); cr != nil {
		for _, v := range cr.Pattern.Values {
			if v.Name == o.name && v.Type != nil {
				vf.typ = rule.FormatType(cr.Pattern, v.Type)
			}
		}
	}
	vf.where = s.whereAbout(r, symValue, o.name)
	vf.short = vf.typ
	if vf.short == "" {
		vf.short = s.whereSummary(r, o.name)
	}
	return vf
}

// holeFacts describes $name of rule r.
func (s *snapshot) holeFacts(r *drr.Rule, o *occurrence) holeFacts {
	var hf holeFacts
	f, _ := s.parsed()
	if def := s.index().def(o); def != nil {
		line := s.lines.position(def.start).Line + 1
		switch def.node.(type) {
		case *drr.HoleExpr:
			if e, _ := enclosing[*drr.AttrEntry](f, def.start); e != nil && e.Key != nil {
				if op, _ := enclosing[*drr.OpPattern](f, def.start); op != nil {
					hf.binding = fmt.Sprintf("attribute `%s` of %s (line %d)", e.Key.Name, opLabel(op.Name), line)
				}
			}
		case *drr.RestAttrs:
			if op, _ := enclosing[*drr.OpPattern](f, def.start); op != nil {
				hf.binding = fmt.Sprintf("the attributes of %s not listed (line %d)", opLabel(op.Name), line)
			}
		case *drr.Dim:
			hf.binding = fmt.Sprintf("a dimension of a tensor type (line %d)", line)
		case *drr.Dtype:
			hf.binding = fmt.Sprintf("the element type of a tensor type (line %d)", line)
		case *drr.HoleType:
			hf.binding = fmt.Sprintf("a whole type (line %d)", line)
		}
	}
	if cr := s.checkedRule(r); cr != nil {
		for _, h := range cr.Pattern.Holes {
			if h.Name != o.name {
				continue
			}
			switch h.Kind {
			case rule.HoleAttr:
				hf.kind = "attribute"
				if h.Type != (ir.AttrType{}) {
					hf.kind += " (" + h.Type.String() + ")"
				}
			case rule.HoleAttrs:
				hf.kind = "attribute list"
			case rule.HoleDim:
				hf.kind = "dimension (int)"
			case rule.HoleDType:
				hf.kind = "dtype"
			case rule.HoleType:
				hf.kind = "type"
			}
		}
	}
	hf.where = s.whereAbout(r, symHole, o.name)
	return hf
}

// resultName returns " (`out`)", the schema's name of result i of the op, or "".
func (s *snapshot) resultName(r *drr.Rule, op *drr.OpName, i int) string {
	if op == nil {
		return ""
	}
	if sc := s.schemaOf(r, op.Name); sc != nil && i >= 0 && i < len(sc.Results) {
		return " (`" + sc.Results[i].Name + "`)"
	}
	return ""
}

// operandName returns " (`filter`)", the schema's name of operand i of the op, or "".
func (s *snapshot) operandName(r *drr.Rule, op *drr.OpName, i int) string {
	if op == nil {
		return ""
	}
	if sc := s.schemaOf(r, op.Name); sc != nil && i >= 0 && len(sc.Operands) > 0 {
		if i >= len(sc.Operands) && sc.Operands[len(sc.Operands)-1].Variadic {
			i = len(sc.Operands) - 1
		}
		if i < len(sc.Operands) {
			return " (`" + sc.Operands[i].Name + "`)"
		}
	}
	return ""
}

// indexOf returns the position of node n in a slice of nodes, or -1.
func indexOf[T drr.Node](list []T, n drr.Node) int {
	for i, x := range list {
		if drr.Node(x) == n {
			return i
		}
	}
	return -1
}

// conjuncts splits a where constraint at its top-level &&.
func conjuncts(e drr.Expr, out []drr.Expr) []drr.Expr {
	if b, ok := e.(*drr.BinaryExpr); ok && b.Op == "&&" {
		return conjuncts(b.Y, conjuncts(b.X, out))
	}
	if p, ok := e.(*drr.ParenExpr); ok {
		return conjuncts(p.X, out)
	}
	return append(out, e)
}

// mentions reports whether e mentions the value or hole name.
func mentions(e drr.Node, k symKind, name string) bool {
	found := false
	drr.Inspect(e, func(n drr.Node) bool {
		switch n := n.(type) {
		case *drr.ValueExpr:
			found = found || k == symValue && n.Name == name
		case *drr.HoleExpr:
			found = found || k == symHole && n.Name == name
		}
		return !found
	})
	return found
}

// whereAbout returns the where conjuncts of r that mention the value or hole, as written.
func (s *snapshot) whereAbout(r *drr.Rule, k symKind, name string) []string {
	if r == nil || r.Where == nil {
		return nil
	}
	var out []string
	for _, c := range r.Where.Constraints {
		for _, e := range conjuncts(c, nil) {
			if mentions(e, k, name) {
				out = append(out, shorten(s.nodeText(e)))
			}
		}
	}
	return out
}

// whereSummary condenses what the where clauses of r say of the dtype, rank and shape of %name: `dtype(%w) in
// [float32, float64]` and `rank(%w) <= 4` become "float32|float64, rank<=4".
func (s *snapshot) whereSummary(r *drr.Rule, name string) string {
	if r == nil || r.Where == nil {
		return ""
	}
	var parts []string
	for _, c := range r.Where.Constraints {
		for _, e := range conjuncts(c, nil) {
			b, ok := e.(*drr.BinaryExpr)
			if !ok {
				continue
			}
			call, ok := b.X.(*drr.CallExpr)
			if !ok || call.Func == nil || len(call.Args) == 0 {
				continue
			}
			if v, ok := call.Args[0].(*drr.ValueExpr); !ok || v.Name != name {
				continue
			}
			rhs := shorten(s.nodeText(b.Y))
			fn := call.Func.Name
			bi, isBuiltin := rule.LookupBuiltin(fn)
			if !isBuiltin || !bi.TypeQuery {
				continue
			}
			switch {
			case bi.Result == "dtype" && b.Op == "==":
				parts = append(parts, rhs)
			case bi.Result == "dtype" && b.Op == "in":
				if l, ok := b.Y.(*drr.ListExpr); ok {
					var names []string
					for _, x := range l.Elems {
						names = append(names, s.nodeText(x))
					}
					parts = append(parts, strings.Join(names, "|"))
				}
			case bi.Result != "dtype" && len(bi.Params) == 1:
				parts = append(parts, fn+b.Op+rhs)
			case bi.Result != "dtype" && len(bi.Params) == 2 && len(call.Args) == 2:
				parts = append(parts, fn+"("+s.nodeText(call.Args[1])+")"+b.Op+rhs)
			}
		}
	}
	return strings.Join(parts, ", ")
}
