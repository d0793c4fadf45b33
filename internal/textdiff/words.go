package textdiff

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// wordContext is how many bytes of unchanged text a word line keeps next to a change; longer unchanged stretches
// are shortened to "…".
const wordContext = 24

// writeWordLines writes the word lines of the change that ends hunk: the removed lines and the added lines just
// before its end, paired in order.
func writeWordLines(out *strings.Builder, hunk []lineOp) {
	end := len(hunk)
	plus := end
	for plus > 0 && hunk[plus-1].kind == '+' {
		plus--
	}
	minus := plus
	for minus > 0 && hunk[minus-1].kind == '-' {
		minus--
	}
	removed, added := hunk[minus:plus], hunk[plus:end]
	for k := 0; k < len(removed) && k < len(added); k++ {
		if line, ok := WordDiff(removed[k].text, added[k].text); ok {
			out.WriteString("~")
			out.WriteString(line)
			out.WriteByte('\n')
		}
	}
}

// WordDiff shows how line a became line b: the text once, with removed words in [-…-] and added ones in {+…+},
// unchanged stretches longer than twice wordContext shortened to "…". ok is false when the lines share too little
// (less than half of the shorter one) for the markup to be easier to read than the two lines.
func WordDiff(a, b string) (string, bool) {
	ta, tb := tokens(a), tokens(b)
	ops := diffTokens(ta, tb)
	common := 0
	for _, o := range ops {
		if o.kind == ' ' {
			common += len(o.text)
		}
	}
	if 2*common < min(len(a), len(b)) || a == b {
		return "", false
	}
	cut := len(a) > shortLine || len(b) > shortLine
	var out strings.Builder
	for i := 0; i < len(ops); {
		kind := ops[i].kind
		var run []string
		for ; i < len(ops) && ops[i].kind == kind; i++ {
			run = append(run, ops[i].text)
		}
		text := strings.Join(run, "")
		switch {
		case kind == '-':
			out.WriteString("[-" + text + "-]")
		case kind == '+':
			out.WriteString("{+" + text + "+}")
		case cut:
			out.WriteString(shorten(run, out.Len() == 0, i == len(ops)))
		default:
			out.WriteString(text)
		}
	}
	return out.String(), true
}

// shortLine is the length from which word lines shorten unchanged stretches.
const shortLine = 100

// shorten keeps whole tokens of an unchanged stretch, about wordContext bytes next to each change (only the end
// of the first stretch, only the start of the last), and puts "…" for the rest.
func shorten(run []string, first, last bool) string {
	total := 0
	for _, t := range run {
		total += len(t)
	}
	keep := 2 * wordContext
	if first || last {
		keep = wordContext
	}
	if total <= keep+len("…") {
		return strings.Join(run, "")
	}
	var head, tail []string
	if !first {
		for n := 0; len(head) < len(run) && n < wordContext; {
			head = append(head, run[len(head)])
			n += len(head[len(head)-1])
		}
	}
	if !last {
		for n, k := 0, len(run); k > len(head) && n < wordContext; {
			k--
			tail = append([]string{run[k]}, tail...)
			n += len(run[k])
		}
	}
	return strings.Join(head, "") + "…" + strings.Join(tail, "")
}

// tokens splits a line into words (letters, digits, '_' and '.'), runs of spaces, and single other characters.
func tokens(s string) []string {
	var out []string
	class := func(r rune) int {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.':
			return 1
		case unicode.IsSpace(r):
			return 2
		}
		return 0
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		c := class(r)
		j := i + size
		if c != 0 {
			for j < len(s) {
				r2, size2 := utf8.DecodeRuneInString(s[j:])
				if class(r2) != c {
					break
				}
				j += size2
			}
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

type tokenOp struct {
	kind byte
	text string
}

// diffTokens is the longest-common-subsequence edit script of two token lists (lines are short).
func diffTokens(a, b []string) []tokenOp {
	n, m := len(a), len(b)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []tokenOp
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			ops = append(ops, tokenOp{' ', a[i]})
			i++
			j++
		case lcs[i+1][j] >= lcs[i][j+1]:
			ops = append(ops, tokenOp{'-', a[i]})
			i++
		default:
			ops = append(ops, tokenOp{'+', b[j]})
			j++
		}
	}
	for ; i < n; i++ {
		ops = append(ops, tokenOp{'-', a[i]})
	}
	for ; j < m; j++ {
		ops = append(ops, tokenOp{'+', b[j]})
	}
	return ops
}
