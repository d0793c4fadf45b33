package ir

import (
	"iter"
	"sort"
	"unsafe"

	"github.com/pirdrr/drr/diag"
)

// NamedAttr is one attribute of an op: its name and value.
type NamedAttr struct {
	Name  string
	Value Attribute
}

// Loc is a position in the source a program was read from (a PIR text or JSON file, a GraphNet model.py and its
// metadata): line and column, both from 1 (the column in bytes), or the zero Loc for ops created by rewrites. For
// one-line PIR JSON files Line is 1 and Col is the byte offset plus 1.
type Loc struct {
	Line, Col int32
}

// IsKnown reports whether l is a real source position.
func (l Loc) IsKnown() bool { return l.Line > 0 }

// In returns l as a position in the named file (the file alone when l is not known).
func (l Loc) In(file string) diag.Position {
	if !l.IsKnown() {
		return diag.Position{Filename: file}
	}
	return diag.Position{Filename: file, Line: int(l.Line), Column: int(l.Col)}
}

// Op is an operation: an op kind (OpInfo), operands, results, attributes in their source order, and regions. Ops
// live in a Block, in a doubly-linked list.
//
// An Op is kept small, because a program has millions of them and the garbage collector scans every one: its
// operand records and attributes are runs in arrays it points to (slabs of an Allocator, or arrays of their own)
// with their lengths, not slice headers; its first result, which nearly every op has, is part of the record (and
// finds its op by its place in it, so a Value needs no pointer to its op); further results and regions, which few
// ops have, hang off one pointer.
type Op struct {
	info  *OpInfo
	uses  *Use       // operand records: nOperands of them, contiguous
	attrs *NamedAttr // attributes: nAttrs of them, contiguous; never changed in place (several ops may share them)
	ext   *opExt     // results after the first, and regions; nil when the op has neither
	// The counts and result 0 come next, with the fields above: what matching reads is close together.
	nOperands uint32
	nAttrs    uint32 // the number of attributes, with erasedBit and resultBit
	// res is result 0, when the op has results (resultBit).
	res   Value
	block *Block
	prev  *Op
	next  *Op
	// Loc is where the op was read from, if it was.
	Loc   Loc
	order uint32 // the op's place in its block (Block.assignOrder)
	mark  int32
}

// opExt holds what few ops have: the results after the first, and regions. It belongs to its op's record as long
// as the record lives (an Allocator recycles the two together), so the number of further results is kept here.
type opExt struct {
	more    *extraResult // results 1 … nMore, contiguous
	regions []*Region
	nMore   uint32
}

// extraResult is a result after an op's first: the Value and its op (result 0 finds its op by its place in it).
type extraResult struct {
	Value
	def *Op
}

// resOffset is the offset of result 0 in an Op.
const resOffset = unsafe.Offsetof(Op{}.res)

// Flags in Op.nAttrs: erasedBit marks an erased op, resultBit an op with results (result 0 in the record, any
// further ones in its opExt). The attribute count is what remains.
const (
	erasedBit = 1 << 31
	resultBit = 1 << 30
	attrFlags = erasedBit | resultBit
)

// operandSlice returns the op's operand records.
func (o *Op) operandSlice() []Use { return unsafe.Slice(o.uses, o.nOperands) }

// moreResults returns the op's results after the first.
func (o *Op) moreResults() []extraResult {
	if o.ext == nil || o.ext.nMore == 0 {
		return nil
	}
	return unsafe.Slice(o.ext.more, o.ext.nMore)
}

// result returns result i, which must exist.
func (o *Op) result(i int) *Value {
	if i == 0 {
		if o.nAttrs&resultBit == 0 {
			panic("ir: result index 0 out of range (the op has no results)")
		}
		return &o.res
	}
	return &o.moreResults()[i-1].Value
}

// attrSlice returns the op's attributes (shared: never modify it).
func (o *Op) attrSlice() []NamedAttr { return unsafe.Slice(o.attrs, o.nAttrs&^attrFlags) }

// hasRegions reports whether the op has regions (they are fixed when it is made).
func (o *Op) hasRegions() bool { return o.ext != nil && len(o.ext.regions) > 0 }

// regionSlice returns the op's regions.
func (o *Op) regionSlice() []*Region {
	if o.ext == nil {
		return nil
	}
	return o.ext.regions
}

// setOperandSlice makes uses the op's operand records.
func (o *Op) setOperandSlice(uses []Use) {
	o.uses, o.nOperands = unsafe.SliceData(uses), uint32(len(uses))
}

// setAttrSlice makes attrs the op's attribute list (kept, not copied).
func (o *Op) setAttrSlice(attrs []NamedAttr) {
	o.attrs, o.nAttrs = unsafe.SliceData(attrs), o.nAttrs&attrFlags|uint32(len(attrs))
}

// isErased reports whether the op is erased.
func (o *Op) isErased() bool { return o.nAttrs&erasedBit != 0 }

// Mark returns the op's scratch mark, an integer that the one piece of code currently working on the program (a
// rewrite driver, say) may use for its own bookkeeping, such as the op's position in a worklist. It is 0 unless
// set; whoever sets marks resets them when done.
func (o *Op) Mark() int32 { return o.mark }

