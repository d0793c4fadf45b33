package graphnet

import "github.com/pirdrr/drr/ir"

// parser is a recursive-descent parser for the Python subset of GraphNet files: modules of imports, classes and
// functions; assignments, del, return, pass and expression statements; and expressions built from names,
// attributes, calls with positional and keyword arguments, lists, tuples, lambdas, conditional expressions,
// arithmetic, comparisons, boolean operators and subscripts. Anything else (if, for, with, decorators, *args, …) is
// an error at its position: GraphNet's captured forward functions are straight-line code.
type parser struct {
	lex      *lexer
	tok      token
	peekTok  token
	hasPeek  bool
	ncomment int   // comments already given to statements
	lastEnd  int32 // the last line of the previous statement
	prevLine int32 // the line of the token before tok
	err      *Error
	mem      *arena
	depth    int // nesting of expressions
}

// parseModule parses a whole Python file into mem, which holds the syntax tree until it is released.
func parseModule(file string, src []byte, mem *arena) ([]stmt, *Error) {
	p := &parser{lex: newLexer(file, string(src), mem.comments[:0]), mem: mem}
	defer func() { mem.comments = p.lex.comments }()
	p.advance()
	var body []stmt
	for p.err == nil && p.tok.kind != tEOF {
		if p.tok.kind == tNewline {
			p.advance()
			continue
		}
		s := p.statement()
		if s != nil {
			body = append(body, s)
		}
	}
	if p.err != nil {
		return nil, p.err
	}
	return body, nil
}

func (p *parser) advance() {
	p.prevLine = p.tok.pos.Line
	if p.hasPeek {
		p.tok, p.hasPeek = p.peekTok, false
	} else {
		p.tok = p.lex.next()
	}
	if p.lex.err != nil && p.err == nil {
		p.err = p.lex.err
	}
}

func (p *parser) peek() token {
	if !p.hasPeek {
		p.peekTok, p.hasPeek = p.lex.next(), true
		if p.lex.err != nil && p.err == nil {
			p.err = p.lex.err
		}
	}
	return p.peekTok
}

func (p *parser) failf(pos ir.Loc, format string, args ...any) {
	if p.err == nil {
		p.err = errorAt(p.lex.file, pos, format, args...)
	}
	p.tok = token{kind: tEOF, pos: pos}
	p.hasPeek = false
}

func (p *parser) isOp(s string) bool   { return p.tok.kind == tOp && p.tok.text == s }
func (p *parser) isName(s string) bool { return p.tok.kind == tName && p.tok.text == s }

func (p *parser) expectOp(s string) ir.Loc {
	pos := p.tok.pos
	if !p.isOp(s) {
		p.failf(pos, "expected '%s', found %s", s, p.tok.describe())
		return pos
	}
	p.advance()
	return pos
}

func (p *parser) expectName() (string, ir.Loc) {
	pos := p.tok.pos
	if p.tok.kind != tName || isKeyword(p.tok.text) {
		p.failf(pos, "expected a name, found %s", p.tok.describe())
		return "", pos
	}
	name := p.tok.text
	p.advance()
	return name, pos
}

func (p *parser) expectNewline() {
	if p.tok.kind == tNewline {
		p.advance()
		return
	}
	if p.tok.kind == tEOF || p.tok.kind == tDedent {
		return
	}
	p.failf(p.tok.pos, "expected the end of the statement, found %s", p.tok.describe())
}

