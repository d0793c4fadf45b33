package drr

import (
	"fmt"
	"unicode/utf8"
)

// bailout unwinds the parser to the enclosing statement, clause or
// declaration after an error has been recorded.
type bailout struct{}

// bailDecl unwinds the parser to the top level.
type bailDecl struct{}

type parser struct {
	filename string
	file     *string // the file name shared by all spans
	sc       *scanner
	toks     []token // the tokens of the current top-level declaration
	i        int
	diags    Diagnostics
	resumed  bool // a nested block ended early at the start of the next clause
	a        nodeSlabs
	s        scratch
}

func (p *parser) tok() *token { return &p.toks[p.i] }

func (p *parser) peek(n int) *token {
	if j := p.i + n; j < len(p.toks) {
		return &p.toks[j]
	}
	return &p.toks[len(p.toks)-1]
}

// next consumes the current token. The last token of a chunk (tTopSep or
// tEOF) is never consumed.
func (p *parser) next() *token {
	t := &p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

func (p *parser) isP(s string) bool {
	t := &p.toks[p.i]
	return t.kind == tPunct && t.text == s
}

func (p *parser) isKw(s string) bool {
	t := &p.toks[p.i]
	return t.kind == tIdent && t.text == s
}

func isPunct(t *token, s string) bool { return t.kind == tPunct && t.text == s }

func (p *parser) pos(t *token) Position {
	return Position{Filename: p.filename, Offset: int(t.off), Line: int(t.line), Column: int(t.col)}
}

func (p *parser) end(t *token) Position {
	return Position{Filename: p.filename, Offset: int(t.off) + len(t.text), Line: int(t.line),
		Column: int(t.col) + utf8.RuneCountInString(t.text)}
}

// tokCols returns the width of a token in columns.
func tokCols(t *token) int32 {
	if t.wide {
		return int32(utf8.RuneCountInString(t.text))
	}
	return int32(len(t.text))
}

// tokSpan returns the span of one token.
func (p *parser) tokSpan(t *token) Span {
	return Span{file: p.file, off: t.off, end: t.off + int32(len(t.text)), line: t.line, col: t.col,
		endLine: t.line, endCol: t.col + tokCols(t)}
}

// span returns the span from token first to the last consumed token.
func (p *parser) span(first *token) Span {
	last := &p.toks[p.i-1]
	return Span{file: p.file, off: first.off, end: last.off + int32(len(last.text)), line: first.line, col: first.col,
		endLine: last.line, endCol: last.col + tokCols(last)}
}

// spanFrom returns the span from the start of s to the last consumed token.
func (p *parser) spanFrom(s Span) Span {
	last := &p.toks[p.i-1]
	s.end, s.endLine, s.endCol = last.off+int32(len(last.text)), last.line, last.col+tokCols(last)
	return s
}

func (p *parser) errAt(t *token, format string, args ...any) {
	p.errAtPos(p.pos(t), format, args...)
}

func (p *parser) errAtPos(pos Position, format string, args ...any) {
	if n := len(p.diags); n > 0 && p.diags[n-1].Pos == pos {
		return // one error per position
	}
	p.diags = append(p.diags, errorf(pos, format, args...))
}

// fail records an error at t and unwinds to the enclosing statement.
func (p *parser) fail(t *token, format string, args ...any) {
	p.errAt(t, format, args...)
	panic(bailout{})
}

// failFound records "expected WHAT, found TOKEN" at the current token, or
// just after the previous token if the current one is on a later line
// (the missing ')' belongs at the end of the line, not before the next).
func (p *parser) failFound(what string, args ...any) {
	t := p.tok()
	pos, found := p.pos(t), describe(t)
	if p.i > 0 {
		if prev := &p.toks[p.i-1]; prev.line < t.line && prev.kind != tSep && prev.kind != tTopSep && !isPunct(prev, "{") {
			pos, found = p.end(prev), "end of line"
		}
	}
	p.errAtPos(pos, "expected %s, found %s", fmt.Sprintf(what, args...), found)
	panic(bailout{})
}

// expect consumes the punctuation s or fails with "expected 's' CONTEXT, found …".
func (p *parser) expect(s string, context string, args ...any) *token {
	if p.isP(s) {
		return p.next()
	}
	p.failFound("'"+s+"' "+context, args...)
	return nil
}

// expectKw consumes the keyword s or fails.
func (p *parser) expectKw(s string, context string, args ...any) *token {
	if p.isKw(s) {
		return p.next()
	}
	p.failFound("'"+s+"' "+context, args...)
	return nil
}

// describe names a token for "found …" in messages.
func describe(t *token) string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tSep, tTopSep:
		if t.text == ";" {
			return "';'"
		}
		return "end of line"
	case tString:
		return "string " + truncate(t.text)
	}
	return "'" + truncate(t.text) + "'"
}

func truncate(s string) string {
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	r := []rune(s)
	return string(r[:37]) + "…"
}

// protect runs f and reports whether it completed without a bailout.
func (p *parser) protect(f func()) (ok bool) {
	marks := p.s.marks()
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(bailout); !isBail {
				panic(r)
			}
			p.s.reset(marks)
			ok = false
		}
	}()
	f()
	return true
}

// syncStmt skips from token index start to the end of the statement: the
// next separator or closing brace outside brackets, or — when an unclosed
// bracket has made newlines insignificant — the first token of a later line
// that is indented no more than the statement.
func (p *parser) syncStmt(start int) {
	p.i = start
	first := p.toks[start]
	// Brackets opened within the statement; a '}' closes the innermost '{'
	// (and whatever was left open inside it), as in scanner.close.
	var open []byte
	for {
		t := p.tok()
		if p.i > start && t.line > p.toks[p.i-1].line && t.col <= first.col {
			return
		}
		switch t.kind {
		case tEOF, tTopSep:
			return
		case tSep:
			if len(open) == 0 {
				return
			}
		case tPunct:
			switch t.text {
			case "(", "[", "{":
				open = append(open, t.text[0])
			case ")", "]":
				want := byte('(')
				if t.text == "]" {
					want = '['
				}
				for k := len(open) - 1; k >= 0 && open[k] != '{'; k-- {
					if open[k] == want {
						open = open[:k]
						break
					}
				}
			case "}":
				k := len(open) - 1
				for k >= 0 && open[k] != '{' {
					k--
				}
				if k < 0 {
					return // closes the enclosing block
				}
				open = open[:k]
			}
		}
		p.i++
	}
}

// syncTop skips the rest of the current top-level declaration.
func (p *parser) syncTop() {
	p.i = len(p.toks) - 1
}
