package drr

import (
	"strings"

	"github.com/pirdrr/drr/diag"
)

// Span is embedded in every AST node and records where the node is in the
// source: Pos returns the diag.Position (file name, 1-based line and column
// in bytes, 0-based byte offset) of the node's first character, End the
// position just after its last character.
//
// A Span stores the file name once (by pointer) and int32 offsets, lines
// and columns: at 32 bytes instead of two 40-byte Position values it
// halves the size of the tree, which is what the garbage collector has to
// scan while a large rule file is parsed and checked. Build one for a
// hand-made node with NewSpan; the zero Span has zero positions.
type Span struct {
	file            *string
	off, end        int32
	line, col       int32
	endLine, endCol int32
}

// NewSpan returns a Span from pos to end (end just after the last character).
func NewSpan(pos, end diag.Position) Span {
	name := pos.Filename
	return Span{file: &name, off: int32(pos.Offset), end: int32(end.Offset),
		line: int32(pos.Line), col: int32(pos.Column), endLine: int32(end.Line), endCol: int32(end.Column)}
}

// Pos returns the position of the node's first character.
func (s Span) Pos() diag.Position {
	return diag.Position{Filename: s.filename(), Offset: int(s.off), Line: int(s.line), Column: int(s.col)}
}

// End returns the position just after the node's last character.
func (s Span) End() diag.Position {
	return diag.Position{Filename: s.filename(), Offset: int(s.end), Line: int(s.endLine), Column: int(s.endCol)}
}

func (s Span) filename() string {
	if s.file == nil {
		return ""
	}
	return *s.file
}

// span returns the Span itself (for the package's own bookkeeping).
func (s Span) span() Span { return s }

// to returns the span from the start of s to the end of e.
func (s Span) to(e Span) Span {
	s.end, s.endLine, s.endCol = e.end, e.endLine, e.endCol
	return s
}

// Node is implemented by every AST node.
type Node interface {
	Pos() diag.Position
	End() diag.Position
	span() Span
}

// ---------------------------------------------------------------------------
// File and declarations

// File is a parsed .drr file.
type File struct {
	Span
	Name     string       // file name given to Parse
	Imports  []*Import    // import declarations, in source order
	Families []*Family    // family declarations, in source order
	Natives  []*Native    // native declarations, in source order
	Params   []*ParamDecl // rule-set parameter declarations, in source order
	Rules    []*Rule      // rules, in source order
	Decls    []Decl       // every declaration above, in source order
	Comments []*Comment   // every comment of the file (docs included), in source order
}

// Decl is a top-level declaration: *Import, *Family, *Native, *ParamDecl or *Rule.
type Decl interface {
	Node
	declNode()
}

// Comment is a // line comment or a /// doc comment.
type Comment struct {
	Span
	Text string // the comment text including the leading slashes, without trailing blanks
	Doc  bool   // a /// doc comment

	ownLine bool // nothing but blanks precede the comment on its line
}

// CommentGroup is a run of /// doc comments on consecutive lines directly
// above a declaration.
type CommentGroup struct {
	List []*Comment
}

// Text returns the documentation text: the comment lines without their
// leading "///" and one following space, joined by newlines.
func (g *CommentGroup) Text() string {
	if g == nil {
		return ""
	}
	lines := make([]string, len(g.List))
	for i, c := range g.List {
		t := strings.TrimPrefix(c.Text, "///")
		lines[i] = strings.TrimPrefix(t, " ")
	}
	return strings.Join(lines, "\n")
}

// Ident is a plain identifier (rule, family, label and parameter names,
// attribute keys, traits).
type Ident struct {
	Span
	Name string
}

// Import is `import "path"`; the path is relative to the importing file.
type Import struct {
	Span
	Path *BasicLit // a StringLit
}

// Family is `family name = set`.
type Family struct {
	Span
	Doc  *CommentGroup
	Name *Ident
	Set  FamilyExpr
}

