package ir

import "strings"

// Dialect is a named group of op schemas, loaded from a catalog (see ParseCatalog).
type Dialect struct {
	// Name is the dialect prefix of its ops (pd_op, builtin, cf).
	Name string
	// JSONID is the PIR JSON dialect id (builtin 0, pd_op 1, cf 2), or -1 if the dialect has none.
	JSONID int
	// Ops are the dialect's op schemas in catalog order.
	Ops []*OpSchema
	// Source names the catalog file the dialect came from.
	Source string
}

// Trait is a property of an op kind that rules, analyses and the driver rely on.
type Trait uint16

// The traits an OpSchema can have.
const (
	// ReadOnly: the op never writes its operands.
	ReadOnly Trait = 1 << iota
	// ValueSemantics: ReadOnly, and no result aliases an operand (neither inplace nor a view).
	ValueSemantics
	// Inplace: some results are written into operands' buffers (see OpSchema.Inplace).
	Inplace
	// ViewLike: some results alias operands' buffers without writing them (see OpSchema.View).
	ViewLike
	// Terminator: the op ends a block of a region (cf.yield).
	Terminator
	// SideEffects: the op must stay even when its results are unused (fetch, shadow_output, collectives, …).
	SideEffects
	// Commutative: operands 0 and 1 may be swapped.
	Commutative
	// ConstantLike: the op's results depend on its attributes only (full, full_int_array).
	ConstantLike
	numTraits = iota
)

var traitNames = []string{"ReadOnly", "ValueSemantics", "Inplace", "ViewLike", "Terminator", "SideEffects",
	"Commutative", "ConstantLike"}

// String returns the names of the traits in t, separated by "|".
func (t Trait) String() string {
	var parts []string
	for i, n := range traitNames {
		if t&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, "|")
}

// TraitFromName parses a trait name (ReadOnly, ValueSemantics, …).
func TraitFromName(s string) (Trait, bool) {
	for i, n := range traitNames {
		if n == s {
			return 1 << i, true
		}
	}
	return 0, false
}

// TraitNames returns the names of all traits.
func TraitNames() []string { return append([]string(nil), traitNames...) }

// AttrType is the declared type of an attribute in a schema: a kind, or an array of a kind.
type AttrType struct {
	Kind  AttrKind
	Array bool // the attribute is an ArrayAttr whose elements have Kind
}

// String returns the type as written in catalogs (i32, i32[], IntArray, …).
func (t AttrType) String() string {
	if t.Array {
		return t.Kind.String() + "[]"
	}
	return t.Kind.String()
}

// Accepts reports whether attribute a has this type.
func (t AttrType) Accepts(a Attribute) bool {
	if t.Array {
		arr, ok := a.(*ArrayAttr)
		if !ok {
			return false
		}
		if t.Kind == KindAny {
			return true
		}
		for _, e := range arr.Elems {
			if e.Kind() != t.Kind {
				return false
			}
		}
		return true
	}
	return t.Kind == KindAny || a.Kind() == t.Kind
}

// OperandSpec describes one operand of an op schema.
type OperandSpec struct {
	Name string
	// Optional operands may be absent (a nil *Value, printed <<NULL VALUE>>).
	Optional bool
	// Variadic: this operand stands for any number (zero or more) of operands.
	Variadic bool
	// Mutable is the kind of the yaml attribute PIR turned into this operand (IntArray for reshape.shape, Scalar
	// for scale.scale; the value usually comes from full or full_int_array), or KindAny for an ordinary operand.
	Mutable AttrKind
}

// ResultSpec describes one result of an op schema.
type ResultSpec struct {
	Name     string
	Optional bool // an optional result may have a null type
	Variadic bool
}

// AttrSpec describes one attribute of an op schema.
type AttrSpec struct {
	Name string
	Type AttrType
	// Default is the value the op has when the attribute is absent; nil means the attribute is required, unless it
	// is Optional.
	Default Attribute
	// Optional attributes may be absent and have no default (catalog: "name: kind?"): Paddle's runtime attributes,
	// which a pass sets on the ops it creates and the op yaml does not declare (force_backend on
	// fused_conv2d_add_act). An absent optional attribute is not filled in by rewrites nor written by writers, and
	// it is no argument of paddle._C_ops.NAME.
	Optional bool
}

// Arg is one argument of an op in Paddle's argument order: the op yaml's args, which is also the signature of the
// Python function paddle._C_ops.NAME. Paddle lists tensor inputs first, then attributes; an IntArray or Scalar
// attribute that PIR turns into an operand (OperandSpec.Mutable) keeps its place among the attributes. Exactly one of
// Operand and Attr is >= 0.
type Arg struct {
	// Name is the operand's or attribute's name.
	Name string
	// Operand is the index of the operand in Operands, or -1 if the argument is an attribute.
	Operand int
	// Attr is the index of the attribute in Attrs, or -1 if the argument is an operand.
	Attr int
}

// IsOperand reports whether the argument is an operand.
func (a Arg) IsOperand() bool { return a.Operand >= 0 }

