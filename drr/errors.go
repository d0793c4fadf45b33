package drr

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pirdrr/drr/ir"
)

// Severity is the severity of a diagnostic.
type Severity int

// Severities, most severe first.
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

// Diagnostic is a positioned message about a .drr file. Its Error method
// formats it as `file:line:col: severity: message`; Render adds the source
// line and a caret under the column.
type Diagnostic struct {
	Pos      Position
	Severity Severity
	Message  string
}

// Error implements error: `file:line:col: error: message`.
func (d *Diagnostic) Error() string {
	return d.Pos.String() + ": " + d.Severity.String() + ": " + d.Message
}

// Render formats the diagnostic followed by the source line it points at
// and a caret under the column, like the Go and Rust compilers do. src is
// the content of d.Pos.Filename; if the line cannot be found only the
// first line is printed.
func (d *Diagnostic) Render(src []byte) string { return d.RenderLines(ir.NewLines(src)) }

// RenderLines is Render from the line index of d.Pos.Filename's content: a file's diagnostics rendered through one
// index scan it once in all, not once each (20,000 errors in a 2 MB rule file took 40 s).
func (d *Diagnostic) RenderLines(lines *ir.Lines) string {
	s := d.Error() + "\n"
	if col, ok := runeColumn(lines, d.Pos); ok {
		// One renderer for rule and program diagnostics: ir.Excerpt draws the line and the caret.
		s += lines.ExcerptRunes(d.Pos.Line, col)
	}
	return s
}

// runeColumn returns the 1-based rune column pos points at on its line: counted from its offset when it has one
// on that line, else its Column; false when the source has no such line.
func runeColumn(lines *ir.Lines, pos Position) (int, bool) {
	start, ok := lines.Offset(pos.Line)
	if !ok {
		return 0, false
	}
	src := lines.Source()
	end := len(src)
	if i := bytes.IndexByte(src[start:], '\n'); i >= 0 {
		end = start + i
	}
	// Offset 0 past line 1 means a position made from line and column alone (rule.Pos has no offset).
	hasOffset := pos.Offset > 0 || pos.Offset == 0 && pos.Line == 1
	if hasOffset && pos.Offset >= start && pos.Offset <= end {
		return utf8.RuneCount(src[start:pos.Offset]) + 1, true
	}
	return pos.Column, true
}

// Diagnostics is a list of diagnostics. Parse returns it as its error when
// the file has syntax errors.
type Diagnostics []*Diagnostic

// Error implements error: one diagnostic per line.
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

// Err returns ds as an error if it contains an error, otherwise nil.
func (ds Diagnostics) Err() error {
	if ds.HasErrors() {
		return ds
	}
	return nil
}

// Sort orders the diagnostics by file, then position (stable).
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i].Pos, ds[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

// Render renders every diagnostic with its source line and caret; src is
// the content of the (single) file the diagnostics refer to.
func (ds Diagnostics) Render(src []byte) string {
	var b strings.Builder
	lines := ir.NewLines(src)
	for _, d := range ds {
		b.WriteString(d.RenderLines(lines))
	}
	return b.String()
}

// errorf builds an error diagnostic.
func errorf(pos Position, format string, args ...any) *Diagnostic {
	return &Diagnostic{Pos: pos, Severity: Error, Message: fmt.Sprintf(format, args...)}
}

// nouns renders a count with its noun, singular or plural: "1 argument", "2 arguments".
func nouns(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// article puts "a" or "an" before a word, by its first letter (an attribute, an i64, a value).
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}
