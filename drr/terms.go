package drr

import (
	"strconv"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/internal/suggest"
)

// This file holds the machinery of the grammar's terminals and guards: the
// small participle.Parseable types of terms_*.go that match one token (or,
// for a guard, check the next token without consuming it) and, when the
// input does not fit, fail with a message in the user's terms: "expected
// ')' after operands of pd_op.conv2d, found '{'" rather than participle's
// "unexpected token "{" (expected ")" AttrMap? Signature?)".
//
// A terminal knows the tokens consumed before it (seen) and builds its
// message from them: the op whose operand list it closes, the attribute
// whose value is missing. participle keeps the error of the branch that got
// furthest, so the message of the innermost construct that could not be
// completed is the one reported.
//
// Terminals fail with an error only where the grammar has committed to a
// construct (after its first token). Where a construct may legitimately be
// absent they return participle.NextMatch, so participle tries the
// alternatives.

// syntaxError is a positioned message from a terminal or guard.
type syntaxError struct {
	pos diag.Position
	msg string
}

func (e *syntaxError) Error() string            { return e.pos.String() + ": " + e.msg }
func (e *syntaxError) Message() string          { return e.msg }
func (e *syntaxError) Position() lexer.Position { return lexer.Position(e.pos) }

var _ participle.Error = (*syntaxError)(nil)

// seen is what a terminal knows of its context: the tokens consumed so far
// in the current parse (a declaration, or a statement re-parsed after an
// error), in order.
type seen []lexer.Token

// seenBy returns the tokens l has consumed.
func seenBy(l *lexer.PeekingLexer) seen { return seen(l.Range(0, l.RawCursor())) }

// at returns the i-th token, or nil when i is out of range.
func (s seen) at(i int) *lexer.Token {
	if i < 0 || i >= len(s) {
		return nil
	}
	return &s[i]
}

// last returns the last consumed token, or nil.
func (s seen) last() *lexer.Token { return s.at(len(s) - 1) }

// lastIs reports whether the last consumed token is the punctuation p.
func (s seen) lastIs(p string) bool { return isPunctTok(s.last(), p) }

// opener returns the index of the innermost bracket — ( [ { or the '<' of a
// tensor type — still open before index end, or -1.
func (s seen) opener(end int) int {
	depth := 0
	for i := end - 1; i >= 0; i-- {
		t := &s[i]
		switch kindOf(t.Type) {
		case tTensorClose:
			depth++
		case tTensorOpen:
			if depth == 0 {
				return i
			}
			depth--
		case tPunct:
			switch t.Value {
			case ")", "]", "}":
				depth++
			case "(", "[", "{":
				if depth == 0 {
					return i
				}
				depth--
			}
		}
	}
	return -1
}

// matching returns the index of the bracket that opens the closer at i.
func (s seen) matching(i int) int { return s.opener(i) }

// nameBefore returns how messages show the op (or function) whose operand
// list opens at index open: the name token before it, skipping the
// "[id:N]" some Paddle versions print between the name and '('.
func (s seen) nameBefore(open int) string {
	i := open - 1
	if isPunctTok(s.at(i), "]") {
		i = s.matching(i) - 1
	}
	t := s.at(i)
	if t == nil {
		return "?"
	}
	return tokenName(t)
}

// ownerOf returns the op an attribute map or a signature belongs to: i is
// the index of the token just before the map's '{' or the signature's ':'
// or '->', which ends the op's operand list or attribute map.
func (s seen) ownerOf(i int) string {
	if isPunctTok(s.at(i), "}") {
		i = s.matching(i) - 1
	}
	if isPunctTok(s.at(i), ")") {
		return s.nameBefore(s.matching(i))
	}
	return "?"
}

// entryStart returns the index of the first token of the last item of the
// list whose bracket opens at open: the token after the last ',' at the
// list's own level, or after the bracket.
func (s seen) entryStart(open int) int {
	depth := 0
	for i := len(s) - 1; i > open; i-- {
		switch t := &s[i]; {
		case isCloser(t):
			depth++
		case isOpener(t):
			depth--
		case depth == 0 && isPunctTok(t, ","):
			return i + 1
		}
	}
	return open + 1
}

