package lsp

import (
	"context"
	"fmt"
	"strings"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/lsp/protocol"
)

func init() {
	methods[protocol.MethodHover] = on(hover)
}

// hover describes what is under the cursor: an op (its schema), an attribute name (its kind and default), a
// builtin (its signature and doc), a value or hole (how it is bound and what is known of it), a family (its
// members), a family variable, a native, a rule, a trait.
func hover(s *Server, ctx context.Context, p *protocol.TextDocumentPositionParams) (any, error) {
	snap, err := s.snapshot(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	off := snap.lines.offset(p.Position)
	if o := snap.index().at(off); o != nil {
		if md := snap.symbolMarkdown(o); md != "" {
			r := snap.lines.rng(o.start, o.end)
			return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: md}, Range: &r}, nil
		}
	}
	f, _ := snap.parsed()
	path := drr.PathAt(f, off)
	if len(path) == 0 {
		return nil, nil
	}
	leaf := path[len(path)-1]
	md := ""
	switch n := leaf.(type) {
	case *drr.OpName:
		md = snap.opNameMarkdown(path, n)
	case *drr.Ident:
		md = snap.identMarkdown(path, n)
	case *drr.EachOperand:
		md = eachMarkdown(n)
	}
	if md == "" {
		return nil, nil
	}
	r := snap.lines.rng(leaf.Pos().Offset, leaf.End().Offset)
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: md}, Range: &r}, nil
}

// ruleOf returns the rule on a path, or nil.
func ruleOf(path []drr.Node) *drr.Rule {
	for _, n := range path {
		if r, ok := n.(*drr.Rule); ok {
			return r
		}
	}
	return nil
}

// opNameMarkdown documents an op name: an op of the catalog, or a builtin function called by that name.
func (s *snapshot) opNameMarkdown(path []drr.Node, n *drr.OpName) string {
	if !n.IsBare() {
		if sc := s.doc.srv.opts.Context.Schema(n.Name); sc != nil {
			return opMarkdown(sc)
		}
		return fmt.Sprintf("`%s`: not in the op catalog (an unregistered op)", n.Name)
	}
	if b, ok := lookupBuiltin(n.Name); ok {
		return b.markdown()
	}
	return ""
}

// identMarkdown documents an identifier that is not a symbol: an attribute name, a trait, a label of the rule.
func (s *snapshot) identMarkdown(path []drr.Node, id *drr.Ident) string {
	if len(path) < 2 {
		return ""
	}
	switch path[len(path)-2].(type) {
	case *drr.AttrEntry:
		var opName *drr.OpName
		for i := len(path) - 3; i >= 0 && opName == nil; i-- {
			switch n := path[i].(type) {
			case *drr.OpPattern:
				opName = n.Name
			case *drr.CallExpr:
				opName = n.Func
			}
		}
		if opName == nil {
			return ""
		}
		sc := s.schemaOf(ruleOf(path), opName.Name)
		if sc == nil {
			return ""
		}
		if a := sc.Attr(id.Name); a != nil {
			return attrMarkdown(sc, a)
		}
		if _, common := commonAttrs[id.Name]; common {
			return fmt.Sprintf("attribute `%s`: one every op may carry", id.Name)
		}
	case *drr.FamilyTrait:
		if doc, ok := traitDoc[id.Name]; ok {
			return fmt.Sprintf("trait `%s`: %s", id.Name, doc)
		}
	case *drr.Labels:
		return fmt.Sprintf("label `%s`: `drrc apply -disable %s` turns off the rules that carry it", id.Name, id.Name)
	}
	return ""
}

// commonAttrs are the attributes every op may carry (the checker accepts them on any op).
var commonAttrs = map[string]struct{}{
	"stop_gradient": {}, "persistable": {}, "struct_name": {}, "op_callstack": {}, "op_role": {},
	"op_dist_attr": {}, "kernel_name": {}, "op_name": {}, "kernel_key": {},
}