var keywords = map[string]bool{"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true,
	"async": true, "await": true, "break": true, "class": true, "continue": true, "def": true, "del": true,
	"elif": true, "else": true, "except": true, "finally": true, "for": true, "from": true, "global": true,
	"if": true, "import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true,
	"pass": true, "raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true}

func isKeyword(s string) bool { return keywords[s] }

// takeComments returns the comments that lie before line and after the previous statement.
func (p *parser) takeComments(line int32) []comment {
	cs := p.lex.comments
	i := p.ncomment
	for i < len(cs) && cs[i].pos.Line <= p.lastEnd {
		i++
	}
	j := i
	for j < len(cs) && cs[j].pos.Line < line {
		j++
	}
	p.ncomment = j
	if i == j {
		return nil
	}
	return cs[i:j:j]
}

func (p *parser) statement() stmt {
	base := stmtBase{pos: p.tok.pos}
	base.comments = p.takeComments(base.pos.Line)
	var s stmt
	if p.tok.kind == tName {
		switch p.tok.text {
		case "class":
			return p.classDef(base)
		case "def":
			return p.funcDef(base)
		case "del":
			s = p.delStmt(base)
		case "return":
			p.advance()
			r := &returnStmt{stmtBase: base}
			if p.tok.kind != tNewline && p.tok.kind != tEOF {
				r.value = p.exprList()
			}
			p.expectNewline()
			s = r
		case "pass":
			p.advance()
			p.expectNewline()
			s = &passStmt{stmtBase: base}
		case "import", "from":
			s = p.importStmt(base)
		case "if", "elif", "else", "for", "while", "with", "try", "raise", "assert", "global", "nonlocal",
			"async", "yield", "break", "continue", "except", "finally":
			p.failf(base.pos, "unsupported statement '%s' (a GraphNet graph's forward is straight-line code)", p.tok.text)
			return nil
		}
	} else if p.isOp("@") {
		p.failf(base.pos, "decorators are not supported")
		return nil
	} else if p.tok.kind == tIndent {
		p.failf(base.pos, "unexpected indentation")
		return nil
	}
	if s == nil && p.err == nil {
		s = p.simpleStatement(base)
	}
	if s == nil || p.err != nil {
		return nil
	}
	p.lastEnd = p.prevLine // the line of the statement's NEWLINE
	return s
}

func (p *parser) simpleStatement(base stmtBase) stmt {
	x := p.exprList()
	if p.err != nil {
		return nil
	}
	if p.isOp("=") {
		p.advance()
		value := p.exprList()
		if p.isOp("=") {
			p.failf(p.tok.pos, "chained assignment is not supported")
			return nil
		}
		if err := checkTarget(x); err != nil {
			p.failf(err.start(), "cannot assign to this expression")
			return nil
		}
		p.expectNewline()
		a := p.mem.assigns.alloc()
		*a = assignStmt{stmtBase: base, target: x, value: value}
		return a
	}
	if p.tok.kind == tOp && len(p.tok.text) >= 2 && p.tok.text[len(p.tok.text)-1] == '=' &&
		p.tok.text != "==" && p.tok.text != "!=" && p.tok.text != "<=" && p.tok.text != ">=" {
		p.failf(p.tok.pos, "augmented assignment '%s' is not supported", p.tok.text)
		return nil
	}
	p.expectNewline()
	return &exprStmt{stmtBase: base, x: x}
}

// checkTarget returns nil if x can be assigned to (a name, an attribute, a subscript, or a tuple or list of
// targets), else the offending expression.
func checkTarget(x expr) expr {
	switch t := x.(type) {
	case *nameExpr:
		if isKeyword(t.id) {
			return t
		}
		return nil
	case *attrExpr, *subscriptExpr:
		return nil
	case *tupleExpr:
		for _, e := range t.elems {
			if bad := checkTarget(e); bad != nil {
				return bad
			}
		}
		return nil
	case *listExpr:
		for _, e := range t.elems {
			if bad := checkTarget(e); bad != nil {
				return bad
			}
		}
		return nil
	}
	return x
}

func (p *parser) delStmt(base stmtBase) stmt {
	p.advance()
	d := p.mem.dels.alloc()
	*d = delStmt{stmtBase: base}
	base0 := len(p.mem.scratch)
	for p.err == nil {
		x := p.expr()
		if bad := checkTarget(x); bad != nil && p.err == nil {
			p.failf(bad.start(), "cannot delete this expression")
			return nil
		}
		p.mem.scratch = append(p.mem.scratch, x)
		if !p.isOp(",") {
			break
		}
		p.advance()
		if p.tok.kind == tNewline || p.tok.kind == tEOF {
			break
		}
	}
	d.targets = p.mem.copyExprs(p.mem.scratch[base0:])
	p.mem.scratch = p.mem.scratch[:base0]
	p.expectNewline()
	return d
}

func (p *parser) importStmt(base stmtBase) stmt {
	s := &importStmt{stmtBase: base}
	dotted := func() string {
		name, _ := p.expectName()
		for p.err == nil && p.isOp(".") {
			p.advance()
			n, _ := p.expectName()
			name += "." + n
		}
		return name
	}
	if p.isName("from") {
		p.advance()
		s.from = dotted()
		if !p.isName("import") {
			p.failf(p.tok.pos, "expected 'import', found %s", p.tok.describe())
			return nil
		}
		p.advance()
		for p.err == nil {
			n, _ := p.expectName()
			s.names = append(s.names, n)
			if !p.isOp(",") {
				break
			}
			p.advance()
		}
	} else {
		p.advance()
		for p.err == nil {
			s.names = append(s.names, dotted())
			if !p.isOp(",") {
				break
			}
			p.advance()
		}
	}
	if p.isName("as") {
		p.failf(p.tok.pos, "import … as is not supported")
		return nil
	}
	p.expectNewline()
	return s
}

func (p *parser) block() []stmt {
	p.expectOp(":")
	if p.err != nil {
		return nil
	}
	if p.tok.kind != tNewline {
		p.failf(p.tok.pos, "expected a new line after ':' (one-line bodies are not supported)")
		return nil
	}
	p.advance()
	if p.tok.kind != tIndent {
		p.failf(p.tok.pos, "expected an indented block")
		return nil
	}
	p.advance()
	base := len(p.mem.stmts)
	for p.err == nil && p.tok.kind != tDedent && p.tok.kind != tEOF {
		if p.tok.kind == tNewline {
			p.advance()
			continue
		}
		if s := p.statement(); s != nil {
			p.mem.stmts = append(p.mem.stmts, s)
		}
	}
	if p.tok.kind == tDedent {
		p.advance()
	}
	body := append([]stmt(nil), p.mem.stmts[base:]...)
	clear(p.mem.stmts[base:])
	p.mem.stmts = p.mem.stmts[:base]
	return body
}

func (p *parser) classDef(base stmtBase) stmt {
	p.advance()
	c := &classDef{stmtBase: base}
	c.name, _ = p.expectName()
	if p.isOp("(") {
		p.advance()
		for p.err == nil && !p.isOp(")") {
			c.bases = append(c.bases, p.expr())
			if !p.isOp(",") {
				break
			}
			p.advance()
		}
		p.expectOp(")")
	}
	c.body = p.block()
	return c
}

func (p *parser) funcDef(base stmtBase) stmt {
	p.advance()
	f := &funcDef{stmtBase: base}
	f.name, _ = p.expectName()
	p.expectOp("(")
	for p.err == nil && !p.isOp(")") {
		if p.isOp("*") || p.isOp("**") {
			p.failf(p.tok.pos, "'%s' parameters are not supported (a GraphNet forward names each of its inputs)", p.tok.text)
			return nil
		}
		name, pos := p.expectName()
		if p.isOp("=") || p.isOp(":") {
			p.failf(p.tok.pos, "parameter defaults and annotations are not supported")
			return nil
		}
		f.params = append(f.params, param{pos: pos, name: name})
		if !p.isOp(",") {
			break
		}
		p.advance()
	}
	p.expectOp(")")
	if p.isOp("->") {
		p.failf(p.tok.pos, "return annotations are not supported")
		return nil
	}
	f.body = p.block()
	return f
}

// exprList parses one expression, or several separated by commas (a tuple without parentheses).
func (p *parser) exprList() expr {
	pos := p.tok.pos
	x := p.expr()
	if !p.isOp(",") {
		return x
	}
	t := &tupleExpr{pos: pos, elems: []expr{x}}
	for p.err == nil && p.isOp(",") {
		p.advance()
		if p.tok.kind == tNewline || p.tok.kind == tEOF || p.isOp("=") || p.isOp(")") {
			break
		}
		t.elems = append(t.elems, p.expr())
	}
	return t
}

// maxDepth bounds the nesting of expressions, so that hostile input cannot exhaust the stack.
const maxDepth = 200

// expr parses a lambda or a conditional expression.
func (p *parser) expr() expr {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		p.failf(p.tok.pos, "expressions nested more than %d deep", maxDepth)
		return &nameExpr{pos: p.tok.pos}
	}
	if p.isName("lambda") {
		return p.lambda()
	}
	x := p.orTest()
	if p.isName("if") {
		p.advance()
		cond := p.orTest()
		if !p.isName("else") {
			p.failf(p.tok.pos, "expected 'else', found %s", p.tok.describe())
			return x
		}
		p.advance()
		els := p.expr()
		return &condExpr{then: x, cond: cond, els: els}
	}
	return x
}

