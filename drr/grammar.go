package drr

import "github.com/alecthomas/participle/v2/lexer"

// This file and grammar_*.go are the grammar of .drr as participle struct
// tags (doc.go has the EBNF and says how to add a construct). Each g*
// struct is one production; build*.go turn the parsed structs into the AST
// of ast.go. A field named Tokens receives the tokens a production matched
// (for positions).
//
// The parser commits to a production once it has consumed its first token
// (participle.UseLookahead(0)), as a recursive-descent parser does, so that
// an error is reported where it is, in the innermost construct. The few
// places where two tokens decide use lookahead groups: (?= …) and (?! …).
// The terminals whose absence is an error are the Parseable types of
// terms*.go: they carry the message in the user's terms. Lists accept a
// trailing comma: `(?! "," closer) ","` takes a comma only when an element
// follows it.
//
// Participle parses one declaration at a time (gChunk); after an error,
// recover.go re-parses the statements of a rule one at a time (the *Unit
// productions) so that independent errors are all reported.

// gChunk is one top-level declaration and the end of its line.
type gChunk struct {
	Decl *gDecl  `parser:"@@"`
	End  declEnd `parser:"@@"`
}

// gFile is a whole file, for participle's own entry points (the tests parse
// files with it in one call; Parse goes declaration by declaration).
type gFile struct {
	Decls []*gChunk `parser:"@@*"`
}

// gDecl is a top-level declaration.
type gDecl struct {
	Start  declStart  `parser:"@@"`
	Import *gImport   `parser:"( @@"`
	Family *gFamily   `parser:"| @@"`
	Native *gNative   `parser:"| @@"`
	Param  *gSetParam `parser:"| @@"`
	Rule   *gRule     `parser:"| @@ )"`
}

// gImport is `import "path"`.
type gImport struct {
	Tokens []lexer.Token
	Path   importPath `parser:"'import' @@"`
}

// gFamily is `family name = set - set …`.
type gFamily struct {
	Tokens []lexer.Token
	Name   familyName  `parser:"'family' @@"`
	Eq     familyEq    `parser:"@@"`
	First  *gFamTerm   `parser:"@@"`
	Diffs  []*gFamDiff `parser:"@@*"`
}

// gFamDiff is `- set` in a family declaration.
type gFamDiff struct {
	Minus lexer.Token `parser:"@'-'"`
	Term  *gFamTerm   `parser:"@@"`
}

// gFamTerm is one set of a family: an op list, trait(T) or another family.
type gFamTerm struct {
	Start famTermStart `parser:"@@"`
	List  *gFamList    `parser:"( @@"`
	Trait *gFamTrait   `parser:"| @@"`
	Ref   lexer.Token  `parser:"| @Ident )"`
}

// gFamList is `[op, op, …]`.
type gFamList struct {
	Tokens []lexer.Token
	Ops    []*gFamOp    `parser:"'[' ( @@ ( ',' @@ )* )?"`
	Close  famListClose `parser:"@@"`
}

// gFamOp is an op name in a family's op list.
type gFamOp struct {
	Start famOpStart `parser:"@@"`
	Name  opNameTok  `parser:"@@"`
}

// gFamTrait is `trait(Name)`.
type gFamTrait struct {
	Tokens []lexer.Token
	Name   traitName  `parser:"(?= 'trait' '(' ) 'trait' '(' @@"`
	Close  traitClose `parser:"@@"`
}

// gNative is `native constraint|rewrite name(params) [-> type]`.
type gNative struct {
	Tokens []lexer.Token
	Kind   nativeKind    `parser:"'native' @@"`
	Name   nativeName    `parser:"@@"`
	Open   nativeOpen    `parser:"@@"`
	Params []*gParam     `parser:"( @@ ( ',' @@ )* )?"`
	Close  nativeClose   `parser:"@@"`
	Result *nativeResult `parser:"( '->' @@ )?"`
}

// gSetParam is `param name: kind = default`, a parameter of the rule set.
type gSetParam struct {
	Tokens  []lexer.Token
	Name    setParamName  `parser:"'param' @@"`
	Colon   setParamColon `parser:"@@"`
	Type    setParamType  `parser:"@@"`
	Array   *gArrayKind   `parser:"@@?"`
	Eq      setParamEq    `parser:"@@"`
	Guard   setParamValue `parser:"@@"`
	Default *gExpr        `parser:"@@"`
}

// gParam is one parameter of a native: `%v: value` or `$n: i64`.
type gParam struct {
	Tokens []lexer.Token
	Start  paramStart  `parser:"@@"`
	Name   lexer.Token `parser:"@( Value | Hole )"`
	Colon  paramColon  `parser:"@@"`
	Type   paramType   `parser:"@@"`
	Array  *gArrayKind `parser:"@@?"`
}

