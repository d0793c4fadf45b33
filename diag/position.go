package diag

import "strconv"

// Position is a place in a source file: its name, the byte offset from 0, and the line and column from 1 (the
// column in bytes). Offset is 0 when the reader did not record it (a position made from a line and a column). A
// Position whose Line is 0 names only its file; the zero Position names nothing.
//
// Its fields are those of participle's lexer.Position, in the same order, so that the rule parser converts
// participle's positions with a plain conversion; participle's type does not appear in any API.
type Position struct {
	Filename string
	Offset   int
	Line     int
	Column   int
}

// IsValid reports whether p names a line.
func (p Position) IsValid() bool { return p.Line > 0 }

// String formats the position as file:line:col (line:col without a file name, the file name alone without a line,
// "-" for the zero Position).
func (p Position) String() string {
	if p.Line == 0 {
		if p.Filename == "" {
			return "-"
		}
		return p.Filename
	}
	s := strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column)
	if p.Filename != "" {
		s = p.Filename + ":" + s
	}
	return s
}

// Less orders positions by file name, then line, then column.
func (p Position) Less(q Position) bool {
	if p.Filename != q.Filename {
		return p.Filename < q.Filename
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Column < q.Column
}
