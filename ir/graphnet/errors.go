package graphnet

import (
	"fmt"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

// Error is a problem in a GraphNet graph: the file (model.py, weight_meta.py, input_meta.py, graph_net.json, or the
// folder for a missing file), the position when there is one, and what is wrong. Its text is
//
//	bert/model.py:412:9: error: pd_op.matmul takes 4 arguments, the call gives 5
type Error struct {
	// Pos is the file and, when there is one, the line and column (in bytes); Line is 0 when the error concerns
	// the whole file.
	Pos diag.Position
	Msg string
}

// Error formats the error as "file:line:col: error: message".
func (e *Error) Error() string { return e.Diagnostics()[0].Error() }

// Diagnostics returns the error as a diagnostic, so that tools print it with its source line and a caret (package
// pirfile renders reader errors that have this method).
func (e *Error) Diagnostics() diag.Diagnostics {
	return diag.Diagnostics{{Severity: diag.Error, Pos: e.Pos, Message: e.Msg}}
}

func errorAt(file string, p ir.Loc, format string, args ...any) *Error {
	return &Error{Pos: diag.Position{Filename: file, Line: int(p.Line), Column: int(p.Col)}, Msg: fmt.Sprintf(format, args...)}
}
