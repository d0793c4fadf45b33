package drr

import (
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pirdrr/drr/diag"
)

// maxDiagnostics bounds the number of diagnostics Parse reports.
const maxDiagnostics = 50

// parallelMinBytes is the file size from which Parse lexes and parses
// regions of the file concurrently (a variable for tests).
var parallelMinBytes = 64 << 10

// Parse parses a .drr file. filename is used in positions and diagnostics.
//
// On syntax errors it returns the declarations it could parse together with
// a Diagnostics error listing every error found: the parser recovers at the
// next statement, clause or declaration, so independent errors are all
// reported. Parse never panics.
//
// Large files are split at lines that start a top-level declaration
// (`rule`, `family`, `native` or `import` in column 1 followed by a name),
// and the regions are lexed and parsed concurrently; the result does not
// depend on the split.
func Parse(filename string, src []byte) (f *File, err error) {
	defer func() {
		// Belt and braces: a bug must not take down the caller.
		if r := recover(); r != nil {
			f = &File{Name: filename}
			err = diag.Diagnostics{internalError(filename, r)}
		}
	}()
	text := string(src)
	var regions []region
	workers := 1
	if len(text) >= parallelMinBytes {
		regions = splitRegions(text)
		workers = min(runtime.GOMAXPROCS(0), len(regions))
	} else {
		regions = []region{{end: len(text), line: 1}}
	}
	results := make([]regionResult, len(regions))
	if workers <= 1 {
		p := newGrammarParser(filename, text)
		for i, r := range regions {
			results[i] = p.parseRegion(r)
		}
	} else {
		var next atomic.Int64
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := newGrammarParser(filename, text)
				for {
					i := int(next.Add(1) - 1)
					if i >= len(regions) {
						return
					}
					results[i] = p.safeParseRegion(regions[i])
				}
			}()
		}
		wg.Wait()
	}

	return assemble(filename, results)
}

func internalError(filename string, r any) diag.Diagnostic {
	return diag.Errorf(diag.Position{Filename: filename, Line: 1, Column: 1},
		"internal error: parser panic: %v\n%s", r, debug.Stack())
}

// region is a part of the source that starts at the beginning of a line
// (line) where no bracket is open.
type region struct {
	start, end int
	line       int
}

// regionResult is what parsing a region yields.
type regionResult struct {
	decls      []Decl
	comments   []*Comment
	lexDiags   diag.Diagnostics
	parseDiags diag.Diagnostics
	eof        diag.Position
}

// splitRegions splits src before every line that starts a top-level
// declaration: a top-level keyword in column 1 followed by blanks and a name
// or string. The lexer ends any open construct at such a line, so lexing the
// regions separately gives the same tokens as lexing the whole file.
func splitRegions(src string) []region {
	var rs []region
	start, startLine, line := 0, 1, 1
	for i := 0; i < len(src); {
		// i is at the start of line `line`.
		if i > start && startsTopDecl(src, i) {
			rs = append(rs, region{start: start, end: i, line: startLine})
			start, startLine = i, line
		}
		j := strings.IndexByte(src[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		line++
	}
	return append(rs, region{start: start, end: len(src), line: startLine})
}

// startsTopDecl reports whether the line at i starts with a top-level
// keyword followed by blanks and a name or string (see scanner.ident).
func startsTopDecl(src string, i int) bool {
	if i >= len(src) || !isIdentStart(src[i]) {
		return false
	}
	j := i
	for j < len(src) && isNameChar(src[j]) {
		j++
	}
	if j < len(src) && src[j] == '.' && j+1 < len(src) && isIdentStart(src[j+1]) {
		return false // a dotted identifier
	}
	if !isTopKeyword(src[i:j]) {
		return false
	}
	k := j
	for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
		k++
	}
	return k > j && k < len(src) && (isIdentStart(src[k]) || src[k] == '"')
}

// mergeDiagnostics combines lexer and parser diagnostics. A parser error on
// a line that already has a lexer error is usually a consequence of it and
// is dropped.
func mergeDiagnostics(lex, parse diag.Diagnostics) diag.Diagnostics {
	if len(lex) == 0 && len(parse) == 0 {
		return nil
	}
	bad := make(map[int]bool, len(lex))
	for _, d := range lex {
		bad[d.Pos.Line] = true
	}
	out := append(diag.Diagnostics(nil), lex...)
	for _, d := range parse {
		if !bad[d.Pos.Line] {
			out = append(out, d)
		}
	}
	out.Sort()
	if len(out) > maxDiagnostics {
		last := out[maxDiagnostics-1]
		out = append(out[:maxDiagnostics-1:maxDiagnostics-1], diag.Errorf(last.Pos, "too many errors"))
	}
	return out
}

// attachDocs attaches each run of own-line /// comments that ends on the
// line directly above a family, native, param or rule declaration to it.
func attachDocs(f *File) {
	cs := f.Comments
	j := 0
	for _, d := range f.Decls {
		line := int32(d.span().line)
		off := d.span().off
		for j < len(cs) && cs[j].off < off {
			j++
		}
		// cs[j-1] is the last comment before the declaration.
		k := j
		want := line - 1
		for k > 0 && cs[k-1].Doc && cs[k-1].ownLine && cs[k-1].line == want {
			k--
			want--
		}
		if k == j {
			continue
		}
		g := &CommentGroup{List: append([]*Comment(nil), cs[k:j]...)}
		switch d := d.(type) {
		case *Family:
			d.Doc = g
		case *Native:
			d.Doc = g
		case *ParamDecl:
			d.Doc = g
		case *Rule:
			d.Doc = g
		}
	}
}