// FamilyExpr is the set of ops of a family declaration: *FamilyList,
// *FamilyTrait, *FamilyRef or *FamilyDiff.
type FamilyExpr interface {
	Node
	familyNode()
}

// FamilyList is an explicit list of ops: `[pd_op.conv2d, pd_op.depthwise_conv2d]`.
type FamilyList struct {
	Span
	Ops []*OpName
}

// FamilyTrait selects every op of the catalog that has a trait: `trait(Inplace)`.
type FamilyTrait struct {
	Span
	Trait *Ident
}

// FamilyRef names another family.
type FamilyRef struct {
	Span
	Name *Ident
}

// FamilyDiff is the set difference `X - Y` (left-associative).
type FamilyDiff struct {
	Span
	X      FamilyExpr
	OpSpan Span // the '-'
	Y      FamilyExpr
}

// NativeKind says what a native declaration declares.
type NativeKind int

// Kinds of native declarations.
const (
	NativeConstraint NativeKind = iota // native constraint: usable in where
	NativeRewrite                      // native rewrite: usable in rewrite
)

// String returns "constraint" or "rewrite".
func (k NativeKind) String() string {
	if k == NativeRewrite {
		return "rewrite"
	}
	return "constraint"
}

// Native declares a Go function registered by a plugin:
// `native constraint aligned(%v: value, $n: i64)` or
// `native rewrite fold(%w: value) -> value`.
type Native struct {
	Span
	Doc    *CommentGroup
	Kind   NativeKind
	Name   *Ident
	Params []*Param
	Result *Ident // nil when no "-> type" is written
}

// ParamDecl declares a parameter of the rule set: `param sm_version: i64 = 0`. Rules read it as $sm_version;
// the caller of a rule set may set it (drrc -param sm_version=80), otherwise it has its default.
type ParamDecl struct {
	Span
	Doc     *CommentGroup
	Name    *Ident
	Type    *Ident // the kind: i64, str, DataType, i32[], … (as a native's $parameter)
	Default Expr   // a constant expression of that kind
}

// ParamKind tells a value parameter (%v) from an attribute parameter ($n).
type ParamKind int

// Kinds of native parameters.
const (
	ValueParam ParamKind = iota // %name
	HoleParam                   // $name
)

// Param is one typed parameter of a native declaration: `%v: value`, `$n: i64`.
type Param struct {
	Span
	Kind ParamKind
	Name string // without the sigil
	Type *Ident
}

// Rule is a rewrite rule. Header clauses, match, where and rewrite may be
// written in any order in the source; the formatter prints them in the
// canonical order benefit, labels, for…, match, where, rewrite.
type Rule struct {
	Span
	Doc     *CommentGroup
	Name    *Ident
	Benefit *Benefit      // nil when absent
	Labels  *Labels       // nil when absent
	Fors    []*For        // family binders, in source order
	Match   *MatchBlock   // never nil in a successfully parsed file
	Where   *WhereBlock   // nil when absent
	Rewrite *RewriteBlock // never nil in a successfully parsed file
}

// Benefit is `benefit N`.
type Benefit struct {
	Span
	Value *BasicLit // an IntLit
}

// Labels is `labels a, b, c`.
type Labels struct {
	Span
	Names []*Ident
}

// For is a family binder: `for c in conv` or `for X_, X in inplace_ops`.
type For struct {
	Span
	Names  []*Ident // one or two names
	Family *Ident
}

// MatchBlock is `match { … }`.
type MatchBlock struct {
	Span
	Stmts []*PatternStmt
}

// WhereBlock is `where { … }`: one boolean expression per line.
type WhereBlock struct {
	Span
	Constraints []Expr
}

// RewriteBlock is `rewrite { … }`.
type RewriteBlock struct {
	Span
	Stmts []RewriteStmt
}

