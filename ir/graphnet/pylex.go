package graphnet

import (
	"strings"

	"github.com/pirdrr/drr/ir"
)

// tokKind is the kind of a Python token.
type tokKind uint8

const (
	tEOF tokKind = iota
	tNewline
	tIndent
	tDedent
	tName
	tInt
	tFloat
	tString
	tOp // operators and delimiters; the token's text says which
)

var tokNames = [...]string{tEOF: "end of file", tNewline: "end of line", tIndent: "indentation",
	tDedent: "dedent", tName: "name", tInt: "integer", tFloat: "number", tString: "string", tOp: "operator"}

// token is one Python token. For strings, text is the decoded value; for other kinds, the source text.
type token struct {
	kind tokKind
	text string
	pos  ir.Loc
}

func (t token) describe() string {
	switch t.kind {
	case tName, tInt, tFloat, tOp:
		return "'" + t.text + "'"
	case tString:
		return "string"
	}
	return tokNames[t.kind]
}

// comment is a comment line of the source: its text after '#' (with the leading space kept) and position.
type comment struct {
	text string
	pos  ir.Loc
}

// lexer turns Python source into tokens, following Python's rules for the subset GraphNet files use: indentation
// (INDENT/DEDENT from the leading whitespace of logical lines), implicit line joining inside brackets, backslash
// continuations, comments (kept in a side list with their positions, so that the parser can give each statement the
// comment lines before it), names, decimal numbers, and single-, double- and triple-quoted strings.
type lexer struct {
	file      string
	src       string // the whole file; tokens and comments are substrings of it
	off       int
	line      int32
	lineStart int
	depth     int   // bracket nesting
	indents   []int // indentation stack
	pending   int   // DEDENT tokens still to emit
	atBOL     bool  // at the beginning of a logical line
	comments  []comment
	err       *Error
}

func newLexer(file string, src string, comments []comment) *lexer {
	return &lexer{file: file, src: src, line: 1, indents: []int{0}, atBOL: true, comments: comments}
}

func (l *lexer) pos() ir.Loc { return ir.Loc{Line: l.line, Col: int32(l.off-l.lineStart) + 1} }

func (l *lexer) fail(p ir.Loc, format string, args ...any) token {
	if l.err == nil {
		l.err = errorAt(l.file, p, format, args...)
	}
	return token{kind: tEOF, pos: p}
}

func (l *lexer) newline() {
	l.off++
	l.line++
	l.lineStart = l.off
}

// next returns the next token. After an error it returns EOF tokens; the error is in l.err.
func (l *lexer) next() token {
	if l.err != nil {
		return token{kind: tEOF, pos: l.pos()}
	}
	if l.pending > 0 {
		l.pending--
		return token{kind: tDedent, pos: l.pos()}
	}
	if l.atBOL && l.depth == 0 {
		if t, ok := l.indentation(); ok {
			return t
		}
		if l.err != nil {
			return token{kind: tEOF, pos: l.pos()}
		}
	}
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			l.off++
		case c == '\r':
			l.off++
		case c == '#':
			l.comment()
		case c == '\\' && l.off+1 < len(l.src) && (l.src[l.off+1] == '\n' || l.src[l.off+1] == '\r'):
			l.off++
			if l.src[l.off] == '\r' {
				l.off++
			}
			if l.off < len(l.src) && l.src[l.off] == '\n' {
				l.newline()
			}
		case c == '\n':
			p := l.pos()
			l.newline()
			if l.depth > 0 {
				continue
			}
			l.atBOL = true
			return token{kind: tNewline, pos: p}
		default:
			return l.token()
		}
	}
	// End of input: close the last logical line and the open blocks.
	p := l.pos()
	if l.depth > 0 {
		return l.fail(p, "unexpected end of file inside brackets")
	}
	if !l.atBOL {
		l.atBOL = true
		return token{kind: tNewline, pos: p}
	}
	if len(l.indents) > 1 {
		l.indents = l.indents[:len(l.indents)-1]
		return token{kind: tDedent, pos: p}
	}
	return token{kind: tEOF, pos: p}
}

