package pirtext

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/pirdrr/drr/diag"
)

// The reader scans bytes directly: there is no token stream. A scanner holds the source and a position, and the
// parser calls the scanning primitives below (skipSpace, ident, number, quoted, …) where its grammar expects them.
// Nothing here allocates except the strings it returns.

// Character classes.
const (
	clIdentStart = 1 << iota // [A-Za-z_]
	clIdent                  // [A-Za-z0-9_.]
	clDigit                  // [0-9]
	clValueName              // [A-Za-z0-9_.] after '%'
	clSkip                   // bytes that may start white space or a comment
)

var charClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
			t[c] = clIdentStart | clIdent | clValueName
		case c >= '0' && c <= '9':
			t[c] = clDigit | clIdent | clValueName
		case c == '.':
			t[c] = clIdent | clValueName
		case c == ' ', c == '\t', c == '\r', c == '\n', c == '\f', c == '\v', c == '/', c == 0xEF:
			t[c] = clSkip
		}
	}
	return
}()

func isIdentStart(c byte) bool { return charClass[c]&clIdentStart != 0 }
func isIdentChar(c byte) bool  { return charClass[c]&clIdent != 0 }
func isDigit(c byte) bool      { return charClass[c]&clDigit != 0 }

// maxDepth bounds the nesting of regions, attribute lists and types, so that no input can exhaust the stack.
const maxDepth = 200

// position is a line and column in the source, both from 1.
type position struct {
	line, col int32
}

// scanner is the reader's cursor over the source.
type scanner struct {
	file      string
	src       []byte
	pos       int
	line      int // line of pos, from 1
	lineStart int // offset of the first byte of that line
}

// here returns the position of the cursor.
func (s *scanner) here() position {
	return position{int32(s.line), int32(s.pos - s.lineStart + 1)}
}

// fail stops reading with a positioned error at the cursor.
func (s *scanner) fail(format string, args ...any) {
	s.failAt(s.here(), format, args...)
}

// failAt stops reading with an error at pos. The parser recovers it in Parse.
func (s *scanner) failAt(pos position, format string, args ...any) {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	panic(&Error{Pos: diag.Position{Filename: s.file, Line: int(pos.line), Column: int(pos.col)}, Msg: msg})
}

// eof reports whether the cursor is at the end of the source.
func (s *scanner) eof() bool { return s.pos >= len(s.src) }

// peek returns the byte at the cursor, or 0 at the end.
func (s *scanner) peek() byte {
	if s.pos < len(s.src) {
		return s.src[s.pos]
	}
	return 0
}

// peekAt returns the byte at offset off from the cursor, or 0 past the end.
func (s *scanner) peekAt(off int) byte {
	if i := s.pos + off; i < len(s.src) {
		return s.src[i]
	}
	return 0
}

// hasPrefix reports whether the source at the cursor starts with lit.
func (s *scanner) hasPrefix(lit string) bool {
	return len(s.src)-s.pos >= len(lit) && string(s.src[s.pos:s.pos+len(lit)]) == lit
}

// skipSpace skips white space (space, tab, CR, LF, FF, VT, a UTF-8 byte order mark or zero-width no-break space)
// and // comments, keeping the line count. The common case, nothing to skip, is inlined.
func (s *scanner) skipSpace() {
	if s.pos < len(s.src) && charClass[s.src[s.pos]]&clSkip != 0 {
		s.skipSpaceSlow()
	}
}

func (s *scanner) skipSpaceSlow() {
	src, i := s.src, s.pos
	for i < len(src) && src[i] == ' ' {
		i++ // the space between tokens, or an indentation
	}
	if i == len(src) || charClass[src[i]]&clSkip == 0 {
		s.pos = i
		return
	}
	for i < len(src) {
		switch src[i] {
		case ' ', '\t', '\r', '\f', '\v':
			i++
		case '\n':
			i++
			s.line++
			s.lineStart = i
		case '/':
			if i+1 >= len(src) || src[i+1] != '/' {
				s.pos = i
				return
			}
			j := bytes.IndexByte(src[i:], '\n')
			if j < 0 {
				s.pos = len(src)
				return
			}
			i += j
		case 0xEF:
			if i+2 >= len(src) || src[i+1] != 0xBB || src[i+2] != 0xBF {
				s.pos = i
				return
			}
			i += 3
		default:
			s.pos = i
			return
		}
	}
	s.pos = i
}

// advanceTo moves the cursor to end, counting the lines it passes.
func (s *scanner) advanceTo(end int) {
	seg := s.src[s.pos:end]
	if bytes.IndexByte(seg, '\n') >= 0 {
		s.line += bytes.Count(seg, []byte{'\n'})
		s.lineStart = s.pos + bytes.LastIndexByte(seg, '\n') + 1
	}
	s.pos = end
}

