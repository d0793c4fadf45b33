package drr

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// optMark is the '?' after an optional op pattern: `pd_op.cast(%x)?`.
type optMark struct{ tok }

func (t *optMark) Parse(l *lexer.PeekingLexer) error {
	return t.match(l, func(t *lexer.Token) bool { return isPunctTok(t, "?") })
}

// altBar is the '|' between the alternatives of an operand; an operand
// must follow it.
type altBar struct{}

func (*altBar) Parse(l *lexer.PeekingLexer) error {
	if !isPunctTok(l.Peek(), "|") {
		return participle.NextMatch
	}
	l.Next()
	return need(l, canStartOperand, fixed("an alternative (a value like %x or an op pattern) after '|'"))
}
