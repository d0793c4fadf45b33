package drr

// The parser allocates many small nodes. Allocating them from slabs (and
// building node slices in reusable scratch stacks, then copying them out at
// their final length) divides the number of heap allocations by about five,
// which matters because allocation and garbage collection dominate the cost
// of parsing large rule files.

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

// stack is a scratch stack used to build slices: push elements, then take
// the elements pushed since a mark as a new slice of exactly that length.
type stack[T any] struct {
	items []T
}

func (s *stack[T]) mark() int { return len(s.items) }

func (s *stack[T]) push(v T) { s.items = append(s.items, v) }

// take returns a copy of the elements pushed since mark m (nil if none) and
// pops them.
func (s *stack[T]) take(m int) []T {
	if len(s.items) == m {
		return nil
	}
	out := make([]T, len(s.items)-m)
	copy(out, s.items[m:])
	clear(s.items[m:])
	s.items = s.items[:m]
	return out
}

// reset pops everything above mark m (after an error).
func (s *stack[T]) reset(m int) {
	if len(s.items) > m {
		clear(s.items[m:])
		s.items = s.items[:m]
	}
}

// scratch holds the scratch stacks of the parser.
type scratch struct {
	exprs    stack[Expr]
	operands stack[Operand]
	entries  stack[*AttrEntry]
	results  stack[*Result]
	types    stack[TypePattern]
	pstmts   stack[*PatternStmt]
	rstmts   stack[RewriteStmt]
}

type scratchMarks [7]int

func (s *scratch) marks() scratchMarks {
	return scratchMarks{s.exprs.mark(), s.operands.mark(), s.entries.mark(), s.results.mark(),
		s.types.mark(), s.pstmts.mark(), s.rstmts.mark()}
}

func (s *scratch) reset(m scratchMarks) {
	s.exprs.reset(m[0])
	s.operands.reset(m[1])
	s.entries.reset(m[2])
	s.results.reset(m[3])
	s.types.reset(m[4])
	s.pstmts.reset(m[5])
	s.rstmts.reset(m[6])
}
