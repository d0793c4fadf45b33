package drr

import (
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/pirdrr/drr/diag"
)

// The terminals and guards of declarations, rules and blocks (see terms.go).

// declStart checks that a declaration starts here.
type declStart struct{}

func (*declStart) Parse(l *lexer.PeekingLexer) error {
	t := l.Peek()
	switch {
	case isKind(t, tIdent) && isTopKeyword(t.Value):
		return nil
	case isPunctTok(t, "}"):
		return errorAt(l, "unexpected '}' at top level (no open '{')")
	}
	err := expected(l, "'rule', 'family', 'native', 'param' or 'import'")
	err.(*syntaxError).msg += didYouMean(t, "rule", "family", "native", "param", "import")
	return err
}

// declEnd is the end of a declaration's line (or of the file).
type declEnd struct{}

func (*declEnd) Parse(l *lexer.PeekingLexer) error {
	switch t := l.Peek(); {
	case isKind(t, tTopSep):
		l.Next()
		return nil
	case t.EOF():
		return nil
	}
	return expected(l, "end of line after "+declNounOf(seenBy(l)))
}

// declNounOf names the declaration whose tokens are s in messages.
func declNounOf(s seen) string {
	name := func(i int) string {
		if t := s.at(i); t != nil {
			return t.Value
		}
		return "?"
	}
	switch name(0) {
	case "import":
		return "import"
	case "native":
		return "native " + name(2)
	case "param":
		return "parameter " + name(1)
	}
	return name(0) + " " + name(1)
}

// tok is embedded by the terminals that keep the token they matched: a
// pointer into the parser's tokens, so that a terminal costs participle an
// allocation of one word.
type tok struct{ t *lexer.Token }

// take consumes a token satisfying ok into t.
func (t *tok) take(l *lexer.PeekingLexer, ok func(*lexer.Token) bool, what func(seen) string) (err error) {
	t.t, err = take(l, ok, what)
	return err
}

// isName matches a name: an identifier (the lone "_" is a Wild token).
func isName(t *lexer.Token) bool { return isKind(t, tIdent) }

// importPath is the file name string after 'import'.
type importPath struct{ tok }

func (t *importPath) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, kind(tString), fixed("file name string after 'import'"))
}

// familyName is the name after 'family'.
type familyName struct{ tok }

func (t *familyName) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, isName, fixed("family name after 'family'"))
}

// familyEq is the '=' after a family's name.
type familyEq struct{}

func (*familyEq) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct("="), func(s seen) string { return "'=' after family name " + s.last().Value })
	return err
}

// familyOf returns the name of the family being declared.
func familyOf(s seen) string { return declNounOf(s)[len("family "):] }

// famOpStart checks that an op name follows a ',' in an op list.
type famOpStart struct{}

func (*famOpStart) Parse(l *lexer.PeekingLexer) error {
	return element(l, func(t *lexer.Token) bool { return isName(t) || isKind(t, tString) },
		func(s seen) string { return "op name in the op list of family " + familyOf(s) })
}

// paramStart checks that a parameter follows a ','.
type paramStart struct{}

func (*paramStart) Parse(l *lexer.PeekingLexer) error {
	return element(l, func(t *lexer.Token) bool { return isKind(t, tValue) || isKind(t, tHole) },
		func(s seen) string { return "parameter (%value or $hole) of native " + s[2].Value })
}

// famTermStart checks that a set (op list, trait(…) or family) follows.
type famTermStart struct{}

func (*famTermStart) Parse(l *lexer.PeekingLexer) error {
	return need(l, func(t *lexer.Token) bool { return isPunctTok(t, "[") || isName(t) },
		func(s seen) string { return "op list '[…]', trait(…) or family name in family " + familyOf(s) })
}

// famListClose is the ']' that closes a family's op list.
type famListClose struct{}

func (*famListClose) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct("]"), func(s seen) string {
		if s.lastIs("[") || s.lastIs(",") {
			return "op name in the op list of family " + familyOf(s)
		}
		return "',' or ']' after op name in the op list of family " + familyOf(s)
	})
	return err
}

// traitName is the trait name in trait(…).
type traitName struct{ tok }

func (t *traitName) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, isName, fixed("trait name in trait(…)"))
}

// traitClose is the ')' after the trait name in trait(…).
type traitClose struct{}

func (*traitClose) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct(")"), func(s seen) string { return "')' after trait name " + s.last().Value })
	return err
}

// setParamName is the name after 'param'.
type setParamName struct{ tok }

func (t *setParamName) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, isName, fixed("parameter name after 'param'"))
}

// setParamColon is the ':' after a rule-set parameter's name.
type setParamColon struct{}

func (*setParamColon) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct(":"), func(s seen) string { return "':' after parameter name " + s.last().Value })
	return err
}

// setParamType is the kind of a rule-set parameter.
type setParamType struct{ tok }

