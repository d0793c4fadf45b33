package drr

import "github.com/alecthomas/participle/v2/lexer"

// The grammar of match blocks: pattern statements, op patterns, operands,
// attribute maps, signatures and types.

// gPatternStmt is `[@label =] [results =] op-pattern [?]` (`?`: an optional
// statement).
type gPatternStmt struct {
	Tokens  []lexer.Token
	Label   *gLabelDef   `parser:"@@?"`
	Results *gResultsDef `parser:"@@?"`
	OpStart opStart      `parser:"@@"`
	Op      *gOpPattern  `parser:"@@"`
	Opt     *optMark     `parser:"@@?"`
}

// gLabelDef is `@label =`.
type gLabelDef struct {
	Label lexer.Token `parser:"@Label"`
	Eq    labelEq     `parser:"@@"`
}

// gResultsDef is `results =`.
type gResultsDef struct {
	Results *gResults `parser:"@@"`
	Eq      resultsEq `parser:"@@"`
}

// gResults is a result list, `%a, _, ...` or, as Paddle prints it,
// `(%a, _)`.
type gResults struct {
	Paren *gParenResults `parser:"  @@"`
	First *resultTok     `parser:"| ( @@"`
	Dots  *dotsTok       `parser:"    @@?"`
	Rest  []resultItem   `parser:"    ( ',' @@ )* )"`
}

// gParenResults is `( results )`.
type gParenResults struct {
	First *resultTok   `parser:"'(' ( @@"`
	Rest  []resultItem `parser:"    ( ',' @@ )* )?"`
	Close resultsClose `parser:"@@"`
}

// gOpPattern is `name [id:N] (operands) {attributes} : (types) -> types`.
type gOpPattern struct {
	Tokens []lexer.Token
	Head   *gOpHead    `parser:"@@"`
	Attrs  *gAttrMap   `parser:"@@?"`
	Sig    *gSignature `parser:"@@?"`
}

// gNestedOp is an op pattern used as an operand: its signature takes at most
// one result type, since a ',' after it separates the consumer's operands.
type gNestedOp struct {
	Tokens []lexer.Token
	Head   *gOpHead          `parser:"@@"`
	Attrs  *gAttrMap         `parser:"@@?"`
	Sig    *gNestedSignature `parser:"@@?"`
}

// gOpHead is an op's name and operand list.
type gOpHead struct {
	Name     opNameTok     `parser:"@@"`
	ID       *gOpID        `parser:"@@?"`
	Open     operandsOpen  `parser:"@@"`
	Operands []*gOperand   `parser:"( @@ ( ',' @@ )* )?"`
	Close    operandsClose `parser:"@@"`
}

// gOpID is the `[id:N]` some Paddle versions print after an op name; it is
// accepted and dropped.
type gOpID struct {
	Colon opIDColon `parser:"(?= '[' 'id' ) '[' 'id' @@"`
	N     opIDInt   `parser:"@@"`
	Close opIDClose `parser:"@@"`
}

// gOperand is one operand pattern: `%x`, `%x...`, `%x: type`, `_`, `null`,
// `[operands]`, `either(operands)`, `each(min, max) operand` (a group of
// list elements) or a nested op (`op(…)?` makes it optional), possibly
// followed by alternatives: `| operand`.
type gOperand struct {
	Start   operandStart   `parser:"@@"`
	Value   *valueTok      `parser:"( @@"`
	Spread  *spreadTok     `parser:"  ( @@"`
	Guard   *typeOfOperand `parser:"  | ':' @@"`
	Type    *gType         `parser:"    @@ )?"`
	Wild    lexer.Token    `parser:"| @Wild"`
	Null    *nullTok       `parser:"| @@"`
	Combine *gCombine      `parser:"| @@"`
	Either  *gEither       `parser:"| @@"`
	Each    *gEach         `parser:"| @@"`
	Op      *gNestedOp     `parser:"| @@ )"`
	Opt     *optMark       `parser:"@@?"`
	Alts    []*gAltNext    `parser:"@@*"`
}

// gAltNext is `| operand`: another alternative of an operand.
type gAltNext struct {
	Bar     altBar    `parser:"@@"`
	Operand *gOperand `parser:"@@"`
}

// gEither is `either(operands)`.
type gEither struct {
	Tokens   []lexer.Token
	Operands []*gOperand `parser:"(?= 'either' '(' ) 'either' '(' ( @@ ( ',' @@ )* )?"`
	Close    eitherClose `parser:"@@"`
}

