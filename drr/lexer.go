package drr

import (
	"strings"
	"unicode/utf8"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
)

// tokKind is the kind of a lexical token.
type tokKind uint8

// Token kinds.
const (
	tEOF      tokKind = iota
	tIdent            // identifiers, possibly dotted: pd_op.conv2d, true, rule
	tInt              // 64, -1, 0x7f3a
	tFloat            // 1e-05, 0.9, -inf, nan
	tString           // "…" (text keeps the quotes and escapes)
	tValue            // %x, %0, %arg_0
	tHole             // $s
	tLabel            // @f
	tTag              // (Int32), (pd_op.IntArray): the tag of a printed PIR literal
	tSym              // raw PIR attribute text: Place(cpu), <#AttrNull>, <backend:GPU|…>
	tNull             // <<NULL VALUE>>
	tNullType         // <<NULL TYPE>>
	tPunct            // ( ) [ ] { } , : = ? ! + - * / % < > -> ... == != <= >= && ||
	tSep              // newline or ';' ending a statement or clause inside a block
	tTopSep           // newline or ';' ending a top-level declaration
	tWild             // a lone _

	// The parts of a tensor type: builtin.tensor<64x3xf32> is TensorName
	// TensorOpen Int DimX Int DimX Ident TensorClose.
	tTensorName  // builtin.tensor, directly followed by '<'
	tTensorOpen  // the '<' of a tensor type
	tTensorClose // the '>' of a tensor type
	tDimX        // the 'x' between the items of a tensor type
)

var tokKindNames = [...]string{
	tEOF: "EOF", tIdent: "Ident", tInt: "Int", tFloat: "Float", tString: "String",
	tValue: "Value", tHole: "Hole", tLabel: "Label", tTag: "Tag",
	tSym: "Sym", tNull: "Null", tNullType: "NullType", tPunct: "Punct", tSep: "Sep",
	tTopSep: "TopSep", tWild: "Wild", tTensorName: "TensorName", tTensorOpen: "TensorOpen",
	tTensorClose: "TensorClose", tDimX: "DimX",
}

// String returns the kind's name, as the grammar's struct tags use it.
func (k tokKind) String() string { return tokKindNames[k] }

// token is a lexical token; text is a substring of the source.
type token struct {
	text string
	off  int32 // byte offset
	line int32 // 1-based
	col  int32 // 1-based, in bytes
	kind tokKind
}

// MaxNesting bounds how deeply brackets ( ) [ ] { } and conditional
// expressions (a ? b : c) nest in a .drr file: more is the error "nesting
// too deep". The parser recurses once or more per level, and so does every
// walker of the syntax tree, so the lexer enforces the limit before anything
// recurses, and no input can exhaust the stack. The PIR text and GraphNet
// readers have the same limit.
const MaxNesting = 200

// Bracket kinds on the scanner's stack.
const (
	brParen = '('
	brList  = '['
	brAttrs = '{' // attribute map: newlines are insignificant
	brBlock = 'B' // rule body or match/where/rewrite block: newlines separate
)

// scanner is the hand-written lexer. It tracks bracket nesting so that
// newlines become separator tokens only at block level (inside ( ), [ ] and
// attribute { } maps they are insignificant), recognises the printed-PIR
// token forms (tags, tensor types, null markers, raw symbols) and collects
// comments separately from the token stream.
type scanner struct {
	src      string
	filename string
	file     *string // shared by the spans of the file's nodes
	end      int     // end of the region being lexed
	off      int
	line     int
	col      int

	toks     []token
	comments []*Comment
	diags    diag.Diagnostics

	stack []byte
	// levels[i] counts what is open at bracket level i (0: outside every bracket), up to the next ',', separator
	// or closing bracket of the level: conditionals, whose else branch extends that far, and operators.
	levels    []level
	nconds    int  // the conditionals of every level
	tooDeep   bool // the current chunk nests more than MaxNesting levels: it is not parsed
	lastBlock bool // the last token emitted opened a block
	afterTag  bool // the last token emitted was a tag
	space     bool // whitespace precedes the current token
	lineToks  bool // a token was emitted on the current line
	chunkDone bool // a tTopSep ended the current chunk
}

