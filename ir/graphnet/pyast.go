package graphnet

// The syntax tree of the Python subset that GraphNet files use. Every node knows where it starts.

// expr is a Python expression.
type expr interface{ start() Pos }

type (
	// nameExpr is an identifier: x, paddle, True.
	nameExpr struct {
		pos Pos
		id  string
	}
	// numExpr is an integer or floating-point literal, kept as written.
	numExpr struct {
		pos     Pos
		text    string
		isFloat bool
	}
	// strExpr is a string literal (decoded).
	strExpr struct {
		pos   Pos
		value string
	}
	// attrExpr is x.name.
	attrExpr struct {
		x    expr
		name string
		pos  Pos // of the name
	}
	// callExpr is f(args, name=value).
	callExpr struct {
		fn       expr
		lparen   Pos
		args     []expr
		keywords []keyword
	}
	// listExpr is [a, b].
	listExpr struct {
		pos   Pos
		elems []expr
	}
	// tupleExpr is (a, b) or a, b.
	tupleExpr struct {
		pos   Pos
		elems []expr
	}
	// lambdaExpr is lambda a, b: body.
	lambdaExpr struct {
		pos    Pos
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
		pos  Pos // of the operator
		x, y expr
	}
	// unaryExpr is -x, +x, ~x or not x.
	unaryExpr struct {
		op  string
		pos Pos
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
	pos   Pos
	name  string
	value expr
}

func (e *nameExpr) start() Pos      { return e.pos }
func (e *numExpr) start() Pos       { return e.pos }
func (e *strExpr) start() Pos       { return e.pos }
func (e *attrExpr) start() Pos      { return e.x.start() }
func (e *callExpr) start() Pos      { return e.fn.start() }
func (e *listExpr) start() Pos      { return e.pos }
func (e *tupleExpr) start() Pos     { return e.pos }
func (e *lambdaExpr) start() Pos    { return e.pos }
func (e *condExpr) start() Pos      { return e.then.start() }
func (e *binExpr) start() Pos       { return e.x.start() }
func (e *unaryExpr) start() Pos     { return e.pos }
func (e *subscriptExpr) start() Pos { return e.x.start() }

// stmt is a Python statement. comments are the comment lines between the previous statement and this one.
type stmt interface {
	start() Pos
	leading() []comment
}

type stmtBase struct {
	pos      Pos
	comments []comment
}

func (s *stmtBase) start() Pos         { return s.pos }
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
	pos  Pos
	name string
}
