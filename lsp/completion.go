package lsp

import (
	"context"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/lsp/protocol"
)

func init() {
	methods[protocol.MethodCompletion] = on(completion)
}

// maxCompletions bounds a completion list; a longer one is marked incomplete, so that the client asks again as
// the user types.
const maxCompletions = 300

// completion proposes what may be written at the cursor: after % the values of the rule, after $ its holes,
// after @ its labels; in an attribute map the attributes of the op not yet written; where an op goes, the ops of
// the catalog and the rule's family variables; in expressions the builtins and natives; after `in` of a for
// clause the families; keywords where a clause or a declaration starts.
func completion(s *Server, ctx context.Context, p *protocol.CompletionParams) (any, error) {
	snap, err := s.snapshot(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	off := snap.lines.offset(p.Position)
	c := contextAt(snap.text, off)
	cb := &completer{snap: snap, ctx: c, off: off, seen: map[string]bool{}}
	cb.propose()
	items := cb.items
	sort.SliceStable(items, func(i, j int) bool { return items[i].SortText < items[j].SortText })
	list := &protocol.CompletionList{Items: items}
	if len(items) > maxCompletions {
		list.Items, list.IsIncomplete = items[:maxCompletions], true
	}
	if list.Items == nil {
		list.Items = []protocol.CompletionItem{}
	}
	return list, nil
}

type completer struct {
	snap  *snapshot
	ctx   *textContext
	off   int
	items []protocol.CompletionItem
	seen  map[string]bool
}

var (
	forInRe      = regexp.MustCompile(`^\s*for\s+\w+(\s*,\s*\w+)?\s+in\s+$`)
	familyDeclRe = regexp.MustCompile(`^family\s+\w+\s*=\s*(.*-\s*)?$`)
	traitRe      = regexp.MustCompile(`trait\s*\(\s*$`)
	attrKeyRe    = regexp.MustCompile(`(\w+)\s*:`)
)

func (cb *completer) propose() {
	c := cb.ctx
	lineStart := strings.LastIndexByte(cb.snap.text[:c.prefixStart], '\n') + 1
	before := cb.snap.text[lineStart:c.prefixStart]
	if c.sigil != 0 {
		before = before[:len(before)-1]
	}
	switch {
	case c.sigil == '%':
		cb.symbols(symValue)
		return
	case c.sigil == '$':
		cb.symbols(symHole)
		if c.block() != "match" {
			cb.params()
		}
		return
	case c.sigil == '@':
		cb.symbols(symLabel)
		return
	case traitRe.MatchString(before):
		for _, t := range ir.TraitNames() {
			cb.add(protocol.CompletionItem{Label: t, Kind: protocol.CompletionEnum, Detail: "trait",
				Documentation: markdown(traitDoc[t])}, "1")
		}
		return
	case forInRe.MatchString(before):
		cb.families()
		return
	}
	top := c.top()
	switch {
	case c.declKeyword == "family" && (top == nil && familyDeclRe.MatchString(before) || top != nil && top.open == '['):
		if top == nil {
			cb.families()
			cb.keyword("trait", "a trait: every op of the catalog that has it")
		}
		cb.ops(nil)
		return
	case top == nil:
		if strings.TrimSpace(before) == "" {
			for _, kw := range []string{"rule", "family", "native", "param", "import"} {
				cb.keyword(kw, "declaration")
			}
		}
		return
	case top.open == '{' && top.attrsOf != "":
		cb.attrMap(top)
		return
	case top.open == '{' && top.word != "" && top.word != "match" && top.word != "where" && top.word != "rewrite" && c.declKeyword == "rule":
		if strings.TrimSpace(before) == "" {
			for _, kw := range []string{"benefit", "labels", "for", "match", "where", "rewrite"} {
				cb.keyword(kw, "clause")
			}
		}
		return
	}
	// Expressions, operands and statements.
	switch c.block() {
	case "match":
		cb.ops(cb.ruleAt())
		cb.symbols(symValue)
		if top.open == '(' {
			cb.keyword("either", "operands in either order: either(%a, %b)")
			cb.keyword("null", "an absent optional operand")
			cb.keyword("each", "a users group: the op is each of its value's users, pd_op.matmul(each(3, 64) %x, %w)")
		}
		if top.open == '[' {
			cb.keyword("each", "a variadic group, the list's only element: [each(1, 6) pd_op.relu(%x)]")
		}
	case "where":
		cb.functions()
		cb.symbols(symValue)
		cb.symbols(symHole)
		cb.params()
		for _, kw := range []string{"in", "true", "false"} {
			cb.keyword(kw, "")
		}
	case "rewrite":
		if top.open == '{' && strings.TrimSpace(before) == "" {
			cb.keyword("replace", "replace %v with …")
			cb.keyword("erase", "erase @label")
		}
		cb.ops(cb.ruleAt())
		cb.functions()
		cb.symbols(symValue)
		cb.symbols(symHole)
		cb.params()
	}
}

// params proposes the rule-set parameters (this file's and, once the check has read them, its imports'), with
// their kind, default and doc.
func (cb *completer) params() {
	if cb.ruleAt() == nil {
		return
	}
	for _, pd := range cb.snap.paramDecls() {
		if pd.Name == nil || pd.Type == nil {
			continue
		}
		it := protocol.CompletionItem{Label: pd.Name.Name, Kind: protocol.CompletionConstant,
			Detail: "parameter: " + pd.Type.Name, Documentation: markdown(pd.Doc.Text())}
		if cb.ctx.sigil == 0 {
			it.Label = "$" + pd.Name.Name
		}
		cb.add(it, "0")
	}
}

// replaceRange is the range completion items replace: the name typed so far, sigil excluded.
func (cb *completer) replaceRange() protocol.Range {
	return cb.snap.lines.rng(cb.ctx.prefixStart, cb.off)
}

// add appends an item (once per label), sorted by group then label; its text replaces the name typed so far.
func (cb *completer) add(it protocol.CompletionItem, group string) {
	if cb.seen[it.Label] {
		return
	}
	if cb.ctx.prefix != "" && !strings.Contains(strings.ToLower(it.Label), strings.ToLower(cb.ctx.prefix)) {
		return
	}
	cb.seen[it.Label] = true
	text := it.Label
	if it.TextEdit != nil {
		text = it.TextEdit.NewText
	}
	it.TextEdit = &protocol.TextEdit{Range: cb.replaceRange(), NewText: text}
	if it.SortText == "" {
		// Names that start with what was typed come first.
		rank := "1"
		if strings.HasPrefix(it.Label, cb.ctx.prefix) {
			rank = "0"
		}
		it.SortText = group + rank + it.Label
	}
	cb.items = append(cb.items, it)
}

func (cb *completer) keyword(kw, detail string) {
	cb.add(protocol.CompletionItem{Label: kw, Kind: protocol.CompletionKeyword, Detail: detail}, "5")
}

// ruleAt returns the rule the cursor is in (by the syntax tree of the parse), or nil.
func (cb *completer) ruleAt() *drr.Rule {
	f, _ := cb.snap.parsed()
	return ruleAtOffset(f, cb.ctx.prefixStart)
}

// symbols proposes the names of one kind bound in the rule at the cursor.
func (cb *completer) symbols(k symKind) {
	r := cb.ruleAt()
	if r == nil {
		return
	}
	ix := cb.snap.index()
	at := ix.at(cb.off)
	block := cb.ctx.block()
	for _, o := range ix.occs {
		if o.kind != k || o.rule != r || o == at && o.end == cb.off && len(ix.refs(o)) == 1 {
			continue // not this rule's, or the name being typed and nothing else
		}
		if d := ix.def(o); d != nil && d.role == roleAssign && (block != "rewrite" || d.start > cb.off) {
			continue // a value the rewrite builds, later or in another block: not bound here
		}
		it := protocol.CompletionItem{Label: o.name, Kind: protocol.CompletionVariable, Detail: k.noun()}
		if cb.ctx.sigil == 0 {
			it.Label = k.sigil() + o.name
		}
		if d := cb.snap.index().def(o); d != nil {
			it.Detail = k.noun() + ", line " + itoa(cb.snap.lines.position(d.start).Line+1)
		}
		cb.add(it, "0")
	}
}

// families proposes the families declared in the file (imported ones once the check has read them).
func (cb *completer) families() {
	for _, fam := range cb.snap.familyDecls() {
		cb.add(protocol.CompletionItem{Label: fam.Name.Name, Kind: protocol.CompletionEnum, Detail: "family",
			Documentation: markdown(fam.Doc.Text())}, "0")
	}
}

// ops proposes the ops of the catalog and the family variables of rule r.
func (cb *completer) ops(r *drr.Rule) {
	if r != nil {
		for _, f := range r.Fors {
			for _, n := range f.Names {
				detail := "family variable"
				if f.Family != nil {
					detail += " over " + f.Family.Name
				}
				cb.add(protocol.CompletionItem{Label: n.Name, Kind: protocol.CompletionTypeParm, Detail: detail}, "1")
			}
		}
	}
	dotted := strings.Contains(cb.ctx.prefix, ".")
	for _, s := range cb.snap.doc.srv.opts.Context.Schemas() {
		it := protocol.CompletionItem{Label: s.Name, Kind: protocol.CompletionFunction, Detail: opSignature(s)}
		if !dotted {
			it.FilterText = shortName(s.Name) + " " + s.Name
		}
		cb.add(it, "2")
	}
}

// functions proposes the builtins and the natives declared in the file.
func (cb *completer) functions() {
	for _, b := range builtins() {
		sig, _ := b.signature()
		cb.add(protocol.CompletionItem{Label: b.Name, Kind: protocol.CompletionFunction, Detail: sig,
			Documentation: markdown(b.Doc)}, "3")
	}
	f, _ := cb.snap.parsed()
	if f == nil {
		return
	}
	for _, n := range f.Natives {
		if n.Name != nil {
			cb.add(protocol.CompletionItem{Label: n.Name.Name, Kind: protocol.CompletionFunction,
				Detail: "native " + n.Kind.String(), Documentation: markdown(n.Doc.Text())}, "3")
		}
	}
}

// attrMap proposes, in the attribute map of an op, the op's attributes not yet written (at a key), or the
// rule's holes and values (at a value).
func (cb *completer) attrMap(f *frame) {
	text := cb.snap.text
	item := text[f.itemOff:cb.ctx.prefixStart]
	if strings.Contains(item, ":") {
		cb.symbols(symHole)
		if cb.ctx.block() == "rewrite" {
			cb.functions()
			cb.symbols(symValue)
		}
		return
	}
	schema := cb.schemaOf(f.attrsOf)
	if schema == nil {
		return
	}
	written := map[string]bool{}
	for _, m := range attrKeyRe.FindAllStringSubmatch(text[f.off:cb.ctx.prefixStart], -1) {
		written[m[1]] = true
	}
	for i, a := range schema.Attrs {
		if written[a.Name] {
			continue
		}
		detail := a.Type.String()
		if def := attrDefault(a); def != "" {
			detail += " = " + def
		}
		cb.add(protocol.CompletionItem{Label: a.Name, Kind: protocol.CompletionProperty, Detail: detail,
			Documentation: markdown(attrMarkdown(schema, &schema.Attrs[i])),
			TextEdit:      &protocol.TextEdit{NewText: a.Name + ": "},
			SortText:      "0" + string(rune('A'+i/26)) + string(rune('A'+i%26))}, "0")
	}
}

// schemaOf returns the schema of the op a call names: a dotted or quoted op name, or a family variable of the
// rule at the cursor (its family's first member).
func (cb *completer) schemaOf(name string) *ir.OpSchema {
	return cb.snap.schemaOf(cb.ruleAt(), strings.Trim(name, `"`))
}

// schemaOf returns the schema of an op name written in rule r: a dotted name, or a family variable of r (the
// schema of its family's first member).
func (s *snapshot) schemaOf(r *drr.Rule, name string) *ir.OpSchema {
	ctx := s.doc.srv.opts.Context
	if strings.Contains(name, ".") {
		return ctx.Schema(name)
	}
	if r == nil {
		return nil
	}
	for _, f := range r.Fors {
		for i, n := range f.Names {
			if n.Name == name && f.Family != nil {
				if members := s.familyMembers(f.Family.Name); len(members) > 0 {
					m := ctx.Schema(members[0])
					if i == 1 && m != nil && m.Counterpart != nil {
						m = m.Counterpart // for X_, X in fam: X is the counterpart
					}
					return m
				}
			}
		}
	}
	return nil
}

func markdown(s string) *protocol.MarkupContent {
	if s == "" {
		return nil
	}
	return &protocol.MarkupContent{Kind: protocol.Markdown, Value: s}
}

func itoa[T ~int | ~uint32 | ~int32](n T) string { return strconv.Itoa(int(n)) }
