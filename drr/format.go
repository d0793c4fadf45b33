package drr

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Format prints f in canonical layout (what `drrc fmt` writes):
//
//   - two-space indentation inside rules and blocks, one statement per line;
//   - rule clauses in the order benefit, labels, for…, match, where, rewrite;
//   - canonical spacing: `%y = pd_op.conv2d(%x, %w) {strides: $s, groups: 1}`;
//   - the author's line breaks inside a statement are kept, as gofmt keeps
//     them: after an opening bracket ( [ { and after a ',' in operand
//     lists, attribute maps, lists and arguments, before the closing
//     bracket, and after an operator or '?' ':' inside parentheses (where a
//     newline does not end the statement). Continuation lines are indented
//     four columns for each line that opened a bracket still open; a
//     closing bracket that starts a line goes back to the indentation of
//     the line that opened it, and the line before it ends with ',';
//   - a line longer than 120 columns (maxWidth; trailing comments not
//     counted) breaks after a ',' or an opening bracket of the outermost
//     list around the text that does not fit, as late as the line allows,
//     until it fits; a signature `: (…) -> …` keeps the author's breaks but
//     is not broken to shorten a line (pasted printed PIR stays greppable);
//   - op names unquoted when they are plain dotted identifiers, quoted
//     otherwise; a pasted printed-PIR line loses the parentheses around its
//     results, the blank before '(' and an empty `{}` attribute map, while
//     tagged literals, attribute order and the signature are kept;
//   - comments stay where they were: full-line comments before the item
//     they precede, end-of-line comments after it (aligned with those of
//     adjacent lines); a comment inside a statement stays at the end of its
//     line, or on its own line, where the statement breaks (it forces the
//     break), and is moved above the statement only where the line cannot
//     break (`%x // c` before `: type`);
//   - at most one blank line is kept between items; none at the start or
//     end of a block or inside a statement.
//
// Format is idempotent: formatting the result of Parse(Format(f)) again
// yields the same bytes.
//
// Declarations are printed in the order of f.Decls; a File built by hand
// with an empty Decls prints its Imports, Families, Natives, Params and Rules, in
// that order. Every node must have its required fields (names, op names,
// keys) set. A tree built by hand has no positions, hence no line breaks
// of its own: only lines longer than 120 columns break. Format walks
// expressions recursively: the trees Parse builds are at most MaxNesting
// brackets and rule.MaxExprDepth levels deep, and so must a tree built by
// hand be.
func Format(f *File) []byte {
	p := &printer{docs: map[*Comment]bool{}}
	decls := f.Decls
	if len(decls) == 0 {
		for _, d := range f.Imports {
			decls = append(decls, d)
		}
		for _, d := range f.Families {
			decls = append(decls, d)
		}
		for _, d := range f.Natives {
			decls = append(decls, d)
		}
		for _, d := range f.Params {
			decls = append(decls, d)
		}
		for _, d := range f.Rules {
			decls = append(decls, d)
		}
	}
	for _, d := range decls {
		if g := declDoc(d); g != nil {
			for _, c := range g.List {
				p.docs[c] = true
			}
		}
	}
	var cmts []*Comment
	for _, c := range f.Comments {
		if !p.docs[c] {
			cmts = append(cmts, c)
		}
	}
	items := make([]*fitem, 0, len(decls))
	for _, d := range decls {
		items = append(items, p.declItem(d))
	}
	_, closing := distribute(0, items, cmts)
	p.fresh = true
	for _, it := range items {
		p.item(it)
	}
	for _, c := range closing {
		p.gap(int(c.line))
		p.emit(c.Text)
		p.lastLine = int(c.line)
	}
	return p.bytes()
}

func declDoc(d Decl) *CommentGroup {
	switch d := d.(type) {
	case *Family:
		return d.Doc
	case *Native:
		return d.Doc
	case *ParamDecl:
		return d.Doc
	case *Rule:
		return d.Doc
	}
	return nil
}

// outLine is one output line: indentation (block levels, then pad
// columns for a continuation line), code and an end-of-line comment.
type outLine struct {
	indent  int
	pad     int
	code    string
	comment string
	blank   bool
}