// tokenName shows an op or function name token as messages do: quoted
// names stay quoted unless they are plain dotted identifiers.
func tokenName(t *lexer.Token) string {
	if kindOf(t.Type) != tString {
		return t.Value
	}
	return displayName(&OpName{Name: unquote(t.Value), Quoted: true})
}

func isPunctTok(t *lexer.Token, p string) bool {
	return t != nil && kindOf(t.Type) == tPunct && t.Value == p
}

func isKind(t *lexer.Token, k tokKind) bool { return t != nil && kindOf(t.Type) == k }

func isKeyword(t *lexer.Token, kw string) bool { return isKind(t, tIdent) && t.Value == kw }

func isOpener(t *lexer.Token) bool {
	return kindOf(t.Type) == tTensorOpen || kindOf(t.Type) == tPunct && (t.Value == "(" || t.Value == "[" || t.Value == "{")
}

func isCloser(t *lexer.Token) bool {
	return kindOf(t.Type) == tTensorClose || kindOf(t.Type) == tPunct && (t.Value == ")" || t.Value == "]" || t.Value == "}")
}

// describeTok names a token for "found …" in messages. The end token of a
// statement re-parsed after an error is an EOF token whose value is the
// text that really ended the statement ("}", a newline, ";" or nothing at
// the end of the file).
func describeTok(t *lexer.Token) string {
	switch kindOf(t.Type) {
	case tEOF:
		switch t.Value {
		case "":
			return "end of file"
		case "\n":
			return "end of line"
		}
		return "'" + t.Value + "'"
	case tSep, tTopSep:
		if t.Value == ";" {
			return "';'"
		}
		return "end of line"
	case tString:
		return "string " + truncate(t.Value)
	}
	return "'" + truncate(t.Value) + "'"
}

// found returns the position and description of the token that does not fit
// at the current place: the next token, or the end of the line when the
// next token is on a later line than the last consumed one (a missing ')'
// belongs at the end of its line, not before the next statement).
func found(l *lexer.PeekingLexer) (diag.Position, string) {
	t := l.Peek()
	pos, what := diag.Position(t.Pos), describeTok(t)
	if p := seenBy(l).last(); p != nil && p.Pos.Line < t.Pos.Line && !isKind(p, tSep) && !isKind(p, tTopSep) && !isPunctTok(p, "{") {
		pos, what = tokenEnd(p), "end of line"
	}
	return pos, what
}

// expected returns the error "expected WHAT, found …" at the current place.
func expected(l *lexer.PeekingLexer, what string) error {
	pos, f := found(l)
	return &syntaxError{pos: pos, msg: "expected " + what + ", found " + f}
}

// errorAt returns an error with a message of its own at the next token.
func errorAt(l *lexer.PeekingLexer, msg string) error {
	return &syntaxError{pos: diag.Position(l.Peek().Pos), msg: msg}
}

// take consumes the next token if it satisfies ok; otherwise it fails with
// "expected WHAT, found …", WHAT computed from the context.
func take(l *lexer.PeekingLexer, ok func(*lexer.Token) bool, what func(seen) string) (*lexer.Token, error) {
	if t := l.Peek(); ok(t) {
		return l.Next(), nil
	}
	return nil, expected(l, what(seenBy(l)))
}

// need checks, without consuming it, that the next token satisfies ok (a
// guard before a nonterminal); otherwise it fails like take.
func need(l *lexer.PeekingLexer, ok func(*lexer.Token) bool, what func(seen) string) error {
	if ok(l.Peek()) {
		return nil
	}
	return expected(l, what(seenBy(l)))
}

// fixed returns a message function that ignores the context.
func fixed(what string) func(seen) string { return func(seen) string { return what } }

