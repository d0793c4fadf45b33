package drr

import (
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The terminals and guards of where and rewrite blocks and of expressions
// (see terms.go).

// canStartExpr reports whether an expression can start with t.
func canStartExpr(t *lexer.Token) bool {
	switch kindOf(t.Type) {
	case tIdent, tWild, tInt, tFloat, tString, tValue, tHole, tLabel, tTag, tTensorName, tSym, tNull, tNullType:
		return true
	case tPunct:
		switch t.Value {
		case "(", "[", "!", "-":
			return true
		}
	}
	return false
}

// canStartConstraint reports whether a constraint can start at the next
// token.
func canStartConstraint(l *lexer.PeekingLexer) bool {
	return canStartExpr(l.Peek()) && !isBlockStart(l)
}

// canStartRewrite reports whether a rewrite statement can start at the
// next token.
func canStartRewrite(l *lexer.PeekingLexer) bool {
	t := l.Peek()
	return (canStartExpr(t) || isPunctTok(t, "...")) && !isBlockStart(l)
}

// constraintSep separates the constraints of a where block (see itemSep).
type constraintSep struct{}

func (*constraintSep) Parse(l *lexer.PeekingLexer) error { return itemSep(l, canStartConstraint) }

// rewriteSep separates the statements of a rewrite block (see itemSep).
type rewriteSep struct{}

func (*rewriteSep) Parse(l *lexer.PeekingLexer) error { return itemSep(l, canStartRewrite) }

// constraintUnitStart checks that a constraint re-parsed as a unit can start.
type constraintUnitStart struct{}

func (*constraintUnitStart) Parse(l *lexer.PeekingLexer) error {
	return unitStart(l, canStartConstraint, "constraint expression in where block")
}

// rewriteUnitStart checks that a rewrite statement re-parsed as a unit can start.
type rewriteUnitStart struct{}

func (*rewriteUnitStart) Parse(l *lexer.PeekingLexer) error {
	return unitStart(l, canStartRewrite, "rewrite statement (assignment, replace, erase or native call)")
}

// exprStart checks that an expression follows a ',' in a list or the
// arguments of a call.
type exprStart struct{}

func (*exprStart) Parse(l *lexer.PeekingLexer) error {
	return element(l, canStartExpr, func(s seen) string {
		open := s.opener(len(s))
		if isPunctTok(&s[open], "[") {
			return "list element"
		}
		what, name := callArgs(s, open)
		return what + " of " + name
	})
}

// callArgs returns what the arguments of the call whose '(' is at open
// are ("operand" of an op, "argument" of a function) and the call's name.
func callArgs(s seen, open int) (what, name string) {
	what = "operand"
	if f := s.at(open - 1); isKind(f, tIdent) && !strings.Contains(f.Value, ".") {
		what = "argument"
	}
	return what, s.nameBefore(open)
}

// assignStart lets an assignment start here: with a result, or with a
// parenthesised result list followed by '=' (otherwise '(' starts an
// expression).
type assignStart struct{}

func (*assignStart) Parse(l *lexer.PeekingLexer) error {
	t := l.Peek()
	if isResult(t) {
		return nil
	}
	if !isPunctTok(t, "(") {
		return participle.NextMatch
	}
	cp := l.MakeCheckpoint()
	defer l.LoadCheckpoint(cp)
	l.Next()
	for t := l.Peek(); isResult(t) || isPunctTok(t, ","); t = l.Peek() {
		l.Next()
	}
	if isPunctTok(l.Peek(), ")") {
		l.Next()
		if isPunctTok(l.Peek(), "=") {
			return nil
		}
	}
	return participle.NextMatch
}

// replaceValue is the value that a replace statement replaces.
type replaceValue struct{ tok }

func (t *replaceValue) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, kind(tValue), func(s seen) string {
		if isKeyword(s.last(), "of") {
			return "value after 'replace later uses of'"
		}
		return "value or 'later uses of' after 'replace'"
	})
}

// replaceWith is the 'with' of a replace statement.
type replaceWith struct{}

func (*replaceWith) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, keyword("with"), func(s seen) string { return "'with' after 'replace " + s.last().Value + "'" })
	return err
}

// replaceNew checks that the replacement follows 'with'.
type replaceNew struct{}

func (*replaceNew) Parse(l *lexer.PeekingLexer) error {
	return need(l, canStartExpr, fixed("replacement expression after 'with'"))
}

// laterUses is the 'uses' of 'replace later uses of'.
type laterUses struct{}