// indentation measures the indentation of the next non-blank line and returns the INDENT or DEDENT token it causes,
// if any. Blank and comment-only lines are skipped (their comments are recorded).
func (l *lexer) indentation() (token, bool) {
	for {
		width := 0
		for l.off < len(l.src) {
			c := l.src[l.off]
			if c == ' ' {
				width++
			} else if c == '\t' {
				width += 8 - width%8
			} else if c == '\f' {
				width = 0
			} else {
				break
			}
			l.off++
		}
		if l.off >= len(l.src) {
			l.atBOL = true
			return token{}, false
		}
		c := l.src[l.off]
		if c == '#' {
			l.comment()
			c = 0
			if l.off < len(l.src) {
				c = l.src[l.off]
			}
		}
		if c == '\r' {
			l.off++
			if l.off < len(l.src) {
				c = l.src[l.off]
			}
		}
		if c == '\n' {
			l.newline()
			continue
		}
		if l.off >= len(l.src) {
			return token{}, false
		}
		l.atBOL = false
		p := l.pos()
		top := l.indents[len(l.indents)-1]
		switch {
		case width > top:
			l.indents = append(l.indents, width)
			return token{kind: tIndent, pos: p}, true
		case width < top:
			n := 0
			for len(l.indents) > 1 && l.indents[len(l.indents)-1] > width {
				l.indents = l.indents[:len(l.indents)-1]
				n++
			}
			if l.indents[len(l.indents)-1] != width {
				l.fail(p, "unindent does not match any outer indentation level")
				return token{}, false
			}
			l.pending = n - 1
			return token{kind: tDedent, pos: p}, true
		}
		return token{}, false
	}
}

func (l *lexer) comment() {
	p := l.pos()
	end := l.off
	for end < len(l.src) && l.src[end] != '\n' {
		end++
	}
	text := strings.TrimRight(l.src[l.off+1:end], "\r")
	l.comments = append(l.comments, comment{text: text, pos: p})
	l.off = end
}

// charClass classifies bytes for the lexer's hot loops.
var charClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 {
			t[c] |= classNameStart | className
		}
		if c >= '0' && c <= '9' {
			t[c] |= className | classDigit
		}
	}
	return
}()

const (
	classNameStart = 1 << iota
	className
	classDigit
)

func isNameStart(c byte) bool { return charClass[c]&classNameStart != 0 }
func isNameChar(c byte) bool  { return charClass[c]&className != 0 }
func isDigit(c byte) bool     { return charClass[c]&classDigit != 0 }

func (l *lexer) token() token {
	p := l.pos()
	s := l.src[l.off:]
	c := s[0]
	switch {
	case isNameStart(c):
		n := 1
		for n < len(s) && isNameChar(s[n]) {
			n++
		}
		if n < len(s) && (s[n] == '"' || s[n] == '\'') && isStringPrefix(s[:n]) {
			return l.fail(p, "string prefix %q is not supported", s[:n])
		}
		l.off += n
		return token{kind: tName, text: s[:n], pos: p}
	case isDigit(c) || c == '.' && len(s) > 1 && isDigit(s[1]):
		return l.number(p)
	case c == '"' || c == '\'':
		return l.str(p)
	}
	if op, n := operator(s); n > 0 {
		switch c {
		case '(', '[', '{':
			l.depth++
		case ')', ']', '}':
			if l.depth == 0 {
				return l.fail(p, "unmatched '%c'", c)
			}
			l.depth--
		}
		l.off += n
		return token{kind: tOp, text: op, pos: p}
	}
	if c < 0x20 || c == 0x7f {
		return l.fail(p, "unexpected character %q", rune(c))
	}
	return l.fail(p, "unexpected character %q", string(c))
}

// operator returns the operator or delimiter at the start of s (the longest one) and its length, or 0.
func operator(s string) (string, int) {
	c := s[0]
	var c1, c2 byte
	if len(s) > 1 {
		c1 = s[1]
	}
	if len(s) > 2 {
		c2 = s[2]
	}
	switch c {
	case '(':
		return "(", 1
	case ')':
		return ")", 1
	case '[':
		return "[", 1
	case ']':
		return "]", 1
	case '{':
		return "{", 1
	case '}':
		return "}", 1
	case ',':
		return ",", 1
	case ';':
		return ";", 1
	case '~':
		return "~", 1
	case ':':
		if c1 == '=' {
			return ":=", 2
		}
		return ":", 1
	case '.':
		if c1 == '.' && c2 == '.' {
			return "...", 3
		}
		return ".", 1
	case '=':
		if c1 == '=' {
			return "==", 2
		}
		return "=", 1
	case '!':
		if c1 == '=' {
			return "!=", 2
		}
	case '-':
		switch c1 {
		case '>':
			return "->", 2
		case '=':
			return "-=", 2
		}
		return "-", 1
	case '+', '%', '@', '&', '|', '^':
		if c1 == '=' {
			return string(c) + "=", 2
		}
		return singleOps[c], 1
	case '*', '/', '<', '>':
		if c1 == c { // ** // << >>
			if c2 == '=' {
				return string([]byte{c, c, '='}), 3
			}
			return doubleOps[c], 2
		}
		if c1 == '=' {
			return string(c) + "=", 2
		}
		return singleOps[c], 1
	}
	return "", 0
}

