package pirjson

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/diag"
)

// Error is an error in a PIR JSON input: where it is (file, line and column, byte offset, JSON path) and what is
// wrong. Its text is "file:line:col: error: path: message", the path a JSON Pointer (RFC 6901), for example
//
//	model.json:1:4711: error: /program/regions/0/blocks/0/ops/17/I/2: value id 93 is not defined
//
// Line and column count from 1; the column is the byte offset in the line plus 1, so on the usual one-line files
// it is the byte offset of the file plus 1.
type Error struct {
	Pos  diag.Position // the file name given to Read, the byte offset, the line, the column (byte offset in the line plus 1)
	Path string        // JSON Pointer of the element concerned ("" at the top level)
	Msg  string        // what is wrong
}

// Error formats the error as "file:line:col: error: path: message".
func (e *Error) Error() string { return e.Diagnostic().Error() }

// Diagnostic returns the error as a diag.Diagnostic of severity Error, its JSON path in Path.
func (e *Error) Diagnostic() diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Error, Pos: e.Pos, Path: e.Path, Message: e.Msg}
}

// Diagnostics returns the error as a one-element diag.Diagnostics, so that callers render it like other program
// diagnostics (with the source line and a caret).
func (e *Error) Diagnostics() diag.Diagnostics { return diag.Diagnostics{e.Diagnostic()} }

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
	return &Error{Pos: diag.Position{Filename: file, Offset: off, Line: line, Column: col}, Path: path, Msg: fmt.Sprintf(format, args...)}
}

// renderPath formats a JSON path as a JSON Pointer (RFC 6901): "/program/regions/0/blocks/0"; "~" and "/" in
// keys are escaped as "~0" and "~1".
func renderPath(path []pathElem) string {
	var b strings.Builder
	for _, e := range path {
		b.WriteByte('/')
		if e.key == nil {
			b.WriteString(strconv.Itoa(e.idx))
			continue
		}
		for _, c := range e.key {
			switch c {
			case '~':
				b.WriteString("~0")
			case '/':
				b.WriteString("~1")
			default:
				b.WriteByte(c)
			}
		}
	}
	return b.String()
}
