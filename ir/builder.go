package ir

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

// Allocator hands out ops, their operand records and their results from large chunks, so that building a big
// program costs a few allocations per thousand ops instead of several per op (readers use one per program). Ops
// from an allocator behave exactly like those of Context.NewOp. An Allocator is not safe for concurrent use.
type Allocator struct {
	ops  []Op
	uses []Use
	vals []Value
}

const allocChunk = 1024

// NewOp is Context.NewOp, allocating from a's chunks.
func (a *Allocator) NewOp(c *Context, spec OpSpec) *Op { return newOp(c, spec, a) }

func (a *Allocator) op() *Op {
	if len(a.ops) == 0 {
		a.ops = make([]Op, allocChunk)
	}
	op := &a.ops[0]
	a.ops = a.ops[1:]
	return op
}

func (a *Allocator) useSlice(n int) []Use {
	if n > allocChunk/4 {
		return make([]Use, n)
	}
	if len(a.uses) < n {
		a.uses = make([]Use, allocChunk)
	}
	s := a.uses[:n:n]
	a.uses = a.uses[n:]
	return s
}

func (a *Allocator) valueSlice(n int) []Value {
	if n > allocChunk/4 {
		return make([]Value, n)
	}
	if len(a.vals) < n {
		a.vals = make([]Value, allocChunk)
	}
	s := a.vals[:n:n]
	a.vals = a.vals[n:]
	return s
}

func newOp(c *Context, spec OpSpec, a *Allocator) *Op {
	var op *Op
	if a != nil {
		op = a.op()
		op.info, op.Loc = c.OpInfo(spec.Name), spec.Loc
		op.operands = a.useSlice(len(spec.Operands))
		op.results = a.valueSlice(len(spec.Results))
	} else {
		op = &Op{info: c.OpInfo(spec.Name), Loc: spec.Loc}
		op.operands = make([]Use, len(spec.Operands))
		op.results = make([]Value, len(spec.Results))
	}
	for i, v := range spec.Operands {
		u := &op.operands[i]
		u.owner = op
		u.index = int32(i)
		u.link(v)
	}
	for i, t := range spec.Results {
		op.results[i] = Value{typ: t, def: op, index: int32(i)}
	}
	if len(spec.Attrs) > 0 {
		op.attrs = spec.Attrs
	}
	for i := 0; i < spec.Regions; i++ {
		op.regions = append(op.regions, &Region{op: op})
	}
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
