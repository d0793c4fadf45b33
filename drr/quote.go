package drr

import (
	"strings"
	"unicode/utf8"
)

// String literals and names as the lexer reads them and the formatter and
// messages write them.

// unquote decodes a string literal (with its quotes). Escapes \" \\ \n \t
// are decoded; any other backslash is kept as written (printed PIR does not
// escape backslashes).
func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	} else {
		s = strings.TrimPrefix(s, `"`) // unterminated (already reported)
	}
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '"', '\\':
				b.WriteByte(s[i+1])
				i++
				continue
			case 'n':
				b.WriteByte('\n')
				i++
				continue
			case 't':
				b.WriteByte('\t')
				i++
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// quote encodes s as a string literal.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// isPlainDotted reports whether s is a dotted identifier (a.b, a.b.c) that
// can be written unquoted in op position.
func isPlainDotted(s string) bool {
	if !strings.Contains(s, ".") {
		return false
	}
	for _, part := range strings.Split(s, ".") {
		if part == "" || !isIdentStart(part[0]) {
			return false
		}
		for i := 1; i < len(part); i++ {
			if !isNameChar(part[i]) {
				return false
			}
		}
	}
	return true
}

// quoteRune quotes the first character of s for a message.
func quoteRune(s string) string {
	r, _ := utf8.DecodeRuneInString(s)
	if r == '\'' {
		return `"'"`
	}
	return "'" + string(r) + "'"
}
