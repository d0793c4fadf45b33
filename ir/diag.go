package ir

import (
	"fmt"
	"sort"
	"strings"
)

// Severity says whether a diagnostic is an error or a warning.
type Severity uint8

// The severities.
const (
	Error Severity = iota
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Diagnostic is a positioned message about a program: the file and position of the op it concerns (when the
// program was read from a file), and what is wrong.
type Diagnostic struct {
	Severity Severity
	File     string
	Loc      Loc
	// Path names the element of a structured file the diagnostic concerns, where the position alone does not tell
	// it: the JSON Pointer of an op in a one-line PIR JSON file (/program/regions/0/blocks/0/ops/5).
	Path    string
	Message string
}

// String formats the diagnostic as file:line:col: severity: path: message (the parts that are known).
func (d Diagnostic) String() string {
	var b strings.Builder
	if d.File != "" {
		b.WriteString(d.File)
		b.WriteByte(':')
	}
	if d.Loc.IsKnown() {
		fmt.Fprintf(&b, "%d:%d:", d.Loc.Line, d.Loc.Col)
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
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

// Render formats the diagnostic as String does, followed by the source line it points at and a caret under the
// column (Excerpt), as compilers print errors. src is the content of d.File; without a known position or a
// matching line only the first line is printed. The result ends in a newline.
func (d Diagnostic) Render(src []byte) string { return d.RenderLines(NewLines(src)) }

// RenderLines is Render from the line index of d.File's content: the index is built as far as it is used, so that
// a file's diagnostics rendered through one index cost a scan of the file in all.
func (d Diagnostic) RenderLines(lines *Lines) string {
	s := d.String() + "\n"
	if d.Loc.IsKnown() {
		s += lines.Excerpt(int(d.Loc.Line), int(d.Loc.Col))
	}
	return s
}

// Diagnostics is a list of diagnostics; as an error it reports its errors (warnings are not errors).
type Diagnostics []Diagnostic

// Errors returns the diagnostics of severity Error.
func (ds Diagnostics) Errors() Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == Error {
			out = append(out, d)
		}
	}
	return out
}

// Warnings returns the diagnostics of severity Warning.
func (ds Diagnostics) Warnings() Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == Warning {
			out = append(out, d)
		}
	}
	return out
}

// Err returns ds.Errors() as an error, or nil if there are none.
func (ds Diagnostics) Err() error {
	if errs := ds.Errors(); len(errs) > 0 {
		return errs
	}
	return nil
}

// Error joins the diagnostics, one per line.
func (ds Diagnostics) Error() string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// Sort orders diagnostics by file, position and message, for stable output.
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Loc.Line != b.Loc.Line {
			return a.Loc.Line < b.Loc.Line
		}
		if a.Loc.Col != b.Loc.Col {
			return a.Loc.Col < b.Loc.Col
		}
		return a.Message < b.Message
	})
}
