// Package diag is where pirdrr says where something is and what is wrong there: one Position type for every
// source the tools read (rule files, PIR text and JSON programs, GraphNet models, kernel tables), one Diagnostic
// type for every message about them, and the excerpt — the source line with a caret — that compilers print under
// a message.
//
// A Position is go/token's shape: a file name, a byte offset, a line and a column, both from 1, the column counted
// in bytes (as Go's tools count it; the language server converts to the editor's units). Programs keep their ops'
// positions in the compact ir.Loc (two int32s, no file name), which becomes a Position with its file when a
// diagnostic is made. A Position with Line 0 names only its file (a file that cannot be read), and the zero
// Position names nothing (an op a rewrite created).
//
// A Diagnostic is a Position, a Severity (error, warning or note), an optional Path naming the element of a
// structured file (a JSON Pointer into a one-line PIR JSON file) and a message. Its Error method formats it as
// file:line:col: severity: path: message; Render adds the excerpt. Diagnostics is a list of them, and an error when
// it holds an error.
//
// The package sits below every other package of pirdrr (internal/layers): the program model, the rule language,
// the linter, the language server and the command line all speak it.
package diag
