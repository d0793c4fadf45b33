package drr

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The terminals and guards of match blocks and types (see terms.go).

// canStartPattern reports whether a pattern statement can start at the
// next token.
func canStartPattern(l *lexer.PeekingLexer) bool {
	t := l.Peek()
	switch kindOf(t.Type) {
	case tLabel, tValue, tWild, tString:
		return true
	case tIdent:
		return !isBlockStart(l)
	case tPunct:
		return t.Value == "..." || t.Value == "("
	}
	return false
}

// patternSep separates the statements of a match block (see itemSep).
type patternSep struct{}

func (*patternSep) Parse(l *lexer.PeekingLexer) error { return itemSep(l, canStartPattern) }

// patternUnitStart checks that a pattern statement re-parsed as a unit can start.
type patternUnitStart struct{}

func (*patternUnitStart) Parse(l *lexer.PeekingLexer) error {
	return unitStart(l, canStartPattern, "pattern statement (e.g. '%y = pd_op.relu(%x)')")
}

// labelEq is the '=' after an op label.
type labelEq struct{}

func (*labelEq) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct("="), func(s seen) string { return "'=' after op label " + s.last().Value })
	return err
}

// resultsEq is the '=' after a result list.
type resultsEq struct{}

func (*resultsEq) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct("="), func(s seen) string {
		// The results: the tokens back to the statement's start.
		var names []*lexer.Token
		for i := len(s) - 1; i >= 0; i-- {
			t := &s[i]
			if isKind(t, tValue) || isKind(t, tWild) || isPunctTok(t, "...") {
				names = append(names, t)
			} else if !isPunctTok(t, ",") && !isPunctTok(t, "(") && !isPunctTok(t, ")") {
				break
			}
		}
		if len(names) == 1 && isKind(names[0], tValue) {
			return "'=' after result " + names[0].Value
		}
		return "'=' after results"
	})
	return err
}

// opStart checks that an op name follows the '=' of a pattern statement.
type opStart struct{}

func (*opStart) Parse(l *lexer.PeekingLexer) error {
	if t := l.Peek(); isName(t) || isKind(t, tString) {
		return nil
	}
	if seenBy(l).lastIs("=") {
		return expected(l, "op name after '='")
	}
	return participle.NextMatch
}

func isResult(t *lexer.Token) bool {
	return isKind(t, tValue) || isKind(t, tWild) || isPunctTok(t, "...")
}

// dotsTok is the '...' after a value that stands for the values of every element of a users group: the
// results `%parts... = …` and the replaced `replace %y... with …`.
type dotsTok struct{ tok }

func (t *dotsTok) Parse(l *lexer.PeekingLexer) error { return t.match(l, punct("...")) }

// resultItem is a result after a ','.
type resultItem struct{ tok }

func (t *resultItem) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, isResult, fixed("result (%name, _ or ...)"))
}

// resultsClose is the ')' that closes a parenthesised result list.
type resultsClose struct{}

func (*resultsClose) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct(")"), func(s seen) string {
		if s.lastIs("(") || s.lastIs(",") {
			return "result (%name, _ or ...)"
		}
		return "')' after results"
	})
	return err
}

// operandsOpen is the '(' after an op name.
type operandsOpen struct{ tok }

func (t *operandsOpen) Parse(l *lexer.PeekingLexer) (err error) {
	t.t, err = take(l, punct("("), func(s seen) string { return "'(' after op name " + s.nameBefore(len(s)) })
	return err
}

// closeOperands consumes the closer of an operand list (of an op, either(…)
// or a combine list [..]) whose owner names it in messages.
func closeOperands(l *lexer.PeekingLexer, closer string) (*lexer.Token, error) {
	if next := l.Peek(); isKind(next, tHole) {
		s := seenBy(l)
		return nil, errorAt(l, "attribute hole "+next.Value+" cannot be an operand of "+operandsOwner(s, s.opener(len(s)))+
			" (operands are values like %x)")
	}
	return take(l, punct(closer), func(s seen) string {
		owner := operandsOwner(s, s.opener(len(s)))
		switch {
		case s.lastIs("(") || s.lastIs("[") || s.lastIs(","):
			return "operand of " + owner
		case closer == "]":
			return "',' or ']' in the combined operands of " + owner
		}
		return "')' after operands of " + owner
	})
}