func (p *parser) lambda() expr {
	l := &lambdaExpr{pos: p.tok.pos}
	p.advance()
	for p.err == nil && !p.isOp(":") {
		name, _ := p.expectName()
		l.params = append(l.params, name)
		if !p.isOp(",") {
			break
		}
		p.advance()
	}
	p.expectOp(":")
	l.body = p.expr()
	return l
}

func (p *parser) orTest() expr {
	x := p.andTest()
	for p.err == nil && p.isName("or") {
		pos := p.tok.pos
		p.advance()
		x = &binExpr{op: "or", pos: pos, x: x, y: p.andTest()}
	}
	return x
}

func (p *parser) andTest() expr {
	x := p.notTest()
	for p.err == nil && p.isName("and") {
		pos := p.tok.pos
		p.advance()
		x = &binExpr{op: "and", pos: pos, x: x, y: p.notTest()}
	}
	return x
}

func (p *parser) notTest() expr {
	if p.isName("not") && p.depth < maxDepth {
		pos := p.tok.pos
		p.advance()
		return &unaryExpr{op: "not", pos: pos, x: p.notTest()}
	}
	return p.comparison()
}

func (p *parser) comparison() expr {
	x := p.binary(1)
	for p.err == nil {
		op := ""
		pos := p.tok.pos
		switch {
		case p.tok.kind == tOp && (p.tok.text == "<" || p.tok.text == ">" || p.tok.text == "==" ||
			p.tok.text == "!=" || p.tok.text == "<=" || p.tok.text == ">="):
			op = p.tok.text
			p.advance()
		case p.isName("in"):
			op = "in"
			p.advance()
		case p.isName("is"):
			p.advance()
			op = "is"
			if p.isName("not") {
				p.advance()
				op = "is not"
			}
		case p.isName("not") && p.peek().kind == tName && p.peek().text == "in":
			p.advance()
			p.advance()
			op = "not in"
		}
		if op == "" {
			return x
		}
		x = &binExpr{op: op, pos: pos, x: x, y: p.binary(1)}
	}
	return x
}