// newScanner returns a scanner for src. Tokens are produced one top-level
// declaration at a time by nextChunk, into a reused buffer.
func newScanner(filename string, src string) *scanner {
	s := &scanner{filename: filename, file: &filename, toks: make([]token, 0, 512)}
	s.reset(src, region{end: len(src), line: 1})
	return s
}

// reset prepares the scanner to lex region r of src, keeping its buffer.
// A region starts at the beginning of a line, where no bracket is open.
func (s *scanner) reset(src string, r region) {
	*s = scanner{src: src, filename: s.filename, file: s.file, end: r.end, off: r.start, line: r.line, col: 1, toks: s.toks[:0],
		stack: s.stack[:0], levels: append(s.levels[:0], level{})}
}

// level is what the scanner counts at one bracket level: the conditionals ('?') and binary operators of the
// expression there, and the unary operators and indexes of its current term. A chain of n operators and a term
// with m of them make a tree at least n+m+1 deep (see builder.deeper).
type level struct{ conds, ops, term int32 }

// push opens a bracket of kind k.
func (s *scanner) push(k byte) {
	s.stack = append(s.stack, k)
	s.levels = append(s.levels, level{})
	if len(s.stack)+s.nconds > MaxNesting {
		s.checkNesting()
	}
}

// popTo closes the brackets from level n up (n == 0 closes every bracket, as a new declaration does).
func (s *scanner) popTo(n int) {
	if s.nconds > 0 { // conditionals are rare: most closes have none to end
		for _, l := range s.levels[n+1:] {
			s.nconds -= int(l.conds)
		}
	}
	s.stack, s.levels = s.stack[:n], s.levels[:n+1]
	if n == 0 {
		s.endExpr()
	}
}

// endExpr ends the expression of the current level, at a ',' or a separator.
func (s *scanner) endExpr() {
	top := &s.levels[len(s.levels)-1]
	s.nconds -= int(top.conds)
	*top = level{}
}

// cond counts a conditional's '?'.
func (s *scanner) cond() {
	top := &s.levels[len(s.levels)-1]
	top.conds++
	top.term = 0
	s.nconds++
	s.checkNesting()
}

// operator counts a binary operator (binary) or a unary operator or index of the current term, reporting (once per
// declaration) an expression deeper than rule.MaxExprDepth: the parser would take it, slowly for a long one, and
// the builder would then refuse it.
func (s *scanner) operator(binary bool) {
	top := &s.levels[len(s.levels)-1]
	if binary {
		top.ops++
		top.term = 0
	} else {
		top.term++
	}
	if int(top.ops+top.term)+1 > rule.MaxExprDepth && !s.tooDeep {
		s.tooDeep = true
		s.errorAt(s.position(), "expression too deep: more than %d levels of operators and brackets (each operator of a chain is a level)", rule.MaxExprDepth)
	}
}

// checkNesting reports, once per declaration, nesting deeper than MaxNesting at the current offset.
func (s *scanner) checkNesting() {
	if len(s.stack)+s.nconds > MaxNesting && !s.tooDeep {
		s.tooDeep = true
		s.errorAt(s.position(), "nesting too deep: more than %d levels of brackets and conditionals", MaxNesting)
	}
}

// scan lexes src completely (for tests).
func scan(filename string, src string) (toks []token, comments []*Comment, diags diag.Diagnostics) {
	s := newScanner(filename, src)
	for {
		chunk := s.nextChunk()
		toks = append(toks, chunk...)
		if chunk[len(chunk)-1].kind == tEOF {
			return toks, s.comments, s.diags
		}
	}
}

func (s *scanner) position() diag.Position {
	return diag.Position{Filename: s.filename, Offset: s.off, Line: s.line, Column: s.col}
}

// advance moves over n bytes that contain no newline.
func (s *scanner) advance(n int) {
	s.off += n
	s.col += n
}

func (s *scanner) errorAt(pos diag.Position, format string, args ...any) {
	s.diags = append(s.diags, diag.Errorf(pos, format, args...))
}

