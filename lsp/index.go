package lsp

import (
	"sort"
	"strings"

	"github.com/pirdrr/drr/drr"
)

// The symbol index: every occurrence of a name in a document — values, holes, labels and family variables,
// which a rule scopes, and families, natives and rules, which the file (and its imports) scopes — with where it
// is and what it does there. Definition, references, rename, highlights, hover and inlay hints read it.

// symKind is what a name names.
type symKind uint8

const (
	symValue     symKind = iota // %x
	symHole                     // $h
	symLabel                    // @l
	symFamilyVar                // C, bound by `for C in conv`
	symFamily                   // family conv
	symNative                   // native constraint aligned
	symRule                     // rule conv_bn
	symParam                    // param sm_version: declared at file level, read as $sm_version
)

// sigil returns the character written before names of the kind ("" for none).
func (k symKind) sigil() string {
	switch k {
	case symValue:
		return "%"
	case symHole:
		return "$"
	case symLabel:
		return "@"
	}
	return ""
}

// noun names the kind for people.
func (k symKind) noun() string {
	return [...]string{"value", "hole", "label", "family variable", "family", "native function", "rule", "parameter"}[k]
}

// ruleScoped reports whether names of the kind are local to a rule.
func (k symKind) ruleScoped() bool { return k <= symFamilyVar }

// role is what an occurrence does.
type role uint8

const (
	roleUse     role = iota
	roleResult       // a result of a match statement: %y = …
	roleOperand      // an operand of a match statement (binds an input of the pattern)
	roleBind         // a $hole in a match block (attribute, dimension, dtype, type)
	roleAssign       // a result of a rewrite assignment
	roleDecl         // the declaration of a family, native, rule, family variable or label
)

// occurrence is one occurrence of a name.
type occurrence struct {
	kind       symKind
	name       string // without the sigil
	start, end int    // byte offsets of the name's token, sigil included
	role       role
	rule       *drr.Rule // the enclosing rule (nil outside rules)
	node       drr.Node
}

// nameStart returns the offset of the name after the sigil (a parameter has its $ where rules read it, not where
// it is declared).
func (o *occurrence) nameStart() int {
	if o.kind == symParam && o.role != roleDecl {
		return o.start + 1
	}
	return o.start + len(o.kind.sigil())
}

// index is the occurrences of a document, by offset.
type index struct {
	occs []*occurrence
}

// buildIndex indexes the names of f (text is its source).
func buildIndex(f *drr.File, text string) *index {
	b := &indexBuilder{text: text, natives: map[string]bool{}}
	if f == nil {
		return &index{}
	}
	for _, n := range f.Natives {
		if n.Name != nil {
			b.natives[n.Name.Name] = true
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *drr.Family:
			b.add(symFamily, d.Name, roleDecl, d)
			drr.Inspect(d.Set, func(n drr.Node) bool {
				if r, ok := n.(*drr.FamilyRef); ok {
					b.add(symFamily, r.Name, roleUse, r)
				}
				return true
			})
		case *drr.Native:
			b.add(symNative, d.Name, roleDecl, d)
		case *drr.ParamDecl:
			b.add(symParam, d.Name, roleDecl, d)
		case *drr.Rule:
			b.rule(d)
		}
	}
	sort.SliceStable(b.occs, func(i, j int) bool { return b.occs[i].start < b.occs[j].start })
	return &index{occs: b.occs}
}

type indexBuilder struct {
	text    string
	natives map[string]bool
	occs    []*occurrence
	cur     *drr.Rule
	vars    map[string]bool // family variables of the current rule
	holes   map[string]bool // holes the current rule's match binds
}

// add records an identifier node (no sigil in its name, the sigil in its span for labels).
func (b *indexBuilder) add(k symKind, id *drr.Ident, r role, node drr.Node) {
	if id == nil {
		return
	}
	b.occs = append(b.occs, &occurrence{kind: k, name: id.Name, start: id.Pos().Offset, end: id.End().Offset,
		role: r, rule: b.cur, node: node})
}

// addAt records a name written with its sigil at offset start.
func (b *indexBuilder) addAt(k symKind, name string, start int, r role, node drr.Node) {
	if name == "" || start < 0 {
		return
	}
	b.occs = append(b.occs, &occurrence{kind: k, name: name, start: start, end: start + len(k.sigil()) + len(name),
		role: r, rule: b.cur, node: node})
}

func (b *indexBuilder) rule(r *drr.Rule) {
	b.cur, b.vars, b.holes = r, map[string]bool{}, map[string]bool{}
	b.add(symRule, r.Name, roleDecl, r)
	for _, f := range r.Fors {
		for _, n := range f.Names {
			b.add(symFamilyVar, n, roleDecl, f)
			b.vars[n.Name] = true
		}
		b.add(symFamily, f.Family, roleUse, f)
	}
	if r.Match != nil {
		drr.Inspect(r.Match, func(n drr.Node) bool { return b.node(n, true) })
	}
	if r.Where != nil {
		drr.Inspect(r.Where, func(n drr.Node) bool { return b.node(n, false) })
	}
	if r.Rewrite != nil {
		drr.Inspect(r.Rewrite, func(n drr.Node) bool { return b.node(n, false) })
	}
	b.cur, b.vars, b.holes = nil, nil, nil
}