// binaryPrec is the binding power of a binary arithmetic operator (higher binds tighter), or 0.
func binaryPrec(t token) int {
	if t.kind != tOp {
		return 0
	}
	switch t.text {
	case "|":
		return 1
	case "^":
		return 2
	case "&":
		return 3
	case "<<", ">>":
		return 4
	case "+", "-":
		return 5
	case "*", "/", "//", "%", "@":
		return 6
	}
	return 0
}

// binary parses the binary arithmetic operators by precedence climbing: operators of binding power at least min.
func (p *parser) binary(min int) expr {
	x := p.unary()
	for p.err == nil {
		prec := binaryPrec(p.tok)
		if prec == 0 || prec < min {
			return x
		}
		op, pos := p.tok.text, p.tok.pos
		p.advance()
		x = &binExpr{op: op, pos: pos, x: x, y: p.binary(prec + 1)}
	}
	return x
}

func (p *parser) unary() expr {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		p.failf(p.tok.pos, "expressions nested more than %d deep", maxDepth)
		return &nameExpr{pos: p.tok.pos}
	}
	if p.tok.kind == tOp && (p.tok.text == "-" || p.tok.text == "+" || p.tok.text == "~") {
		op, pos := p.tok.text, p.tok.pos
		p.advance()
		return &unaryExpr{op: op, pos: pos, x: p.unary()}
	}
	x := p.postfix()
	if p.isOp("**") {
		pos := p.tok.pos
		p.advance()
		return &binExpr{op: "**", pos: pos, x: x, y: p.unary()}
	}
	return x
}

