package drr

import "github.com/alecthomas/participle/v2/lexer"

// eachCount is an element count of each(min, max): a non-negative integer.
type eachCount struct{ tok }

func (t *eachCount) Parse(l *lexer.PeekingLexer) (err error) {
	t.t, err = take(l, kind(tInt), func(s seen) string {
		if s.lastIs(",") {
			return "the largest element count after each(min,"
		}
		return "the smallest element count after 'each('"
	})
	return err
}

// eachComma is the ',' between the counts of each(min, max).
type eachComma struct{}

func (*eachComma) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct(","), fixed("',' and the largest element count after each(min"))
	return err
}

// eachClose is the ')' after the counts of each(min, max); the element
// pattern must follow it.
type eachClose struct{}

func (*eachClose) Parse(l *lexer.PeekingLexer) error {
	if _, err := take(l, punct(")"), fixed("')' after each(min, max")); err != nil {
		return err
	}
	return need(l, canStartOperand, fixed("the pattern of each element after each(min, max) (an op pattern like pd_op.relu(%x))"))
}