// accept skips white space and consumes c if it comes next.
func (s *scanner) accept(c byte) bool {
	s.skipSpace()
	if s.pos < len(s.src) && s.src[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

// expect skips white space and consumes c, or fails naming what was expected.
func (s *scanner) expect(c byte, what string) {
	if !s.accept(c) {
		s.fail("expected %s, found %s", what, s.describe())
	}
}

// acceptArrow skips white space and consumes "->" if it comes next.
func (s *scanner) acceptArrow() bool {
	s.skipSpace()
	if s.peek() == '-' && s.peekAt(1) == '>' {
		s.pos += 2
		return true
	}
	return false
}

// identEnd returns the end of the identifier starting at i ([A-Za-z_][A-Za-z0-9_.]*), or i if there is none.
func identEnd(src []byte, i int) int {
	if i >= len(src) || !isIdentStart(src[i]) {
		return i
	}
	i++
	for i < len(src) && isIdentChar(src[i]) {
		i++
	}
	return i
}

// ident consumes an identifier at the cursor (no white space skipped) and returns its bytes, or nil.
func (s *scanner) ident() []byte {
	end := identEnd(s.src, s.pos)
	id := s.src[s.pos:end]
	s.pos = end
	return id
}

// acceptWord skips white space and consumes the identifier w if it comes next as a whole word.
func (s *scanner) acceptWord(w string) bool {
	s.skipSpace()
	end := identEnd(s.src, s.pos)
	if string(s.src[s.pos:end]) == w {
		s.pos = end
		return true
	}
	return false
}

// numberEnd returns the end of the number starting at i: [+-]? digits [. digits] [(e|E) [+-] digits], or i.
func numberEnd(src []byte, i int) int {
	start := i
	if i < len(src) && (src[i] == '-' || src[i] == '+') {
		i++
	}
	d := i
	for i < len(src) && isDigit(src[i]) {
		i++
	}
	if i == d {
		return start
	}
	if i < len(src) && src[i] == '.' {
		i++
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '-' || src[j] == '+') {
			j++
		}
		k := j
		for j < len(src) && isDigit(src[j]) {
			j++
		}
		if j > k {
			i = j
		}
	}
	return i
}

// intValue consumes a decimal integer at the cursor (no white space skipped).
func (s *scanner) intValue(what string) int64 {
	start := s.pos
	i := s.pos
	if i < len(s.src) && s.src[i] == '-' {
		i++
	}
	d := i
	for i < len(s.src) && isDigit(s.src[i]) {
		i++
	}
	if i == d {
		s.fail("expected %s, found %s", what, s.describe())
	}
	v, err := strconv.ParseInt(string(s.src[start:i]), 10, 64)
	if err != nil {
		s.fail("integer %s is out of range", s.src[start:i])
	}
	s.pos = i
	return v
}

// balancedEnd returns the end of the bracketed group opening at i (src[i] == open), counting nested open and close
// bytes and nothing else, or -1 if the group does not close before the end of the line or a brace.
func balancedEnd(src []byte, i int, open, close byte) int {
	depth := 0
	for ; i < len(src); i++ {
		switch src[i] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return i + 1
			}
		case '\n', '{', '}':
			return -1
		}
	}
	return -1
}

// quotedEnd returns the end of the string literal opening at i (src[i] == '"'), whether it holds escapes, and
// -1 if it does not close.
func quotedEnd(src []byte, i int) (end int, escaped bool) {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '"':
			return j + 1, escaped
		case '\\':
			escaped = true
			j++
		}
	}
	return -1, escaped
}

// quoted consumes a string literal at the cursor and returns its value. Escapes: \" \\ \n \t \r \xHH; any other
// backslash is kept as it is (Paddle escapes only the quote). Strings may span lines.
func (s *scanner) quoted() string {
	start := s.here()
	end, escaped := quotedEnd(s.src, s.pos)
	if end < 0 {
		s.failAt(start, "unterminated string")
	}
	body := s.src[s.pos+1 : end-1]
	s.advanceTo(end)
	if !escaped {
		return string(body)
	}
	return unescape(body)
}

func unescape(body []byte) string {
	out := make([]byte, 0, len(body))
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' || i+1 >= len(body) {
			out = append(out, c)
			continue
		}
		switch n := body[i+1]; n {
		case '"', '\\':
			out = append(out, n)
			i++
		case 'n':
			out = append(out, '\n')
			i++
		case 't':
			out = append(out, '\t')
			i++
		case 'r':
			out = append(out, '\r')
			i++
		case 'x':
			if i+3 < len(body) {
				if v, err := strconv.ParseUint(string(body[i+2:i+4]), 16, 8); err == nil {
					out = append(out, byte(v))
					i += 3
					continue
				}
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return string(out)
}

// describe names the token at the cursor for error messages: "end of file", "identifier foo", "'{'", ….
func (s *scanner) describe() string {
	if s.pos >= len(s.src) {
		return "end of file"
	}
	src, i := s.src, s.pos
	c := src[i]
	switch {
	case isIdentStart(c):
		return "identifier " + clip(src[i:identEnd(src, i)])
	case isDigit(c) || (c == '-' || c == '+') && i+1 < len(src) && isDigit(src[i+1]):
		return "number " + clip(src[i:numberEnd(src, i)])
	case c == '"':
		end, _ := quotedEnd(src, i)
		if end < 0 {
			return "an unterminated string"
		}
		return "string " + clip(src[i:end])
	case c == '%':
		j := i + 1
		for j < len(src) && charClass[src[j]]&clValueName != 0 {
			j++
		}
		return "value " + clip(src[i:j])
	case c == '-' && i+1 < len(src) && src[i+1] == '>':
		return "'->'"
	case c == '<' && bytes.HasPrefix(src[i:], []byte(nullValue)):
		return nullValue
	case c == '\n' || c == '\r':
		return "end of line"
	case c >= 0x80 || c < 0x20 || c == 0x7f:
		r, _ := utf8.DecodeRune(src[i:])
		return strconv.QuoteRune(r)
	}
	return "'" + string(c) + "'"
}

// clip shortens a token for a message.
func clip(b []byte) string {
	const max = 40
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

// Literal spellings the reader recognizes.
const (
	nullValue = "<<NULL VALUE>>"
	nullType  = "<<NULL TYPE>>"
	nullAttr  = "<#AttrNull>"
)

// plural returns "n thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}