func (*Import) declNode()    {}
func (*Family) declNode()    {}
func (*Native) declNode()    {}
func (*ParamDecl) declNode() {}
func (*Rule) declNode()      {}

func (*FamilyList) familyNode()  {}
func (*FamilyTrait) familyNode() {}
func (*FamilyRef) familyNode()   {}
func (*FamilyDiff) familyNode()  {}

// ---------------------------------------------------------------------------
// Patterns (match blocks)

// PatternStmt is one statement of a match block:
//
//	[@label =] [results =] op-pattern [?]
//
// An optional statement (`%c = op(x, …)?`, Optional set) binds %c to the op's
// result, or, when the op is absent, to x (language.md, optional statements).
type PatternStmt struct {
	Span
	Label    *Ident    // @label (name without '@'); nil when absent
	Results  []*Result // bound results; empty when none are written (or "()")
	Op       *OpPattern
	Optional bool
}

// ResultKind classifies a result position.
type ResultKind int

// Kinds of results.
const (
	ResultValue    ResultKind = iota // %name: binds the result
	ResultWildcard                   // _: ignores one result
	ResultEllipsis                   // ...: ignores all remaining results
)

// Result is one entry of a result list.
type Result struct {
	Span
	Kind ResultKind
	Name string // value name without '%' (ResultValue only)
	// Spread marks `%parts...`: the value list of every result of a created op (a rewrite's only result, in a
	// rule with a users group).
	Spread bool
}

// OpName names an op. Dotted identifiers (pd_op.conv2d) and quoted names
// ("pd_op.conv2d", "add(phi_kernel)") name ops; a bare identifier without a
// dot (X_) is a family variable, or — in expressions — a builtin or native
// function; the checker resolves it.
type OpName struct {
	Span
	Name   string // unquoted name
	Quoted bool   // written as a string literal
}

// IsBare reports whether the name was written as an identifier without a dot:
// a family variable in op position, otherwise a function name.
func (n *OpName) IsBare() bool {
	return !n.Quoted && !strings.Contains(n.Name, ".")
}

// OpPattern matches one op: `name(operands) {attributes} : (types) -> types`.
// Nested op patterns are operands of their consumer.
type OpPattern struct {
	Span
	Name           *OpName
	Lparen, Rparen Span // the parentheses around the operands (the formatter keeps line breaks after and before them)
	Operands       []Operand
	Attrs          *AttrMap   // nil when absent
	Sig            *Signature // nil when absent
}

// Operand is an operand pattern: *ValueOperand, *VariadicOperand,
// *WildcardOperand, *NullOperand, *CombineOperand, *EitherOperand, *AltOperand,
// *EachOperand or a nested *OpPattern.
type Operand interface {
	Node
	operandNode()
}

// ValueOperand is `%x`, optionally typed: `%x: tensor<?xf32>`.
type ValueOperand struct {
	Span
	Name string      // without '%'
	Type TypePattern // nil when absent
}

// VariadicOperand is `%rest...`: binds the remaining operands (or, inside a
// combine list, the whole list).
type VariadicOperand struct {
	Span
	Name string // without '%'
}

// WildcardOperand is `_`: any value.
type WildcardOperand struct {
	Span
}

// NullOperand is an absent optional operand: `null` or `<<NULL VALUE>>`.
type NullOperand struct {
	Span
	Text string // "null" or "<<NULL VALUE>>", as written
}

// CombineOperand is `[a, b, …]`: the operand is a builtin.combine of those values.
type CombineOperand struct {
	Span
	Elems []Operand
}

// EitherOperand is `either(a, b)`: the operands match in either order.
type EitherOperand struct {
	Span
	Operands []Operand
}

// AltOperand is `a | b | …`: the operand is one of the alternatives, a value
// or an op pattern each, tried in order (language.md, alternatives). An
// optional op `op(x, …)?` is the alternatives `op(x, …) | x`: Optional is
// set, and Alts[1] is the op's first operand.
type AltOperand struct {
	Span
	Alts     []Operand
	Optional bool
}

