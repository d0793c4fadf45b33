package rulegen

import (
	"go/token"
	"strconv"
	"strings"
	"unicode"
)

// names hands out Go identifiers that are unique within one scope.
type names map[string]bool

// fresh returns base, or base2, base3, … if base is taken, and takes it.
func (n names) fresh(base string) string {
	name := base
	for i := 2; n[name] || token.Lookup(name).IsKeyword(); i++ {
		name = base + strconv.Itoa(i)
	}
	n[name] = true
	return name
}

// ident turns s into a Go identifier fragment: letters, digits and underscores are kept, every other run of
// characters becomes one underscore ("pd_op.batch_norm_" → "pd_op_batch_norm_").
func ident(s string) string {
	var b strings.Builder
	sep := false
	for _, r := range s {
		if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			if r > unicode.MaxASCII {
				r = '_'
			}
			b.WriteRune(r)
			sep = false
			continue
		}
		if !sep {
			b.WriteByte('_')
			sep = true
		}
	}
	out := b.String()
	if out == "" || unicode.IsDigit(rune(out[0])) {
		out = "x" + out
	}
	return out
}

// camel turns a snake_case name into CamelCase ("conv_bn_relu" → "ConvBnRelu"), dropping characters that cannot
// be in an identifier.
func camel(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		switch {
		case r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r)):
			up = true
		case up:
			b.WriteRune(unicode.ToUpper(r))
			up = false
		default:
			b.WriteRune(r)
		}
	}
	out := b.String()
	if out == "" || unicode.IsDigit(rune(out[0])) {
		out = "X" + out
	}
	return out
}

// lowerFirst lowers the first letter of an identifier ("ConvBnRelu" → "convBnRelu").
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToLower(r[0])
	return string(r)
}

// commentWidth is the width generated doc comments are wrapped to.
const commentWidth = 117

// wrapComment splits text into // comment lines of at most commentWidth columns (a longer word stays whole).
func wrapComment(text string) []string {
	var out []string
	line := "//"
	for _, w := range strings.Fields(text) {
		if len(line) > 2 && len(line)+1+len(w) > commentWidth {
			out = append(out, line)
			line = "//"
		}
		line += " " + w
	}
	return append(out, line)
}
