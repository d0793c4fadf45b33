package interp

import (
	"errors"
	"fmt"

	"github.com/pirdrr/drr/ir"
)

// ErrUnsupported is wrapped by every error about an op, or an attribute combination of an op, that the interpreter
// does not evaluate. The interpreter refuses rather than guess: it never produces numbers for semantics it does not
// implement.
var ErrUnsupported = errors.New("unsupported")

// OpError is an error evaluating one op.
type OpError struct {
	// Op is the op name (pd_op.conv2d).
	Op string
	// Where is the op's source position, FILE:LINE, or "(new op)" for ops created by rewrites.
	Where string
	// Err is the cause; it wraps ErrUnsupported when the op cannot be evaluated at all.
	Err error
}

// Error returns "cannot evaluate OP at WHERE[: reason]" for unsupported ops and "evaluating OP at WHERE: cause"
// otherwise.
func (e *OpError) Error() string {
	if errors.Is(e.Err, ErrUnsupported) {
		if errors.Is(e.Err, errNoKernel) {
			return fmt.Sprintf("cannot evaluate %s at %s", e.Op, e.Where)
		}
		return fmt.Sprintf("cannot evaluate %s at %s: %v", e.Op, e.Where, unwrapUnsupported(e.Err))
	}
	return fmt.Sprintf("evaluating %s at %s: %v", e.Op, e.Where, e.Err)
}

// Unwrap returns the cause.
func (e *OpError) Unwrap() error { return e.Err }

// errNoKernel marks an op without any kernel (the message is then just "cannot evaluate OP at WHERE").
var errNoKernel = fmt.Errorf("no kernel: %w", ErrUnsupported)

// unsupportedError is ErrUnsupported with a reason.
type unsupportedError struct{ reason string }

func (e *unsupportedError) Error() string { return e.reason + ": " + ErrUnsupported.Error() }
func (e *unsupportedError) Unwrap() error { return ErrUnsupported }

// unsupported returns an error saying that an attribute combination is not evaluated.
func unsupported(format string, args ...any) error {
	return &unsupportedError{reason: fmt.Sprintf(format, args...)}
}

func unwrapUnsupported(err error) string {
	var u *unsupportedError
	if errors.As(err, &u) {
		return u.reason
	}
	return err.Error()
}

// Where formats the source position of op in p as FILE:LINE ("<input>" when the program has no file name), or
// "(new op)" when the op has no position (it was created by a rewrite).
func Where(p *ir.Program, op *ir.Op) string {
	if !op.Loc.IsKnown() {
		return "(new op)"
	}
	f := "<input>"
	if p != nil && p.File != "" {
		f = p.File
	}
	return fmt.Sprintf("%s:%d", f, op.Loc.Line)
}

// LimitError is the error of an op or tensor beyond one of the interpreter's size limits (Options.MaxElements,
// Options.MaxMACs): the program is too large to evaluate with them, not wrong. drrc verify names the flag that
// raises the limit.
type LimitError struct {
	// What is the tensor (`input "x"`, `parameter "w"`, `result 0`) or "" for an op's work.
	What string
	// Value is its size: elements, or multiply-accumulates; Limit the limit it exceeds.
	Value, Limit int64
	// Option is the Options field of the limit: "MaxElements" or "MaxMACs".
	Option string
}

// Error says what exceeds which limit: `input "x" has 300000000 elements, more than Options.MaxElements
// (268435456)`, `217432719360 multiply-accumulates, more than Options.MaxMACs (137438953472)`.
func (e *LimitError) Error() string {
	if e.Option == "MaxMACs" {
		return fmt.Sprintf("%d multiply-accumulates, more than Options.MaxMACs (%d)", e.Value, e.Limit)
	}
	return fmt.Sprintf("%s has %d elements, more than Options.%s (%d)", e.What, e.Value, e.Option, e.Limit)
}