type printer struct {
	out      []outLine
	indent   int
	lastLine int  // source line of the last printed source element
	fresh    bool // at the start of a block or file: no blank line
	docs     map[*Comment]bool
}

// fitem is a line-level item (declaration, clause or statement) together
// with the comments that belong to it.
type fitem struct {
	span      Span
	doc       *CommentGroup
	container bool       // a rule or block: inner comments are distributed inside
	leading   []*Comment // full-line comments before the item
	inner     []*Comment // comments inside the item's span
	trailing  *Comment   // end-of-line comment on the item's last line
	print     func(it *fitem)
}

// distribute assigns comments to items by position. Items may be listed
// in any order (rule clauses are printed in canonical order); comments are
// matched against the items sorted by position. It returns the comment on
// the container's opening line (openLine, 0 for none) and the comments
// after the last item.
func distribute(openLine int, items []*fitem, cmts []*Comment) (open *Comment, closing []*Comment) {
	sorted := append([]*fitem(nil), items...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].span.off < sorted[j].span.off })
	for _, c := range cmts {
		off := c.off
		// k: the last item starting at or before the comment.
		k := sort.Search(len(sorted), func(i int) bool { return sorted[i].span.off > off }) - 1
		switch {
		case k >= 0 && off < sorted[k].span.end:
			sorted[k].inner = append(sorted[k].inner, c)
		case k >= 0 && sorted[k].span.endLine == c.line && sorted[k].trailing == nil:
			sorted[k].trailing = c
		case k < 0 && openLine > 0 && int(c.line) == openLine && open == nil:
			open = c
		case k+1 < len(sorted):
			sorted[k+1].leading = append(sorted[k+1].leading, c)
		default:
			closing = append(closing, c)
		}
	}
	return open, closing
}

// emit appends a code line at the current indentation.
func (p *printer) emit(code string) {
	p.out = append(p.out, outLine{indent: p.indent, code: code})
	p.fresh = false
}

// gap emits a blank line if the source had one before line.
func (p *printer) gap(line int) {
	if !p.fresh && p.lastLine > 0 && line > p.lastLine+1 {
		p.out = append(p.out, outLine{blank: true})
	}
}

// item prints an item with its comments.
func (p *printer) item(it *fitem) {
	for _, c := range it.leading {
		p.gap(int(c.line))
		p.emit(c.Text)
		p.lastLine = int(c.line)
	}
	if it.doc != nil {
		for _, c := range it.doc.List {
			p.gap(int(c.line))
			p.emit(c.Text)
			p.lastLine = int(c.line)
		}
	}
	p.gap(int(it.span.line))
	it.print(it)
	if it.trailing != nil {
		last := &p.out[len(p.out)-1]
		if last.comment == "" && !last.blank {
			last.comment = it.trailing.Text
		} else {
			p.emit(it.trailing.Text)
		}
	}
	p.lastLine = int(it.span.endLine)
}

// container prints `header {`, the items (distributing the comments inner
// among them) and `}`.
func (p *printer) container(header string, openLine int, items []*fitem, inner []*Comment) {
	open, closing := distribute(openLine, items, inner)
	if len(items) == 0 && len(closing) == 0 && open == nil {
		p.emit(header + " {}")
		return
	}
	p.emit(header + " {")
	if open != nil {
		p.out[len(p.out)-1].comment = open.Text
	}
	p.indent++
	p.fresh = true
	p.lastLine = openLine
	for _, it := range items {
		p.item(it)
	}
	for _, c := range closing {
		p.gap(int(c.line))
		p.emit(c.Text)
		p.lastLine = int(c.line)
	}
	p.indent--
	p.emit("}")
}

// simple returns an item printed as one line of text; comments inside it
// are printed above it.
func (p *printer) simple(sp Span, text string) *fitem {
	return &fitem{span: sp, print: func(it *fitem) {
		for _, c := range it.inner {
			p.emit(c.Text)
		}
		p.emit(text)
	}}
}

