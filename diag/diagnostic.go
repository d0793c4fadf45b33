package diag

import (
	"fmt"
	"sort"
	"strings"
)

// Severity says how bad a diagnostic is.
type Severity uint8

// The severities, most severe first.
const (
	Error Severity = iota
	Warning
	Note
)

// String returns "error", "warning" or "note".
func (s Severity) String() string {
	switch s {
	case Warning:
		return "warning"
	case Note:
		return "note"
	}
	return "error"
}

// Diagnostic is a positioned message: where (Pos, and Path where the position alone does not tell it: the JSON
// Pointer of an op in a one-line PIR JSON file, /program/regions/0/blocks/0/ops/5), how bad, and what is wrong.
type Diagnostic struct {
	Pos      Position
	Severity Severity
	Path     string
	Message  string
}

// Errorf returns an error diagnostic at pos.
func Errorf(pos Position, format string, args ...any) Diagnostic {
	return Diagnostic{Pos: pos, Severity: Error, Message: fmt.Sprintf(format, args...)}
}

// Error formats the diagnostic as file:line:col: severity: path: message, leaving out the parts that are not known.
func (d Diagnostic) Error() string {
	var b strings.Builder
	if d.Pos != (Position{}) {
		b.WriteString(d.Pos.String())
		b.WriteString(": ")
	}
	b.WriteString(d.Severity.String())
	b.WriteString(": ")
	if d.Path != "" {
		b.WriteString(d.Path)
		b.WriteString(": ")
	}
	b.WriteString(d.Message)
	return b.String()
}

// Render formats the diagnostic as Error does, followed by the source line it points at and a caret under the
// column (Excerpt), as compilers print errors. src is the content of d.Pos.Filename; without a line, or when src
// has no such line, only the first line is printed. The result ends in a newline.
func (d Diagnostic) Render(src []byte) string { return d.RenderLines(NewLines(src)) }

// RenderLines is Render from the line index of d.Pos.Filename's content: the index is built as far as it is used,
// so that a file's diagnostics rendered through one index cost a scan of the file in all.
func (d Diagnostic) RenderLines(lines *Lines) string {
	s := d.Error() + "\n"
	if d.Pos.IsValid() {
		s += lines.Excerpt(d.Pos.Line, d.Pos.Column)
	}
	return s
}

// Diagnostics is a list of diagnostics. As an error it is the whole list, one diagnostic per line (Err returns it
// as an error only when it holds an error).
type Diagnostics []Diagnostic

// Error joins the diagnostics, one per line.
func (ds Diagnostics) Error() string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.Error()
	}
	return strings.Join(lines, "\n")
}

// HasErrors reports whether any diagnostic has severity Error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Err returns ds as an error if it holds an error, otherwise nil.
func (ds Diagnostics) Err() error {
	if ds.HasErrors() {
		return ds
	}
	return nil
}

// Errors returns the diagnostics of severity Error.
func (ds Diagnostics) Errors() Diagnostics { return ds.bySeverity(Error) }

// Warnings returns the diagnostics of severity Warning.
func (ds Diagnostics) Warnings() Diagnostics { return ds.bySeverity(Warning) }

func (ds Diagnostics) bySeverity(s Severity) Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == s {
			out = append(out, d)
		}
	}
	return out
}

// Sort orders the diagnostics by position (stable: a note stays after the error it explains).
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].Pos.Less(ds[j].Pos) })
}

// Render renders every diagnostic with its excerpt; src is the content of the file they all refer to.
func (ds Diagnostics) Render(src []byte) string {
	var b strings.Builder
	lines := NewLines(src)
	for _, d := range ds {
		b.WriteString(d.RenderLines(lines))
	}
	return b.String()
}