// symbolMarkdown documents a named symbol.
func (s *snapshot) symbolMarkdown(o *occurrence) string {
	var b strings.Builder
	switch o.kind {
	case symValue:
		vf := s.valueFacts(o.rule, o)
		fmt.Fprintf(&b, "value `%%%s`", o.name)
		if vf.binding != "" {
			b.WriteString(": " + vf.binding)
		}
		b.WriteString("\n")
		if vf.typ != "" {
			fmt.Fprintf(&b, "\n- type: `%s`\n", vf.typ)
		}
		for _, w := range vf.where {
			fmt.Fprintf(&b, "- where `%s`\n", w)
		}
	case symHole:
		hf := s.holeFacts(o.rule, o)
		fmt.Fprintf(&b, "hole `$%s`", o.name)
		if hf.kind != "" {
			b.WriteString(", " + hf.kind)
		}
		if hf.binding != "" {
			b.WriteString(": " + hf.binding)
		}
		b.WriteString("\n")
		for _, w := range hf.where {
			fmt.Fprintf(&b, "- where `%s`\n", w)
		}
	case symLabel:
		fmt.Fprintf(&b, "label `@%s`", o.name)
		if d := s.index().def(o); d != nil {
			if st, ok := d.node.(*drr.PatternStmt); ok && st.Op != nil {
				fmt.Fprintf(&b, ": names the match of %s (line %d)", opLabel(st.Op.Name), s.lines.position(d.start).Line+1)
			}
		}
	case symFamilyVar:
		fmt.Fprintf(&b, "family variable `%s`", o.name)
		if o.rule != nil {
			for _, f := range o.rule.Fors {
				for i, n := range f.Names {
					if n.Name != o.name || f.Family == nil {
						continue
					}
					members := s.familyMembers(f.Family.Name)
					role := "each op"
					if len(f.Names) == 2 && i == 1 {
						role = "the counterpart of each op"
					}
					fmt.Fprintf(&b, ": %s of family `%s`\n\n%s", role, f.Family.Name, memberList(members))
				}
			}
		}
	case symFamily:
		fam, file := s.familyDecl(o.name)
		if fam == nil {
			return fmt.Sprintf("family `%s` (not declared)", o.name)
		}
		members := s.familyMembers(o.name)
		fmt.Fprintf(&b, "family `%s` = `%s`", o.name, shorten(textOf(file, fam.Set, s)))
		if doc := fam.Doc.Text(); doc != "" {
			b.WriteString("\n\n" + doc)
		}
		fmt.Fprintf(&b, "\n\n%s", memberList(members))
	case symNative:
		f, _ := s.parsed()
		for _, n := range f.Natives {
			if n.Name != nil && n.Name.Name == o.name {
				fmt.Fprintf(&b, "```drr\n%s\n```\n", strings.TrimSpace(s.nodeText(n)))
				if doc := n.Doc.Text(); doc != "" {
					b.WriteString("\n" + doc + "\n")
				}
				b.WriteString("\nA Go function a plugin registers under this name.")
			}
		}
	case symParam:
		pd, file := s.paramDecl(o.name)
		if pd == nil {
			return fmt.Sprintf("`$%s`: neither a hole the match binds nor a parameter of the rule set", o.name)
		}
		fmt.Fprintf(&b, "parameter `$%s`: `%s`", o.name, shorten(textOf(file, pd, s)))
		if doc := pd.Doc.Text(); doc != "" {
			b.WriteString("\n\n" + doc)
		}
		fmt.Fprintf(&b, "\n\nA parameter of the rule set: its default unless the caller sets it (`drrc apply -param %s=VALUE`).", o.name)
	case symRule:
		f, _ := s.parsed()
		for _, r := range f.Rules {
			if r.Name != nil && r.Name.Name == o.name {
				fmt.Fprintf(&b, "rule `%s`", o.name)
				if doc := r.Doc.Text(); doc != "" {
					b.WriteString("\n\n" + doc)
				}
				if cr := s.checkedRule(r); cr != nil {
					fmt.Fprintf(&b, "\n\nbenefit %d", cr.Benefit)
					if len(cr.Labels) > 0 {
						b.WriteString(", labels " + strings.Join(cr.Labels, ", "))
					}
				}
				break
			}
		}
	}
	return b.String()
}

// memberList renders the members of a family.
func memberList(members []string) string {
	if len(members) == 0 {
		return "no members"
	}
	const show = 12
	list := members
	more := ""
	if len(list) > show {
		list, more = list[:show], fmt.Sprintf(", … (%d more)", len(members)-show)
	}
	return fmt.Sprintf("%d ops: %s%s", len(members), "`"+strings.Join(list, "`, `")+"`", more)
}

// textOf returns the source text of node n of file f: from the document itself, or read back from the imported
// file.
func textOf(f *drr.File, n drr.Node, s *snapshot) string {
	if f == nil || f.Name == s.doc.name {
		return s.nodeText(n)
	}
	return fmt.Sprintf("%s (in %s)", strings.TrimSpace(s.doc.srv.nodeSource(f, n)), f.Name)
}

// eachMarkdown describes a variadic group, for a hover on its each(min, max): a list group, or a users group when
// the element is a value (each(3, 64) %x as an operand).
func eachMarkdown(n *drr.EachOperand) string {
	if v, ok := n.Elem.(*drr.ValueOperand); ok {
		return fmt.Sprintf("`each(%d, %d) %%%s`: a users group: the op is each of %d to %d users of `%%%s` that read it "+
			"here, collected in program order from the first (no search); its attributes' holes are shared, its other "+
			"values per element (`%%w...` all of them in the rewrite, `[e...]` e per element, `%%parts... = …` and "+
			"`replace %%y... with %%parts...` pairwise; language.md §4.10).", n.Min, n.Max, v.Name, n.Min, n.Max, v.Name)
	}
	return fmt.Sprintf("`each(%d, %d)`: a variadic group: the list holds %d to %d elements, each matching the pattern "+
		"after it. Values first bound in it are bound per element (`%%x...` all of them, `%%x[k]` one; a where line "+
		"naming `%%x` holds for each); holes and values bound outside are shared. The rule is checked once per count "+
		"(language.md §4.9).", n.Min, n.Max, n.Min, n.Max)
}