// emit appends a token that starts at the current offset and spans n bytes,
// and advances over it.
func (s *scanner) emit(kind tokKind, n int) {
	s.toks = append(s.toks, token{kind: kind, text: s.src[s.off : s.off+n], off: int32(s.off), line: int32(s.line), col: int32(s.col)})
	switch kind {
	case tString, tSym: // may contain non-ASCII text
		s.advance(n)
	default:
		s.off += n
		s.col += n
	}
	s.lastBlock = false
	s.afterTag = kind == tTag
	s.lineToks = true
}

func (s *scanner) last() *token {
	if len(s.toks) == 0 {
		return nil
	}
	return &s.toks[len(s.toks)-1]
}

// separator handles a newline or ';' (text) at the current offset; n is the
// number of bytes to advance over (0 for a newline, handled by the caller).
func (s *scanner) separator(text string) {
	if n := len(s.stack); n > 0 && s.stack[n-1] != brBlock {
		if text == ";" {
			s.emit(tPunct, 1) // a syntax error the parser reports
		}
		return
	}
	last := s.last()
	if last == nil || last.kind == tSep || last.kind == tTopSep || s.lastBlock {
		if text == ";" {
			s.advance(1)
		}
		return
	}
	s.endExpr()
	kind := tSep
	if len(s.stack) == 0 {
		kind = tTopSep
		s.chunkDone = true
	}
	s.toks = append(s.toks, token{kind: kind, text: text, off: int32(s.off), line: int32(s.line), col: int32(s.col)})
	if text == ";" {
		s.advance(1)
	}
}

// arrowNext reports whether the line after the newline at the current offset starts with "->": the result types
// of a rewrite statement may go on a line of their own, so the newline before them does not end the statement.
func (s *scanner) arrowNext() bool {
	i := s.off + 1
	for i < s.end && (s.src[i] == ' ' || s.src[i] == '\t' || s.src[i] == '\r') {
		i++
	}
	return i+1 < s.end && s.src[i] == '-' && s.src[i+1] == '>'
}

// dropSep removes a separator directly before a closing block brace or the
// end of the file.
func (s *scanner) dropSep() {
	if l := s.last(); l != nil && (l.kind == tSep || l.kind == tTopSep) {
		s.toks = s.toks[:len(s.toks)-1]
	}
}