// IOPair maps an operand index to a result index (inplace or view mappings).
type IOPair struct {
	Operand, Result int
}

// OpSchema describes one kind of op: its signature, traits and result-type rule. Schemas are data (loaded from
// catalogs) and immutable once their Context has registered them.
type OpSchema struct {
	// Name is the full op name (pd_op.conv2d).
	Name string
	// Dialect is the dialect the schema belongs to.
	Dialect *Dialect
	// Doc is the catalog doc comment.
	Doc      string
	Operands []OperandSpec
	Results  []ResultSpec
	// Attrs are in Paddle's yaml order, which is the order of PIR JSON "A".
	Attrs []AttrSpec
	// Args are the operands and attributes in Paddle's argument order (the catalog's args(…) clause, or the
	// operands followed by the attributes when it has none). Every operand appears once; an attribute that is not
	// an argument of paddle._C_ops.NAME (one that passes set) does not appear.
	Args   []Arg
	Traits Trait
	// Inplace maps operands to the results written into their buffers (batch_norm_: mean → mean_out, …).
	Inplace []IOPair
	// View maps operands to the results that alias them.
	View []IOPair
	// Infer names the result-type rule (see Context.Infer); "" if none.
	Infer string
	// Regions is the number of regions the op has.
	Regions int
	// Counterpart is the inplace twin of a non-inplace op (relu → relu_) or the non-inplace twin of an inplace op
	// (relu_ → relu); nil if there is none in the catalog.
	Counterpart *OpSchema

	attrIndex map[string]int
}

// Has reports whether the schema has every trait in t.
func (s *OpSchema) Has(t Trait) bool { return s.Traits&t == t }

// Attr returns the spec of the named attribute, or nil.
func (s *OpSchema) Attr(name string) *AttrSpec {
	if i, ok := s.attrIndex[name]; ok {
		return &s.Attrs[i]
	}
	return nil
}

// AttrIndex returns the position of the named attribute in the schema order, or -1.
func (s *OpSchema) AttrIndex(name string) int {
	if i, ok := s.attrIndex[name]; ok {
		return i
	}
	return -1
}

// OperandIndex returns the index of the named operand, or -1.
func (s *OpSchema) OperandIndex(name string) int {
	for i, o := range s.Operands {
		if o.Name == name {
			return i
		}
	}
	return -1
}

// ResultIndex returns the index of the named result, or -1.
func (s *OpSchema) ResultIndex(name string) int {
	for i, r := range s.Results {
		if r.Name == name {
			return i
		}
	}
	return -1
}

// IsVariadic reports whether the schema has a variadic operand or result, so that counts are not fixed.
func (s *OpSchema) IsVariadic() bool {
	for _, o := range s.Operands {
		if o.Variadic {
			return true
		}
	}
	for _, r := range s.Results {
		if r.Variadic {
			return true
		}
	}
	return false
}

// OperandCountOK reports whether n operands fit the schema.
func (s *OpSchema) OperandCountOK(n int) bool {
	return countOK(n, len(s.Operands), variadicOperands(s))
}

// ResultCountOK reports whether n results fit the schema. Trailing optional results may be left out.
func (s *OpSchema) ResultCountOK(n int) bool {
	fixed := len(s.Results)
	for _, r := range s.Results {
		if r.Variadic {
			return n >= fixed-1
		}
	}
	min := fixed
	for min > 0 && s.Results[min-1].Optional {
		min--
	}
	return n >= min && n <= fixed
}

// OperandsAsAttrs reports whether an op with n operands and the given attributes is in the form older Paddle
// versions gave it, before some of its IntArray or Scalar arguments became operands: the missing operands are the
// schema's trailing mutable operands (OperandSpec.Mutable), and each is present as an attribute of the same name.
// pd_op.mean's axis is one: an attribute until 2025 (Paddle PR #70926), an operand since. Verify accepts such ops
// with a warning.
func (s *OpSchema) OperandsAsAttrs(n int, attr func(name string) Attribute) bool {
	if n < 0 || n >= len(s.Operands) || variadicOperands(s) {
		return false
	}
	for _, o := range s.Operands[n:] {
		if o.Mutable == KindAny || attr(o.Name) == nil {
			return false
		}
	}
	return true
}

func variadicOperands(s *OpSchema) bool {
	for _, o := range s.Operands {
		if o.Variadic {
			return true
		}
	}
	return false
}

func countOK(n, fixed int, variadic bool) bool {
	if variadic {
		return n >= fixed-1
	}
	return n == fixed
}

// NonInplaceName returns the name of the non-inplace twin of an inplace op name (pd_op.relu_ → pd_op.relu).
func NonInplaceName(name string) string { return strings.TrimSuffix(name, "_") }

// SplitOpName splits a full op name into dialect and op (pd_op.conv2d → pd_op, conv2d). Names without a dot
// (kernel ops such as add(phi_kernel)) have no dialect.
func SplitOpName(name string) (dialect, op string) {
	if i := strings.IndexByte(name, '.'); i > 0 && !strings.ContainsAny(name[:i], "()") {
		return name[:i], name[i+1:]
	}
	return "", name
}
