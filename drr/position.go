package drr

import "strconv"

// Position is a place in a rule file: the file name, the 1-based line and
// column (columns count runes) and the 0-based byte offset. It is the one
// position type of the package: AST nodes, diagnostics and every consumer
// use it. A Position whose Line is 0 names only a file (a problem with the
// file itself, such as a file that cannot be read).
//
// Its fields are those of participle's lexer.Position, in the same order,
// so the parser converts participle's positions with a plain conversion;
// participle's type does not appear in the package's API.
type Position struct {
	Filename string
	Offset   int
	Line     int
	Column   int
}

// String formats the position as file:line:col (line:col without a file
// name, the file name alone without a line).
func (p Position) String() string {
	if p.Line == 0 && p.Filename != "" {
		return p.Filename
	}
	s := strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column)
	if p.Filename != "" {
		s = p.Filename + ":" + s
	}
	return s
}