// prevOperand reports whether the last token ends an operand, so that a
// following '-' or '%' is a binary operator rather than the start of a
// negative number or a value name.
func (s *scanner) prevOperand() bool {
	l := s.last()
	if l == nil {
		return false
	}
	switch l.kind {
	case tInt, tFloat, tString, tValue, tHole, tLabel, tSym, tNull, tNullType, tWild, tTensorClose:
		return true
	case tIdent:
		switch l.text {
		case "in", "with", "benefit", "replace", "erase", "of":
			return false
		}
		return true
	case tPunct:
		return l.text == ")" || l.text == "]"
	}
	return false
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isNameChar(c byte) bool {
	return isIdentStart(c) || (c >= '0' && c <= '9')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func (s *scanner) at(i int) byte {
	if i < len(s.src) {
		return s.src[i]
	}
	return 0
}

// identEnd returns the end of a (dotted) identifier starting at i.
func (s *scanner) identEnd(i int) int {
	for {
		for i < len(s.src) && isNameChar(s.src[i]) {
			i++
		}
		if s.at(i) == '.' && isIdentStart(s.at(i+1)) {
			i++
			continue
		}
		return i
	}
}

// wordAt reports whether the identifier w appears at i as a whole word.
func (s *scanner) wordAt(i int, w string) bool {
	return strings.HasPrefix(s.src[min(i, len(s.src)):], w) && !isNameChar(s.at(i+len(w)))
}

// nextChunk lexes the next top-level declaration: the returned tokens end
// with a tTopSep or with tEOF (an empty declaration is just tEOF). It never
// fails: problems are recorded as diagnostics and the offending characters
// are skipped. The returned slice is reused by the next call.
func (s *scanner) nextChunk() []token {
	s.toks = s.toks[:0]
	s.chunkDone = false
	s.tooDeep = false
	for !s.chunkDone {
		s.space = false
		for s.off < s.end {
			c := s.src[s.off]
			if c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' {
				s.off++
				s.col++
				s.space = true
				continue
			}
			break
		}
		if s.off >= s.end {
			if s.end < len(s.src) && len(s.stack) > 0 {
				// The end of a region: the next one starts with a top-level keyword in column 1 (splitRegions),
				// which ends this declaration as the error recovery in ident does when the whole file is lexed, so
				// that a region ends with the tokens the whole file's lexing gives it.
				if l := s.last(); l != nil && l.kind == tSep {
					l.kind = tTopSep
					s.popTo(0)
					return s.toks
				} else if l != nil && l.kind != tTopSep {
					s.toks = append(s.toks, token{kind: tTopSep, text: "\n", off: int32(s.off), line: int32(s.line), col: int32(s.col)})
					s.popTo(0)
					return s.toks
				}
			}
			s.dropSep()
			s.toks = append(s.toks, token{kind: tEOF, off: int32(s.off), line: int32(s.line), col: int32(s.col)})
			return s.toks
		}
		c := s.src[s.off]
		switch {
		case c == '\n':
			if !s.arrowNext() {
				s.separator("\n")
			}
			s.off++
			s.line++
			s.col = 1
			s.lineToks = false
		case c == '/' && s.at(s.off+1) == '/':
			s.comment()
		case c == ';':
			s.separator(";")
		case isIdentStart(c):
			s.ident()
		case isDigit(c):
			s.number()
		case c == '-' && !s.prevOperand() && (isDigit(s.at(s.off+1)) || s.wordAt(s.off+1, "inf")):
			s.number()
		case c == '"':
			s.str()
		case c == '%' && isNameChar(s.at(s.off+1)) && !(s.prevOperand() && !s.space):
			s.sigil(tValue)
		case c == '$':
			s.sigil(tHole)
		case c == '@':
			s.sigil(tLabel)
		case c == '(' && s.tag():
		case c == '<' && s.angle():
		default:
			s.punct()
		}
	}
	return s.toks
}

func (s *scanner) comment() {
	pos := s.position()
	end := s.off
	for end < len(s.src) && s.src[end] != '\n' {
		end++
	}
	text := strings.TrimRight(s.src[s.off:end], " \t\r\f\v")
	own := !s.lineToks
	s.advance(end - s.off)
	e := endOf(pos, text)
	sp := Span{file: s.file, off: int32(pos.Offset), end: int32(e.Offset), line: int32(pos.Line), col: int32(pos.Column),
		endLine: int32(e.Line), endCol: int32(e.Column)}
	c := &Comment{Span: sp, Text: text,
		Doc: strings.HasPrefix(text, "///") && !strings.HasPrefix(text, "////"), ownLine: own}
	s.comments = append(s.comments, c)
}

// endOf returns the position after text starting at pos (text has no newline).
func endOf(pos diag.Position, text string) diag.Position {
	pos.Offset += len(text)
	pos.Column += len(text)
	return pos
}

// isTopKeyword reports whether s starts a top-level declaration.
func isTopKeyword(s string) bool {
	return s == "rule" || s == "family" || s == "native" || s == "import" || s == "param"
}

func (s *scanner) ident() {
	start := s.off
	end := s.identEnd(start)
	text := s.src[start:end]
	switch next := s.at(end); {
	case next == '<' && isTypeName(text):
		if e, ok := s.angleEnd(end); ok {
			s.emit(tTensorName, end-start)
			s.tensorBody(text, e)
			return
		}
		s.errorAt(s.position(), "unterminated type %s<…: missing '>'", text)
	case next == '(' && (s.afterTag || text == "Place" || text == "Undefined"):
		if e, ok := s.parenEnd(end); ok {
			s.emit(tSym, e-start)
			return
		}
	case text == "inf" || text == "nan":
		s.emit(tFloat, end-start)
		return
	}
	// Error recovery: a top-level keyword at column 1 followed by a name
	// starts a new declaration even if brackets are still open.
	if s.col == 1 && len(s.stack) > 0 && isTopKeyword(text) {
		j := end
		for j < len(s.src) && (s.src[j] == ' ' || s.src[j] == '\t') {
			j++
		}
		if isIdentStart(s.at(j)) || s.at(j) == '"' {
			s.popTo(0)
			if l := s.last(); l != nil && l.kind == tSep {
				l.kind = tTopSep
				s.chunkDone = true
				return // the keyword starts the next chunk
			} else if l != nil && l.kind != tTopSep {
				s.toks = append(s.toks, token{kind: tTopSep, text: "\n", off: int32(s.off), line: int32(s.line), col: int32(s.col)})
				s.chunkDone = true
				return
			}
		}
	}
	if text == "_" {
		s.emit(tWild, 1)
		return
	}
	if text == "in" && s.prevOperand() {
		s.operator(true)
	}
	s.emit(tIdent, end-start)
}

// tensorBody lexes the body of a tensor type from its '<' (the current
// offset) to end (just after the matching '>', on the same line): the
// items are integers (-1, 64), '?', '*', holes ($c) and names (f32),
// separated by 'x' tokens; blanks between them are skipped. Whether the
// items make a tensor type is the grammar's business: "64f32" lexes as
// Int Ident and is reported by the parser.
func (s *scanner) tensorBody(name string, end int) {
	s.emit(tTensorOpen, 1)
	item := true // an item may start here; otherwise an 'x' separates
	for s.off < end-1 {
		c := s.src[s.off]
		switch {
		case c == ' ' || c == '\t':
			s.off++
			s.col++
		case c == 'x' && !item:
			s.emit(tDimX, 1)
			item = true
		case c == '?' || c == '*':
			s.emit(tPunct, 1)
			item = false
		case c == '(' && item:
			s.dimExpr(name, end-1)
			item = false
		case c == '$':
			i := s.off + 1
			for i < end && isNameChar(s.src[i]) {
				i++
			}
			if i == s.off+1 {
				s.errorAt(s.position(), "expected a hole name after '$' in %s type", name)
				s.advance(1)
				continue
			}
			s.emit(tHole, i-s.off)
			item = false
		case isDigit(c) || c == '-' && isDigit(s.at(s.off+1)):
			i := s.off + 1
			for i < end && isDigit(s.src[i]) {
				i++
			}
			s.emit(tInt, i-s.off)
			item = false
		case isIdentStart(c):
			i := s.off + 1
			for i < end && isNameChar(s.src[i]) {
				i++
			}
			s.emit(tIdent, i-s.off)
			item = false
		default:
			s.errorAt(s.position(), "unexpected %s in %s type", quoteRune(s.src[s.off:]), name)
			_, size := utf8.DecodeRuneInString(s.src[s.off:])
			s.advance(size)
		}
	}
	s.emit(tTensorClose, 1)
}

// dimExpr lexes a parenthesised dimension expression of a tensor type, ($s * $h), from its '(' (the current
// offset) to its matching ')' before end, as the tokens of an expression. An unclosed '(' is reported and the
// rest of the body skipped.
func (s *scanner) dimExpr(name string, end int) {
	depth, close := 0, -1
	for i := s.off; i < end && close < 0; i++ {
		switch s.src[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				close = i
			}
		}
	}
	if close < 0 {
		s.errorAt(s.position(), "unclosed '(' in %s type", name)
		s.advance(end - s.off)
		return
	}
	stack := len(s.stack)
	for s.off <= close {
		c := s.src[s.off]
		switch {
		case c == ' ' || c == '\t':
			s.off++
			s.col++
		case isIdentStart(c):
			s.emit(tIdent, s.identEnd(s.off)-s.off)
		case isDigit(c), c == '-' && !s.prevOperand() && isDigit(s.at(s.off+1)):
			s.number()
		case c == '$':
			s.sigil(tHole)
		case c == '%' && isNameChar(s.at(s.off+1)):
			s.sigil(tValue)
		default:
			s.punct()
		}
	}
	s.stack = s.stack[:stack]
}

