package rule

import "github.com/pirdrr/drr/ir"

// Match is one way a rule's pattern matches a program: the IR ops, values and attributes bound to the pattern's
// ops, value holes and $holes. The matcher produces matches; the rewriter applies them.
type Match struct {
	Rule *Rule
	// Ops[i] is the op bound to Pattern.Ops[i].
	Ops []*ir.Op
	// Values[i] is the value bound to Pattern.Values[i] (nil for list holes and absent values).
	Values []*ir.Value
	// Lists[i] holds the values bound to a list hole Pattern.Values[i] (nil for other holes).
	Lists [][]*ir.Value
	// Holes[i] is what Pattern.Holes[i] is bound to: an ir.Attribute (HoleAttr; the schema default when the op
	// does not carry the attribute), []ir.NamedAttr (HoleAttrs), int64 (HoleDim), ir.DType (HoleDType) or ir.Type
	// (HoleType).
	Holes []any
	// Group holds, for a pattern with a users group, the element ops in order (Group[0] is the root); nil
	// otherwise. The group's per-element values are in Lists.
	Group []*ir.Op
}

// NewMatch returns an empty match for r with room for every binding.
func NewMatch(r *Rule) *Match {
	p := r.Pattern
	return &Match{Rule: r, Ops: make([]*ir.Op, len(p.Ops)), Values: make([]*ir.Value, len(p.Values)),
		Lists: make([][]*ir.Value, len(p.Values)), Holes: make([]any, len(p.Holes))}
}

// Root returns the op bound to the pattern's root.
func (m *Match) Root() *ir.Op { return m.Ops[m.Rule.Pattern.Root] }

// Clone returns a copy of m whose binding slices can be changed independently.
func (m *Match) Clone() *Match {
	return &Match{Rule: m.Rule, Ops: append([]*ir.Op(nil), m.Ops...), Values: append([]*ir.Value(nil), m.Values...),
		Lists: append([][]*ir.Value(nil), m.Lists...), Holes: append([]any(nil), m.Holes...),
		Group: append([]*ir.Op(nil), m.Group...)}
}
