package pirtext

import (
	"github.com/pirdrr/drr/diag"
)

// ReadOptions configures Parse. The zero value is the default and the only configuration so far; the struct
// exists so that options can be added without changing Parse's signature.
type ReadOptions struct{}

// WriteOptions configures Write and Print.
type WriteOptions struct {
	// Untagged prints attributes in the newer untagged syntax (groups:1, epsilon:1e-05, dilations:[1,1],
	// dtype:float32, place:Place(cpu), shape:[1,2], data_format:NCHW for layouts) instead of Paddle's tagged era-B
	// syntax ((Int32)1, (Float)1e-05, (pd_op.DataType)float32, …). Types keep their spelling. The kind of an untagged
	// number or list is recovered on reading from the op's schema; see the package documentation for what is lost
	// for unregistered ops.
	Untagged bool
}

// Error is a positioned error of Parse: the file, the line and column (both from 1, the column in bytes) of the
// token where reading stopped, and what was expected there. Its Error method renders it as
// "file:line:col: error: message"; Diagnostic().Render(src) adds the source line and a caret.
type Error struct {
	// Pos is where reading stopped: the file name given to Parse, the line and the column (in bytes).
	Pos diag.Position
	// Msg says what was expected and what was found.
	Msg string
	// Internal marks an error that comes from a bug in the reader rather than from its input (a recovered panic).
	Internal bool
}

// Error renders the error as file:line:col: error: message.
func (e *Error) Error() string { return e.Diagnostic().Error() }

// Diagnostic returns the error as a diag.Diagnostic of severity Error.
func (e *Error) Diagnostic() diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Error, Pos: e.Pos, Message: e.Msg}
}

// Diagnostics returns the error as a one-element diag.Diagnostics, so callers can merge it with warnings.
func (e *Error) Diagnostics() diag.Diagnostics { return diag.Diagnostics{e.Diagnostic()} }