// operandsOwner names the op whose operands the list opening at open holds:
// a combine list [..] belongs to the op around it.
func operandsOwner(s seen, open int) string {
	for open >= 0 && isPunctTok(&s[open], "[") {
		open = s.opener(open)
	}
	if open < 0 {
		return "?"
	}
	return s.nameBefore(open)
}

// canStartOperand reports whether an operand pattern can start with t.
func canStartOperand(t *lexer.Token) bool {
	switch kindOf(t.Type) {
	case tValue, tWild, tNull, tIdent, tString:
		return true
	}
	return isPunctTok(t, "[")
}

// operandStart checks that an operand follows a ','.
type operandStart struct{}

func (*operandStart) Parse(l *lexer.PeekingLexer) error {
	if next := l.Peek(); isKind(next, tHole) && seenBy(l).lastIs(",") {
		s := seenBy(l)
		return errorAt(l, "attribute hole "+next.Value+" cannot be an operand of "+operandsOwner(s, s.opener(len(s)))+
			" (operands are values like %x)")
	}
	return element(l, canStartOperand, func(s seen) string { return "operand of " + operandsOwner(s, s.opener(len(s))) })
}

// operandsClose is the ')' that closes an op's operands.
type operandsClose struct{ tok }

func (t *operandsClose) Parse(l *lexer.PeekingLexer) (err error) {
	t.t, err = closeOperands(l, ")")
	return err
}

// eitherClose is the ')' that closes the operands of either(…).
type eitherClose struct{}

func (*eitherClose) Parse(l *lexer.PeekingLexer) error {
	_, err := closeOperands(l, ")")
	return err
}

// combineClose is the ']' that closes a combine list.
type combineClose struct{}

func (*combineClose) Parse(l *lexer.PeekingLexer) error {
	_, err := closeOperands(l, "]")
	return err
}

// opIDColon is the ':' of an op id [id:N].
type opIDColon struct{}

func (*opIDColon) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct(":"), fixed("':' after 'id' in op id"))
	return err
}

// opIDInt is the integer of an op id [id:N].
type opIDInt struct{}

func (*opIDInt) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, kind(tInt), fixed("integer op id"))
	return err
}

// opIDClose is the ']' of an op id [id:N].
type opIDClose struct{}

func (*opIDClose) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct("]"), fixed("']' after op id"))
	return err
}

// canStartType reports whether a type can start with t.
func canStartType(t *lexer.Token) bool {
	switch kindOf(t.Type) {
	case tTensorName, tHole, tNullType, tIdent, tWild:
		return true
	case tPunct:
		return t.Value == "?" || t.Value == "..."
	}
	return false
}

// typeStart checks that a type follows a ',' in a list of types.
type typeStart struct{}

func (*typeStart) Parse(l *lexer.PeekingLexer) error {
	return element(l, canStartType, func(s seen) string {
		open := s.opener(len(s))
		if isPunctTok(&s[open], "[") {
			return "element type of vec[…]"
		}
		return "operand type of " + sigOwner(s, open-1)
	})
}

// typeOfOperand checks that a type follows `%x:`.
type typeOfOperand struct{}

func (*typeOfOperand) Parse(l *lexer.PeekingLexer) error {
	return need(l, canStartType, func(s seen) string { return "type of operand " + s[len(s)-2].Value })
}

// attrsOwner names the op whose attribute map opens at open.
func attrsOwner(s seen, open int) string { return s.ownerOf(open - 1) }

// attrsClose is the '}' that closes an attribute map.
type attrsClose struct{}

func (*attrsClose) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct("}"), func(s seen) string {
		open := s.opener(len(s))
		owner := attrsOwner(s, open)
		if s.lastIs("{") || s.lastIs(",") {
			return "attribute name in the attributes of " + owner
		}
		e := s[s.entryStart(open)]
		what := "attribute " + e.Value
		if isKind(&e, tHole) {
			what = "'" + e.Value + "...'"
		}
		return "',' or '}' after " + what + " of " + owner
	})
	return err
}

// attrStart checks that an attribute entry follows a ','.
type attrStart struct{}

func (*attrStart) Parse(l *lexer.PeekingLexer) error {
	return element(l, func(t *lexer.Token) bool {
		return isName(t) || isKind(t, tHole) && isPunctTok(peek2(l), "...")
	}, func(s seen) string { return "attribute name in the attributes of " + attrsOwner(s, s.opener(len(s))) })
}