var singleOps = map[byte]string{'+': "+", '%': "%", '@': "@", '&': "&", '|': "|", '^': "^", '*': "*", '/': "/",
	'<': "<", '>': ">"}

var doubleOps = map[byte]string{'*': "**", '/': "//", '<': "<<", '>': ">>"}

func isStringPrefix(s string) bool {
	switch strings.ToLower(s) {
	case "r", "b", "f", "u", "rb", "br", "fr", "rf":
		return true
	}
	return false
}

// number scans a decimal integer or floating-point literal (no underscores, no hex, no imaginary part).
func (l *lexer) number(p ir.Loc) token {
	s := l.src[l.off:]
	n := 0
	isFloat := false
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	if n < len(s) && s[n] == '.' {
		isFloat = true
		n++
		for n < len(s) && isDigit(s[n]) {
			n++
		}
	}
	if n < len(s) && (s[n] == 'e' || s[n] == 'E') {
		m := n + 1
		if m < len(s) && (s[m] == '+' || s[m] == '-') {
			m++
		}
		if m < len(s) && isDigit(s[m]) {
			isFloat = true
			for m < len(s) && isDigit(s[m]) {
				m++
			}
			n = m
		}
	}
	if n < len(s) && (isNameChar(s[n]) || s[n] == '.') {
		return l.fail(p, "malformed number %q", s[:n+1])
	}
	text := s[:n]
	l.off += n
	if isFloat {
		return token{kind: tFloat, text: text, pos: p}
	}
	if len(text) > 1 && text[0] == '0' && strings.Trim(text, "0") != "" {
		return l.fail(p, "leading zeros in the integer %s are not allowed", text)
	}
	return token{kind: tInt, text: text, pos: p}
}

// str scans a quoted string and decodes its escapes.
func (l *lexer) str(p ir.Loc) token {
	s := l.src[l.off:]
	q := s[0]
	triple := len(s) >= 3 && s[1] == q && s[2] == q
	if !triple { // the usual case: no escapes, the value is a substring of the source
		for i := 1; i < len(s) && s[i] != '\\' && s[i] != '\n'; i++ {
			if s[i] == q {
				l.off += i + 1
				return token{kind: tString, text: s[1:i], pos: p}
			}
		}
	}
	n := 1
	if triple {
		n = 3
	}
	var b strings.Builder
	for {
		if n >= len(s) {
			return l.fail(p, "unterminated string")
		}
		c := s[n]
		if c == q {
			if !triple {
				n++
				break
			}
			if n+2 < len(s) && s[n+1] == q && s[n+2] == q {
				n += 3
				break
			}
		}
		if c == '\n' {
			if !triple {
				return l.fail(p, "unterminated string")
			}
			l.line++
			l.lineStart = l.off + n + 1
		}
		if c == '\\' && n+1 < len(s) {
			e := s[n+1]
			n += 2
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '0':
				b.WriteByte(0)
			case '\\', '\'', '"':
				b.WriteByte(e)
			case '\n':
				l.line++
				l.lineStart = l.off + n
			case 'x':
				if n+2 > len(s) {
					return l.fail(p, "bad \\x escape")
				}
				v, ok := hexValue(s[n : n+2])
				if !ok {
					return l.fail(p, "bad \\x escape")
				}
				b.WriteRune(rune(v))
				n += 2
			case 'u':
				if n+4 > len(s) {
					return l.fail(p, "bad \\u escape")
				}
				v, ok := hexValue(s[n : n+4])
				if !ok {
					return l.fail(p, "bad \\u escape")
				}
				b.WriteRune(rune(v))
				n += 4
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
			continue
		}
		b.WriteByte(c)
		n++
	}
	l.off += n
	return token{kind: tString, text: b.String(), pos: p}
}

func hexValue(s string) (int, bool) {
	v := 0
	for _, c := range []byte(s) {
		switch {
		case c >= '0' && c <= '9':
			v = v*16 + int(c-'0')
		case c >= 'a' && c <= 'f':
			v = v*16 + int(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v*16 + int(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}
