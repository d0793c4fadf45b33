package paddle

import "strings"

// wrapExpr breaks a long C++ expression into lines at its operators of lowest precedence (?:, ||, &&,
// comparisons, + -, * /), operator last, continuation lines starting with indent; a parenthesized part too long
// for a line is broken inside its parentheses, one column further in. Lines already broken are kept.
func wrapExpr(s, indent string, width int) string {
	if len(s) <= width || strings.Contains(s, "\n") {
		return s
	}
	if inner, ok := stripParens(s); ok {
		return "(" + wrapExpr(inner, indent+" ", width-1) + ")"
	}
	if i := strings.IndexByte(s, '('); i > 0 && isCallee(s[:i]) {
		if inner, ok := stripParens(s[i:]); ok { // a call of one long argument list: break inside it
			parts, seps := splitTop(inner, []string{", "})
			var b strings.Builder
			b.WriteString(s[:i+1] + "\n" + indent + "    ")
			for j, p := range parts {
				b.WriteString(wrapExpr(p, indent+"    ", width-4))
				if j < len(seps) {
					b.WriteString(",\n" + indent + "    ")
				}
			}
			return b.String() + ")"
		}
	}
	for _, ops := range [][]string{{" ? ", " : "}, {" || "}, {" && "}, {" == ", " != ", " <= ", " >= ", " < ", " > "},
		{" + ", " - "}, {" * ", " / ", " % "}} {
		parts, seps := splitTop(s, ops)
		if len(parts) < 2 {
			continue
		}
		var b strings.Builder
		for i, p := range parts {
			b.WriteString(wrapExpr(p, indent, width))
			if i < len(seps) {
				b.WriteString(strings.TrimRight(seps[i], " ") + "\n" + indent)
			}
		}
		return b.String()
	}
	return s
}

// stripParens returns s without the parentheses around all of it.
func stripParens(s string) (string, bool) {
	if !strings.HasPrefix(s, "(") || !strings.HasSuffix(s, ")") {
		return "", false
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && i < len(s)-1 {
				return "", false
			}
		case '"':
			i = skipString(s, i)
		}
	}
	return s[1 : len(s)-1], true
}

// splitTop splits s at the occurrences of ops outside parentheses, brackets, braces, templates and strings.
func splitTop(s string, ops []string) (parts, seps []string) {
	depth, last := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '<':
			if i > 0 && (isIdentByte(s[i-1])) { // a template argument list: Attr<int32_t>, std::vector<float>
				depth++
			}
		case '>':
			if i > 0 && s[i-1] != ' ' && s[i-1] != '-' && depth > 0 {
				depth--
			}
		case '"':
			i = skipString(s, i)
			continue
		}
		if depth != 0 {
			continue
		}
		for _, op := range ops {
			if strings.HasPrefix(s[i:], op) {
				parts = append(parts, s[last:i])
				seps = append(seps, op)
				last = i + len(op)
				i += len(op) - 1
				break
			}
		}
	}
	parts = append(parts, s[last:])
	return parts, seps
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// skipString returns the index of the quote that closes the string literal opened at s[i].
func skipString(s string, i int) int {
	for i++; i < len(s) && s[i] != '"'; i++ {
		if s[i] == '\\' {
			i++
		}
	}
	return i
}

// isCallee reports whether s can be what is called: a name, possibly qualified, with template arguments.
func isCallee(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isIdentByte(c) && c != ':' && c != '<' && c != '>' && c != '.' {
			return false
		}
	}
	return true
}