func (p *parser) postfix() expr {
	x := p.atom()
	for p.err == nil {
		switch {
		case p.isOp("."):
			p.advance()
			name, pos := p.expectName()
			a := p.mem.attrs.alloc()
			*a = attrExpr{x: x, name: name, pos: pos}
			x = a
		case p.isOp("("):
			x = p.call(x)
		case p.isOp("["):
			p.advance()
			idx := p.exprList()
			p.expectOp("]")
			x = &subscriptExpr{x: x, index: idx}
		default:
			return x
		}
	}
	return x
}

func (p *parser) call(fn expr) expr {
	c := p.mem.calls.alloc()
	*c = callExpr{fn: fn, lparen: p.tok.pos}
	p.advance()
	base := len(p.mem.scratch)
	defer func() {
		c.args = p.mem.copyExprs(p.mem.scratch[base:])
		p.mem.scratch = p.mem.scratch[:base]
	}()
	for p.err == nil && !p.isOp(")") {
		if p.isOp("*") || p.isOp("**") {
			p.failf(p.tok.pos, "%s arguments are not supported", p.tok.text)
			return c
		}
		if p.tok.kind == tName && p.peek().kind == tOp && p.peek().text == "=" {
			kw := keyword{pos: p.tok.pos, name: p.tok.text}
			p.advance()
			p.advance()
			kw.value = p.expr()
			c.keywords = append(c.keywords, kw)
		} else {
			if len(c.keywords) > 0 {
				p.failf(p.tok.pos, "positional argument after a keyword argument")
				return c
			}
			x := p.expr()
			p.mem.scratch = append(p.mem.scratch, x)
		}
		if !p.isOp(",") {
			break
		}
		p.advance()
	}
	p.expectOp(")")
	return c
}

func (p *parser) atom() expr {
	t := p.tok
	switch t.kind {
	case tName:
		if isKeyword(t.text) && t.text != "True" && t.text != "False" && t.text != "None" {
			p.failf(t.pos, "unexpected '%s'", t.text)
			return &nameExpr{pos: t.pos}
		}
		p.advance()
		n := p.mem.names.alloc()
		*n = nameExpr{pos: t.pos, id: t.text}
		return n
	case tInt, tFloat:
		p.advance()
		n := p.mem.nums.alloc()
		*n = numExpr{pos: t.pos, text: t.text, isFloat: t.kind == tFloat}
		return n
	case tString:
		p.advance()
		s := p.mem.strs.alloc()
		*s = strExpr{pos: t.pos, value: t.text}
		for p.tok.kind == tString { // adjacent literals concatenate
			s.value += p.tok.text
			p.advance()
		}
		return s
	case tOp:
		switch t.text {
		case "(":
			p.advance()
			if p.isOp(")") {
				p.advance()
				return &tupleExpr{pos: t.pos}
			}
			x := p.expr()
			if p.isOp(",") {
				tu := &tupleExpr{pos: t.pos, elems: []expr{x}}
				for p.err == nil && p.isOp(",") {
					p.advance()
					if p.isOp(")") {
						break
					}
					tu.elems = append(tu.elems, p.expr())
				}
				x = tu
			}
			p.expectOp(")")
			return x
		case "[":
			start := -1
			if !p.hasPeek {
				start = p.lex.off - 1 // the lexer is just past '['
			}
			p.advance()
			l := p.mem.lists.alloc()
			*l = listExpr{pos: t.pos}
			base := len(p.mem.scratch)
			for p.err == nil && !p.isOp("]") {
				x := p.expr()
				p.mem.scratch = append(p.mem.scratch, x)
				if !p.isOp(",") {
					break
				}
				p.advance()
			}
			l.elems = p.mem.copyExprs(p.mem.scratch[base:])
			p.mem.scratch = p.mem.scratch[:base]
			if p.isOp("]") && !p.hasPeek && start >= 0 && start < p.lex.off {
				l.src = p.lex.src[start:p.lex.off]
			}
			p.expectOp("]")
			return l
		case "{":
			p.advance()
			d := &dictExpr{pos: t.pos}
			for p.err == nil && !p.isOp("}") {
				d.keys = append(d.keys, p.expr())
				p.expectOp(":")
				d.values = append(d.values, p.expr())
				if !p.isOp(",") {
					break
				}
				p.advance()
			}
			p.expectOp("}")
			return d
		}
	}
	p.failf(t.pos, "expected an expression, found %s", t.describe())
	return &nameExpr{pos: t.pos}
}
