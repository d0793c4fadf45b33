package drr

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Token classes: terminals that match one token of a set of kinds or
// operators as a single grammar node. participle tries the alternatives of
// `@( A | B | … )` one at a time, each in a branch of its own (a heap
// allocation), which after every operand of every expression (the binary
// operators) dominated the cost of parsing; one of these terminals looks at
// the token once. They do not fail with an error: where their token is
// required, a terminal or guard of terms*.go says what was expected.

// match consumes the next token into t if ok accepts it.
func (t *tok) match(l *lexer.PeekingLexer, ok func(*lexer.Token) bool) error {
	if !ok(l.Peek()) {
		return participle.NextMatch
	}
	t.t = l.Next()
	return nil
}

// binaryOp is a binary operator: || && == != < <= > >= in + - * / %.
type binaryOp struct{ tok }

func (t *binaryOp) Parse(l *lexer.PeekingLexer) error {
	return t.match(l, func(t *lexer.Token) bool {
		return (isKind(t, tPunct) || isKeyword(t, "in")) && binaryPrecedence(t.Value) > 0
	})
}

// unaryOp is a unary operator: ! or -.
type unaryOp struct{ tok }

func (t *unaryOp) Parse(l *lexer.PeekingLexer) error {
	return t.match(l, func(t *lexer.Token) bool { return isPunctTok(t, "!") || isPunctTok(t, "-") })
}

// atom is an expression of one token: a value, hole, number, label,
// symbol, <<NULL VALUE>>, <<NULL TYPE>>, _, or a name or string that is not
// the name of a call.
type atom struct{ tok }

func (t *atom) Parse(l *lexer.PeekingLexer) error {
	return t.match(l, func(t *lexer.Token) bool {
		switch kindOf(t.Type) {
		case tValue, tHole, tInt, tFloat, tLabel, tSym, tNull, tNullType, tWild:
			return true
		case tIdent, tString:
			return !isPunctTok(peek2(l), "(")
		}
		return false
	})
}

// opNameTok is the name of an op or function: an identifier or a string.
type opNameTok struct{ tok }

func (t *opNameTok) Parse(l *lexer.PeekingLexer) error {
	return t.match(l, func(t *lexer.Token) bool { return isName(t) || isKind(t, tString) })
}

// resultTok is a result: %name, _ or ....
type resultTok struct{ tok }

func (t *resultTok) Parse(l *lexer.PeekingLexer) error { return t.match(l, isResult) }

// nullTok is an absent operand: null or <<NULL VALUE>>.
type nullTok struct{ tok }

func (t *nullTok) Parse(l *lexer.PeekingLexer) error {
	return t.match(l, func(t *lexer.Token) bool { return isKind(t, tNull) || isKeyword(t, "null") })
}

// typeTok is a type of one token: $hole, <<NULL TYPE>>, ?, _, ... or a
// name (but not vec[ or type(, which start longer types).
type typeTok struct{ tok }

func (t *typeTok) Parse(l *lexer.PeekingLexer) error {
	return t.match(l, func(t *lexer.Token) bool {
		switch kindOf(t.Type) {
		case tHole, tNullType, tWild:
			return true
		case tIdent:
			next := peek2(l)
			return !(t.Value == "vec" && isPunctTok(next, "[") || t.Value == "type" && isPunctTok(next, "("))
		case tPunct:
			return t.Value == "?" || t.Value == "..."
		}
		return false
	})
}

// tensorItem is a dimension or element type in a tensor type: an integer,
// $hole, ?, * or a name.
type tensorItem struct{ tok }

func (t *tensorItem) Parse(l *lexer.PeekingLexer) error {
	return t.match(l, func(t *lexer.Token) bool {
		switch kindOf(t.Type) {
		case tInt, tHole, tIdent:
			return true
		}
		return isPunctTok(t, "?") || isPunctTok(t, "*")
	})
}

// tagged is the literal after a tag: a number, string, symbol or name.
type taggedTok struct{ tok }

func (t *taggedTok) Parse(l *lexer.PeekingLexer) error {
	return t.match(l, func(t *lexer.Token) bool {
		switch kindOf(t.Type) {
		case tInt, tFloat, tString, tSym, tIdent:
			return true
		}
		return false
	})
}

// spreadTok is the "..." that spreads a value list.
type spreadTok struct{ tok }

func (t *spreadTok) Parse(l *lexer.PeekingLexer) error {
	return t.match(l, func(t *lexer.Token) bool { return isPunctTok(t, "...") })
}

// valueTok is a value: %name.
type valueTok struct{ tok }

func (t *valueTok) Parse(l *lexer.PeekingLexer) error { return t.match(l, kind(tValue)) }