// attrColon is the ':' after an attribute name.
type attrColon struct{}

func (*attrColon) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct(":"), func(s seen) string { return "':' after attribute name " + s.last().Value })
	return err
}

// attrValue checks that a value follows `key:`.
type attrValue struct{}

func (*attrValue) Parse(l *lexer.PeekingLexer) error {
	return need(l, canStartExpr, func(s seen) string { return "value of attribute " + s[len(s)-2].Value })
}

// sigOwner names the op of the signature whose ':' is at index colon.
func sigOwner(s seen, colon int) string { return s.ownerOf(colon - 1) }

// sigOpen is the '(' after the ':' of a signature.
type sigOpen struct{}

func (*sigOpen) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct("("), func(s seen) string {
		return "'(' after ':' in the type signature of " + sigOwner(s, len(s)-1)
	})
	return err
}

// sigClose is the ')' after a signature's operand types.
type sigClose struct{}

func (*sigClose) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct(")"), func(s seen) string {
		owner := sigOwner(s, s.opener(len(s))-1)
		if s.lastIs("(") || s.lastIs(",") {
			return "operand type of " + owner
		}
		return "',' or ')' after operand type of " + owner
	})
	return err
}

// sigArrow is the '->' after a signature's operand types.
type sigArrow struct{}

func (*sigArrow) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct("->"), func(s seen) string {
		return "'->' after the operand types of " + sigOwner(s, s.matching(len(s)-1)-1)
	})
	return err
}

// resultTypeOf checks that a result type follows a ',' in a signature.
type resultTypeOf struct{}

func (*resultTypeOf) Parse(l *lexer.PeekingLexer) error {
	return need(l, canStartType, func(s seen) string {
		// Back to the '->' of the signature, then to its ':' or the op.
		i := len(s) - 1
		for i >= 0 && !isPunctTok(&s[i], "->") {
			i--
		}
		if isPunctTok(s.at(i-1), ")") && isPunctTok(s.at(s.matching(i-1)-1), ":") {
			i = s.matching(i-1) - 1
		}
		return "result type of " + sigOwner(s, i)
	})
}

// tensorOf returns the name of the tensor type whose '<' is innermost.
func tensorOf(s seen) string {
	open := s.opener(len(s))
	if t := s.at(open - 1); t != nil {
		return t.Value
	}
	return "tensor"
}

// tensorStart checks that a tensor type is not empty.
type tensorStart struct{}

func (*tensorStart) Parse(l *lexer.PeekingLexer) error {
	if isKind(l.Peek(), tTensorClose) {
		return errorAt(l, "empty "+tensorOf(seenBy(l))+" type: expected element type such as f32")
	}
	return nil
}

// tensorItemAfterX checks that an item follows an 'x'.
type tensorItemAfterX struct{}

func (*tensorItemAfterX) Parse(l *lexer.PeekingLexer) error {
	if isKind(l.Peek(), tTensorClose) {
		return errorAt(l, "expected element type after 'x' in "+tensorOf(seenBy(l))+" type")
	}
	return nil
}

// tensorClose is the '>' that closes a tensor type.
type tensorClose struct{}

func (*tensorClose) Parse(l *lexer.PeekingLexer) error {
	if next := l.Peek(); isKind(next, tTensorClose) {
		l.Next()
		return nil
	}
	s := seenBy(l)
	last := s.last()
	if isKind(last, tIdent) {
		return errorAt(l, "unexpected "+describeTok(l.Peek())+" after element type "+last.Value+" in "+tensorOf(s)+" type")
	}
	return expected(l, "'x' after dimension "+last.Value+" in "+tensorOf(s)+" type")
}

// vecClose is the ']' that closes vec[…].
type vecClose struct{}

func (*vecClose) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct("]"), func(s seen) string {
		if s.lastIs("[") || s.lastIs(",") {
			return "element type of vec[…]"
		}
		return "',' or ']' in vec[…]"
	})
	return err
}

// typeOfValue is the value in type(…).
type typeOfValue struct{ tok }

func (t *typeOfValue) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, kind(tValue), fixed("value in type(…)"))
}

// typeOfClose is the ')' that closes type(…).
type typeOfClose struct{}

func (*typeOfClose) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct(")"), func(s seen) string { return "')' after type(" + s.last().Value })
	return err
}
