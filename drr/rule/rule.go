// Package rule is the checked form of rewrite rules: the data the matcher compiles and the rewriter applies.
//
// The .drr language (package drr) produces it after parsing and static checking, and Go code can build it
// directly (rules as data, as in Go's rulegen): a Rule is a source Pattern (a small graph of op patterns over
// value, attribute and type holes), constraints (Where) and a rewrite (Actions). Everything is resolved: op names are
// full, holes are indices, literals are interned attributes of the Set's Context, and nested expressions of the
// language are flattened into a sequence of Create actions in dependency order.
package rule

import (
	"fmt"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

// Set is an ordered collection of checked rules, compiled against one Context.
type Set struct {
	Ctx   *ir.Context
	Rules []*Rule
	// Natives are the native functions the rules call, declared with their signatures.
	Natives map[string]*NativeDecl
	// Params are the parameters the set's files declare (imported files first, then in file order). Their values
	// are given at run time (WithParams), not here.
	Params []*ParamDecl
}

// Rule is one checked rewrite rule. A rule over an op family is instantiated once per member: each instance is a
// Rule of its own, with the same Name and the member in Instance.
type Rule struct {
	Name string
	// Instance is the family member this instance is for (pd_op.relu_), or "" for a plain rule.
	Instance string
	Doc      string
	Pos      diag.Position
	// Benefit orders matches at one op: higher first; ties go to the rule earlier in the Set.
	Benefit int
	Labels  []string
	// Index is the rule's position in its Set.
	Index   int
	Pattern *Pattern
	// Where lists constraints that must all evaluate to true, in order.
	Where []Expr
	// NewValues are the values the rewrite defines, referred to by Ref{New: true, Index: i}.
	NewValues []*NewValue
	// Actions are the rewrite steps in order.
	Actions []Action
	// Path is set on the rules Paths makes: per group of the original rule's alternatives, the branch the path
	// takes (-1: a group it does not reach). Nil for a rule as checked.
	Path []int
}

// ID returns the rule's name, with its family member if it has one: conv_bn or deinplace[pd_op.relu_].
func (r *Rule) ID() string {
	if r.Instance == "" {
		return r.Name
	}
	return r.Name + "[" + r.Instance + "]"
}

// Pattern is the source pattern: op patterns connected by value holes. Ops[Root] is the op the matcher starts from;
// every other op is reached from it through operands (producers) or, for multi-root patterns, through the users of
// an already bound value.
type Pattern struct {
	Ops    []*OpPattern
	Root   int
	Values []*ValueHole
	Holes  []*Hole
	// Alts are the pattern's choices among alternatives, each read at an OperandAlt.
	Alts []*AltGroup
	// Users, when not nil, makes the pattern a users group: its one op pattern (the root) matches, per element,
	// one user of a value, and the match collects them all (UsersGroup).
	Users *UsersGroup
}

// UsersGroup is a group over the users of one value: the pattern's only op pattern, Op (its root), is the element;
// it matches each user of value hole Value (an operand of Op) that agrees with the root's bindings. The matcher
// collects the elements deterministically (no search): the root is the first element; every later user of Value in
// the root's block, in program order, that matches Op with the $holes and type holes the root bound (shared) and
// passes the per-element constraints ElemWhere is the next element, up to Max; fewer than Min elements, or a user
// before the root that would be an element, is no match (the match is rooted at that earlier user). Operand and
// result value holes of Op other than Value are bound per element (Elems): in a match, Match.Lists holds one value
// per element, and Match.Group the element ops in order.
type UsersGroup struct {
	// Op is the element op pattern (Pattern.Root); Operand the operand index at which it reads Value.
	Op, Operand int
	// Value is the value hole whose users are collected: bound from the root's operand Operand.
	Value int
	// Min and Max bound the number of elements (1 <= Min <= Max).
	Min, Max int
	// Elems are the value holes bound per element, in Pattern.Values order.
	Elems []int
	// ElemWhere are the indices in Rule.Where of the constraints that are checked per element (with each element's
	// values): a user failing one is not an element. The other constraints are checked once, on the whole group.
	ElemWhere []int
	Pos       diag.Position
}

// IsElem reports whether value hole h is bound per element of the pattern's users group.
func (p *Pattern) IsElem(h int) bool {
	if p.Users == nil {
		return false
	}
	for _, e := range p.Users.Elems {
		if e == h {
			return true
		}
	}
	return false
}

// OpPattern matches one op.
type OpPattern struct {
	// Name is the full op name the op must have; "" matches any op.
	Name string
	// Label is the @name given to the op in the rule ("" if none).
	Label string
	// Operands match the op's operands in order. If the last one is an OperandList, it binds all remaining
	// operands (zero or more).
	Operands []OperandPattern
	// Commutative lets operands 0 and 1 match in either order.
	Commutative bool
	// Constant marks a constant-like op pattern (no operands; its op kind has the catalog's ConstantLike trait: its
	// results depend on its attributes only, as pd_op.full's and pd_op.full_int_array's). It matches by value:
	// two constant op patterns may bind one program op, and a value it defines that several pattern ops read may
	// be, at each reader, the result of another program op equal to it (same kind, attributes and result types,
	// results written in place by no op). The drr checker sets it from the catalog.
	Constant bool
	// Results bind the op's results in order.
	Results []ResultPattern
	// MoreResults allows the op to have more results than Results lists (the extra ones must be unused).
	MoreResults bool
	// Attrs constrain named attributes; unlisted attributes are not looked at.
	Attrs []AttrPattern
	// RestAttrs, if >= 0, is the hole that binds every attribute not listed in Attrs (as an ordered list).
	RestAttrs int
	Pos       diag.Position
}

// OperandKind says what an operand pattern accepts.
type OperandKind uint8

// The operand pattern kinds.
const (
	// OperandValue matches a present operand and binds (or checks) value hole Value.
	OperandValue OperandKind = iota
	// OperandNull matches an absent optional operand.
	OperandNull
	// OperandAny matches any operand, present or absent, and binds nothing.
	OperandAny
	// OperandList binds the remaining operands to list hole Value (only as the last operand pattern).
	OperandList
	// OperandAlt binds value hole Value and matches it against the branches of Pattern.Alts[Alt].
	OperandAlt
)

// OperandPattern is one operand position of an OpPattern.
type OperandPattern struct {
	Kind  OperandKind
	Value int // index into Pattern.Values for OperandValue, OperandList and OperandAlt
	Alt   int // index into Pattern.Alts for OperandAlt
}

// AltGroup is a choice among alternative sub-patterns at one operand position (`a | b` in the language): the
// operand binds value hole Value, and the match takes the first branch, in order, under which the whole pattern
// matches. A pattern op of a branch is bound only when its branch is chosen (nil in a match otherwise).
type AltGroup struct {
	// Op and Operand are the pattern op and operand index the group is read at (its OperandAlt).
	Op, Operand int
	// Value is the value hole the operand binds: the value every branch must be.
	Value    int
	Branches []AltBranch
	// Statement marks the group of an optional statement (`%c = op(x, …)?`): Value is %c, which other operands,
	// the where clause and the rewrite may read too (in a path, Paths substitutes the branch's value for it).
	Statement bool
	Pos       diag.Position
}

// AltBranch is one alternative of an AltGroup.
type AltBranch struct {
	// Value is the value hole the operand must be under this branch: a value of the rest of the pattern (%d), or
	// the result of an op pattern of the branch (its Def is in Ops).
	Value int
	// Ops are the pattern ops of the branch, nested alternatives' included, in Pattern.Ops order.
	Ops []int
	Pos diag.Position
}

// AltOf returns the group and branch pattern op k belongs to directly (the innermost one), or -1, -1 when it is in
// no alternative.
func (p *Pattern) AltOf(k int) (group, branch int) {
	group, branch = -1, -1
	best := -1
	for g, a := range p.Alts {
		for b, br := range a.Branches {
			for _, o := range br.Ops {
				// The innermost group of k has the fewest ops in k's branch.
				if o == k && (best < 0 || len(br.Ops) < best) {
					group, branch, best = g, b, len(br.Ops)
				}
			}
		}
	}
	return group, branch
}

// Reads returns the value holes operand pattern o reads: its value or list, and for alternatives their value and
// the value of each branch (nil for `_` and `null`).
func (p *Pattern) Reads(o OperandPattern) []int {
	switch o.Kind {
	case OperandValue, OperandList:
		return []int{o.Value}
	case OperandAlt:
		out := []int{o.Value}
		for _, br := range p.Alts[o.Alt].Branches {
			out = append(out, br.Value)
		}
		return out
	}
	return nil
}

// InAlt reports whether pattern op k belongs to a branch of an alternative (and so may be unbound in a match).
func (p *Pattern) InAlt(k int) bool {
	g, _ := p.AltOf(k)
	return g >= 0
}

// ResultPattern is one result position of an OpPattern.
type ResultPattern struct {
	// Value is the value hole the result binds, or -1 for `_`: the result must have no uses outside the match.
	Value int
}

// AttrMatchKind says how an attribute pattern constrains the attribute.
type AttrMatchKind uint8

// The attribute pattern kinds.
const (
	// AttrBind binds the attribute (or its schema default when absent) to Hole, or checks it equals the value the
	// hole already has.
	AttrBind AttrMatchKind = iota
	// AttrEquals requires the attribute (or its default) to be exactly Literal.
	AttrEquals
	// AttrPresent requires the op to carry the attribute, whatever its value.
	AttrPresent
)

// AttrPattern constrains one named attribute.
type AttrPattern struct {
	Name    string
	Kind    AttrMatchKind
	Hole    int
	Literal ir.Attribute
}

// ValueHole is a %name of the pattern: a value defined by a pattern op (internal or output) or bound from an
// operand (an input of the pattern).
type ValueHole struct {
	Name string
	// Def is the index of the pattern op whose result this is, or -1 for an input of the pattern.
	Def int
	// Result is the result index in Def.
	Result int
	// List marks a hole that binds a list of values (a variadic tail or a combine list).
	List bool
	// Type constrains the value's type (nil: any type).
	Type *TypePattern
	// Shared marks an internal value the rule allows to have uses outside the match (the rule states its own use
	// constraint on it); otherwise every use of an internal value must be by a matched op.
	Shared bool
	// Unbound marks, in a path of a rule with alternatives (Paths), a value only branches the path does not take
	// mention: nothing binds it, and the where clause and the rewrite do not use it.
	Unbound bool
	Pos     diag.Position
}

// HoleKind is the kind of thing a $hole binds.
type HoleKind uint8

// The hole kinds.
const (
	HoleAttr  HoleKind = iota // an attribute
	HoleAttrs                 // the list of unlisted attributes of an op ($attrs...)
	HoleDim                   // a tensor dimension (int64)
	HoleDType                 // an element type (ir.DType)
	HoleType                  // a whole type
)

// Hole is a $name of the rule.
type Hole struct {
	Name string
	Kind HoleKind
	// Type is the declared attribute type for HoleAttr holes bound by registered ops (zero if unknown).
	Type ir.AttrType
	Pos  diag.Position
}

// TypePattern constrains a type. Exactly one of the forms is used: Exact, Hole (whole type), or Tensor.
type TypePattern struct {
	Exact  ir.Type
	Hole   int // >= 0: bind the whole type to this HoleType hole
	Tensor *TensorPattern
}

// TensorPattern matches a tensor type by spelling, dims and element type.
type TensorPattern struct {
	// Spellings the type may have (tensor<…> accepts builtin.tensor, pd_op.tensor and tensor).
	Spellings []string
	Dims      []DimPattern
	// DType is the required element type, unless DTypeHole >= 0 (bind it) or AnyDType.
	DType     ir.DType
	DTypeHole int
	AnyDType  bool
}

// DimKind is the kind of a dimension pattern.
type DimKind uint8

// The dimension pattern kinds.
const (
	DimExact DimKind = iota // exactly Value (-1 matches a dynamic dimension only)
	DimAny                  // ? : any one dimension
	DimHole                 // $d : bind the size, or check it equals the bound size
	DimRest                 // * : any number of dimensions (at most once)
	DimExpr                 // ($s * $h): a size computed from bound holes (result types only, never matched)
)

// DimPattern matches one dimension (or, for DimRest, several); in a result type it gives one.
type DimPattern struct {
	Kind  DimKind
	Value int64
	Hole  int
	Expr  Expr // DimExpr: an int expression over the match's holes
}

// NewValue is a value the rewrite defines.
type NewValue struct {
	Name string
	// List marks the results of a created op bound as one list (`%parts... = builtin.split(…)` in a rule with a
	// users group): the Create that defines it lists it as its only result, and it binds all of the op's results.
	List bool
	Pos  diag.Position
}

// Ref names a value in a rewrite: a pattern value hole, or a value the rewrite defines.
type Ref struct {
	New   bool
	Index int
}

// NativeDecl declares a native Go function a rule file calls.
type NativeDecl struct {
	Name string
	// Rewrite is true for native rewrites, false for native constraints.
	Rewrite bool
	Params  []Param
	// Results is the number of values a native rewrite returns.
	Results int
	Pos     diag.Position
}

// Param is a declared parameter of a native function.
type Param struct {
	Name string
	// Value is true for %value parameters; otherwise Type is the attribute type of a $parameter.
	Value bool
	Type  ir.AttrType
}

// UnregisteredNative is the message for a native that the running drrc has no Go function for — kind is
// "constraint" or "rewrite" — the same wherever it is found: by the checker (package drr), before any program is
// touched, or by a pass evaluating a rule set checked against another registry (package rewriter).
func UnregisteredNative(kind, name string) string {
	return fmt.Sprintf("native %s %s is not registered: this drrc has no Go function for it; a native is "+
		"registered by a plugin linked into a drrc of your own (docs/plugins.md), or write the %s as a .drr "+
		"expression (docs/language.md §5)", kind, name, kind)
}