// SetMark sets the op's scratch mark (see Mark).
func (o *Op) SetMark(m int32) { o.mark = m }

// Info returns the op's kind record.
func (o *Op) Info() *OpInfo { return o.info }

// Name returns the full op name (pd_op.conv2d).
func (o *Op) Name() string { return o.info.Name }

// Schema returns the op's schema, or nil if the op is unregistered.
func (o *Op) Schema() *OpSchema { return o.info.Schema }

// Has reports whether the op's schema has every trait in t; unregistered ops have none.
func (o *Op) Has(t Trait) bool { return o.info.Has(t) }

// NumOperands returns the number of operand slots.
func (o *Op) NumOperands() int { return int(o.nOperands) }

// Operand returns the value in operand slot i (nil if that optional operand is absent).
func (o *Op) Operand(i int) *Value { return o.operandSlice()[i].value }

// OperandUse returns the use record of operand slot i.
func (o *Op) OperandUse(i int) *Use { return &o.operandSlice()[i] }

// Operands returns the operand values in order (a new slice).
func (o *Op) Operands() []*Value {
	uses := o.operandSlice()
	out := make([]*Value, len(uses))
	for i := range uses {
		out[i] = uses[i].value
	}
	return out
}

// NumResults returns the number of results.
func (o *Op) NumResults() int {
	switch {
	case o.nAttrs&resultBit == 0:
		return 0
	case o.ext == nil:
		return 1
	}
	return 1 + int(o.ext.nMore)
}

// Result returns result i.
func (o *Op) Result(i int) *Value { return o.result(i) }

// Results returns the results in order (a new slice).
func (o *Op) Results() []*Value {
	out := make([]*Value, o.NumResults())
	for i := range out {
		out[i] = o.result(i)
	}
	return out
}

// HasUses reports whether some result of the op is used.
func (o *Op) HasUses() bool {
	if o.nAttrs&resultBit == 0 {
		return false
	}
	if o.res.first != nil {
		return true
	}
	for i, more := 0, o.moreResults(); i < len(more); i++ {
		if more[i].first != nil {
			return true
		}
	}
	return false
}

// Attrs returns the attributes in their order (source order for read ops, schema order for built ops). The slice
// must not be modified; use Rewriter.SetAttr.
func (o *Op) Attrs() []NamedAttr { return o.attrSlice() }

// Attr returns the named attribute, or nil.
//
// Attribute names are interned per Context (Context.AttrName): the readers, the schemas and Rewriter.SetAttr store
// the Context's copy of each name, and when the caller holds that copy too (the interpreted matcher's programs, the
// Applier's attribute layouts) the compare of the name found is a data pointer compare (runtime.memequal checks
// the pointers first) and reads no bytes. Generated matchers pass names as Go constants, which is cheaper for them:
// see docs/performance.md.
func (o *Op) Attr(name string) Attribute {
	attrs := o.attrSlice()
	for i := range attrs {
		if attrs[i].Name == name {
			return attrs[i].Value
		}
	}
	return nil
}

// AttrOrDefault returns the named attribute, or the schema's default when the op does not carry it, or nil.
func (o *Op) AttrOrDefault(name string) Attribute {
	if a := o.Attr(name); a != nil {
		return a
	}
	if s := o.info.Schema; s != nil {
		if spec := s.Attr(name); spec != nil {
			return spec.Default
		}
	}
	return nil
}

// SortedAttrs returns the attributes sorted by name, as PIR text prints them.
func (o *Op) SortedAttrs() []NamedAttr {
	out := append([]NamedAttr(nil), o.attrSlice()...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// NumRegions returns the number of regions.
func (o *Op) NumRegions() int { return len(o.regionSlice()) }

// Region returns region i.
func (o *Op) Region(i int) *Region { return o.regionSlice()[i] }

// Regions returns the op's regions.
func (o *Op) Regions() []*Region { return o.regionSlice() }

// Block returns the block containing the op, or nil if it is detached.
func (o *Op) Block() *Block { return o.block }

// ParentOp returns the op whose region contains the op's block, or nil at the top level.
func (o *Op) ParentOp() *Op {
	if o.block == nil || o.block.region == nil {
		return nil
	}
	return o.block.region.op
}

// Next returns the next op in the block, or nil.
func (o *Op) Next() *Op { return o.next }

// Prev returns the previous op in the block, or nil.
func (o *Op) Prev() *Op { return o.prev }

// Erased reports whether the op has been erased.
func (o *Op) Erased() bool { return o.isErased() }

// IsAncestorOf reports whether other is nested (at any depth) in a region of o, or is o.
func (o *Op) IsAncestorOf(other *Op) bool {
	if o.ext == nil || len(o.ext.regions) == 0 {
		return other == o // nothing is nested in an op without regions
	}
	for p := other; p != nil; p = p.ParentOp() {
		if p == o {
			return true
		}
	}
	return false
}

// Users iterates over the ops reading any result of o, possibly more than once.
func (o *Op) Users() iter.Seq[*Op] {
	return func(yield func(*Op) bool) {
		for i := range o.NumResults() {
			for u := o.result(i).first; u != nil; u = u.next {
				if !yield(u.owner) {
					return
				}
			}
		}
	}
}