func (*laterUses) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, keyword("uses"), fixed("'uses' after 'replace later'"))
	return err
}

// laterOf is the 'of' of 'replace later uses of'.
type laterOf struct{}

func (*laterOf) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, keyword("of"), fixed("'of' after 'replace later uses'"))
	return err
}

// eraseTarget is the op label or value after 'erase'.
type eraseTarget struct{ tok }

func (t *eraseTarget) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, func(t *lexer.Token) bool { return isKind(t, tLabel) || isKind(t, tValue) },
		fixed("op label (@name) or value after 'erase'"))
}

// assignValue checks that an expression follows the '=' of an assignment.
type assignValue struct{}

func (*assignValue) Parse(l *lexer.PeekingLexer) error {
	return need(l, canStartExpr, fixed("expression after '='"))
}

// resultTypeGuard checks that a type follows the '->' of an assignment.
type resultTypeGuard struct{}

func (*resultTypeGuard) Parse(l *lexer.PeekingLexer) error {
	return need(l, canStartType, fixed("result type after '->'"))
}

// callStmtStart lets an expression statement start here: not with a
// result, which starts an assignment.
type callStmtStart struct{}

func (*callStmtStart) Parse(l *lexer.PeekingLexer) error {
	if isResult(l.Peek()) {
		return participle.NextMatch
	}
	return nil
}

// operandAfter checks that an operand follows a binary operator.
type operandAfter struct{}

func (*operandAfter) Parse(l *lexer.PeekingLexer) error {
	return need(l, canStartExpr, func(s seen) string { return "operand after '" + s.last().Value + "'" })
}

// condThen checks that an expression follows the '?' of a conditional.
type condThen struct{}

func (*condThen) Parse(l *lexer.PeekingLexer) error {
	return need(l, canStartExpr, fixed("expression after '?'"))
}

// condColon is the ':' of a conditional.
type condColon struct{}

func (*condColon) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct(":"), fixed("':' in conditional expression '… ? … : …'"))
	return err
}

// condElse checks that an expression follows the ':' of a conditional.
type condElse struct{}

func (*condElse) Parse(l *lexer.PeekingLexer) error {
	return need(l, canStartExpr, fixed("expression after ':' in conditional expression"))
}

// unaryOperand checks that an operand follows a unary operator.
type unaryOperand struct{}

func (*unaryOperand) Parse(l *lexer.PeekingLexer) error {
	return need(l, canStartExpr, func(s seen) string { return "operand after unary '" + s.last().Value + "'" })
}

// indexExpr checks that an index follows '['.
type indexExpr struct{}

func (*indexExpr) Parse(l *lexer.PeekingLexer) error {
	return need(l, canStartExpr, fixed("index expression after '['"))
}

// indexClose is the ']' after an index.
type indexClose struct{}

func (*indexClose) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct("]"), fixed("']' after index expression"))
	return err
}

// callClose is the ')' after the arguments of a call: the operands of an
// op, or the arguments of a function.
type callClose struct{ tok }

func (t *callClose) Parse(l *lexer.PeekingLexer) (err error) {
	t.t, err = take(l, punct(")"), func(s seen) string {
		what, name := callArgs(s, s.opener(len(s)))
		if s.lastIs("(") || s.lastIs(",") {
			return what + " of " + name
		}
		return "')' after " + what + "s of " + name
	})
	return err
}

// tagValue checks that a literal follows a tag such as (Int32).
type tagValue struct{}

func (*tagValue) Parse(l *lexer.PeekingLexer) error {
	return need(l, func(t *lexer.Token) bool {
		switch kindOf(t.Type) {
		case tInt, tFloat, tString, tSym, tIdent, tTensorName:
			return true
		}
		return isPunctTok(t, "[")
	}, func(s seen) string { return "literal after tag " + s.last().Value })
}

// parenExpr checks that an expression follows '('.
type parenExpr struct{}

func (*parenExpr) Parse(l *lexer.PeekingLexer) error {
	return need(l, canStartExpr, fixed("expression after '('"))
}

// parenClose is the ')' that closes a parenthesised expression.
type parenClose struct{}

func (*parenClose) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct(")"), func(s seen) string {
		return "')' to close '(' at " + posString(&s[s.opener(len(s))])
	})
	return err
}

// listClose is the ']' that closes a list.
type listClose struct{}

func (*listClose) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct("]"), func(s seen) string {
		if s.lastIs("[") || s.lastIs(",") {
			return "list element"
		}
		return "',' or ']' after list element"
	})
	return err
}
