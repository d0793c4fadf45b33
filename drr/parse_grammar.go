package drr

import (
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/pirdrr/drr/diag"
)

// grammarParser parses the regions of a file with the participle grammar,
// one top-level declaration at a time.
type grammarParser struct {
	filename string
	sc       *scanner
	b        builder
	toks     []lexer.Token // the tokens of the current declaration (reused)
}

func newGrammarParser(filename, src string) *grammarParser {
	sc := newScanner(filename, src)
	return &grammarParser{filename: filename, sc: sc, b: builder{file: sc.file}}
}

// parseRegion lexes and parses the declarations of one region.
func (p *grammarParser) parseRegion(r region) regionResult {
	p.sc.reset(p.sc.src, r)
	p.b.diags = nil
	var res regionResult
	for len(p.b.diags) <= maxDiagnostics {
		chunk := p.sc.nextChunk()
		last := chunk[len(chunk)-1]
		// A declaration nested too deeply is not parsed: participle would recurse once per level (the lexer has
		// reported it).
		if (len(chunk) > 1 || last.kind != tEOF) && !p.sc.tooDeep {
			if d := p.decl(chunk); d != nil {
				res.decls = append(res.decls, d)
			}
		}
		if last.kind == tEOF {
			res.eof = diag.Position{Filename: p.filename, Offset: int(last.off), Line: int(last.line), Column: int(last.col)}
			break
		}
	}
	res.comments = p.sc.comments
	res.lexDiags = p.sc.diags
	res.parseDiags = p.b.diags
	return res
}

// decl parses the declaration whose tokens (ending with a TopSep or EOF
// token) are chunk.
func (p *grammarParser) decl(chunk []token) Decl {
	toks := appendTokens(p.toks[:0], chunk, p.filename)
	if last := chunk[len(chunk)-1]; last.kind != tEOF {
		eof := last
		eof.kind, eof.off, eof.col, eof.text = tEOF, last.off+int32(len(last.text)), last.col+int32(len(last.text)), ""
		toks = append(toks, participleToken(&eof, p.filename))
	}
	p.toks = toks
	g, err := parseTokens(chunkParser(), toks)
	if err == nil {
		return p.b.decl(g.Decl)
	}
	if isKeyword(&toks[0], "rule") && len(toks) >= 3 {
		return p.recoverRule(toks, err)
	}
	p.b.diags = append(p.b.diags, diagnostic(err))
	return nil
}

// safeParseRegion is parseRegion for worker goroutines: a panic becomes an
// internal-error diagnostic instead of crashing the process.
func (p *grammarParser) safeParseRegion(r region) (res regionResult) {
	defer func() {
		if e := recover(); e != nil {
			res = regionResult{parseDiags: diag.Diagnostics{internalError(p.filename, e)}}
		}
	}()
	return p.parseRegion(r)
}