// gArrayKind is the `[]` after a kind that makes it an array kind: i64[].
type gArrayKind struct {
	Open  lexer.Token    `parser:"@'['"`
	Close arrayKindClose `parser:"@@"`
}

// gRule is `rule name { clauses }`.
type gRule struct {
	Tokens []lexer.Token
	Name   ruleName    `parser:"'rule' @@"`
	Open   ruleOpen    `parser:"@@"`
	First  *gClause    `parser:"@@?"`
	More   []*gClause2 `parser:"@@*"`
	Close  ruleClose   `parser:"@@"`
}

// gClause2 is a clause after the first: a newline or ';' separates it from
// the one before, except after a block's '}'.
type gClause2 struct {
	Sep    clauseSep `parser:"@@"`
	Clause *gClause  `parser:"@@"`
}

// gClause is one clause of a rule body, in any order.
type gClause struct {
	Benefit *gBenefit      `parser:"  @@"`
	Labels  *gLabels       `parser:"| @@"`
	For     *gFor          `parser:"| @@"`
	Match   *gMatchBlock   `parser:"| @@"`
	Where   *gWhereBlock   `parser:"| @@"`
	Rewrite *gRewriteBlock `parser:"| @@"`
}

// gBenefit is `benefit N`.
type gBenefit struct {
	Tokens []lexer.Token
	Value  benefitValue `parser:"'benefit' @@"`
}

// gLabels is `labels a, b`.
type gLabels struct {
	Tokens []lexer.Token
	First  labelName   `parser:"'labels' @@"`
	Rest   []labelName `parser:"( ',' @@ )*"`
}

// gFor is `for X in family` or `for X_, X in family`.
type gFor struct {
	Tokens []lexer.Token
	Name   forName   `parser:"'for' @@"`
	Second *forName2 `parser:"( ',' @@ )?"`
	In     forIn     `parser:"@@"`
	Family forFamily `parser:"@@"`
}

// gMatchBlock is `match { pattern statements }`.
type gMatchBlock struct {
	Tokens []lexer.Token
	Open   blockOpen       `parser:"'match' @@"`
	Stmts  []*gPatternItem `parser:"@@*"`
	Close  matchClose      `parser:"@@"`
}

// gPatternItem is a pattern statement and the separator before it.
type gPatternItem struct {
	Sep  patternSep    `parser:"@@"`
	Stmt *gPatternStmt `parser:"@@"`
}

// gWhereBlock is `where { constraints }`.
type gWhereBlock struct {
	Tokens []lexer.Token
	Open   blockOpen          `parser:"'where' @@"`
	Exprs  []*gConstraintItem `parser:"@@*"`
	Close  whereClose         `parser:"@@"`
}

// gConstraintItem is a constraint and the separator before it.
type gConstraintItem struct {
	Sep constraintSep `parser:"@@"`
	X   *gExpr        `parser:"@@"`
}

// gRewriteBlock is `rewrite { rewrite statements }`.
type gRewriteBlock struct {
	Tokens []lexer.Token
	Open   blockOpen       `parser:"'rewrite' @@"`
	Stmts  []*gRewriteItem `parser:"@@*"`
	Close  rewriteClose    `parser:"@@"`
}

// gRewriteItem is a rewrite statement and the separator before it.
type gRewriteItem struct {
	Sep  rewriteSep    `parser:"@@"`
	Stmt *gRewriteStmt `parser:"@@"`
}

// The statements of a rule as separately parseable units (recover.go): a
// statement followed by the end of its unit.

// gClauseUnit is a non-block clause (benefit, labels, for) or a block
// keyword not followed by '{'.
type gClauseUnit struct {
	Clause *gClause  `parser:"@@"`
	End    clauseEnd `parser:"@@"`
}

// gPatternUnit is one statement of a match block.
type gPatternUnit struct {
	Start patternUnitStart `parser:"@@"`
	Stmt  *gPatternStmt    `parser:"@@"`
	End   patternEnd       `parser:"@@"`
}

// gConstraintUnit is one constraint of a where block.
type gConstraintUnit struct {
	Start constraintUnitStart `parser:"@@"`
	X     *gExpr              `parser:"@@"`
	End   constraintEnd       `parser:"@@"`
}

// gRewriteUnit is one statement of a rewrite block.
type gRewriteUnit struct {
	Start rewriteUnitStart `parser:"@@"`
	Stmt  *gRewriteStmt    `parser:"@@"`
	End   rewriteEnd       `parser:"@@"`
}