// hole records a $name: a hole of the rule, or, outside the match where the match binds no hole of that name, a
// rule-set parameter (declared in this file or an imported one; the checker reports a name that is neither).
func (b *indexBuilder) hole(name string, pos int, r role, node drr.Node, inMatch bool) {
	if inMatch {
		b.holes[name] = true
	} else if !b.holes[name] {
		b.occs = append(b.occs, &occurrence{kind: symParam, name: name, start: pos, end: pos + 1 + len(name),
			role: roleUse, rule: b.cur, node: node})
		return
	}
	b.addAt(symHole, name, pos, r, node)
}

// node records the names of one node of a rule's block (match: inMatch).
func (b *indexBuilder) node(n drr.Node, inMatch bool) bool {
	pos := n.Pos().Offset
	hole := roleUse
	if inMatch {
		hole = roleBind
	}
	switch n := n.(type) {
	case *drr.PatternStmt:
		if n.Label != nil {
			b.add(symLabel, n.Label, roleDecl, n)
			b.occs[len(b.occs)-1].name = n.Label.Name
		}
	case *drr.Result:
		if n.Kind == drr.ResultValue {
			r := roleAssign
			if inMatch {
				r = roleResult
			}
			b.addAt(symValue, n.Name, pos, r, n)
		}
	case *drr.ValueOperand:
		b.addAt(symValue, n.Name, pos, roleOperand, n)
	case *drr.VariadicOperand:
		b.addAt(symValue, n.Name, pos, roleOperand, n)
	case *drr.ValueExpr:
		b.addAt(symValue, n.Name, pos, roleUse, n)
	case *drr.TypeOf:
		if i := strings.Index(b.text[pos:n.End().Offset], "%"+n.Value); i >= 0 {
			b.addAt(symValue, n.Value, pos+i, roleUse, n)
		}
	case *drr.HoleExpr:
		b.hole(n.Name, pos, hole, n, inMatch)
	case *drr.RestAttrs:
		b.hole(n.Name, pos, hole, n, inMatch)
	case *drr.Dim:
		if n.Kind == drr.DimHole {
			b.hole(n.Text, pos, hole, n, inMatch)
		}
	case *drr.Dtype:
		if n.Kind == drr.DtypeHole {
			b.hole(n.Name, pos, hole, n, inMatch)
		}
	case *drr.HoleType:
		b.hole(n.Name, pos, hole, n, inMatch)
	case *drr.LabelExpr:
		b.addAt(symLabel, n.Name, pos, roleUse, n)
	case *drr.OpName:
		if n.IsBare() {
			switch {
			case b.vars[n.Name]:
				b.occs = append(b.occs, &occurrence{kind: symFamilyVar, name: n.Name, start: pos, end: n.End().Offset, rule: b.cur, node: n})
			case b.natives[n.Name]:
				b.occs = append(b.occs, &occurrence{kind: symNative, name: n.Name, start: pos, end: n.End().Offset, rule: b.cur, node: n})
			}
		}
	case *drr.NameExpr:
		if b.vars[n.Name] {
			b.occs = append(b.occs, &occurrence{kind: symFamilyVar, name: n.Name, start: pos, end: n.End().Offset, rule: b.cur, node: n})
		}
	}
	return true
}

// at returns the occurrence whose name contains byte offset off (a cursor just after a name is on it), or nil.
func (ix *index) at(off int) *occurrence {
	i := sort.Search(len(ix.occs), func(i int) bool { return ix.occs[i].start > off })
	for k := i - 1; k >= 0 && k >= i-2; k-- {
		if o := ix.occs[k]; o.start <= off && off <= o.end {
			return o
		}
	}
	return nil
}

// refs returns every occurrence of the symbol o names, in source order.
func (ix *index) refs(o *occurrence) []*occurrence {
	var out []*occurrence
	for _, x := range ix.occs {
		if x.kind == o.kind && x.name == o.name && (!o.kind.ruleScoped() || x.rule == o.rule) {
			out = append(out, x)
		}
	}
	return out
}

// def returns the occurrence that binds the symbol o names in this document, or nil (a family or native of an
// imported file). A value is bound by the match statement whose result it is, else by its first occurrence as an
// operand of the match block (an input of the pattern), else by the rewrite statement that assigns it; a hole by
// its first occurrence in the match block.
func (ix *index) def(o *occurrence) *occurrence {
	refs := ix.refs(o)
	for _, want := range []role{roleDecl, roleResult, roleOperand, roleBind, roleAssign} {
		for _, x := range refs {
			if x.role == want {
				return x
			}
		}
	}
	return nil
}

// ruleAtOffset returns the rule of f that contains byte offset off, or nil.
func ruleAtOffset(f *drr.File, off int) *drr.Rule {
	for _, n := range drr.PathAt(f, off) {
		if r, ok := n.(*drr.Rule); ok {
			return r
		}
	}
	return nil
}
