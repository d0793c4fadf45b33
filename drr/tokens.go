package drr

import (
	"sort"

	"github.com/pirdrr/drr/diag"
)

// The lexical tokens of a file, for editors: syntax highlighting and the
// context of a completion need the tokens of text that may not parse.

// TokenKind classifies a lexical token.
type TokenKind uint8

// Kinds of tokens.
const (
	TokenIdent      TokenKind = iota // an identifier, possibly dotted: rule, pd_op.conv2d, float32, true
	TokenInt                         // 64, -1, 0x7f3a
	TokenFloat                       // 1e-05, -inf, nan
	TokenString                      // "NCHW" (the text keeps the quotes)
	TokenValue                       // %x
	TokenHole                        // $s
	TokenLabel                       // @f
	TokenTag                         // (Int32): the tag of a printed-PIR literal
	TokenSymbol                      // raw printed-PIR attribute text: Place(cpu), <#AttrNull>
	TokenNull                        // <<NULL VALUE>> or <<NULL TYPE>>
	TokenWildcard                    // _
	TokenTypeName                    // the name of a tensor type: builtin.tensor in builtin.tensor<2xf32>
	TokenTypePunct                   // the '<', '>' and 'x' of a tensor type
	TokenPunct                       // ( ) [ ] { } , : ; = and the operators
	TokenComment                     // a // comment
	TokenDocComment                  // a /// doc comment
)

var tokenKindNames = [...]string{"Ident", "Int", "Float", "String", "Value", "Hole", "Label", "Tag", "Symbol",
	"Null", "Wildcard", "TypeName", "TypePunct", "Punct", "Comment", "DocComment"}

// String returns the kind's name.
func (k TokenKind) String() string {
	if int(k) < len(tokenKindNames) {
		return tokenKindNames[k]
	}
	return "TokenKind(?)"
}

// Token is one lexical token of a file, with its position.
type Token struct {
	Kind TokenKind
	Pos  diag.Position // the token's first character
	Text string        // the token as written
}

// End returns the position just after the token (tokens never span lines).
func (t Token) End() diag.Position { return endOf(t.Pos, t.Text) }

// Keywords are the words with a fixed meaning somewhere in the language
// (declarations, clauses, rewrite statements, literals). Most are keywords
// only where the grammar expects them: a rule may be named match.
var Keywords = []string{"benefit", "constraint", "each", "either", "erase", "false", "family", "for", "import", "in",
	"labels", "later", "match", "native", "null", "of", "param", "replace", "rewrite", "rule", "trait", "true", "uses",
	"where", "with"}

// Tokens returns the tokens and comments of src in source order, as the
// parser's lexer sees them. Text that does not lex (a stray character, an
// unterminated string) produces no token; newlines produce none either.
// Tokens never fails.
func Tokens(filename string, src []byte) (toks []Token) {
	defer func() {
		if recover() != nil {
			toks = nil // a lexer bug must not take down an editor
		}
	}()
	s := newScanner(filename, string(src))
	for {
		chunk := s.nextChunk()
		for i := range chunk {
			t := &chunk[i]
			kind, ok := exportedKind(t)
			if !ok {
				continue
			}
			toks = append(toks, Token{Kind: kind, Text: t.text,
				Pos: diag.Position{Filename: filename, Offset: int(t.off), Line: int(t.line), Column: int(t.col)}})
		}
		if chunk[len(chunk)-1].kind == tEOF {
			break
		}
	}
	for _, c := range s.comments {
		kind := TokenComment
		if c.Doc {
			kind = TokenDocComment
		}
		toks = append(toks, Token{Kind: kind, Pos: c.Pos(), Text: c.Text})
	}
	sort.SliceStable(toks, func(i, j int) bool { return toks[i].Pos.Offset < toks[j].Pos.Offset })
	return toks
}

// exportedKind maps a lexer token to its TokenKind; ok is false for tokens
// that stand for no text (end of file, newline separators).
func exportedKind(t *token) (TokenKind, bool) {
	switch t.kind {
	case tIdent:
		return TokenIdent, true
	case tInt:
		return TokenInt, true
	case tFloat:
		return TokenFloat, true
	case tString:
		return TokenString, true
	case tValue:
		return TokenValue, true
	case tHole:
		return TokenHole, true
	case tLabel:
		return TokenLabel, true
	case tTag:
		return TokenTag, true
	case tSym:
		return TokenSymbol, true
	case tNull, tNullType:
		return TokenNull, true
	case tWild:
		return TokenWildcard, true
	case tTensorName:
		return TokenTypeName, true
	case tTensorOpen, tTensorClose, tDimX:
		return TokenTypePunct, true
	case tPunct:
		return TokenPunct, true
	case tSep, tTopSep:
		return TokenPunct, t.text == ";"
	}
	return 0, false
}