// EachOperand is `each(min, max) elem`, the one element of a combine list in
// a match block: the list has min to max elements, each matching Elem (a
// variadic group, language.md §4.9). Values first bound inside Elem are bound
// per element and form value lists; attribute holes and values bound outside
// the group are shared by every element.
type EachOperand struct {
	Span
	Min, Max int
	Elem     Operand
}

func (*ValueOperand) operandNode()    {}
func (*VariadicOperand) operandNode() {}
func (*WildcardOperand) operandNode() {}
func (*NullOperand) operandNode()     {}
func (*CombineOperand) operandNode()  {}
func (*EitherOperand) operandNode()   {}
func (*AltOperand) operandNode()      {}
func (*EachOperand) operandNode()     {}
func (*OpPattern) operandNode()       {}

// AttrMap is an attribute map `{key: value, …, $rest...}`. In patterns the
// values are holes, literals or `_`; in rewrites they are expressions. Keys
// keep the order written.
type AttrMap struct {
	Span
	Entries []*AttrEntry
	Rest    *RestAttrs // `$rest...`; nil when absent; always written last
}

// AttrEntry is one `key: value` entry of an attribute map.
type AttrEntry struct {
	Span
	Key   *Ident
	Value Expr
}

// RestAttrs is `$name...` in an attribute map: binds (in match) or copies
// (in rewrite) every attribute not listed.
type RestAttrs struct {
	Span
	Name string // without '$'
}

// Signature is the printed type signature `: (T, …) -> T, …`. Region ops
// (pd_op.if, cinn_op.group) print only `-> T, …`; such a signature has
// NoInputs set.
type Signature struct {
	Span
	Lparen, Rparen Span // the parentheses around the inputs (zero when NoInputs)
	Inputs         []TypePattern
	Outputs        []TypePattern
	NoInputs       bool // written without ": (…)"
}

// ---------------------------------------------------------------------------
// Types

// TypePattern is a type or type pattern: *TensorType, *VecType, *NamedType,
// *HoleType, *AnyType, *NullType, *TypeOf or *AnyTypes.
type TypePattern interface {
	Node
	typeNode()
}

// TensorType is `NAME<dims x dtype>`, e.g. `builtin.tensor<1x64x56x56xf32>`,
// `tensor<?x$c x ? x ? x f32>`, `tensor<*xf32>`, `pd_op.tensor_array<f32>`.
type TensorType struct {
	Span
	Name  string // "tensor", "builtin.tensor", "pd_op.tensor", "pd_op.v_tensor", "gpu_tensor", …
	Dims  []*Dim
	Dtype *Dtype
}

// DimKind classifies a tensor dimension pattern.
type DimKind int

// Kinds of dimensions.
const (
	DimInt  DimKind = iota // 64 or -1 (-1 = dynamic, matched exactly)
	DimAny                 // ?: any one dimension
	DimHole                // $d: binds the dimension
	DimStar                // *: any number of dimensions
	DimExpr                // ($s * 2): a size computed from holes (result types after "->" only)
)

// Dim is one dimension of a tensor type.
type Dim struct {
	Span
	Kind DimKind
	Text string // the integer text ("64", "-1") or hole name (without '$')
	Expr Expr   // the parenthesised expression of a DimExpr
}

// DtypeKind classifies the element type of a tensor type.
type DtypeKind int

// Kinds of dtypes.
const (
	DtypeScalar DtypeKind = iota // f32, i64, b, …
	DtypeHole                    // $dt
	DtypeAny                     // ?
)

// Dtype is the element type of a tensor type.
type Dtype struct {
	Span
	Kind DtypeKind
	Name string // scalar name, or hole name without '$'
}

// VecType is `vec[T, …]`.
type VecType struct {
	Span
	Elems []TypePattern
}

