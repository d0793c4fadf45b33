package drr

// The parser allocates many small nodes. Allocating the most frequent ones
// from slabs cuts the number of heap allocations the tree costs, which
// matters because allocation and garbage collection dominate the cost of
// parsing large rule files.

// slab hands out pointers into chunks of T.
type slab[T any] struct {
	buf []T
}

// new returns a pointer to a zeroed T.
func (s *slab[T]) new() *T {
	if len(s.buf) == cap(s.buf) {
		n := min(max(2*cap(s.buf), 8), 256)
		s.buf = make([]T, 0, n)
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// nodeSlabs holds the slabs for the most frequent node types.
type nodeSlabs struct {
	basicLits     slab[BasicLit]
	valueExprs    slab[ValueExpr]
	holeExprs     slab[HoleExpr]
	nameExprs     slab[NameExpr]
	callExprs     slab[CallExpr]
	listExprs     slab[ListExpr]
	binaryExprs   slab[BinaryExpr]
	opNames       slab[OpName]
	attrMaps      slab[AttrMap]
	attrEntries   slab[AttrEntry]
	idents        slab[Ident]
	results       slab[Result]
	valueOperands slab[ValueOperand]
	opPatterns    slab[OpPattern]
	patternStmts  slab[PatternStmt]
	assignStmts   slab[AssignStmt]
	tensorTypes   slab[TensorType]
	dims          slab[Dim]
	dtypes        slab[Dtype]
}
