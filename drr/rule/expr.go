package rule

import (
	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

// Expr is a constraint or attribute expression. Evaluation (Eval) yields a Val.
//
// The concrete expressions are *Lit, *HoleRef, *ParamRef, *ValueRef, *Unary, *Binary, *Cond, *List, *Index and *Call.
type Expr interface {
	// At returns the expression's position in the rule file.
	At() diag.Position
}

// Val is the value of an expression: bool, int64, float64, string, []Val, ir.DType, ir.Place, ir.Type,
// *ir.Value, []*ir.Value, or an ir.Attribute of a kind with no plainer form.
type Val = any

// Lit is a constant.
type Lit struct {
	Value Val
	Pos   diag.Position
}

// HoleRef reads a $hole.
type HoleRef struct {
	Hole int
	Pos  diag.Position
}

// ValueRef reads a %value (a pattern value, or in a rewrite a value the rewrite defined).
type ValueRef struct {
	Ref Ref
	Pos diag.Position
}

// Spread is `[x...]`'s element in a rule with a users group: x evaluated once per element of the group, with
// the per-element values Elems (which x names) bound to that element's, giving a list.
type Spread struct {
	X     Expr
	Elems []int
	Pos   diag.Position
}

// Unary is -x or !x.
type Unary struct {
	Op  string
	X   Expr
	Pos diag.Position
}

// Binary is x op y for op in || && == != < <= > >= in + - * / %.
type Binary struct {
	Op   string
	X, Y Expr
	Pos  diag.Position
}

// Cond is c ? a : b.
type Cond struct {
	Cond, Then, Else Expr
	Pos              diag.Position
}

// List is [a, b, …].
type List struct {
	Elems []Expr
	Pos   diag.Position
}

// Index is x[i] on a list or string (negative i counts from the end).
type Index struct {
	X, Index Expr
	Pos      diag.Position
}

// Call calls a builtin function (see Builtins) or, when Native is set, a declared native constraint.
type Call struct {
	Func   string
	Args   []Expr
	Native bool
	Pos    diag.Position
}

func (e *Lit) At() diag.Position      { return e.Pos }
func (e *HoleRef) At() diag.Position  { return e.Pos }
func (e *ValueRef) At() diag.Position { return e.Pos }
func (e *Unary) At() diag.Position    { return e.Pos }
func (e *Binary) At() diag.Position   { return e.Pos }
func (e *Cond) At() diag.Position     { return e.Pos }
func (e *List) At() diag.Position     { return e.Pos }
func (e *Index) At() diag.Position    { return e.Pos }
func (e *Spread) At() diag.Position   { return e.Pos }
func (e *Call) At() diag.Position     { return e.Pos }

// Action is one step of a rewrite.
//
// The concrete actions are *Create, *Replace, *Erase and *NativeRewrite.
type Action interface {
	At() diag.Position
}

// Create builds a new op at the rewrite's insertion point.
type Create struct {
	Op       string
	Operands []RewriteOperand
	// Attrs are set in order; attributes the schema declares but Attrs does not set get their defaults when the
	// schema has one (they are then not written on the op, exactly like Paddle's builders).
	Attrs []AttrSet
	// RestAttrs, if >= 0, copies the attributes bound by a HoleAttrs hole (before Attrs are applied).
	RestAttrs int
	// ResultTypes gives the result types explicitly; nil means "infer from the schema's type rule".
	ResultTypes []TypeExpr
	// Results are indices into Rule.NewValues, one per result (-1 for a result the rule does not name).
	Results []int
	Pos     diag.Position
}

// RewriteOperand is one operand of a created op: a value, a spliced list of values, or absent. With When set it
// depends on the match's path through the pattern's alternatives (`bound(%m) ? %m : null`, language.md §6.1): it is
// this operand on the paths where When, an expression of bound(…) calls, holds, and Else on the others.
// ActionsOnPath decides it.
type RewriteOperand struct {
	Ref  Ref
	Null bool
	List bool
	When Expr
	Else *RewriteOperand
}

// AttrSet sets one attribute of a created op to the value of an expression, converted to the kind the schema
// declares (or kept as the bound attribute when Value is a plain HoleRef).
type AttrSet struct {
	Name  string
	Value Expr
}

// TypeExpr is an explicit result type: Exact, the type of a value (Of), or a tensor pattern whose holes are bound.
type TypeExpr struct {
	Exact  ir.Type
	Of     *Ref
	Tensor *TensorPattern
}

// Replace redirects the uses of a matched value to another value. With Later set, only uses by ops after the
// pattern's root are redirected (the de-inplace rewrite). With Each set, Value is a per-element value of a users
// group and With a list (a list new value, or another per-element value): the uses of element i's value go to
// element i of With, which must have as many elements.
type Replace struct {
	Value Ref
	With  Ref
	Later bool
	Each  bool
	Pos   diag.Position
}

// Erase erases a matched op (which must be dead once the rewrite's replacements are done).
type Erase struct {
	Op  int
	Pos diag.Position
}

// NativeRewrite calls a registered native rewrite with evaluated arguments; the values it returns become
// Rule.NewValues[Results[i]].
type NativeRewrite struct {
	Name    string
	Args    []Expr
	Results []int
	Pos     diag.Position
}

func (a *Create) At() diag.Position        { return a.Pos }
func (a *Replace) At() diag.Position       { return a.Pos }
func (a *Erase) At() diag.Position         { return a.Pos }
func (a *NativeRewrite) At() diag.Position { return a.Pos }
