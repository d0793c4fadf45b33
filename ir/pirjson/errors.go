package pirjson

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Error is an error in a PIR JSON input: where it is (file, line and column, byte offset, JSON path) and what is
// wrong. Its text is "file:line:col: path: message", for example
//
//	model.json:1:4711: program.regions[0].blocks[0].ops[17].I[2]: value id 93 is not defined
//
// Line and column count from 1; the column is the byte offset in the line plus 1, so on the usual one-line files
// it is the byte offset of the file plus 1.
type Error struct {
	File   string // the file name given to Read
	Line   int    // line of the position, from 1
	Col    int    // byte offset in the line plus 1
	Offset int    // byte offset in the input
	Path   string // JSON path of the element concerned ("" at the top level)
	Msg    string // what is wrong
}

// Error formats the error as "file:line:col: path: message".
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	b.WriteString(strconv.Itoa(e.Line))
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(e.Col))
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// newError builds an Error at byte offset off of src, computing its line and column.
func newError(file string, src []byte, off int, path string, format string, args ...any) *Error {
	if off > len(src) {
		off = len(src)
	}
	if off < 0 {
		off = 0
	}
	line := 1 + bytes.Count(src[:off], []byte{'\n'})
	col := off + 1
	if nl := bytes.LastIndexByte(src[:off], '\n'); nl >= 0 {
		col = off - nl
	}
	return &Error{File: file, Line: line, Col: col, Offset: off, Path: path, Msg: fmt.Sprintf(format, args...)}
}

// renderPath formats a JSON path: keys joined by dots, indices in brackets (program.regions[0].blocks[0]).
func renderPath(path []pathElem) string {
	var b strings.Builder
	for _, e := range path {
		if e.key == nil {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(e.idx))
			b.WriteByte(']')
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		if isPlainKey(e.key) {
			b.Write(e.key)
		} else {
			b.WriteString(strconv.Quote(string(e.key)))
		}
	}
	return b.String()
}

// isPlainKey reports whether a key can be written in a path without quotes.
func isPlainKey(k []byte) bool {
	if len(k) == 0 {
		return false
	}
	for _, c := range k {
		if !(c == '_' || c == '#' || c == '%' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