// NamedType is a scalar or other named type: `f32`, `i64`, `b`, `index`.
type NamedType struct {
	Span
	Name string
}

// HoleType is `$t`: binds a whole type.
type HoleType struct {
	Span
	Name string // without '$'
}

// AnyType is `?` or `_`: any type.
type AnyType struct {
	Span
}

// NullType is `<<NULL TYPE>>`.
type NullType struct {
	Span
}

// TypeOf is `type(%v)`: the type of a matched value (rewrite result types).
type TypeOf struct {
	Span
	Value string // value name without '%'
}

// AnyTypes is `...` in a type list: any number of further types.
type AnyTypes struct {
	Span
}

func (*TensorType) typeNode() {}
func (*VecType) typeNode()    {}
func (*NamedType) typeNode()  {}
func (*HoleType) typeNode()   {}
func (*AnyType) typeNode()    {}
func (*NullType) typeNode()   {}
func (*TypeOf) typeNode()     {}
func (*AnyTypes) typeNode()   {}

// ---------------------------------------------------------------------------
// Expressions (where blocks, rewrite blocks, attribute values)

// Expr is an expression: *BasicLit, *TaggedLit, *SymbolLit, *ListExpr,
// *HoleExpr, *ValueExpr, *LabelExpr, *WildcardExpr, *NameExpr, *TypeExpr,
// *SpreadExpr, *UnaryExpr, *BinaryExpr, *CondExpr, *CallExpr, *IndexExpr or
// *ParenExpr.
type Expr interface {
	Node
	exprNode()
}

// LitKind classifies a BasicLit.
type LitKind int

// Kinds of basic literals.
const (
	IntLit    LitKind = iota // 1, -1, 0x7f3a
	FloatLit                 // 1e-05, 0.9, inf, -inf, nan
	StringLit                // "NCHW"
	BoolLit                  // true, false
	NullLit                  // null
)

// String returns the kind's name.
func (k LitKind) String() string {
	return [...]string{"int", "float", "string", "bool", "null"}[k]
}

// BasicLit is a number, string, bool or null literal. Text is the literal as
// written (so 1e-05 prints back as 1e-05); for strings Value is the decoded
// string (escapes \" \\ \n \t; other backslashes are kept as written).
type BasicLit struct {
	Span
	Kind  LitKind
	Text  string
	Value string // decoded value of a StringLit; equal to Text otherwise
}

// TaggedLit is a printed-PIR attribute literal with its tag: `(Int32)1`,
// `(Float)1e-05`, `(pd_op.IntArray)[1,2]`, `(pd_op.DataType)float32`,
// `(pd_op.Place)Place(cpu)`. The tag is meaningful (it fixes the attribute
// kind) and is kept exactly.
type TaggedLit struct {
	Span
	Tag   string // without parentheses: "Int32", "pd_op.IntArray"
	Value Expr   // *BasicLit, *ListExpr, *NameExpr, *SymbolLit or *TypeExpr
}

// SymbolLit is raw printed-PIR attribute text that has no structure in the
// rule language: `Place(cpu)`, `Undefined(AnyLayout)`, `<#AttrNull>`,
// `<backend:GPU|layout:NCHW|dtype:float32>`.
type SymbolLit struct {
	Span
	Text string
}

// ListExpr is `[a, b, …]`: a list literal, or in a rewrite op operand a
// builtin.combine of values.
type ListExpr struct {
	Span
	Elems []Expr
}

// HoleExpr is `$name`: an attribute, dim, dtype or type hole.
type HoleExpr struct {
	Span
	Name string // without '$'
}

// ValueExpr is `%name`: a value.
type ValueExpr struct {
	Span
	Name string // without '%'
}

// LabelExpr is `@name`: a labelled op (the target of erase).
type LabelExpr struct {
	Span
	Name string // without '@'
}

// WildcardExpr is `_`: any attribute value (match blocks only).
type WildcardExpr struct {
	Span
}

