package graphnet

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Python source layout in the style GraphNet's files have (they are formatted by black, line length 88): a
// construct stays on one line when it fits, otherwise its brackets open at the end of the line, the contents go on
// the next line one level deeper, and when they do not fit there either, one item per line with a trailing comma.

const lineLength = 88

// pyItem is a piece of Python text that may be split over lines: a plain atom, or a bracketed sequence of items
// after a head (call: "f(" … ")", list: "[" … "]", tuple: "(" … ")").
type pyItem struct {
	text          string // the atom, or the head before the opening bracket
	open, close   string
	elems         []pyItem
	bracketed     bool
	trailing      bool // one-element tuples need a trailing comma even on one line
	alwaysExplode bool
}

func atom(s string) pyItem { return pyItem{text: s} }

func call(fn string, args ...pyItem) pyItem {
	return pyItem{text: fn, open: "(", close: ")", elems: args, bracketed: true}
}

func list(elems ...pyItem) pyItem {
	return pyItem{open: "[", close: "]", elems: elems, bracketed: true}
}

func tuple(elems ...pyItem) pyItem {
	return pyItem{open: "(", close: ")", elems: elems, bracketed: true, trailing: len(elems) == 1}
}

// flat returns the item on one line.
func (it pyItem) flat() string {
	if !it.bracketed {
		return it.text
	}
	var b strings.Builder
	b.WriteString(it.text)
	b.WriteString(it.open)
	for i, e := range it.elems {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(e.flat())
	}
	if it.trailing {
		b.WriteByte(',')
	}
	b.WriteString(it.close)
	return b.String()
}

// layout writes the item starting at column indent (the text before it on the line is prefix, already written by
// the caller) followed by suffix, splitting it as needed.
func (it pyItem) layout(b *strings.Builder, indent int, prefix, suffix string) {
	flat := it.flat()
	if !it.alwaysExplode && (!it.bracketed || width(prefix)+utf8.RuneCountInString(flat)+firstLine(suffix) <= lineLength || len(it.elems) == 0) {
		b.WriteString(flat)
		b.WriteString(suffix)
		return
	}
	pad := strings.Repeat(" ", indent+4)
	b.WriteString(it.text)
	b.WriteString(it.open)
	b.WriteByte('\n')
	// The contents on one line, one level deeper.
	inner := make([]string, len(it.elems))
	fits := !it.alwaysExplode
	total := indent + 4
	for i, e := range it.elems {
		inner[i] = e.flat()
		total += len(inner[i]) + 2
	}
	if it.trailing || total-2 > lineLength {
		fits = false
	}
	if fits {
		b.WriteString(pad)
		b.WriteString(strings.Join(inner, ", "))
		b.WriteByte('\n')
	} else {
		for _, e := range it.elems {
			b.WriteString(pad)
			e.layout(b, indent+4, pad, ",")
			b.WriteByte('\n')
		}
	}
	b.WriteString(strings.Repeat(" ", indent))
	b.WriteString(it.close)
	b.WriteString(suffix)
}

// firstLine is the length of the first line of s.
func firstLine(s string) int {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return utf8.RuneCountInString(s)
}

// width is the length of the last line of s.
func width(s string) int {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return utf8.RuneCountInString(s)
}

// pyString quotes s as a Python string literal in double quotes.
func pyString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f {
				b.WriteString(`\x`)
				b.WriteString(strconv.FormatInt(int64(r)+0x100, 16)[1:])
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// floatText formats a float of the given precision (32 or 64 bits) as GraphNet writes it inside float("…"): with
// six significant digits (C's %g) when that reads back to the same value, else with as many digits as needed;
// inf, -inf and nan as Python spells them.
func floatText(v float64, bits int) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(v, 'g', 6, 64)
	if r, err := strconv.ParseFloat(s, bits); err == nil && r == v {
		return s
	}
	return strconv.FormatFloat(v, 'g', -1, bits)
}

// pyFloat formats v as Python's repr does for a float (shortest digits for the given precision, ".0" on integral
// values, exponent form below 1e-4 and from 1e16), and inf, -inf and nan as float("inf") and so on.
func pyFloat(v float64, bits int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return `float("` + floatText(v, bits) + `")`
	}
	return pyRepr(v, bits)
}

// pyRepr is Python's repr of a finite float, with the shortest digits that read back at the given precision.
func pyRepr(v float64, bits int) string {
	e := strconv.FormatFloat(v, 'e', -1, bits) // d.ddde±XX
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	digits := strings.Replace(mant, ".", "", 1)
	var out string
	if exp < -4 || exp >= 16 {
		out = digits[:1]
		if len(digits) > 1 {
			out += "." + digits[1:]
		}
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		es := strconv.Itoa(exp)
		if len(es) < 2 {
			es = "0" + es
		}
		out += "e" + sign + es
	} else if exp < 0 {
		out = "0." + strings.Repeat("0", -exp-1) + digits
	} else if len(digits) <= exp+1 {
		out = digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
	} else {
		out = digits[:exp+1] + "." + digits[exp+1:]
	}
	if neg {
		out = "-" + out
	}
	return out
}