func (t *setParamType) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, isName, func(s seen) string { return "kind of parameter " + s[1].Value + " (i64, str, DataType, …)" })
}

// setParamEq is the '=' before a rule-set parameter's default.
type setParamEq struct{}

func (*setParamEq) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct("="), func(s seen) string {
		return "'=' and a default value after parameter " + s[1].Value + ": " + s.last().Value
	})
	return err
}

// setParamValue checks that the default value of a rule-set parameter follows its '='.
type setParamValue struct{}

func (*setParamValue) Parse(l *lexer.PeekingLexer) error {
	return need(l, canStartExpr, func(s seen) string { return "default value of parameter " + s[1].Value })
}

// nativeKind is 'constraint' or 'rewrite' after 'native'.
type nativeKind struct{ tok }

func (t *nativeKind) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, func(t *lexer.Token) bool { return isKeyword(t, "constraint") || isKeyword(t, "rewrite") },
		fixed("'constraint' or 'rewrite' after 'native'"))
}

// nativeName is the function name of a native declaration.
type nativeName struct{ tok }

func (t *nativeName) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, isName, func(s seen) string { return "function name after 'native " + s.last().Value + "'" })
}

// nativeOpen is the '(' after a native's name.
type nativeOpen struct{}

func (*nativeOpen) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct("("), func(s seen) string { return "'(' after native function name " + s.last().Value })
	return err
}

// nativeClose is the ')' after a native's parameters.
type nativeClose struct{}

func (*nativeClose) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct(")"), func(s seen) string {
		native := s[2].Value
		if s.lastIs("(") || s.lastIs(",") {
			return "parameter (%value or $hole) of native " + native
		}
		param := s[s.entryStart(s.opener(len(s)))].Value
		return "',' or ')' after parameter " + param + " of native " + native
	})
	return err
}

// nativeResult is the result type after a native's '->'.
type nativeResult struct{ tok }

func (t *nativeResult) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, isName, func(s seen) string { return "result type after '->' in native " + s[2].Value })
}

// paramColon is the ':' after a native's parameter.
type paramColon struct{}

func (*paramColon) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct(":"), func(s seen) string {
		return "':' after parameter " + s.last().Value + " of native " + s[2].Value
	})
	return err
}

// paramType is the type of a native's parameter.
type paramType struct{ tok }

func (t *paramType) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, isName, func(s seen) string { return "type of parameter " + s[len(s)-2].Value })
}

// arrayKindClose is the ']' of an array kind (i64[]).
type arrayKindClose struct{ tok }

func (t *arrayKindClose) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, punct("]"), func(s seen) string { return "']' after '" + s[len(s)-2].Value + "[' (an array kind)" })
}

// Rules.

// clauseKeywords are the keywords that start the clauses of a rule.
var clauseKeywords = []string{"benefit", "labels", "for", "match", "where", "rewrite"}

// ruleName is the name after 'rule'.
type ruleName struct{ tok }

func (t *ruleName) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, isName, fixed("rule name after 'rule'"))
}

// ruleOpen is the '{' after a rule's name.
type ruleOpen struct{}

func (*ruleOpen) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct("{"), func(s seen) string { return "'{' after rule name " + s.last().Value })
	return err
}

// clauseSep separates two clauses: a newline or ';', or nothing after a
// block's '}'. It is taken only when a clause follows; otherwise the rule's
// closer reports what is there.
type clauseSep struct{}

func (*clauseSep) Parse(l *lexer.PeekingLexer) error {
	if isKind(l.Peek(), tSep) {
		if clauseKeyword(peek2(l)) {
			l.Next()
			return nil
		}
		return participle.NextMatch
	}
	if seenBy(l).lastIs("}") && clauseKeyword(l.Peek()) {
		return nil
	}
	return participle.NextMatch
}

// ruleClose is the '}' that closes a rule.
type ruleClose struct{}

func (*ruleClose) Parse(l *lexer.PeekingLexer) error {
	rule := "rule " + seenBy(l)[1].Value
	return closeBlock(l, rule, "clause", "'benefit', 'labels', 'for', 'match', 'where' or 'rewrite' in "+rule)
}

// closeBlock consumes the '}' that closes the rule body or block named
// owner, or reports why it is not there: the file or declaration ended
// (unclosed), a clause of the rule started (the block's '}' is missing), an
// item could not start (item is what was expected), or an item was not
// followed by a separator (noun names the item).
func closeBlock(l *lexer.PeekingLexer, owner, noun, item string) error {
	if isKind(l.Peek(), tSep) {
		l.Next() // the item after the separator did not parse
	}
	next := l.Peek()
	s := seenBy(l)
	switch {
	case isPunctTok(next, "}"):
		l.Next()
		return nil
	case next.EOF() || isKind(next, tTopSep):
		open := s.opener(len(s))
		return &syntaxError{pos: diag.Position(s[open].Pos), msg: "unclosed '{' of " + owner + " (missing '}')"}
	case noun != "clause" && isKind(next, tIdent) && isBlockKeyword(next.Value) && isPunctTok(peek2(l), "{"):
		return errorAt(l, "missing '}' to close "+owner+" before '"+next.Value+"'")
	case s.lastIs("{") || s.lastIs("}") && noun == "clause" || isKind(s.last(), tSep):
		err := expected(l, item)
		if noun == "clause" {
			err.(*syntaxError).msg += didYouMean(next, clauseKeywords...)
		}
		return err
	}
	err := expected(l, "end of line or ';' after "+noun)
	if noun == "constraint" && isPunctTok(next, "=") {
		e := err.(*syntaxError)
		e.msg += " (constraints are boolean expressions; use '==' to compare)"
	}
	if isPunctTok(next, "|") {
		err.(*syntaxError).msg += barHint
	}
	return err
}

