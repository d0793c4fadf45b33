package graphnet

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

// Error is a problem in a GraphNet graph: the file (model.py, weight_meta.py, input_meta.py, graph_net.json, or the
// folder for a missing file), the position when there is one, and what is wrong. Its text is
//
//	bert/model.py:412:9: error: pd_op.matmul takes 4 arguments, the call gives 5
type Error struct {
	File string
	// Line and Col locate the problem; both are 0 when the error concerns the whole file.
	Line, Col int
	Msg       string
}

// Error formats the error as "file:line:col: error: message".
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	if e.Line > 0 {
		b.WriteString(strconv.Itoa(e.Line))
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.Col))
		b.WriteByte(':')
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	b.WriteString("error: ")
	b.WriteString(e.Msg)
	return b.String()
}

// Diagnostics returns the error as a diagnostic, so that tools print it with its source line and a caret (package
// pirfile renders reader errors that have this method).
func (e *Error) Diagnostics() diag.Diagnostics {
	return diag.Diagnostics{{Severity: diag.Error, Pos: diag.Position{Filename: e.File, Line: e.Line, Column: e.Col}, Message: e.Msg}}
}

func errorAt(file string, p ir.Loc, format string, args ...any) *Error {
	return &Error{File: file, Line: int(p.Line), Col: int(p.Col), Msg: fmt.Sprintf(format, args...)}
}