// punct returns a matcher for the punctuation p.
func punct(p string) func(*lexer.Token) bool {
	return func(t *lexer.Token) bool { return isPunctTok(t, p) }
}

// kind returns a matcher for the token kind k.
func kind(k tokKind) func(*lexer.Token) bool {
	return func(t *lexer.Token) bool { return isKind(t, k) }
}

// keyword returns a matcher for the keyword kw.
func keyword(kw string) func(*lexer.Token) bool {
	return func(t *lexer.Token) bool { return isKeyword(t, kw) }
}

// isBlockStart reports whether a block clause (match {, where {,
// rewrite {) starts at the next token: inside a block, that means the
// block's '}' is missing.
func isBlockStart(l *lexer.PeekingLexer) bool {
	t := l.Peek()
	return isKind(t, tIdent) && isBlockKeyword(t.Value) && isPunctTok(peek2(l), "{")
}

// itemSep is the separator before an item of a block: nothing before the
// first item, a newline or ';' before the others. It is taken only when an
// item can start after it; otherwise the block's closer reports what is
// there.
func itemSep(l *lexer.PeekingLexer, canStart func(*lexer.PeekingLexer) bool) error {
	if seenBy(l).lastIs("{") {
		if canStart(l) {
			return nil
		}
		return participle.NextMatch
	}
	if isKind(l.Peek(), tSep) {
		cp := l.MakeCheckpoint()
		l.Next()
		if canStart(l) {
			return nil
		}
		l.LoadCheckpoint(cp)
	}
	return participle.NextMatch
}

// unitStart checks that the statement of a unit can start; otherwise it
// fails with "expected WHAT".
func unitStart(l *lexer.PeekingLexer, canStart func(*lexer.PeekingLexer) bool, what string) error {
	if canStart(l) {
		return nil
	}
	return expected(l, what)
}

// element checks that an element of a list starts here. After a ',' an
// element must follow (a ',' directly before the closing bracket was dropped
// by the lexer); elsewhere the list may be empty, and its closer reports
// what is there.
func element(l *lexer.PeekingLexer, ok func(*lexer.Token) bool, what func(seen) string) error {
	if ok(l.Peek()) {
		return nil
	}
	if seenBy(l).lastIs(",") {
		return expected(l, what(seenBy(l)))
	}
	return participle.NextMatch
}

// peek2 returns the token after the next one.
func peek2(l *lexer.PeekingLexer) *lexer.Token {
	cp := l.MakeCheckpoint()
	l.Next()
	t := l.Peek()
	l.LoadCheckpoint(cp)
	return t
}

// posString formats the line and column of a token for messages ("10:5").
func posString(t *lexer.Token) string {
	return strconv.Itoa(t.Pos.Line) + ":" + strconv.Itoa(t.Pos.Column)
}

// truncate shortens a token's text for a message.
func truncate(s string) string {
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	r := []rune(s)
	return string(r[:37]) + "…"
}

// displayName is how an op name appears in messages: quoted names stay
// quoted unless they are plain dotted identifiers.
func displayName(n *OpName) string {
	if n.Quoted && !isPlainDotted(n.Name) {
		return quote(n.Name)
	}
	return n.Name
}

// isBlockKeyword reports whether s starts a block clause of a rule (match,
// where, rewrite); seeing one followed by '{' inside a block means the
// block's '}' is missing.
func isBlockKeyword(s string) bool {
	return s == "match" || s == "where" || s == "rewrite"
}

// didYouMean returns " (did you mean 'kw'?)" when t is an identifier that
// looks like a misspelling of one of the keywords (at most two edits, and
// fewer than half of its letters), or "".
func didYouMean(t *lexer.Token, keywords ...string) string {
	if !isKind(t, tIdent) {
		return ""
	}
	best, bestD := "", 3
	for _, kw := range keywords {
		if d := suggest.Distance(t.Value, kw); d < bestD && 2*d < len(kw) {
			best, bestD = kw, d
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean '" + best + "'?)"
}
