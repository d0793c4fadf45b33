package drr

import "github.com/alecthomas/participle/v2/lexer"

// The grammar of rewrite statements and expressions.

// gRewriteStmt is one statement of a rewrite block.
type gRewriteStmt struct {
	Assign  *gAssign   `parser:"  @@"`
	Replace *gReplace  `parser:"| @@"`
	Erase   *gErase    `parser:"| @@"`
	Call    *gCallStmt `parser:"| @@"`
}

// gReplace is `replace [later uses of] %v with expr`.
type gReplace struct {
	Tokens []lexer.Token
	Later  *gLater      `parser:"(?! 'replace' '(' ) 'replace' @@?"`
	Old    replaceValue `parser:"@@"`
	Dots   *dotsTok     `parser:"@@?"`
	With   replaceWith  `parser:"@@"`
	Guard  replaceNew   `parser:"@@"`
	New    *gExpr       `parser:"@@"`
}

// gLater is `later uses of`.
type gLater struct {
	Uses laterUses `parser:"'later' @@"`
	Of   laterOf   `parser:"@@"`
}

// gErase is `erase @label` or `erase %v`.
type gErase struct {
	Tokens []lexer.Token
	Target eraseTarget `parser:"(?! 'erase' '(' ) 'erase' @@"`
}

// gAssign is `results = expr [-> types]`.
type gAssign struct {
	Tokens  []lexer.Token
	Start   assignStart `parser:"@@"`
	Results *gResults   `parser:"@@"`
	Eq      resultsEq   `parser:"@@"`
	Guard   assignValue `parser:"@@"`
	Value   *gExpr      `parser:"@@"`
	Types   *gTypeList  `parser:"@@?"`
}

// gTypeList is `-> type, type` after an assignment.
type gTypeList struct {
	Guard resultTypeGuard `parser:"'->' @@"`
	First *gType          `parser:"@@"`
	More  []*gTypeNext2   `parser:"@@*"`
}

// gTypeNext2 is `, type` after an assignment's first result type.
type gTypeNext2 struct {
	Guard resultTypeGuard `parser:"',' @@"`
	Type  *gType          `parser:"@@"`
}

// gCallStmt is an expression statement (a native rewrite call).
type gCallStmt struct {
	Start callStmtStart `parser:"@@"`
	X     *gExpr        `parser:"@@"`
}

// gExpr is an expression: terms joined by binary operators (precedence is
// resolved when the AST is built) and an optional conditional tail,
// right-associative.
type gExpr struct {
	Start exprStart  `parser:"@@"`
	X     *gTerm     `parser:"@@"`
	Ops   []*gBinOp  `parser:"@@*"`
	Cond  *gCondTail `parser:"@@?"`
}

// gBinOp is `op term`.
type gBinOp struct {
	Op    binaryOp     `parser:"@@"`
	Guard operandAfter `parser:"@@"`
	Y     *gTerm       `parser:"@@"`
}

// gCondTail is `? then : else`.
type gCondTail struct {
	Guard  condThen  `parser:"'?' @@"`
	Then   *gExpr    `parser:"@@"`
	Colon  condColon `parser:"@@"`
	Guard2 condElse  `parser:"@@"`
	Else   *gExpr    `parser:"@@"`
}

// gTerm is an operand of the binary operators: unary operators, a primary
// expression, indexes and a spread, as in `-x`, `!f(%v)`, `$s[0]`,
// `%xs...`.
type gTerm struct {
	Unary  []*gUnaryOp  `parser:"@@*"`
	Atom   *atom        `parser:"( @@"`
	Call   *gCall       `parser:"| @@"`
	Tagged *gTagged     `parser:"| @@"`
	Paren  *gParen      `parser:"| @@"`
	List   *gList       `parser:"| @@"`
	Type   *gTensorType `parser:"| @@ )"`
	Index  []*gIndex    `parser:"@@*"`
	Spread *spreadTok   `parser:"@@?"`
}

// gUnaryOp is a unary operator.
type gUnaryOp struct {
	Op    unaryOp      `parser:"@@"`
	Guard unaryOperand `parser:"@@"`
}

// gIndex is `[expr]` after an expression.
type gIndex struct {
	Tokens []lexer.Token
	Guard  indexExpr  `parser:"'[' @@"`
	X      *gExpr     `parser:"@@"`
	Close  indexClose `parser:"@@"`
}

// gCall is `name(args) {attrs}`: an op, a builtin function or a native
// (a name or string followed by '(': otherwise it is an atom).
type gCall struct {
	Tokens []lexer.Token
	Name   opNameTok `parser:"@@ '('"`
	Args   []*gExpr  `parser:"( @@ ( ',' @@ )* )?"`
	Close  callClose `parser:"@@"`
	Attrs  *gAttrMap `parser:"@@?"`
}

// gTagged is a printed-PIR literal with its tag: `(Int32)1`,
// `(pd_op.IntArray)[1,2]`.
type gTagged struct {
	Tokens []lexer.Token
	Tag    lexer.Token  `parser:"@Tag"`
	Guard  tagValue     `parser:"@@"`
	List   *gList       `parser:"( @@"`
	Type   *gTensorType `parser:"| @@"`
	Value  *taggedTok   `parser:"| @@ )"`
}

// gParen is `(expr)`.
type gParen struct {
	Tokens []lexer.Token
	Guard  parenExpr  `parser:"'(' @@"`
	X      *gExpr     `parser:"@@"`
	Close  parenClose `parser:"@@"`
}

// gList is `[exprs]`.
type gList struct {
	Tokens []lexer.Token
	Elems  []*gExpr  `parser:"'[' ( @@ ( ',' @@ )* )?"`
	Close  listClose `parser:"@@"`
}
