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
//   - every statement on one line: wrapped operand lists and attribute maps
//     are joined, and long lines are not wrapped (rules stay greppable and
//     diffs stay line-based);
//   - op names unquoted when they are plain dotted identifiers, quoted
//     otherwise; a pasted printed-PIR line loses the parentheses around its
//     results, the blank before '(' and an empty `{}` attribute map, while
//     tagged literals, attribute order and the signature are kept;
//   - comments stay where they were: full-line comments before the item
//     they precede, end-of-line comments after it (aligned with those of
//     adjacent lines); a comment inside a statement that gets joined onto
//     one line is moved above the statement;
//   - at most one blank line is kept between items; none at the start or
//     end of a block.
//
// Format is idempotent: formatting the result of Parse(Format(f)) again
// yields the same bytes.
//
// Declarations are printed in the order of f.Decls; a File built by hand
// with an empty Decls prints its Imports, Families, Natives and Rules, in
// that order. Every node must have its required fields (names, op names,
// keys) set.
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
	case *Rule:
		return d.Doc
	}
	return nil
}

// outLine is one output line: indentation, code and an end-of-line comment.
type outLine struct {
	indent  int
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
	if !it.container {
		for _, c := range it.inner {
			p.emit(c.Text)
		}
		it.inner = nil
	}
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

// simple returns an item printed as one line of text.
func (p *printer) simple(sp Span, text string) *fitem {
	return &fitem{span: sp, print: func(*fitem) { p.emit(text) }}
}

func (p *printer) declItem(d Decl) *fitem {
	switch d := d.(type) {
	case *Import:
		return p.simple(d.Span, "import "+d.Path.Text)
	case *Family:
		it := p.simple(d.Span, "family "+d.Name.Name+" = "+familyString(d.Set))
		it.doc = d.Doc
		return it
	case *Native:
		it := p.simple(d.Span, nativeString(d))
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
				stmts[i] = p.simple(s.Span, patternStmtString(s))
			}
			p.container("match", int(m.line), stmts, it.inner)
		}})
	}
	if w := r.Where; w != nil {
		items = append(items, &fitem{span: w.Span, container: true, print: func(it *fitem) {
			stmts := make([]*fitem, len(w.Constraints))
			for i, c := range w.Constraints {
				stmts[i] = p.simple(c.span(), exprString(c))
			}
			p.container("where", int(w.line), stmts, it.inner)
		}})
	}
	if rw := r.Rewrite; rw != nil {
		items = append(items, &fitem{span: rw.Span, container: true, print: func(it *fitem) {
			stmts := make([]*fitem, len(rw.Stmts))
			for i, s := range rw.Stmts {
				stmts[i] = p.simple(s.span(), rewriteStmtString(s))
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
			texts[i] = strings.Repeat("  ", l.indent) + l.code
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

// ---------------------------------------------------------------------------
// Declarations

func familyString(e FamilyExpr) string {
	switch e := e.(type) {
	case *FamilyList:
		names := make([]string, len(e.Ops))
		for i, n := range e.Ops {
			names[i] = opNameString(n)
		}
		return "[" + strings.Join(names, ", ") + "]"
	case *FamilyTrait:
		return "trait(" + e.Trait.Name + ")"
	case *FamilyRef:
		return e.Name.Name
	case *FamilyDiff:
		return familyString(e.X) + " - " + familyString(e.Y)
	}
	return ""
}

func nativeString(n *Native) string {
	var b strings.Builder
	b.WriteString("native ")
	b.WriteString(n.Kind.String())
	b.WriteByte(' ')
	b.WriteString(n.Name.Name)
	b.WriteByte('(')
	for i, par := range n.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		if par.Kind == HoleParam {
			b.WriteByte('$')
		} else {
			b.WriteByte('%')
		}
		b.WriteString(par.Name)
		b.WriteString(": ")
		b.WriteString(par.Type.Name)
	}
	b.WriteByte(')')
	if n.Result != nil {
		b.WriteString(" -> ")
		b.WriteString(n.Result.Name)
	}
	return b.String()
}

// opNameString prints an op name: unquoted if it is a plain dotted
// identifier or was written bare, quoted otherwise.
func opNameString(n *OpName) string {
	if !n.Quoted || isPlainDotted(n.Name) {
		return n.Name
	}
	return quote(n.Name)
}

// ---------------------------------------------------------------------------
// Statements

func resultsString(b *strings.Builder, rs []*Result) {
	for i, r := range rs {
		if i > 0 {
			b.WriteString(", ")
		}
		switch r.Kind {
		case ResultValue:
			b.WriteByte('%')
			b.WriteString(r.Name)
		case ResultWildcard:
			b.WriteByte('_')
		case ResultEllipsis:
			b.WriteString("...")
		}
	}
}

func patternStmtString(s *PatternStmt) string {
	var b strings.Builder
	if s.Label != nil {
		b.WriteByte('@')
		b.WriteString(s.Label.Name)
		b.WriteString(" = ")
	}
	if len(s.Results) > 0 {
		resultsString(&b, s.Results)
		b.WriteString(" = ")
	}
	writeOpPattern(&b, s.Op)
	return b.String()
}

func writeOpPattern(b *strings.Builder, op *OpPattern) {
	b.WriteString(opNameString(op.Name))
	b.WriteByte('(')
	for i, o := range op.Operands {
		if i > 0 {
			b.WriteString(", ")
		}
		writeOperand(b, o)
	}
	b.WriteByte(')')
	writeAttrMap(b, op.Attrs)
	if op.Sig != nil {
		if op.Sig.NoInputs {
			b.WriteString(" ->")
		} else {
			b.WriteString(" : (")
			writeTypes(b, op.Sig.Inputs)
			b.WriteString(") ->")
		}
		if len(op.Sig.Outputs) > 0 {
			b.WriteByte(' ')
			writeTypes(b, op.Sig.Outputs)
		}
	}
}

func writeOperand(b *strings.Builder, o Operand) {
	switch o := o.(type) {
	case *ValueOperand:
		b.WriteByte('%')
		b.WriteString(o.Name)
		if o.Type != nil {
			b.WriteString(": ")
			writeType(b, o.Type)
		}
	case *VariadicOperand:
		b.WriteByte('%')
		b.WriteString(o.Name)
		b.WriteString("...")
	case *WildcardOperand:
		b.WriteByte('_')
	case *NullOperand:
		if o.Text == "" {
			b.WriteString("null")
		} else {
			b.WriteString(o.Text)
		}
	case *CombineOperand:
		b.WriteByte('[')
		for i, e := range o.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			writeOperand(b, e)
		}
		b.WriteByte(']')
	case *EitherOperand:
		b.WriteString("either(")
		for i, e := range o.Operands {
			if i > 0 {
				b.WriteString(", ")
			}
			writeOperand(b, e)
		}
		b.WriteByte(')')
	case *OpPattern:
		writeOpPattern(b, o)
	}
}

// writeAttrMap prints ` {k: v, …}`; nothing for a nil or empty map.
func writeAttrMap(b *strings.Builder, m *AttrMap) {
	if m == nil || (len(m.Entries) == 0 && m.Rest == nil) {
		return
	}
	b.WriteString(" {")
	for i, e := range m.Entries {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(e.Key.Name)
		b.WriteString(": ")
		writeExpr(b, e.Value, 0)
	}
	if m.Rest != nil {
		if len(m.Entries) > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('$')
		b.WriteString(m.Rest.Name)
		b.WriteString("...")
	}
	b.WriteByte('}')
}

func rewriteStmtString(s RewriteStmt) string {
	var b strings.Builder
	switch s := s.(type) {
	case *AssignStmt:
		if len(s.Results) > 0 {
			resultsString(&b, s.Results)
			b.WriteString(" = ")
		}
		writeExpr(&b, s.Value, 0)
		if len(s.Types) > 0 {
			b.WriteString(" -> ")
			writeTypes(&b, s.Types)
		}
	case *ReplaceStmt:
		b.WriteString("replace ")
		if s.Later {
			b.WriteString("later uses of ")
		}
		writeExpr(&b, s.Old, 0)
		b.WriteString(" with ")
		writeExpr(&b, s.New, 0)
	case *EraseStmt:
		b.WriteString("erase ")
		writeExpr(&b, s.Target, 0)
	case *ExprStmt:
		writeExpr(&b, s.X, 0)
	}
	return b.String()
}

// ---------------------------------------------------------------------------
// Types

func writeTypes(b *strings.Builder, ts []TypePattern) {
	for i, t := range ts {
		if i > 0 {
			b.WriteString(", ")
		}
		writeType(b, t)
	}
}

func writeType(b *strings.Builder, t TypePattern) {
	switch t := t.(type) {
	case *TensorType:
		b.WriteString(t.Name)
		b.WriteByte('<')
		sep := "x"
		spaced := t.Dtype != nil && t.Dtype.Kind == DtypeHole
		for _, d := range t.Dims {
			spaced = spaced || d.Kind == DimHole
		}
		if spaced {
			sep = " x "
		}
		for _, d := range t.Dims {
			switch d.Kind {
			case DimHole:
				b.WriteByte('$')
				b.WriteString(d.Text)
			case DimAny:
				b.WriteByte('?')
			case DimStar:
				b.WriteByte('*')
			default:
				b.WriteString(d.Text)
			}
			b.WriteString(sep)
		}
		if d := t.Dtype; d != nil {
			switch d.Kind {
			case DtypeHole:
				b.WriteByte('$')
				b.WriteString(d.Name)
			case DtypeAny:
				b.WriteByte('?')
			default:
				b.WriteString(d.Name)
			}
		}
		b.WriteByte('>')
	case *VecType:
		b.WriteString("vec[")
		writeTypes(b, t.Elems)
		b.WriteByte(']')
	case *NamedType:
		b.WriteString(t.Name)
	case *HoleType:
		b.WriteByte('$')
		b.WriteString(t.Name)
	case *AnyType:
		b.WriteByte('?')
	case *NullType:
		b.WriteString("<<NULL TYPE>>")
	case *TypeOf:
		b.WriteString("type(%")
		b.WriteString(t.Value)
		b.WriteByte(')')
	case *AnyTypes:
		b.WriteString("...")
	}
}

// ---------------------------------------------------------------------------
// Expressions

// Precedence levels used by the printer (higher binds tighter).
const (
	precCond    = 0
	precUnary   = 6
	precPostfix = 7
)

func exprPrec(e Expr) int {
	switch e := e.(type) {
	case *CondExpr:
		return precCond
	case *BinaryExpr:
		return binaryPrecedence(e.Op)
	case *UnaryExpr:
		return precUnary
	}
	return precPostfix
}

// exprString prints an expression in canonical form.
func exprString(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e, 0)
	return b.String()
}

// writeExpr prints e, parenthesised if it binds looser than minPrec (only
// needed for trees built by hand: parsed trees keep their ParenExprs).
func writeExpr(b *strings.Builder, e Expr, minPrec int) {
	if e == nil {
		return
	}
	if exprPrec(e) < minPrec {
		b.WriteByte('(')
		writeExpr(b, e, 0)
		b.WriteByte(')')
		return
	}
	switch e := e.(type) {
	case *BasicLit:
		b.WriteString(e.Text)
	case *TaggedLit:
		b.WriteByte('(')
		b.WriteString(e.Tag)
		b.WriteByte(')')
		writeExpr(b, e.Value, precPostfix)
	case *SymbolLit:
		b.WriteString(e.Text)
	case *ListExpr:
		b.WriteByte('[')
		for i, x := range e.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, x, 0)
		}
		b.WriteByte(']')
	case *HoleExpr:
		b.WriteByte('$')
		b.WriteString(e.Name)
	case *ValueExpr:
		b.WriteByte('%')
		b.WriteString(e.Name)
	case *LabelExpr:
		b.WriteByte('@')
		b.WriteString(e.Name)
	case *WildcardExpr:
		b.WriteByte('_')
	case *NameExpr:
		b.WriteString(e.Name)
	case *TypeExpr:
		writeType(b, e.Type)
	case *SpreadExpr:
		writeExpr(b, e.X, precPostfix)
		b.WriteString("...")
	case *UnaryExpr:
		b.WriteString(e.Op)
		var x strings.Builder
		writeExpr(&x, e.X, precUnary)
		if s := x.String(); e.Op == "-" && strings.HasPrefix(s, "-") {
			b.WriteByte(' ')
		}
		b.WriteString(x.String())
	case *BinaryExpr:
		prec := exprPrec(e)
		writeExpr(b, e.X, prec)
		b.WriteByte(' ')
		b.WriteString(e.Op)
		b.WriteByte(' ')
		writeExpr(b, e.Y, prec+1)
	case *CondExpr:
		writeExpr(b, e.Cond, precCond+1)
		b.WriteString(" ? ")
		writeExpr(b, e.Then, 0)
		b.WriteString(" : ")
		writeExpr(b, e.Else, 0)
	case *CallExpr:
		b.WriteString(opNameString(e.Func))
		b.WriteByte('(')
		for i, x := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, x, 0)
		}
		b.WriteByte(')')
		writeAttrMap(b, e.Attrs)
	case *IndexExpr:
		writeExpr(b, e.X, precPostfix)
		b.WriteByte('[')
		writeExpr(b, e.Index, 0)
		b.WriteByte(']')
	case *ParenExpr:
		b.WriteByte('(')
		writeExpr(b, e.X, 0)
		b.WriteByte(')')
	}
}
