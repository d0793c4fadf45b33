package graphnet

import (
	"sync"

	"github.com/pirdrr/drr/ir"
)

// The syntax tree of the Python subset that GraphNet files use. Every node knows where it starts.

// expr is a Python expression.
type expr interface{ start() ir.Loc }

type (
	// nameExpr is an identifier: x, paddle, True.
	nameExpr struct {
		pos ir.Loc
		id  string
	}
	// numExpr is an integer or floating-point literal, kept as written.
	numExpr struct {
		pos     ir.Loc
		text    string
		isFloat bool
	}
	// strExpr is a string literal (decoded).
	strExpr struct {
		pos   ir.Loc
		value string
	}
	// attrExpr is x.name.
	attrExpr struct {
		x    expr
		name string
		pos  ir.Loc // of the name
	}
	// callExpr is f(args, name=value).
	callExpr struct {
		fn       expr
		lparen   ir.Loc
		args     []expr
		keywords []keyword
	}
	// listExpr is [a, b]. src is its source text, brackets included.
	listExpr struct {
		pos   ir.Loc
		elems []expr
		src   string
	}
	// tupleExpr is (a, b) or a, b.
	tupleExpr struct {
		pos   ir.Loc
		elems []expr
	}
	// dictExpr is {k: v, …} (module-level tables in meta files of samples that carry their program in
	// graph_net.json; never an op's argument).
	dictExpr struct {
		pos          ir.Loc
		keys, values []expr
	}
	// lambdaExpr is lambda a, b: body.
	lambdaExpr struct {
		pos    ir.Loc
		params []string
		body   expr
	}
	// condExpr is a if cond else b.
	condExpr struct {
		then, cond, els expr
	}
	// binExpr is x op y for the arithmetic, comparison and boolean operators (op is "and", "or", "is", "not in", …).
	binExpr struct {
		op   string
		pos  ir.Loc // of the operator
		x, y expr
	}
	// unaryExpr is -x, +x, ~x or not x.
	unaryExpr struct {
		op  string
		pos ir.Loc
		x   expr
	}
	// subscriptExpr is x[index].
	subscriptExpr struct {
		x     expr
		index expr
	}
)

// keyword is one keyword argument of a call.
type keyword struct {
	pos   ir.Loc
	name  string
	value expr
}

func (e *nameExpr) start() ir.Loc      { return e.pos }
func (e *numExpr) start() ir.Loc       { return e.pos }
func (e *strExpr) start() ir.Loc       { return e.pos }
func (e *attrExpr) start() ir.Loc      { return e.x.start() }
func (e *callExpr) start() ir.Loc      { return e.fn.start() }
func (e *listExpr) start() ir.Loc      { return e.pos }
func (e *tupleExpr) start() ir.Loc     { return e.pos }
func (e *dictExpr) start() ir.Loc      { return e.pos }
func (e *lambdaExpr) start() ir.Loc    { return e.pos }
func (e *condExpr) start() ir.Loc      { return e.then.start() }
func (e *binExpr) start() ir.Loc       { return e.x.start() }
func (e *unaryExpr) start() ir.Loc     { return e.pos }
func (e *subscriptExpr) start() ir.Loc { return e.x.start() }

// stmt is a Python statement. comments are the comment lines between the previous statement and this one.
type stmt interface {
	start() ir.Loc
	leading() []comment
}

type stmtBase struct {
	pos      ir.Loc
	comments []comment
}

func (s *stmtBase) start() ir.Loc      { return s.pos }
func (s *stmtBase) leading() []comment { return s.comments }

