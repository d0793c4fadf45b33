package drr

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

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
