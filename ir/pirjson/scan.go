package pirjson

import (
	"strconv"
)

// scanner is a JSON tokenizer over a byte slice that keeps the byte offset, the line and the JSON path of what it
// reads, so that every error can name where it happened. It never allocates for strings without escapes (they are
// returned as subslices of the source) and parses integers itself.
type scanner struct {
	src       []byte
	pos       int
	line      int // line of pos, from 1
	lineStart int // offset of the first byte of that line
	file      string
	path      []pathElem
	depth     int // nesting of objects and arrays being read
}

// maxDepth bounds the nesting of objects and arrays, so that hostile inputs cannot exhaust the stack.
const maxDepth = 10000

// pathElem is one step of a JSON path: an object key, or an array index when key is nil.
type pathElem struct {
	key []byte
	idx int
}

// mark is a saved scanner position.
type mark struct{ pos, line, lineStart int }

func (s *scanner) mark() mark       { return mark{s.pos, s.line, s.lineStart} }
func (s *scanner) reset(m mark)     { s.pos, s.line, s.lineStart = m.pos, m.line, m.lineStart }
func (s *scanner) pushKey(k []byte) { s.path = append(s.path, pathElem{key: k}) }
func (s *scanner) pushIdx(i int)    { s.path = append(s.path, pathElem{idx: i}) }
func (s *scanner) pop()             { s.path = s.path[:len(s.path)-1] }

// loc returns the line and column (from 1) of the current position; the column is the byte offset in the line.
func (s *scanner) loc() (int, int) { return s.line, s.pos - s.lineStart + 1 }

// ws skips whitespace and returns the next byte, or 0 at the end of the input.
func (s *scanner) ws() byte {
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch c {
		case ' ', '\t', '\r':
			s.pos++
		case '\n':
			s.pos++
			s.line++
			s.lineStart = s.pos
		default:
			return c
		}
	}
	return 0
}

// errAt returns an error at offset off with the current path.
func (s *scanner) errAt(off int, format string, args ...any) error {
	return newError(s.file, s.src, off, renderPath(s.path), format, args...)
}

// unexpected describes the token at the current position for error messages.
func (s *scanner) unexpected(want string) error {
	c := s.ws()
	if s.pos >= len(s.src) {
		return s.errAt(s.pos, "unexpected end of input; want %s", want)
	}
	return s.errAt(s.pos, "unexpected %s; want %s", describeByte(c), want)
}

func describeByte(c byte) string {
	switch {
	case c == '"':
		return "string"
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == '-' || c >= '0' && c <= '9':
		return "number"
	case c == 't' || c == 'f':
		return "boolean"
	case c == 'n':
		return "null"
	case c >= 0x20 && c < 0x7f:
		return strconv.QuoteRune(rune(c))
	}
	return "byte 0x" + strconv.FormatUint(uint64(c), 16)
}

// object reads an object, calling fn for each key with the scanner positioned at the value; fn must consume the
// value. The key is pushed on the path while fn runs. Duplicate keys are the caller's business.
func (s *scanner) object(fn func(key []byte, keyOff int) error) error {
	if s.ws() != '{' {
		return s.unexpected("an object")
	}
	if s.depth >= maxDepth {
		return s.errAt(s.pos, "nesting deeper than %d", maxDepth)
	}
	s.depth++
	err := s.members(fn)
	s.depth--
	return err
}

// members reads the members of an object after its '{'.
func (s *scanner) members(fn func(key []byte, keyOff int) error) error {
	s.pos++
	if s.ws() == '}' {
		s.pos++
		return nil
	}
	for {
		if s.ws() != '"' {
			return s.unexpected("a key")
		}
		keyOff := s.pos
		key, err := s.str()
		if err != nil {
			return err
		}
		if s.ws() != ':' {
			return s.unexpected("':'")
		}
		s.pos++
		s.pushKey(key)
		err = fn(key, keyOff)
		s.pop()
		if err != nil {
			return err
		}
		switch s.ws() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return nil
		default:
			return s.unexpected("',' or '}'")
		}
	}
}

// array reads an array, calling fn for each element with the scanner positioned at it; fn must consume it. The
// index is pushed on the path while fn runs.
func (s *scanner) array(fn func(i int) error) error {
	if s.ws() != '[' {
		return s.unexpected("an array")
	}
	if s.depth >= maxDepth {
		return s.errAt(s.pos, "nesting deeper than %d", maxDepth)
	}
	s.depth++
	err := s.elements(fn)
	s.depth--
	return err
}

// elements reads the elements of an array after its '['.
func (s *scanner) elements(fn func(i int) error) error {
	s.pos++
	if s.ws() == ']' {
		s.pos++
		return nil
	}
	for i := 0; ; i++ {
		s.pushIdx(i)
		err := fn(i)
		s.pop()
		if err != nil {
			return err
		}
		switch s.ws() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return nil
		default:
			return s.unexpected("',' or ']'")
		}
	}
}

// skip skips one JSON value without decoding it. It checks brackets and strings, not the grammar in full: the
// caller parses what it skipped when it needs the contents.
func (s *scanner) skip() error {
	c := s.ws()
	switch c {
	case '{', '[':
		depth := 0
		i := s.pos
		for i < len(s.src) {
			if !skipSpecial[s.src[i]] {
				i++
				continue
			}
			switch s.src[i] {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.pos = i + 1
					return nil
				}
			case '"':
				j, err := s.skipStr(i)
				if err != nil {
					return err
				}
				i = j
				continue
			case '\n':
				s.line++
				s.lineStart = i + 1
			}
			i++
		}
		return s.errAt(s.pos, "unterminated %s", describeByte(c))
	case '"':
		j, err := s.skipStr(s.pos)
		if err != nil {
			return err
		}
		s.pos = j
		return nil
	case 't', 'f':
		_, err := s.boolean()
		return err
	case 'n':
		if s.lit("null") {
			return nil
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		_, _, err := s.number()
		return err
	}
	return s.unexpected("a value")
}

// skipSpecial marks the bytes skip must look at inside an object or array.
var skipSpecial = [256]bool{'{': true, '[': true, '}': true, ']': true, '"': true, '\n': true}

// skipStr returns the offset just after the string starting at i.
func (s *scanner) skipStr(i int) (int, error) {
	start := i
	i++
	for i < len(s.src) {
		switch c := s.src[i]; {
		case c == '"':
			return i + 1, nil
		case c == '\\':
			i += 2
		case c < 0x20:
			return 0, s.errAt(i, "control character 0x%02x in string", c)
		default:
			i++
		}
	}
	return 0, s.errAt(start, "unterminated string")
}
