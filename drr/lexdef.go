package drr

import (
	"io"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/pirdrr/drr/diag"
)

// This file connects the scanner of lexer.go to participle: the grammar's
// token types, the conversion of the scanner's tokens into participle
// tokens, and a lexer.Definition for participle's own entry points.

// tokenType returns the participle token type of a token kind. participle
// reserves -1 for the end of input; the other kinds count down from -2.
func tokenType(k tokKind) lexer.TokenType {
	if k == tEOF {
		return lexer.EOF
	}
	return lexer.TokenType(-(int(k) + 2))
}

// kindOf is the inverse of tokenType.
func kindOf(t lexer.TokenType) tokKind {
	if t == lexer.EOF {
		return tEOF
	}
	return tokKind(-int(t) - 2)
}

// grammarSymbols maps the token kind names used in the grammar's struct tags
// (Ident, Int, Value, Sep, TensorName, …) to their participle token types.
func grammarSymbols() map[string]lexer.TokenType {
	m := make(map[string]lexer.TokenType, len(tokKindNames))
	for k, name := range tokKindNames {
		m[name] = tokenType(tokKind(k))
	}
	return m
}

// lexerDefinition is the .drr lexer as a participle lexer.Definition: the
// hand-written scanner of lexer.go (tagged literals, tensor types split into
// their parts, <<NULL VALUE>>, newlines that are separator tokens only
// inside blocks) behind participle's interface.
//
// Parse does not go through Lex: it hands participle the tokens of one
// declaration at a time (and, to recover from an error, of one statement at
// a time). Lex serves participle's ParseString and ParseBytes, which the
// tests use to parse whole files in one call; a lexical error ends the
// token stream with that error.
type lexerDefinition struct{}

// Symbols implements lexer.Definition.
func (lexerDefinition) Symbols() map[string]lexer.TokenType { return grammarSymbols() }

// Lex implements lexer.Definition.
func (lexerDefinition) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	s := newScanner(filename, string(src))
	var toks []lexer.Token
	for {
		chunk := s.nextChunk()
		toks = appendTokens(toks, chunk, s.filename)
		if chunk[len(chunk)-1].kind == tEOF {
			break
		}
	}
	if len(s.diags) > 0 {
		return nil, s.diags[0]
	}
	return &tokenStream{toks: toks}, nil
}

// appendTokens appends the participle form of the scanner tokens toks.
func appendTokens(dst []lexer.Token, toks []token, filename string) []lexer.Token {
	for i := range toks {
		dst = append(dst, participleToken(&toks[i], filename))
	}
	return dst
}

// participleToken converts a scanner token.
func participleToken(t *token, filename string) lexer.Token {
	return lexer.Token{Type: tokenType(t.kind), Value: t.text,
		Pos: lexer.Position{Filename: filename, Offset: int(t.off), Line: int(t.line), Column: int(t.col)}}
}

// tokenStream is a lexer.Lexer over tokens lexed beforehand; its last token
// is an EOF token, which it returns again when asked for more.
type tokenStream struct {
	toks []lexer.Token
	i    int
}

// Next implements lexer.Lexer.
func (l *tokenStream) Next() (lexer.Token, error) {
	t := l.toks[l.i]
	if l.i < len(l.toks)-1 {
		l.i++
	}
	return t, nil
}

// tokenEnd returns the position just after a token (tokens never span lines).
func tokenEnd(t *lexer.Token) diag.Position {
	p := diag.Position(t.Pos)
	p.Offset += len(t.Value)
	p.Column += len(t.Value)
	return p
}
