package lsp

import (
	"sort"
	"unicode/utf8"

	"github.com/pirdrr/drr/lsp/protocol"
)

// lineIndex converts between byte offsets of a document's text and protocol positions, whose character offsets
// count in the negotiated encoding: UTF-16 code units (the protocol's default), bytes (utf-8) or runes (utf-32).
type lineIndex struct {
	text   string
	starts []int // byte offset of the start of each line
	enc    protocol.PositionEncodingKind
}

func newLineIndex(text string, enc protocol.PositionEncodingKind) *lineIndex {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lineIndex{text: text, starts: starts, enc: enc}
}

// lineEnd returns the offset of the end of line i (before its newline and any carriage return).
func (li *lineIndex) lineEnd(i int) int {
	end := len(li.text)
	if i+1 < len(li.starts) {
		end = li.starts[i+1] - 1
	}
	if end > li.starts[i] && li.text[end-1] == '\r' {
		end--
	}
	return end
}

// width returns how many units of the encoding s takes.
func (li *lineIndex) width(s string) int {
	switch li.enc {
	case protocol.UTF8:
		return len(s)
	case protocol.UTF32:
		return utf8.RuneCountInString(s)
	}
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// position returns the protocol position of byte offset off (clamped to the text).
func (li *lineIndex) position(off int) protocol.Position {
	off = max(0, min(off, len(li.text)))
	line := sort.Search(len(li.starts), func(i int) bool { return li.starts[i] > off }) - 1
	start := li.starts[line]
	end := min(off, li.lineEnd(line))
	return protocol.Position{Line: uint32(line), Character: uint32(li.width(li.text[start:max(start, end)]))}
}

// rng returns the protocol range of the bytes [start, end).
func (li *lineIndex) rng(start, end int) protocol.Range {
	return protocol.Range{Start: li.position(start), End: li.position(end)}
}

// offset returns the byte offset of a protocol position. A line past the end is the end of the text; a
// character past the end of its line is the end of the line; a position inside a character that takes several
// units is the start of that character.
func (li *lineIndex) offset(p protocol.Position) int {
	if int(p.Line) >= len(li.starts) {
		return len(li.text)
	}
	start, end := li.starts[p.Line], li.lineEnd(int(p.Line))
	units := int(p.Character)
	for i, r := range li.text[start:end] {
		w := li.width(string(r))
		if units < w {
			return start + i
		}
		units -= w
	}
	return end
}

// fromLineCol returns the byte offset of a 1-based line and a 1-based column counted in bytes (diag.Position's
// columns); a column past the end of the line is the end of the line, one inside a character its start.
func (li *lineIndex) fromLineCol(line, col int) int {
	if line < 1 {
		return 0
	}
	if line > len(li.starts) {
		return len(li.text)
	}
	start, end := li.starts[line-1], li.lineEnd(line-1)
	i := min(start+max(col-1, 0), end)
	for i > start && !utf8.RuneStart(li.text[i]) {
		i--
	}
	return i
}