type (
	// assignStmt is target = value (one target: a name, a tuple or list of names, or an attribute).
	assignStmt struct {
		stmtBase
		target, value expr
	}
	// delStmt is del a, b.
	delStmt struct {
		stmtBase
		targets []expr
	}
	// returnStmt is return or return value.
	returnStmt struct {
		stmtBase
		value expr // nil for a bare return
	}
	// exprStmt is an expression used as a statement (a call).
	exprStmt struct {
		stmtBase
		x expr
	}
	// passStmt is pass.
	passStmt struct{ stmtBase }
	// importStmt is import a.b or from a.b import c, d.
	importStmt struct {
		stmtBase
		from  string
		names []string
	}
	// classDef is class Name(bases): body.
	classDef struct {
		stmtBase
		name  string
		bases []expr
		body  []stmt
	}
	// funcDef is def name(params): body.
	funcDef struct {
		stmtBase
		name   string
		params []param
		body   []stmt
	}
)

// param is a parameter of a def.
type param struct {
	pos  ir.Loc
	name string
}

// slab hands out values of T from large chunks: the parser allocates its many small nodes this way, a few
// allocations per thousand nodes instead of one each, and reuses the chunks for the next file (see arena).
type slab[T any] struct {
	chunks [][]T
	ci, i  int // the current chunk and the next free index in it
}

const slabChunk = 512

func (s *slab[T]) alloc() *T {
	if s.ci < len(s.chunks) && s.i == len(s.chunks[s.ci]) {
		s.ci, s.i = s.ci+1, 0
	}
	if s.ci == len(s.chunks) {
		s.chunks = append(s.chunks, make([]T, slabChunk))
		s.i = 0
	}
	x := &s.chunks[s.ci][s.i]
	s.i++
	return x
}

// reset zeroes what was handed out (dropping its references) and makes it free again.
func (s *slab[T]) reset() {
	for k := 0; k < s.ci && k < len(s.chunks); k++ {
		clear(s.chunks[k])
	}
	if s.ci < len(s.chunks) {
		clear(s.chunks[s.ci][:s.i])
	}
	s.ci, s.i = 0, 0
}

// arena holds the memory of one parse: the slabs of the syntax tree's nodes, the expression slices of calls, lists
// and tuples, and the lexer's comments. Decode returns it to arenaPool when the program is built, so that reading
// many graphs reuses the same memory instead of making the garbage collector reclaim each tree.
type arena struct {
	names    slab[nameExpr]
	attrs    slab[attrExpr]
	calls    slab[callExpr]
	nums     slab[numExpr]
	strs     slab[strExpr]
	lists    slab[listExpr]
	tuples   slab[tupleExpr]
	assigns  slab[assignStmt]
	dels     slab[delStmt]
	exprs    slab[[64]expr]
	exprLeft []expr // the unused part of the current exprs chunk
	comments []comment
	scratch  []expr
	stmts    []stmt // a stack for the statements of the blocks being parsed
}

var arenaPool = sync.Pool{New: func() any { return new(arena) }}

func getArena() *arena { return arenaPool.Get().(*arena) }

// release zeroes the arena and returns it to the pool; nothing parsed with it may be used afterwards.
func (a *arena) release() {
	a.names.reset()
	a.attrs.reset()
	a.calls.reset()
	a.nums.reset()
	a.strs.reset()
	a.lists.reset()
	a.tuples.reset()
	a.assigns.reset()
	a.dels.reset()
	a.exprs.reset()
	a.exprLeft = nil
	clear(a.comments)
	a.comments = a.comments[:0]
	clear(a.scratch)
	a.scratch = a.scratch[:0]
	clear(a.stmts)
	a.stmts = a.stmts[:0]
	arenaPool.Put(a)
}

// copyExprs copies xs into the arena and returns the copy (with no spare capacity).
func (a *arena) copyExprs(xs []expr) []expr {
	n := len(xs)
	if n == 0 {
		return nil
	}
	if n > 64 {
		return append([]expr(nil), xs...)
	}
	if len(a.exprLeft) < n {
		a.exprLeft = a.exprs.alloc()[:]
	}
	out := a.exprLeft[:n:n]
	copy(out, xs)
	a.exprLeft = a.exprLeft[n:]
	return out
}
