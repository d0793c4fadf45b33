package diag

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestExcerpt(t *testing.T) {
	long := `{"a":` + strings.Repeat("1,", 100) + `"here"` + strings.Repeat(",2", 100) + "}"
	col := strings.Index(long, `"here"`) + 1
	tests := []struct {
		name      string
		src       string
		line, col int
		want      string
	}{
		{"first line", "abc def\nxyz\n", 1, 5, "abc def\n    ^\n"},
		{"second line", "abc\n  x = y\n", 2, 5, "  x = y\n    ^\n"},
		{"tabs line up", "\tx\t= y\n", 1, 4, "\tx\t= y\n\t \t^\n"},
		{"past the end", "ab\n", 1, 9, "ab\n  ^\n"},
		{"crlf", "ab\r\ncd\r\n", 2, 2, "cd\n ^\n"},
		{"no such line", "ab\n", 3, 1, ""},
		{"no line", "ab\n", 0, 1, ""},
		{"multibyte before the column", "é = 1\n", 1, 4, "é = 1\n  ^\n"},
		{"invalid utf-8", "\xff = 1\n", 1, 3, "\uFFFD = 1\n  ^\n"},
		{"long line cut around the column", long, 1, col,
			"…" + long[col-1-excerptContext:col-1+excerptContext] + "…\n" + strings.Repeat(" ", excerptContext+1) + "^\n"},
		{"long line near its start", long, 1, 3, long[:2+excerptContext] + "…\n  ^\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Excerpt([]byte(tt.src), tt.line, tt.col))
		})
	}
}

func TestDiagnosticRender(t *testing.T) {
	src := []byte("{\n    (%1) = \"pd_op.relu\" (%7) {} : (f32) -> f32\n}\n")
	d := Diagnostic{Severity: Error, Pos: Position{Filename: "bad.pir", Line: 2, Column: 27}, Message: "undefined value %7"}
	assert.Equal(t, "bad.pir:2:27: error: undefined value %7\n"+
		"    (%1) = \"pd_op.relu\" (%7) {} : (f32) -> f32\n"+
		"                          ^\n", d.Render(src))

	d = Diagnostic{Severity: Error, Pos: Position{Filename: "m.json", Line: 1, Column: 2}, Path: "/program/regions/0", Message: "bad"}
	assert.Equal(t, "m.json:1:2: error: /program/regions/0: bad\n{\n ^\n", d.Render([]byte("{\n")))

	d = Diagnostic{Severity: Warning, Message: "no position"}
	assert.Equal(t, "warning: no position\n", d.Render(src))
}

// TestLinesMatchExcerpt: one index, asked in any order, finds the lines a scan from the top finds, for sources
// with and without a final newline, CRLF lines, empty lines, and lines past the end.
func TestLinesMatchExcerpt(t *testing.T) {
	sources := []string{"", "one line", "a\nb\n", "a\r\nbb\r\n\r\nccc", "\n\n\n", "x\n\ty\tz\nlast"}
	for _, src := range sources {
		lines := NewLines([]byte(src))
		for _, line := range []int{3, 1, 2, 5, 4, 0, -1, 2, 7, 1} {
			// The line's start by a scan from the top.
			start, ok := 0, line >= 1
			for l := 1; ok && l < line; l++ {
				i := strings.IndexByte(src[start:], '\n')
				ok = i >= 0
				start += i + 1
			}
			for _, col := range []int{1, 2, 9} {
				want := ""
				if ok {
					want = excerptAt([]byte(src), start, col)
				}
				assert.Equal(t, want, lines.Excerpt(line, col), "%q line %d col %d", src, line, col)
			}
		}
	}
}

// TestRenderLinesMatchesRender: a diagnostic rendered through a file's index is rendered as Render renders it.
func TestRenderLinesMatchesRender(t *testing.T) {
	src := []byte("(%0) = \"pd_op.data\" () {}\n(%1) = \"pd_op.relu\" (%0) {}\n")
	lines := NewLines(src)
	for _, d := range []Diagnostic{
		{Pos: Position{Filename: "p.pir", Line: 2, Column: 8}, Message: "second"},
		{Pos: Position{Filename: "p.pir", Line: 1, Column: 1}, Severity: Warning, Message: "first"},
		{Pos: Position{Filename: "p.pir", Line: 9, Column: 1}, Message: "past the end"},
		{Pos: Position{Filename: "p.pir"}, Message: "no position"},
	} {
		assert.Equal(t, d.Render(src), d.RenderLines(lines))
	}
}