// stmt returns an item printed as a doc, on as many lines as the doc's
// layout takes; comments inside it stay at the place of their line break,
// or are printed above it where the line cannot break.
func (p *printer) stmt(sp Span, d *doc) *fitem {
	return &fitem{span: sp, print: func(it *fitem) {
		for _, c := range d.attach(it.inner) {
			p.emit(c.Text)
		}
		for _, l := range d.layout(2 * p.indent) {
			l.indent = p.indent
			p.out = append(p.out, l)
		}
		p.fresh = false
	}}
}

func (p *printer) declItem(d Decl) *fitem {
	switch d := d.(type) {
	case *Import:
		return p.simple(d.Span, "import "+d.Path.Text)
	case *Family:
		it := p.stmt(d.Span, familyDoc(d))
		it.doc = d.Doc
		return it
	case *Native:
		it := p.simple(d.Span, nativeString(d))
		it.doc = d.Doc
		return it
	case *ParamDecl:
		it := p.stmt(d.Span, paramDeclDoc(d))
		it.doc = d.Doc
		return it
	case *Rule:
		return &fitem{span: d.Span, doc: d.Doc, container: true, print: func(it *fitem) {
			p.container("rule "+d.Name.Name, int(d.line), p.ruleItems(d), it.inner)
		}}
	}
	return p.simple(d.span(), "")
}

func (p *printer) ruleItems(r *Rule) []*fitem {
	var items []*fitem
	if r.Benefit != nil {
		items = append(items, p.simple(r.Benefit.Span, "benefit "+r.Benefit.Value.Text))
	}
	if r.Labels != nil {
		names := make([]string, len(r.Labels.Names))
		for i, n := range r.Labels.Names {
			names[i] = n.Name
		}
		items = append(items, p.simple(r.Labels.Span, "labels "+strings.Join(names, ", ")))
	}
	for _, f := range r.Fors {
		names := make([]string, len(f.Names))
		for i, n := range f.Names {
			names[i] = n.Name
		}
		items = append(items, p.simple(f.Span, "for "+strings.Join(names, ", ")+" in "+f.Family.Name))
	}
	if m := r.Match; m != nil {
		items = append(items, &fitem{span: m.Span, container: true, print: func(it *fitem) {
			stmts := make([]*fitem, len(m.Stmts))
			for i, s := range m.Stmts {
				stmts[i] = p.stmt(s.Span, patternStmtDoc(s))
			}
			p.container("match", int(m.line), stmts, it.inner)
		}})
	}
	if w := r.Where; w != nil {
		items = append(items, &fitem{span: w.Span, container: true, print: func(it *fitem) {
			stmts := make([]*fitem, len(w.Constraints))
			for i, c := range w.Constraints {
				stmts[i] = p.stmt(c.span(), constraintDoc(c))
			}
			p.container("where", int(w.line), stmts, it.inner)
		}})
	}
	if rw := r.Rewrite; rw != nil {
		items = append(items, &fitem{span: rw.Span, container: true, print: func(it *fitem) {
			stmts := make([]*fitem, len(rw.Stmts))
			for i, s := range rw.Stmts {
				stmts[i] = p.stmt(s.span(), rewriteStmtDoc(s))
			}
			p.container("rewrite", int(rw.line), stmts, it.inner)
		}})
	}
	return items
}

// bytes renders the output lines, aligning the end-of-line comments of
// consecutive lines.
func (p *printer) bytes() []byte {
	lines := p.out
	// Drop trailing blank lines.
	for len(lines) > 0 && lines[len(lines)-1].blank {
		lines = lines[:len(lines)-1]
	}
	texts := make([]string, len(lines))
	for i, l := range lines {
		if !l.blank {
			texts[i] = strings.Repeat("  ", l.indent) + strings.Repeat(" ", l.pad) + l.code
		}
	}
	for i := 0; i < len(lines); {
		if lines[i].comment == "" {
			i++
			continue
		}
		j := i
		width := 0
		for j < len(lines) && lines[j].comment != "" {
			width = max(width, utf8.RuneCountInString(texts[j]))
			j++
		}
		for k := i; k < j; k++ {
			texts[k] += strings.Repeat(" ", width-utf8.RuneCountInString(texts[k])+1) + lines[k].comment
		}
		i = j
	}
	var b strings.Builder
	for _, t := range texts {
		b.WriteString(t)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}
