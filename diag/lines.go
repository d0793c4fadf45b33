package diag

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// excerptContext is how many bytes of a long source line Excerpt shows on each side of the column.
const excerptContext = 60

// Excerpt returns line number line (from 1) of src and, under it, a caret at byte column col (from 1), each
// followed by a newline: the picture compilers print under a diagnostic. It returns "" when src has no such line.
// The caret lines up under tabs (they are repeated in its indentation); a line longer than the screen (the
// one-line files of PIR JSON) is cut to a window of excerptContext bytes on each side of the column, its cut ends
// marked with "…". A column past the end of the line points just after it. Invalid UTF-8 shows as U+FFFD.
//
// Rule diagnostics and program diagnostics (Diagnostic.Render) are drawn by this one function.
func Excerpt(src []byte, line, col int) string { return NewLines(src).Excerpt(line, col) }

// Lines is a source text with the offsets where its lines start, found as far as they have been asked for: a
// file's diagnostics drawn through one Lines scan it once, where an Excerpt for each scans it from the start each
// time (14,000 diagnostics of a malformed 8,000-block program took 5 s).
type Lines struct {
	src    []byte
	starts []int // starts[i] is the offset of line i+1
}

// NewLines returns the line index of src.
func NewLines(src []byte) *Lines { return &Lines{src: src, starts: []int{0}} }

// Offset returns the byte offset where line number line (from 1) starts, and false if src has no such line.
func (l *Lines) Offset(line int) (int, bool) {
	if line < 1 {
		return 0, false
	}
	for len(l.starts) < line {
		last := l.starts[len(l.starts)-1]
		i := bytes.IndexByte(l.src[last:], '\n')
		if i < 0 {
			return 0, false
		}
		l.starts = append(l.starts, last+i+1)
	}
	return l.starts[line-1], true
}

// Excerpt is Excerpt of the indexed source.
func (l *Lines) Excerpt(line, col int) string {
	start, ok := l.Offset(line)
	if !ok {
		return ""
	}
	return excerptAt(l.src, start, col)
}

// excerptAt is Excerpt of the line that starts at offset start.
func excerptAt(src []byte, start, col int) string {
	end := len(src)
	if i := bytes.IndexByte(src[start:], '\n'); i >= 0 {
		end = start + i
	}
	text := bytes.TrimRight(src[start:end], "\r")
	c := min(max(col-1, 0), len(text))
	var prefix, suffix string
	if len(text) > 2*excerptContext+20 {
		lo, hi := max(0, c-excerptContext), min(len(text), c+excerptContext)
		for lo > 0 && !utf8.RuneStart(text[lo]) {
			lo--
		}
		for hi < len(text) && !utf8.RuneStart(text[hi]) {
			hi++
		}
		if lo > 0 {
			prefix = "…"
		}
		if hi < len(text) {
			suffix = "…"
		}
		text, c = text[lo:hi], c-lo
	}
	var shown, caret strings.Builder
	shown.WriteString(prefix)
	if prefix != "" {
		caret.WriteByte(' ')
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && size <= 1 {
			r, size = utf8.RuneError, 1
		}
		shown.WriteRune(r)
		if i < c {
			if r == '\t' {
				caret.WriteByte('\t')
			} else {
				caret.WriteByte(' ')
			}
		}
		i += size
	}
	shown.WriteString(suffix)
	shown.WriteByte('\n')
	caret.WriteString("^\n")
	return shown.String() + caret.String()
}