// isTypeName reports whether an identifier directly followed by '<' starts a
// tensor-like type whose body is lexed as part of one token.
func isTypeName(name string) bool {
	last := name[strings.LastIndexByte(name, '.')+1:]
	return strings.HasSuffix(last, "tensor") || strings.HasSuffix(last, "tensor_array") || last == "selectedrows"
}

// angleEnd returns the offset after the '>' matching the '<' at i, on the
// same line.
func (s *scanner) angleEnd(i int) (int, bool) {
	depth := 0
	for ; i < len(s.src); i++ {
		switch s.src[i] {
		case '<':
			depth++
		case '>':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		case '\n':
			return i, false
		}
	}
	return i, false
}

// parenEnd returns the offset after the ')' matching the '(' at i, for raw
// PIR symbols such as Place(gpu:0): names, ':', '.', '-' only, one line.
func (s *scanner) parenEnd(i int) (int, bool) {
	depth := 0
	for ; i < len(s.src); i++ {
		switch c := s.src[i]; c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		default:
			if !isNameChar(c) && c != ':' && c != '.' && c != '-' {
				return i, false
			}
		}
	}
	return i, false
}

func (s *scanner) number() {
	start := s.off
	i := start
	if s.src[i] == '-' {
		i++
	}
	kind := tInt
	switch {
	case s.wordAt(i, "inf"):
		i += 3
		kind = tFloat
	case s.src[i] == '0' && (s.at(i+1) == 'x' || s.at(i+1) == 'X') && isHex(s.at(i+2)):
		i += 2
		for i < len(s.src) && isHex(s.src[i]) {
			i++
		}
	default:
		for i < len(s.src) && isDigit(s.src[i]) {
			i++
		}
		if s.at(i) == '.' && isDigit(s.at(i+1)) {
			kind = tFloat
			i++
			for i < len(s.src) && isDigit(s.src[i]) {
				i++
			}
		}
		if c := s.at(i); c == 'e' || c == 'E' {
			j := i + 1
			if s.at(j) == '+' || s.at(j) == '-' {
				j++
			}
			if isDigit(s.at(j)) {
				for j < len(s.src) && isDigit(s.src[j]) {
					j++
				}
				i = j
				kind = tFloat
			}
		}
	}
	s.emit(kind, i-start)
}

