package drr

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDiagnosticFormat(t *testing.T) {
	d := &Diagnostic{Pos: Position{Filename: "a.drr", Line: 3, Column: 7, Offset: 20}, Severity: Warning, Message: "hole $x is bound but never used"}
	assert.Equal(t, "a.drr:3:7: warning: hole $x is bound but never used", d.Error())
	d.Pos.Filename = ""
	assert.Equal(t, "3:7: warning: hole $x is bound but never used", d.Error())
	assert.Equal(t, "note", Note.String())
	assert.Equal(t, "error", Error.String())
}

func TestDiagnosticRender(t *testing.T) {
	src := []byte("first\n\tsecond\r\nthird ünïcode x\n")
	tests := []struct {
		pos  Position
		want string
	}{
		{Position{Filename: "f", Line: 1, Column: 3, Offset: 2}, "f:1:3: error: m\nfirst\n  ^\n"},
		// Tabs are reproduced in the caret line; \r is not shown.
		{Position{Filename: "f", Line: 2, Column: 3, Offset: 8}, "f:2:3: error: m\n\tsecond\n\t ^\n"},
		// Columns count runes.
		{Position{Filename: "f", Line: 3, Column: 15, Offset: 34}, "f:3:15: error: m\nthird ünïcode x\n              ^\n"},
		// Without a usable offset the line is found by number.
		{Position{Filename: "f", Line: 3, Column: 1, Offset: -1}, "f:3:1: error: m\nthird ünïcode x\n^\n"},
		// At the end of the file.
		{Position{Filename: "f", Line: 4, Column: 1, Offset: len(src)}, "f:4:1: error: m\n\n^\n"},
		// Outside the file: only the message.
		{Position{Filename: "f", Line: 9, Column: 1, Offset: 999}, "f:9:1: error: m\n"},
		{Position{Filename: "f"}, "f: error: m\n"},
	}
	for _, tt := range tests {
		d := &Diagnostic{Pos: tt.pos, Message: "m"}
		assert.Equal(t, tt.want, d.Render(src), "%+v", tt.pos)
	}
}

func TestDiagnosticsList(t *testing.T) {
	var ds Diagnostics
	assert.False(t, ds.HasErrors())
	assert.NoError(t, ds.Err())
	ds = Diagnostics{
		{Pos: Position{Filename: "b", Line: 1, Column: 1}, Severity: Warning, Message: "w"},
		{Pos: Position{Filename: "a", Line: 2, Column: 5}, Message: "e2"},
		{Pos: Position{Filename: "a", Line: 2, Column: 1}, Message: "e1"},
	}
	ds.Sort()
	assert.Equal(t, "a:2:1: error: e1\na:2:5: error: e2\nb:1:1: warning: w", ds.Error())
	assert.True(t, ds.HasErrors())
	assert.Error(t, ds.Err())
	assert.False(t, Diagnostics{ds[2]}.HasErrors(), "warnings only")
	assert.NoError(t, Diagnostics{ds[2]}.Err())
}

func TestTooManyErrors(t *testing.T) {
	src := ""
	for i := 0; i < 80; i++ {
		src += "bogus\n"
	}
	_, err := Parse("t.drr", []byte(src))
	ds := err.(Diagnostics)
	assert.Len(t, ds, maxDiagnostics)
	assert.Equal(t, "too many errors", ds[len(ds)-1].Message)
}