// gEach is `each(min, max) operand`: a group of min to max elements of a
// combine list, each matching the operand (language.md, variadic groups).
type gEach struct {
	Tokens []lexer.Token
	Min    eachCount `parser:"(?= 'each' '(' Int ) 'each' '(' @@"`
	Comma  eachComma `parser:"@@"`
	Max    eachCount `parser:"@@"`
	Close  eachClose `parser:"@@"`
	Elem   *gOperand `parser:"@@"`
}

// gCombine is `[operands]`: a builtin.combine of the operands.
type gCombine struct {
	Tokens []lexer.Token
	Elems  []*gOperand  `parser:"'[' ( @@ ( ',' @@ )* )?"`
	Close  combineClose `parser:"@@"`
}

// gAttrMap is `{key: value, …, $rest...}`.
type gAttrMap struct {
	Tokens  []lexer.Token
	Entries []*gAttrEntry `parser:"'{' ( @@ ( ',' @@ )* )?"`
	Close   attrsClose    `parser:"@@"`
}

// gAttrEntry is `key: value` or `$rest...`.
type gAttrEntry struct {
	Tokens []lexer.Token
	Start  attrStart   `parser:"@@"`
	Key    lexer.Token `parser:"( @Ident"`
	Colon  *attrColon  `parser:"  @@"`
	Guard  *attrValue  `parser:"  @@"`
	Value  *gExpr      `parser:"  @@"`
	Rest   lexer.Token `parser:"| @Hole '...' )"`
}

// gSignature is `: (types) -> types` or, for region ops, `-> types`.
type gSignature struct {
	Tokens []lexer.Token
	Inputs *gSigInputs  `parser:"( @@"`
	Arrow  *sigArrow    `parser:"  @@"`
	NoIn   bool         `parser:"| @'->' )"`
	First  *gType       `parser:"( @@"`
	More   []*gTypeNext `parser:"  @@* )?"`
}

// gTypeNext is `, type` in a signature's result types.
type gTypeNext struct {
	Guard resultTypeOf `parser:"',' @@"`
	Type  *gType       `parser:"@@"`
}

// gNestedSignature is the signature of a nested op pattern: one result type
// at most.
type gNestedSignature struct {
	Tokens []lexer.Token
	Inputs *gSigInputs `parser:"( @@"`
	Arrow  *sigArrow   `parser:"  @@"`
	NoIn   bool        `parser:"| @'->' )"`
	Output *gType      `parser:"@@?"`
}

// gSigInputs is `: (types)`.
type gSigInputs struct {
	Tokens []lexer.Token
	Open   sigOpen  `parser:"':' @@"`
	Types  []*gType `parser:"( @@ ( ',' @@ )* )?"`
	Close  sigClose `parser:"@@"`
}

// gType is a type or type pattern.
type gType struct {
	Start  typeStart    `parser:"@@"`
	Tok    *typeTok     `parser:"( @@"`
	Tensor *gTensorType `parser:"| @@"`
	Vec    *gVecType    `parser:"| @@"`
	TypeOf *gTypeOf     `parser:"| @@ )"`
}

// gTensorType is `name<dims x dtype>`; the lexer splits the body into its
// items and the 'x' between them.
type gTensorType struct {
	Tokens []lexer.Token
	Name   lexer.Token    `parser:"@TensorName TensorOpen"`
	Start  tensorStart    `parser:"@@"`
	First  *gTensorItem   `parser:"( @@"`
	More   []*gTensorNext `parser:"  @@* )?"`
	Close  tensorClose    `parser:"@@"`
}

// gTensorItem is a dimension or the element type of a tensor type; a dimension may be a parenthesised expression
// (shape arithmetic in result types: ($s * $h)).
type gTensorItem struct {
	Tok   *tensorItem `parser:"  @@"`
	Paren *gParen     `parser:"| @@"`
}

// gTensorNext is `x item` in a tensor type.
type gTensorNext struct {
	Guard tensorItemAfterX `parser:"DimX @@"`
	Item  *gTensorItem     `parser:"@@"`
}

// gVecType is `vec[types]`.
type gVecType struct {
	Tokens []lexer.Token
	Elems  []*gType `parser:"'vec' '[' ( @@ ( ',' @@ )* )?"`
	Close  vecClose `parser:"@@"`
}

// gTypeOf is `type(%v)`.
type gTypeOf struct {
	Tokens []lexer.Token
	Value  typeOfValue `parser:"'type' '(' @@"`
	Close  typeOfClose `parser:"@@"`
}
