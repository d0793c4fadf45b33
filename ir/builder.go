package ir

import "unsafe"

// OpSpec describes an op to create: its name, operands (nil entries for absent optional operands), result types,
// attributes in the order they should keep, and the number of regions (each gets no blocks; add them).
type OpSpec struct {
	Name     string
	Operands []*Value
	Results  []Type
	Attrs    []NamedAttr
	Regions  int
	Loc      Loc
}

// NewOp creates a detached op from spec: its operands are linked into their values' use lists at once, so a
// detached op must be inserted (Builder.Insert) or destroyed (Rewriter.Erase). The op keeps spec.Attrs (the slice
// is not copied: ops never modify their attribute slice in place, so it may be shared).
func (c *Context) NewOp(spec OpSpec) *Op { return newOp(c, spec, nil) }

func newOp(c *Context, spec OpSpec, a *Allocator) *Op {
	var op *Op
	var uses []Use
	var info *OpInfo
	nres := len(spec.Results)
	if a != nil {
		info = a.opInfo(c, spec.Name)
		op = a.opRecord(nres)
		uses = a.useRun(len(spec.Operands))
	} else {
		info = c.OpInfo(spec.Name)
		op = &Op{}
		if len(spec.Operands) > 0 {
			uses = make([]Use, len(spec.Operands))
		}
		if nres > 1 {
			op.ext = &opExt{more: unsafe.SliceData(make([]extraResult, nres-1)), nMore: uint32(nres - 1)}
		}
	}
	op.fill(info, uses, spec.Operands, spec.Results, spec.Attrs, spec.Loc)
	if spec.Regions > 0 {
		regions := make([]*Region, spec.Regions)
		for i := range regions {
			regions[i] = &Region{op: op}
		}
		if op.ext == nil {
			op.ext = &opExt{}
		}
		op.ext.regions = regions
	}
	return op
}

// fill writes a new op's record: its kind, operand records (linked into their values' use lists), results,
// attributes and position. The record holds its further results already (nres > 1).
func (op *Op) fill(info *OpInfo, uses []Use, operands []*Value, results []Type, attrs []NamedAttr, loc Loc) {
	op.info, op.Loc = info, loc
	op.setOperandSlice(uses)
	for i, v := range operands {
		u := &uses[i]
		u.owner = op
		u.link(v)
	}
	if len(results) > 0 {
		op.nAttrs |= resultBit
		op.res = Value{typ: headOf(results[0])}
		more := op.moreResults()
		for i, t := range results[1:] {
			more[i] = extraResult{Value: Value{typ: headOf(t), index: int32(i + 1)}, def: op}
		}
	}
	op.setAttrSlice(attrs)
}

// Append creates an op without regions at the end of block b, from a's chunks: what Builder.Create does with the
// insertion point at the end of b and a as its allocator, without an OpSpec, a lookup of the op's name or a
// listener. It is for readers, which append every op of a program to its block; info is the op's kind
// (Context.OpInfo), and attrs is kept, not copied.
func (a *Allocator) Append(b *Block, info *OpInfo, operands []*Value, results []Type, attrs []NamedAttr, loc Loc) *Op {
	// A reader's ops come from the current chunks, nothing having been freed: taken here, without the calls.
	var op *Op
	if a.nFreeOps == 0 && len(a.ops) > 0 && len(results) <= 1 {
		op = &a.ops[0]
		a.ops = a.ops[1:]
	} else {
		op = a.opRecord(len(results))
	}
	var uses []Use
	if n := len(operands); n > 0 && n <= maxRun && a.nFreeUses == 0 && len(a.uses) >= n {
		uses = a.uses[:n:n]
		a.uses = a.uses[n:]
	} else {
		uses = a.useRun(n)
	}
	op.fill(info, uses, operands, results, attrs, loc)
	b.insertBefore(op, nil)
	return op
}

// Builder inserts new ops at an insertion point: before a given op, or at the end of a block. It is how readers
// and passes build programs; mutation of existing ops goes through a Rewriter, which embeds a Builder.
type Builder struct {
	Ctx    *Context
	block  *Block
	before *Op
	// Listener, if not nil, is told of every op the builder inserts.
	Listener Listener
	// Alloc, if not nil, is where Create allocates ops.
	Alloc *Allocator
}

// NewBuilder returns a builder with no insertion point.
func NewBuilder(ctx *Context) *Builder { return &Builder{Ctx: ctx} }

// SetInsertionPointToEnd makes the builder append to block b.
func (bl *Builder) SetInsertionPointToEnd(b *Block) { bl.block, bl.before = b, nil }

// SetInsertionPointToStart makes the builder insert at the start of block b.
func (bl *Builder) SetInsertionPointToStart(b *Block) { bl.block, bl.before = b, b.first }

// SetInsertionPointBefore makes the builder insert right before op.
func (bl *Builder) SetInsertionPointBefore(op *Op) { bl.block, bl.before = op.block, op }

// SetInsertionPointAfter makes the builder insert right after op.
func (bl *Builder) SetInsertionPointAfter(op *Op) { bl.block, bl.before = op.block, op.next }

// InsertionBlock returns the block the builder inserts into.
func (bl *Builder) InsertionBlock() *Block { return bl.block }

// InsertionPoint returns the op before which the builder inserts (nil: the end of the block).
func (bl *Builder) InsertionPoint() *Op { return bl.before }

// Insert links a detached op at the insertion point and returns it.
func (bl *Builder) Insert(op *Op) *Op {
	if bl.block == nil {
		panic("ir: Builder has no insertion point")
	}
	bl.block.insertBefore(op, bl.before)
	if bl.Listener != nil {
		bl.Listener.OpInserted(op)
	}
	return op
}

// Create creates an op from spec and inserts it at the insertion point.
func (bl *Builder) Create(spec OpSpec) *Op { return bl.Insert(newOp(bl.Ctx, spec, bl.Alloc)) }