func (s *scanner) str() {
	start := s.off
	i := start + 1
	for {
		if i >= len(s.src) || s.src[i] == '\n' {
			s.errorAt(s.position(), "unterminated string literal")
			s.emit(tString, i-start)
			return
		}
		c := s.src[i]
		if c == '\\' && i+1 < len(s.src) && s.src[i+1] != '\n' {
			i += 2
			continue
		}
		i++
		if c == '"' {
			break
		}
	}
	s.emit(tString, i-start)
}

func (s *scanner) sigil(kind tokKind) {
	start := s.off
	i := start + 1
	for i < len(s.src) && isNameChar(s.src[i]) {
		i++
	}
	if i == start+1 {
		what := "a hole name"
		switch kind {
		case tValue:
			what = "a value name"
		case tLabel:
			what = "an op label name"
		}
		s.errorAt(s.position(), "expected %s after '%c'", what, s.src[start])
		s.advance(1)
		return
	}
	s.emit(kind, i-start)
}

// tag lexes a printed-PIR literal tag such as (Int32) or (pd_op.IntArray):
// a parenthesised (dotted) name whose last part is capitalised, directly
// followed by the literal.
func (s *scanner) tag() bool {
	i := s.off + 1
	if !isIdentStart(s.at(i)) {
		return false
	}
	end := s.identEnd(i)
	if s.at(end) != ')' {
		return false
	}
	name := s.src[i:end]
	last := name[strings.LastIndexByte(name, '.')+1:]
	if last[0] < 'A' || last[0] > 'Z' {
		return false
	}
	c := s.at(end + 1)
	if !(isNameChar(c) || c == '-' || c == '[' || c == '"' || c == '<') {
		return false
	}
	s.emit(tTag, end+1-s.off)
	return true
}

