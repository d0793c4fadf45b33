package diag

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPositionString(t *testing.T) {
	tests := []struct {
		pos  Position
		want string
	}{
		{Position{Filename: "a.drr", Line: 3, Column: 7, Offset: 20}, "a.drr:3:7"},
		{Position{Line: 3, Column: 7}, "3:7"},
		{Position{Filename: "a.drr"}, "a.drr"},
		{Position{}, "-"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.pos.String())
	}
}

func TestDiagnosticError(t *testing.T) {
	tests := []struct {
		d    Diagnostic
		want string
	}{
		{Diagnostic{Pos: Position{Filename: "a.drr", Line: 3, Column: 7}, Severity: Warning, Message: "hole $x is bound but never used"},
			"a.drr:3:7: warning: hole $x is bound but never used"},
		{Diagnostic{Pos: Position{Line: 3, Column: 7}, Severity: Note, Message: "m"}, "3:7: note: m"},
		{Diagnostic{Pos: Position{Filename: "m.json", Line: 1, Column: 9}, Path: "/program", Message: "bad"}, "m.json:1:9: error: /program: bad"},
		{Diagnostic{Pos: Position{Filename: "f"}, Message: "unreadable"}, "f: error: unreadable"},
		{Diagnostic{Severity: Warning, Message: "no position"}, "warning: no position"},
		{Errorf(Position{Line: 1, Column: 2}, "%d things", 3), "1:2: error: 3 things"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.d.Error())
	}
}

func TestDiagnosticRenderColumns(t *testing.T) {
	src := []byte("first\n\tsecond\r\nthird ünïcode x\n")
	tests := []struct {
		pos  Position
		want string
	}{
		{Position{Filename: "f", Line: 1, Column: 3}, "f:1:3: error: m\nfirst\n  ^\n"},
		// Tabs are reproduced in the caret line; \r is not shown.
		{Position{Filename: "f", Line: 2, Column: 3}, "f:2:3: error: m\n\tsecond\n\t ^\n"},
		// Columns count bytes: the x after two 2-byte letters is at byte column 17, the 15th character.
		{Position{Filename: "f", Line: 3, Column: 17}, "f:3:17: error: m\nthird ünïcode x\n              ^\n"},
		// At the end of the file.
		{Position{Filename: "f", Line: 4, Column: 1}, "f:4:1: error: m\n\n^\n"},
		// Outside the file: only the message.
		{Position{Filename: "f", Line: 9, Column: 1}, "f:9:1: error: m\n"},
		{Position{Filename: "f"}, "f: error: m\n"},
	}
	for _, tt := range tests {
		d := Diagnostic{Pos: tt.pos, Message: "m"}
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
		{Pos: Position{Filename: "a", Line: 2, Column: 1}, Severity: Note, Message: "about e1"},
	}
	ds.Sort()
	assert.Equal(t, "a:2:1: error: e1\na:2:1: note: about e1\na:2:5: error: e2\nb:1:1: warning: w", ds.Error(),
		"by position; a note stays after its error")
	assert.True(t, ds.HasErrors())
	assert.Equal(t, ds, ds.Err(), "the whole list is the error")
	assert.Len(t, ds.Errors(), 2)
	assert.Len(t, ds.Warnings(), 1)
	assert.False(t, Diagnostics{ds[3]}.HasErrors(), "warnings only")
	assert.NoError(t, Diagnostics{ds[3]}.Err())
	assert.Equal(t, "a:2:1: error: e1\nx\n^\na:2:1: note: about e1\nx\n^\n", ds[:2].Render([]byte("\nx\n")))
}
