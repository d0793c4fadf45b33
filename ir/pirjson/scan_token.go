package pirjson

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// str reads a string and returns its decoded bytes: a subslice of the source when it has no escapes.
func (s *scanner) str() ([]byte, error) {
	if s.ws() != '"' {
		return nil, s.unexpected("a string")
	}
	start := s.pos + 1
	i := start
	for i < len(s.src) {
		c := s.src[i]
		if c == '"' {
			s.pos = i + 1
			return s.src[start:i], nil
		}
		if c == '\\' {
			return s.strSlow(start, i)
		}
		if c < 0x20 {
			return nil, s.errAt(i, "control character 0x%02x in string", c)
		}
		i++
	}
	return nil, s.errAt(s.pos, "unterminated string")
}

// strSlow decodes a string with escapes; start is the first byte of its content and i the first backslash.
func (s *scanner) strSlow(start, i int) ([]byte, error) {
	out := make([]byte, 0, i-start+16)
	out = append(out, s.src[start:i]...)
	for i < len(s.src) {
		c := s.src[i]
		switch {
		case c == '"':
			s.pos = i + 1
			return out, nil
		case c < 0x20:
			return nil, s.errAt(i, "control character 0x%02x in string", c)
		case c != '\\':
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(s.src) {
			break
		}
		esc := s.src[i+1]
		switch esc {
		case '"', '\\', '/':
			out = append(out, esc)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, n, err := s.unicodeEscape(i)
			if err != nil {
				return nil, err
			}
			out = utf8.AppendRune(out, r)
			i += n
			continue
		default:
			return nil, s.errAt(i, "invalid escape \\%c in string", esc)
		}
		i += 2
	}
	return nil, s.errAt(start-1, "unterminated string")
}

// unicodeEscape decodes \uXXXX (and a following low surrogate) at i; it returns the rune and the bytes used.
func (s *scanner) unicodeEscape(i int) (rune, int, error) {
	hi, ok := hex4(s.src, i+2)
	if !ok {
		return 0, 0, s.errAt(i, "invalid \\u escape in string")
	}
	if hi < 0xd800 || hi > 0xdfff {
		return rune(hi), 6, nil
	}
	if hi >= 0xdc00 || i+12 > len(s.src) || s.src[i+6] != '\\' || s.src[i+7] != 'u' {
		return 0, 0, s.errAt(i, "unpaired surrogate \\u%04x in string", hi)
	}
	lo, ok := hex4(s.src, i+8)
	if !ok || lo < 0xdc00 || lo > 0xdfff {
		return 0, 0, s.errAt(i, "unpaired surrogate \\u%04x in string", hi)
	}
	return rune(0x10000 + (hi-0xd800)<<10 + (lo - 0xdc00)), 12, nil
}

func hex4(b []byte, i int) (uint32, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var v uint32
	for _, c := range b[i : i+4] {
		v <<= 4
		switch {
		case c >= '0' && c <= '9':
			v |= uint32(c - '0')
		case c >= 'a' && c <= 'f':
			v |= uint32(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			v |= uint32(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return v, true
}

// number reads a number token and returns its text and whether it is an integer (no fraction or exponent).
func (s *scanner) number() ([]byte, bool, error) {
	c := s.ws()
	start := s.pos
	i := start
	if c == '-' {
		i++
	}
	if i >= len(s.src) || s.src[i] < '0' || s.src[i] > '9' {
		return nil, false, s.unexpected("a number")
	}
	if s.src[i] == '0' {
		i++
	} else {
		for i < len(s.src) && s.src[i] >= '0' && s.src[i] <= '9' {
			i++
		}
	}
	isInt := true
	if i < len(s.src) && s.src[i] == '.' {
		isInt = false
		i++
		d := i
		for i < len(s.src) && s.src[i] >= '0' && s.src[i] <= '9' {
			i++
		}
		if i == d {
			return nil, false, s.errAt(start, "malformed number")
		}
	}
	if i < len(s.src) && (s.src[i] == 'e' || s.src[i] == 'E') {
		isInt = false
		i++
		if i < len(s.src) && (s.src[i] == '+' || s.src[i] == '-') {
			i++
		}
		d := i
		for i < len(s.src) && s.src[i] >= '0' && s.src[i] <= '9' {
			i++
		}
		if i == d {
			return nil, false, s.errAt(start, "malformed number")
		}
	}
	s.pos = i
	return s.src[start:i], isInt, nil
}

// integer reads an integer token in [min, max].
func (s *scanner) integer(min, max int64) (int64, error) {
	if c := s.ws(); c != '-' && (c < '0' || c > '9') {
		return 0, s.unexpected("an integer")
	}
	off := s.pos
	tok, isInt, err := s.number()
	if err != nil {
		return 0, err
	}
	if !isInt {
		return 0, s.errAt(off, "want an integer, got %s", tok)
	}
	v, ok := parseInt(tok)
	if !ok || v < min || v > max {
		return 0, s.errAt(off, "integer %s out of range [%d, %d]", tok, min, max)
	}
	return v, nil
}

// unsigned reads a non-negative integer token that fits in a uint64.
func (s *scanner) unsigned() (uint64, error) {
	if c := s.ws(); c != '-' && (c < '0' || c > '9') {
		return 0, s.unexpected("an integer")
	}
	off := s.pos
	tok, isInt, err := s.number()
	if err != nil {
		return 0, err
	}
	if !isInt {
		return 0, s.errAt(off, "want an integer, got %s", tok)
	}
	v, err := strconv.ParseUint(string(tok), 10, 64)
	if err != nil {
		return 0, s.errAt(off, "integer %s out of range [0, %d]", tok, uint64(math.MaxUint64))
	}
	return v, nil
}

// parseInt parses a decimal integer token (as the scanner accepted it) into an int64.
func parseInt(tok []byte) (int64, bool) {
	neg := tok[0] == '-'
	if neg {
		tok = tok[1:]
	}
	if len(tok) > 19 { // 19 digits always fit in a uint64
		return 0, false
	}
	var u uint64
	for _, c := range tok {
		u = u*10 + uint64(c-'0')
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

// float reads a number token as a float64.
func (s *scanner) float() (float64, error) {
	if c := s.ws(); c != '-' && (c < '0' || c > '9') {
		return 0, s.unexpected("a number")
	}
	off := s.pos
	tok, _, err := s.number()
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseFloat(string(tok), 64)
	if err != nil && !isRangeErr(err) {
		return 0, s.errAt(off, "malformed number %s", tok)
	}
	return v, nil
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// boolean reads true or false.
func (s *scanner) boolean() (bool, error) {
	switch s.ws() {
	case 't':
		if s.lit("true") {
			return true, nil
		}
	case 'f':
		if s.lit("false") {
			return false, nil
		}
	}
	return false, s.unexpected("true or false")
}

// lit consumes the literal word if it is next.
func (s *scanner) lit(word string) bool {
	if len(s.src)-s.pos >= len(word) && string(s.src[s.pos:s.pos+len(word)]) == word {
		s.pos += len(word)
		return true
	}
	return false
}