// angle lexes the '<'-introduced PIR markers: <<NULL VALUE>>, <<NULL TYPE>>,
// <#AttrNull> and dialect attributes like <backend:GPU|layout:NCHW|dtype:float32>.
func (s *scanner) angle() bool {
	i := s.off
	switch {
	case s.at(i+1) == '<':
		j := i + 2
		for j+1 < len(s.src) && s.src[j] != '\n' && !(s.src[j] == '>' && s.src[j+1] == '>') {
			j++
		}
		if j+1 >= len(s.src) || s.src[j] != '>' {
			s.errorAt(s.position(), "unterminated '<<': missing '>>'")
			s.advance(2)
			return true
		}
		kind := tSym
		switch s.src[i : j+2] {
		case "<<NULL VALUE>>":
			kind = tNull
		case "<<NULL TYPE>>":
			kind = tNullType
		}
		s.emit(kind, j+2-i)
		return true
	case s.at(i+1) == '#' || isIdentStart(s.at(i+1)):
		j := i + 1
		colon := s.at(j) == '#'
		for ; j < len(s.src); j++ {
			c := s.src[j]
			if c == '>' {
				break
			}
			if c == ':' {
				colon = true
			}
			if !(isNameChar(c) || c == ':' || c == '|' || c == '(' || c == ')' || c == '.' || c == '#' || c == '-') {
				return false
			}
		}
		if j >= len(s.src) || !colon {
			return false
		}
		s.emit(tSym, j+1-i)
		return true
	}
	return false
}

func (s *scanner) punct() {
	rest := s.src[s.off:]
	if strings.HasPrefix(rest, "...") {
		s.emit(tPunct, 3)
		return
	}
	if len(rest) >= 2 {
		switch rest[:2] {
		case "==", "!=", "<=", ">=", "&&", "||":
			s.operator(true)
			s.emit(tPunct, 2)
			return
		case "->":
			s.emit(tPunct, 2)
			return
		}
	}
	c := rest[0]
	switch c {
	case '(', '[':
		if c == '[' && s.prevOperand() {
			s.operator(false) // an index: x[0][1] nests as a chain of operators does
		}
		s.push(c)
	case '{':
		kind := byte(brBlock)
		if l := s.last(); l != nil && l.kind == tPunct && l.text == ")" {
			kind = brAttrs
		}
		s.push(kind)
		s.emit(tPunct, 1)
		s.lastBlock = kind == brBlock
		return
	case ')', ']', '}':
		s.dropTrailingComma()
		s.close(c)
	case ',':
		s.endExpr()
	case '?':
		s.cond()
	case '!':
		s.operator(false)
	case '|':
		s.operator(true) // alternatives in a pattern: `a | b`
	case '+', '-', '*', '/', '%', '<', '>':
		s.operator(s.prevOperand()) // -x is unary
	case ':':
		s.levels[len(s.levels)-1].term = 0 // a conditional's else branch, or an attribute's value
	case '=':
	default:
		pos := s.position()
		r, size := utf8.DecodeRuneInString(rest)
		if r == utf8.RuneError && size <= 1 {
			s.errorAt(pos, "invalid UTF-8 byte 0x%02x", c)
			s.off++
			s.col++
			return
		}
		switch c {
		case '&':
			s.errorAt(pos, "unexpected '&' (did you mean '&&'?)")
		default:
			s.errorAt(pos, "unexpected character %q", r)
		}
		s.advance(size)
		return
	}
	s.emit(tPunct, 1)
}

// dropTrailingComma removes a ',' directly before a closing bracket when it
// follows a list element: lists may end with a comma, and the grammar
// sees them without it. A comma after an opening bracket or after another
// comma stays, for the parser to report.
func (s *scanner) dropTrailingComma() {
	n := len(s.toks)
	if n < 2 || s.toks[n-1].kind != tPunct || s.toks[n-1].text != "," {
		return
	}
	if p := s.toks[n-2]; p.kind == tPunct && (p.text == "(" || p.text == "[" || p.text == "{" || p.text == ",") {
		return
	}
	s.toks = s.toks[:n-1]
}

// close pops the bracket stack for a closing bracket. An unbalanced closer
// does not pop past an open block, so that one stray bracket does not change
// how the rest of the file is split into statements.
func (s *scanner) close(c byte) {
	for i := len(s.stack) - 1; i >= 0; i-- {
		k := s.stack[i]
		switch {
		case c == '}':
			if k == brAttrs || k == brBlock {
				if k == brBlock {
					s.dropSep()
				}
				s.popTo(i)
				return
			}
		case k == brBlock || k == brAttrs:
			return
		case (c == ')' && k == brParen) || (c == ']' && k == brList):
			s.popTo(i)
			return
		}
	}
}