// NameExpr is a bare or dotted identifier used as a value: a trait
// (Inplace), an op name (pd_op.full), a dtype (float32) or an enum symbol.
type NameExpr struct {
	Span
	Name string
}

// TypeExpr is a type used as a value, e.g. a tensor type attribute.
type TypeExpr struct {
	Span
	Type TypePattern
}

// SpreadExpr is `X...`: a variadic value list (`%rest...`) in an operand or
// list position.
type SpreadExpr struct {
	Span
	X Expr
}

// UnaryExpr is `!X` or `-X`.
type UnaryExpr struct {
	Span
	Op string
	X  Expr
}

// BinaryExpr is `X op Y` with op one of || && == != < <= > >= in + - * / %.
type BinaryExpr struct {
	Span
	X      Expr
	Op     string
	OpSpan Span // the operator
	Y      Expr
}

// CondExpr is the conditional `Cond ? Then : Else`.
type CondExpr struct {
	Span
	Cond, Then, Else Expr
}

// CallExpr is `name(args) {attrs}`: an op (dotted or quoted name, or a
// family variable), a builtin function (len, dtype, uses, …) or a native
// function. Which one is decided by the checker; Attrs is only meaningful
// for ops.
type CallExpr struct {
	Span
	Func           *OpName
	Lparen, Rparen Span // the parentheses around the arguments
	Args           []Expr
	Attrs          *AttrMap // nil when absent
}

// IndexExpr is `X[Index]`.
type IndexExpr struct {
	Span
	X     Expr
	Index Expr
}

// ParenExpr is `(X)`; kept so the formatter prints parentheses as written.
type ParenExpr struct {
	Span
	X Expr
}

func (*BasicLit) exprNode()     {}
func (*TaggedLit) exprNode()    {}
func (*SymbolLit) exprNode()    {}
func (*ListExpr) exprNode()     {}
func (*HoleExpr) exprNode()     {}
func (*ValueExpr) exprNode()    {}
func (*LabelExpr) exprNode()    {}
func (*WildcardExpr) exprNode() {}
func (*NameExpr) exprNode()     {}
func (*TypeExpr) exprNode()     {}
func (*SpreadExpr) exprNode()   {}
func (*UnaryExpr) exprNode()    {}
func (*BinaryExpr) exprNode()   {}
func (*CondExpr) exprNode()     {}
func (*CallExpr) exprNode()     {}
func (*IndexExpr) exprNode()    {}
func (*ParenExpr) exprNode()    {}

// ---------------------------------------------------------------------------
// Rewrite statements

// RewriteStmt is a statement of a rewrite block: *AssignStmt, *ReplaceStmt,
// *EraseStmt or *ExprStmt.
type RewriteStmt interface {
	Node
	rewriteNode()
}

// AssignStmt is `results = expr [-> types]`: builds ops (or calls a native
// rewrite) and names their results.
type AssignStmt struct {
	Span
	Results []*Result
	Value   Expr
	Types   []TypePattern // explicit result types after "->"; nil when absent
}

// ReplaceStmt is `replace %v with expr` or, with Later set,
// `replace later uses of %v with expr`.
type ReplaceStmt struct {
	Span
	Later bool
	// Each marks `replace %y... with %parts...`: the per-element values of a users group, replaced pairwise.
	Each bool
	Old  *ValueExpr
	New  Expr
}

// EraseStmt is `erase @label` (or `erase %v`).
type EraseStmt struct {
	Span
	Target Expr // *LabelExpr or *ValueExpr
}

// ExprStmt is an expression evaluated for its effect (a native rewrite call).
type ExprStmt struct {
	Span
	X Expr
}

func (*AssignStmt) rewriteNode()  {}
func (*ReplaceStmt) rewriteNode() {}
func (*EraseStmt) rewriteNode()   {}
func (*ExprStmt) rewriteNode()    {}
