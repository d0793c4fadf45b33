// Package drr is the .drr rule language — declarative rewrite rules (DRR)
// over Paddle PIR programs: its syntax (parser, formatter) and its checker,
// which produces the rule sets of package rule.
//
// # Layers
//
// The syntax layer turns source text into a syntax tree and back:
//
//   - lexer.go: a hand-written lexer. It knows the printed-PIR token forms
//     (tagged literals such as (Int32)1, whole tensor types such as
//     builtin.tensor<64x3x7x7xf32>, <<NULL VALUE>>, raw symbols such as
//     Place(gpu:0)), and it decides where newlines matter: a newline is a
//     separator token only inside a rule body or a match/where/rewrite
//     block, never inside ( ), [ ] or an attribute { } map, so long patterns
//     may wrap. Comments are collected apart from the tokens.
//   - parse.go, parser.go, decl.go, pattern.go, expr.go, types.go: a
//     recursive-descent parser producing the AST of ast.go, with positioned
//     diagnostics in the user's terms ("expected ')' after operands of
//     pd_op.conv2d, found '{'") and recovery at the next statement, clause
//     or declaration so that all independent errors are reported. parse.go
//     is the entry point (large files are parsed in concurrent regions),
//     parser.go holds token access, diagnostics and recovery, types.go the
//     sub-parser of tensor type bodies, alloc.go the node slabs.
//   - ast.go: plain structs; every node embeds a Span whose Pos and End
//     methods return the Position (file, line, column,
//     byte offset) of its first character and of the character after its
//     last. Interfaces (Decl, Operand, Expr, TypePattern, RewriteStmt)
//     group the node kinds a checker switches on.
//   - errors.go: Diagnostic and Diagnostics (file:line:col: error: message,
//     with a renderer that shows the source line and a caret).
//   - format.go: the canonical printer used by `drrc fmt`.
//
// The semantic layer turns syntax into checked rules (package rule: what the matcher compiles and the rewriter
// applies):
//
//   - load.go: Load and LoadSource read rule files and their imports (relative to the importing file, each once;
//     imported rules first), from the operating system or an fs.FS.
//   - check.go: Check resolves families (lists, traits, differences), natives and rules, instantiates a rule once
//     per member of its families (members whose signature does not fit the pattern are skipped), and reports
//     duplicate and shadowed rules.
//   - check_pattern.go: match blocks become rule.Pattern values: ops resolved against the schemas (operand and
//     result counts, optional operands), value and attribute holes, literal attributes converted to the schema's
//     kind, type patterns, the root and connectivity.
//   - check_expr.go: where clauses and attribute expressions are type-checked and become rule.Expr values;
//     builtins and natives are checked against their signatures.
//   - check_rewrite.go: rewrite blocks become rule.Action values in dependency order (nested ops first), with
//     attribute names and kinds, required attributes and result types checked, and the rule-level lint: results
//     left dangling, holes bound and never used, rewrites that change nothing.
//
// Every problem is a positioned Diagnostic; all of a run's diagnostics are reported, sorted.
//
// The grammar was first written for participle (it is kept, as an oracle
// and executable EBNF, in grammar_test.go), but participle took about
// 0.7 ms per rule, far above the budget of parsing and checking 2,000 rules
// in 100 ms; Parse is therefore hand-written over the same tokens, and the
// tests check that both accept the same files.
//
// # Grammar
//
// Lexical structure (inside a token no blank is allowed unless shown):
//
//	comment     = "//" { any } NL .              (* "///" … : doc comment *)
//	ident       = letter { letter | digit | "_" } { "." letter { letter | digit | "_" } } .
//	value       = "%" name .                     (* %x %0 %arg_0 *)
//	hole        = "$" name .                     (* $s *)
//	label       = "@" name .                     (* @f *)
//	name        = ( letter | digit | "_" ) { letter | digit | "_" } .
//	int         = [ "-" ] digit { digit } | [ "-" ] "0x" hexdigit { hexdigit } .
//	float       = [ "-" ] digit { digit } ( "." digit { digit } [ exp ] | exp ) | [ "-" ] "inf" | "nan" .
//	exp         = ( "e" | "E" ) [ "+" | "-" ] digit { digit } .
//	string      = '"' { char | "\" any } '"' .   (* \" \\ \n \t decoded; other \x kept *)
//	tag         = "(" ident ")" .                (* last part capitalised, directly followed by
//	                                                a literal: (Int32)1 (pd_op.IntArray)[1,2] *)
//	tensor      = ident "<" { any but NL } ">" . (* ident ending in tensor/tensor_array or
//	                                                selectedrows: builtin.tensor<64x3x7x7xf32> *)
//	sym         = ident "(" { name | ":" | "." | "-" } ")"   (* after a tag, or Place(…), Undefined(…) *)
//	            | "<#" … ">" | "<" name ":" … ">" .          (* <#AttrNull>, <backend:GPU|…> *)
//	null        = "<<NULL VALUE>>" .
//	nulltype    = "<<NULL TYPE>>" .
//	sep         = NL | ";" .                     (* only at block level; runs collapse *)
//
// A "-" directly followed by a digit (or inf) is the sign of a number unless
// it follows an operand ($a-1 is a subtraction); a "%" directly followed by
// a name is a value unless it follows an operand without a blank ($x%2 is a
// remainder). Separators directly after "{" or before "}" are dropped.
//
// Declarations and rules:
//
//	File        = [ Decl { sep Decl } ] .
//	Decl        = Import | Family | Native | Rule .
//	Import      = "import" string .
//	Family      = "family" ident "=" FamilyTerm { "-" FamilyTerm } .
//	FamilyTerm  = "[" [ OpName { "," OpName } [ "," ] ] "]" | "trait" "(" ident ")" | ident .
//	Native      = "native" ( "constraint" | "rewrite" ) ident
//	              "(" [ Param { "," Param } [ "," ] ] ")" [ "->" ident ] .
//	Param       = ( value | hole ) ":" ident .
//	Rule        = "rule" ident "{" [ Clause { sep Clause } ] "}" .   (* sep optional after a block *)
//	Clause      = "benefit" int | "labels" ident { "," ident }
//	            | "for" ident [ "," ident ] "in" ident
//	            | "match" "{" [ Pattern { sep Pattern } ] "}"
//	            | "where" "{" [ Expr { sep Expr } ] "}"
//	            | "rewrite" "{" [ Rewrite { sep Rewrite } ] "}" .
//
// A rule has exactly one match and one rewrite block and at most one
// where, benefit and labels clause; clauses may come in any order (the
// formatter prints benefit, labels, for…, match, where, rewrite).
//
// Pattern statements (match):
//
//	Pattern     = [ label "=" ] [ Results "=" ] OpPattern .
//	Results     = "(" [ Result { "," Result } ] ")" | Result { "," Result } .
//	Result      = value | "_" | "..." .          (* "..." only last *)
//	OpName      = ident | string .               (* a bare ident without "." is a family variable *)
//	OpPattern   = OpName [ "[" "id" ":" int "]" ] "(" [ Operand { "," Operand } [ "," ] ] ")"
//	              [ AttrMap ] [ Signature ] .
//	Operand     = value [ "..." | ":" Type ]
//	            | "_" | "null" | null
//	            | "[" [ Operand { "," Operand } [ "," ] ] "]"       (* builtin.combine *)
//	            | "either" "(" Operand { "," Operand } ")"
//	            | OpPattern .                                       (* nested op *)
//	AttrMap     = "{" [ AttrEntry { "," AttrEntry } [ "," ] ] "}" .
//	AttrEntry   = ident ":" Expr | hole "..." .  (* hole "..." only last *)
//	Signature   = ":" "(" [ Type { "," Type } [ "," ] ] ")" "->" [ Type { "," Type } ]
//	            | "->" Type { "," Type } .       (* region-op headers *)
//
// A nested op pattern's signature takes at most one result type (a ","
// after it separates the operands of the enclosing op).
//
// Types:
//
//	Type        = tensor | "vec" "[" [ Type { "," Type } ] "]" | "type" "(" value ")"
//	            | hole | nulltype | "?" | "_" | "..." | ident .
//	TensorBody  = { Dim "x" } Dtype .            (* inside tensor's "<" ">", blanks allowed *)
//	Dim         = int | "?" | hole | "*" .        (* "*" at most once *)
//	Dtype       = name | hole | "?" .
//
// Expressions (where lines, attribute values, rewrite operands), loosest
// binding first:
//
//	Expr        = Or [ "?" Expr ":" Expr ] .
//	Or          = And { "||" And } .
//	And         = Cmp { "&&" Cmp } .
//	Cmp         = Add { ( "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" ) Add } .
//	Add         = Mul { ( "+" | "-" ) Mul } .
//	Mul         = Unary { ( "*" | "/" | "%" ) Unary } .
//	Unary       = ( "!" | "-" ) Unary | Postfix .
//	Postfix     = Primary { "[" Expr "]" } [ "..." ] .
//	Primary     = int | float | string | "true" | "false" | "null" | null | "_"
//	            | value | hole | label | sym | tensor | nulltype
//	            | tag ( int | float | string | ident | sym | tensor | List )
//	            | OpName "(" [ Expr { "," Expr } [ "," ] ] ")" [ AttrMap ]   (* op or function call *)
//	            | ident | "(" Expr ")" | List .
//	List        = "[" [ Expr { "," Expr } [ "," ] ] "]" .
//
// Binary operators are left-associative, the conditional is
// right-associative; "- 1" is the literal -1.
//
// Rewrite statements:
//
//	Rewrite     = "replace" [ "later" "uses" "of" ] value "with" Expr
//	            | "erase" ( label | value )
//	            | Results "=" Expr [ "->" Type { "," Type } ]
//	            | Expr .                         (* must be a call: a native rewrite *)
package drr
