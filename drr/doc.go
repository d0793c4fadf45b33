// Package drr is the .drr rule language — declarative rewrite rules (DRR)
// over Paddle PIR programs: its syntax (parser, formatter) and its checker,
// which produces the rule sets of package rule.
//
// # Layers
//
// The syntax layer turns source text into a syntax tree and back:
//
//   - lexer.go: a hand-written lexer. It knows the printed-PIR token forms
//     (tagged literals such as (Int32)1, tensor types such as
//     builtin.tensor<64x3x7x7xf32>, split into their items, <<NULL VALUE>>,
//     raw symbols such as Place(gpu:0)), and it decides where newlines
//     matter: a newline is a separator token only inside a rule body or a
//     match/where/rewrite block, never inside ( ), [ ] or an attribute { }
//     map, so long patterns may wrap, nor before a line that starts with
//     "->" (a rewrite's result types). A ',' between a list element and the
//     closing bracket is dropped (lists may end with a comma). Comments are
//     collected apart from the tokens. lexdef.go presents it to participle
//     as a lexer.Definition.
//   - grammar.go, grammar_pattern.go, grammar_expr.go: the grammar, as
//     participle (github.com/alecthomas/participle/v2) struct tags; one
//     struct per production. testdata/grammar.ebnf is the grammar as
//     participle prints it.
//   - terms.go and terms_*.go: the grammar's terminals and guards, small
//     participle.Parseable types. A terminal matches one token and, when the
//     token is not there, fails with a message in the user's terms built
//     from the tokens before it ("expected ')' after operands of
//     pd_op.conv2d, found '{'"); a guard checks the next token without
//     consuming it; a token class (terms_class.go) matches one token of a
//     set in one step.
//   - build.go, build_pattern.go, build_expr.go: participle's structs
//     become the AST of ast.go; binary operators are grouped by precedence
//     here, and the few rules the grammar leaves open are checked ('...'
//     only as the last result, '$rest...' as the last attribute, the items
//     of a tensor type).
//   - parse.go, parse_grammar.go, recover.go: Parse. The file is lexed and
//     parsed one top-level declaration at a time (large files in concurrent
//     regions). A rule that does not parse is re-parsed clause by clause and
//     statement by statement, each as a unit of its own, so that every
//     independent error is reported and the statements that parse are kept.
//   - ast.go: plain structs; every node embeds a Span whose Pos and End
//     methods return the diag.Position (file, line, byte column, byte
//     offset) of its first character and of the character after its last.
//     Interfaces (Decl, Operand, Expr, TypePattern, RewriteStmt) group the
//     node kinds a checker switches on. Problems are diag.Diagnostics
//     (file:line:col: error: message, rendered with the source line and a
//     caret), the one diagnostic type of pirdrr; errors.go holds the
//     wording helpers.
//   - walk.go, tokens.go, reparse.go: for editors (the language server).
//     Inspect and PathAt walk the tree by position; Tokens lexes text
//     that may not parse; a Reparser parses successive versions of a
//     file, re-parsing only the top-level declarations whose text changed
//     and moving the others to their new lines (its result is Parse's).
//   - format.go, format_doc.go, format_layout.go: the canonical printer
//     used by `drrc fmt`. format.go places declarations, clauses, blocks
//     and comments; format_doc.go prints each statement as a doc, its text
//     with the places where its line may break; format_layout.go lays a doc
//     out, keeping the author's line breaks and breaking lines over 120
//     columns (see Format).
//
// # How the parser works
//
// The parser commits to a production once it has consumed the
// production's first token (participle.UseLookahead(0)), as a
// recursive-descent parser does: an error is then reported where it is, in
// the innermost construct that could not be completed, and participle never
// backtracks over a committed construct. The few places where two tokens
// decide carry a lookahead group in their tag: `(?= "trait" "(")` before
// trait(…), `(?! "replace" "(")` before a replace statement, and so on.
//
// Where a construct is required, the grammar names a terminal or guard
// that fails with an error; where it may be absent, the terminal returns
// participle.NextMatch and participle tries the next alternative. A
// terminal's message may look back at the tokens consumed before it
// (seen): the op whose operand list it closes, the attribute whose value is
// missing, the block it ends.
//
// # Two trees
//
// participle's structs (grammar*.go) are the concrete syntax tree: unexported, one per production, holding
// the terminals that carry the messages. ast.go is the abstract syntax tree the checker, the formatter, the
// language server and ten other packages read. build*.go is the one place that turns one into the other. Making
// participle fill the AST's types instead (one tree) was weighed and left, for what it would cost:
//
//   - participle sets exported fields only, so the 133 terminal and guard fields of the grammar's 252 (the
//     messages: "expected ')' after operands of pd_op.conv2d") would become exported fields of the AST's 68
//     struct types;
//   - it finds positions by field name: Pos and EndPos (the start of the token after the node, not the end of
//     the node) or Tokens (slices of the token buffer, kept alive with the tree), where a Span is 32 bytes;
//   - it knows no operator precedence: the tree would hold `x`, then (operator, operand) pairs, for its
//     readers to group, or a Parseable that parses expressions by hand, which the last rule of "Adding a
//     construct" excludes;
//   - and it would not parse faster. participle's work is per production tried, whatever type receives the
//     captures (on 200 rules of BenchmarkParse2000, 58,200 tokens, it branches 159,000 times, 100,400 of them
//     the optional parts and alternatives of expressions, defers 124,400 captures and makes 131,800 structs).
//     BenchmarkTrees (onetree_test.go) sketches the expression grammar in the one-tree form, a
//     participle.Union of primary expressions with positions in Pos and EndPos fields and today's operator
//     terminals; even without messages or operator grouping it takes 1.10 to 1.18 times the time, 1.18 times
//     the bytes and 1.09 times the allocations of participle's structs and build*.go together on the same
//     2,000 expressions: the union tries its members in turn where today's atom terminal reads any one-token
//     expression in one step. build*.go itself, all that one tree would remove, is 4 % of the parse's CPU
//     profile.
//
// # Adding a construct
//
// Say the language grows a `group %xs = …` statement in match blocks.
//
//  1. Grammar: add a struct for the production to grammar_pattern.go (or
//     grammar.go, grammar_expr.go) and an alternative that refers to it
//     (here a field `Group *gGroup` in gPatternStmt's alternatives). Start
//     it with a keyword or token that no other alternative starts with, or
//     with a lookahead group if two tokens are needed to tell them apart.
//  2. Messages: after its first token, every required token is a terminal
//     of terms_*.go (a type whose Parse calls take, or need for a guard
//     before a nonterminal) with the message the user should see:
//     "expected '=' after group %xs". Lists are `( @@ ( "," @@ )* )?`
//     followed by a closer terminal; an element after a ',' starts with a
//     guard (see element) so that a missing element is reported as such.
//  3. AST: add the node to ast.go (embed Span; implement the interface of
//     its kind) and build it in build*.go from the grammar struct.
//  4. Checker: handle the node in check_pattern.go, check_expr.go or
//     check_rewrite.go, which turn the AST into package rule's values.
//  5. Formatter: print the node in format.go, with its break opportunities
//     (after an opening bracket and a ',', before the closing bracket).
//  6. Tests and docs: a case in parse_test.go, an error golden in
//     testdata/errors for each new message, a format golden in
//     testdata/format, `go test ./drr -run EBNF -update` for
//     testdata/grammar.ebnf, and the EBNF below and in docs/language.md.
//
// If participle cannot express a construct, do not parse it by hand in a
// Parseable: a terminal matches a token or a class of tokens, no more.
//
// The semantic layer turns syntax into checked rules (package rule: what the matcher compiles and the rewriter
// applies):
//
//   - load.go, loadfile.go: Load and LoadSource read rule files and their imports (relative to the importing file,
//     each once; imported rules first), from the operating system or an fs.FS; LoadFile does it for a file
//     already parsed.
//   - check.go: Check resolves families (lists, traits, differences), natives and rules, instantiates a rule once
//     per member of its families (members whose signature does not fit the pattern are skipped), and reports
//     duplicate and shadowed rules.
//   - check_each.go: a rule with a variadic group ([each(min, max) elem]) is written out once per element count,
//     values bound per element renamed x[i], and each count checked as an instance of its own (named n=N). A users
//     group (each(min, max) %x as a statement op's operand) is not: it is checked once into rule.UsersGroup, its
//     per-element values lists in the rewrite (%w..., [e...] as rule.Spread, %parts... = op, replace %y... with).
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
//	tensorname  = ident .                       (* ending in tensor, tensor_array or selectedrows,
//	                                                directly followed by "<": builtin.tensor<…> *)
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
//	Decl        = Import | Family | Native | SetParam | Rule .
//	Import      = "import" string .
//	Family      = "family" ident "=" FamilyTerm { "-" FamilyTerm } .
//	FamilyTerm  = "[" [ OpName { "," OpName } [ "," ] ] "]" | "trait" "(" ident ")" | ident .
//	Native      = "native" ( "constraint" | "rewrite" ) ident
//	              "(" [ Param { "," Param } [ "," ] ] ")" [ "->" ident ] .
//	Param       = ( value | hole ) ":" Kind .
//	SetParam    = "param" ident ":" Kind "=" Expr .           (* a rule-set parameter; Expr a constant *)
//	Kind        = ident [ "[" "]" ] .                         (* i64, str, DataType, …; i64[] an array *)
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
//	Results     = "(" [ Result { "," Result } ] ")" | Result { "," Result } | value "..." .  (* value...: a rewrite's list *)
//	Result      = value | "_" | "..." .          (* "..." only last *)
//	OpName      = ident | string .               (* a bare ident without "." is a family variable *)
//	OpPattern   = OpName [ "[" "id" ":" int "]" ] "(" [ Operand { "," Operand } [ "," ] ] ")"
//	              [ AttrMap ] [ Signature ] .
//	Operand     = value [ "..." | ":" Type ]
//	            | "_" | "null" | null
//	            | "[" [ Operand { "," Operand } [ "," ] ] "]"       (* builtin.combine *)
//	            | "either" "(" Operand { "," Operand } ")"
//	            | "each" "(" int "," int ")" Operand              (* the only element of a list: a group; *)
//	                                                                (* before a value, an op's operand: a users group *)
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
//	Type        = tensorname "<" TensorBody ">" | "vec" "[" [ Type { "," Type } ] "]" | "type" "(" value ")"
//	            | hole | nulltype | "?" | "_" | "..." | ident .
//	TensorBody  = { Dim "x" } Dtype .            (* on one line, blanks allowed *)
//	Dim         = int | "?" | hole | "*"          (* "*" at most once *)
//	            | "(" Expr ")" .                 (* in result types after "->" only *)
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
//	            | value | hole | label | sym | Type | nulltype
//	            | tag ( int | float | string | ident | sym | Type | List )
//	            | OpName "(" [ Expr { "," Expr } [ "," ] ] ")" [ AttrMap ]   (* op or function call *)
//	            | ident | "(" Expr ")" | List .
//	List        = "[" [ Expr { "," Expr } [ "," ] ] "]" .
//
// Binary operators are left-associative, the conditional is
// right-associative; "- 1" is the literal -1.
//
// Rewrite statements:
//
//	Rewrite     = "replace" [ "later" "uses" "of" ] value [ "..." ] "with" Expr   (* value...: pairwise *)
//	            | "erase" ( label | value )
//	            | Results "=" Expr [ "->" Type { "," Type } ]   (* a newline may precede "->" *)
//	            | Expr .                         (* must be a call: a native rewrite *)
package drr