// barHint explains a '|' outside a pattern's operands.
const barHint = " (did you mean '||'? '|' separates alternatives in a pattern's operands)"

// benefitValue is the non-negative integer after 'benefit'.
type benefitValue struct{ tok }

func (t *benefitValue) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, func(t *lexer.Token) bool { return isKind(t, tInt) && !strings.HasPrefix(t.Value, "-") },
		fixed("non-negative integer after 'benefit'"))
}

// labelName is a name after 'labels'.
type labelName struct{ tok }

func (t *labelName) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, isName, fixed("label name after 'labels'"))
}

// forName is the (first) name after 'for'.
type forName struct{ tok }

func (t *forName) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, isName, fixed("name after 'for'"))
}

// forName2 is the second name of `for X_, X in …`.
type forName2 struct{ tok }

func (t *forName2) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, isName, fixed("second name after ','"))
}

// forIn is the 'in' of a for clause.
type forIn struct{}

func (*forIn) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, keyword("in"), fixed("'in' after the names of 'for'"))
	return err
}

// forFamily is the family name after 'in'.
type forFamily struct{ tok }

func (t *forFamily) Parse(l *lexer.PeekingLexer) error {
	return t.take(l, isName, fixed("family name after 'in'"))
}

// blockOpen is the '{' after match, where or rewrite.
type blockOpen struct{}

func (*blockOpen) Parse(l *lexer.PeekingLexer) error {
	_, err := take(l, punct("{"), func(s seen) string { return "'{' after '" + s.last().Value + "'" })
	return err
}

// blockOwner names the block whose '{' is the innermost open bracket, and
// its rule: "match block of rule r".
func blockOwner(s seen) string {
	open := s.opener(len(s))
	return s[open-1].Value + " block of rule " + s[1].Value
}

// matchClose is the '}' that closes a match block.
type matchClose struct{}

func (*matchClose) Parse(l *lexer.PeekingLexer) error {
	return closeBlock(l, blockOwner(seenBy(l)), "pattern statement", "pattern statement (e.g. '%y = pd_op.relu(%x)')")
}

// whereClose is the '}' that closes a where block.
type whereClose struct{}

func (*whereClose) Parse(l *lexer.PeekingLexer) error {
	return closeBlock(l, blockOwner(seenBy(l)), "constraint", "constraint expression in where block")
}

// rewriteClose is the '}' that closes a rewrite block.
type rewriteClose struct{}

func (*rewriteClose) Parse(l *lexer.PeekingLexer) error {
	return closeBlock(l, blockOwner(seenBy(l)), "rewrite statement", "rewrite statement (assignment, replace, erase or native call)")
}

// The ends of the units of recover.go: the statement must end there.

// unitEnd accepts the end of a unit, or fails with "expected end of line or
// ';' after NOUN".
func unitEnd(l *lexer.PeekingLexer, noun string) error {
	if l.Peek().EOF() {
		return nil
	}
	err := expected(l, "end of line or ';' after "+noun)
	if noun == "constraint" && isPunctTok(l.Peek(), "=") {
		err.(*syntaxError).msg += " (constraints are boolean expressions; use '==' to compare)"
	}
	if isPunctTok(l.Peek(), "|") {
		err.(*syntaxError).msg += barHint
	}
	return err
}

// clauseEnd is the end of a clause re-parsed as a unit.
type clauseEnd struct{}

func (*clauseEnd) Parse(l *lexer.PeekingLexer) error { return unitEnd(l, "clause") }

// patternEnd is the end of a pattern statement re-parsed as a unit.
type patternEnd struct{}

func (*patternEnd) Parse(l *lexer.PeekingLexer) error { return unitEnd(l, "pattern statement") }

// constraintEnd is the end of a constraint re-parsed as a unit.
type constraintEnd struct{}

func (*constraintEnd) Parse(l *lexer.PeekingLexer) error { return unitEnd(l, "constraint") }

// rewriteEnd is the end of a rewrite statement re-parsed as a unit.
type rewriteEnd struct{}

func (*rewriteEnd) Parse(l *lexer.PeekingLexer) error { return unitEnd(l, "rewrite statement") }
