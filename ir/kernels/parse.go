package kernels

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

// Parse parses a kernel table and checks it against the op schemas of ctx: every op it names must be declared,
// every %name an operand or result of each op of its entry, every $name an attribute of each (or a runtime
// attribute the table declares). Errors are positioned: "file:line:col: message".
//
// The format (see the package documentation for an example):
//
//	kernels TARGET                       gpu or cpu
//	runtime NAME, …                      attributes any op may carry at run time (force_backend)
//	/// doc
//	op NAME, …                           the ops of an entry (relu and relu_ share their kernels)
//	    key(%x)                          the tensor whose data type selects the kernel
//	    source "paddle/phi/…"            the Paddle file the entry comes from
//	    instruction "why"                the executor runs the op itself
//	    unsupported "why"                Paddle has no kernel for the op on the target
//	    require NAME: EXPR "message" [source "…"]
//	    kernel NAME [if(EXPR)]           a kernel; the clauses after it are the kernel's
//	    dtypes(float32, …)               the data types a kernel registers (dtypes(any): every type)
//
// An entry without kernel clauses has one kernel, made of its dtypes, source and requires.
func Parse(ctx *ir.Context, filename string, src []byte) (*Table, error) {
	p := &parser{ctx: ctx, lex: lexer{file: filename, src: src, line: 1, col: 1}}
	p.next()
	t, err := p.table()
	if err != nil {
		return nil, err
	}
	return t, nil
}

type tok struct {
	kind byte // 'i' identifier (dots allowed inside: pd_op.relu), 'n' number, 's' string, 'd' doc, 0 EOF, else punctuation ('&' &&, '|' ||, '=' ==, '!' ! or !=, '<' '>' with '=' in text)
	text string
	pos  diag.Position
}

type lexer struct {
	file      string
	src       []byte
	off       int
	line, col int
}

func (l *lexer) errorf(pos diag.Position, format string, args ...any) error {
	return fmt.Errorf("%s:%d:%d: %s", pos.Filename, pos.Line, pos.Column, fmt.Sprintf(format, args...))
}

func (l *lexer) advance(n int) {
	for i := 0; i < n && l.off < len(l.src); i++ {
		if l.src[l.off] == '\n' {
			l.line++
			l.col = 1
		} else {
			l.col++
		}
		l.off++
	}
}

func identStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func identChar(c byte) bool  { return identStart(c) || c >= '0' && c <= '9' }

func (l *lexer) scan() (tok, error) {
	for l.off < len(l.src) {
		c := l.src[l.off]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			l.advance(1)
			continue
		}
		if c == '/' && l.off+1 < len(l.src) && l.src[l.off+1] == '/' {
			pos := diag.Position{Filename: l.file, Offset: l.off, Line: l.line, Column: l.col}
			end := l.off
			for end < len(l.src) && l.src[end] != '\n' {
				end++
			}
			text := string(l.src[l.off:end])
			l.advance(end - l.off)
			if strings.HasPrefix(text, "///") {
				return tok{kind: 'd', text: strings.TrimSpace(text[3:]), pos: pos}, nil
			}
			continue
		}
		break
	}
	pos := diag.Position{Filename: l.file, Offset: l.off, Line: l.line, Column: l.col}
	if l.off >= len(l.src) {
		return tok{pos: pos}, nil
	}
	s := l.src[l.off:]
	c := s[0]
	switch {
	case identStart(c):
		n := 1
		for n < len(s) && (identChar(s[n]) || s[n] == '.' && n+1 < len(s) && identStart(s[n+1])) {
			n++
		}
		l.advance(n)
		return tok{kind: 'i', text: string(s[:n]), pos: pos}, nil
	case c >= '0' && c <= '9':
		n := 1
		for n < len(s) && (s[n] >= '0' && s[n] <= '9' || s[n] == '.' || s[n] == 'e' || s[n] == 'E' ||
			(s[n] == '-' || s[n] == '+') && (s[n-1] == 'e' || s[n-1] == 'E')) {
			n++
		}
		l.advance(n)
		return tok{kind: 'n', text: string(s[:n]), pos: pos}, nil
	case c == '"':
		var b strings.Builder
		n := 1
		for {
			if n >= len(s) || s[n] == '\n' {
				return tok{}, l.errorf(pos, "unterminated string")
			}
			if s[n] == '"' {
				break
			}
			if s[n] == '\\' && n+1 < len(s) {
				b.WriteByte(s[n+1])
				n += 2
				continue
			}
			b.WriteByte(s[n])
			n++
		}
		l.advance(n + 1)
		return tok{kind: 's', text: b.String(), pos: pos}, nil
	}
	two := ""
	if len(s) >= 2 {
		two = string(s[:2])
	}
	switch two {
	case "&&", "||", "==", "!=", "<=", ">=":
		l.advance(2)
		return tok{kind: two[0], text: two, pos: pos}, nil
	}
	if strings.IndexByte("(),:?[]!<>+-*/%$", c) >= 0 {
		l.advance(1)
		return tok{kind: c, text: string(c), pos: pos}, nil
	}
	if c == '%' {
		l.advance(1)
		return tok{kind: c, text: "%", pos: pos}, nil
	}
	return tok{}, l.errorf(pos, "unexpected character %q", c)
}

type parser struct {
	ctx  *ir.Context
	lex  lexer
	tok  tok
	err  error
	docs []string
	// entry is the entry being parsed, for the checks of its expressions.
	entry   *Entry
	runtime map[string]bool
	// depth is the nesting of the expression being parsed.
	depth int
}

func (p *parser) next() {
	if p.err != nil {
		return
	}
	for {
		t, err := p.lex.scan()
		if err != nil {
			p.err = err
			p.tok = tok{}
			return
		}
		if t.kind == 'd' {
			p.docs = append(p.docs, t.text)
			continue
		}
		p.tok = t
		return
	}
}

func (p *parser) failAt(pos diag.Position, format string, args ...any) error {
	if p.err == nil {
		p.err = p.lex.errorf(pos, format, args...)
	}
	return p.err
}

func (p *parser) fail(format string, args ...any) error { return p.failAt(p.tok.pos, format, args...) }

func describe(t tok) string {
	switch t.kind {
	case 0:
		return "end of file"
	case 'i':
		return strconv.Quote(t.text)
	case 'n':
		return "number " + t.text
	case 's':
		return "string " + strconv.Quote(t.text)
	}
	return "'" + t.text + "'"
}

func (p *parser) is(kind byte, text string) bool {
	return p.err == nil && p.tok.kind == kind && (text == "" || p.tok.text == text)
}

func (p *parser) expect(kind byte, what string) tok {
	if p.err != nil {
		return tok{}
	}
	if p.tok.kind != kind {
		p.fail("expected %s, found %s", what, describe(p.tok))
		return tok{}
	}
	t := p.tok
	p.next()
	return t
}

func (p *parser) keyword(word string) bool {
	if p.is('i', word) {
		p.next()
		return true
	}
	return false
}

// clauses are the words that start a clause of an entry (or a new entry).
var clauses = map[string]bool{"op": true, "key": true, "source": true, "instruction": true, "unsupported": true,
	"require": true, "kernel": true, "dtypes": true}

func (p *parser) table() (*Table, error) {
	p.docs = nil
	if !p.keyword("kernels") {
		return nil, p.fail("a kernel table starts with 'kernels TARGET' (gpu or cpu), found %s", describe(p.tok))
	}
	target := p.expect('i', "the target (gpu or cpu)")
	if p.err == nil && target.text != "gpu" && target.text != "cpu" {
		return nil, p.failAt(target.pos, "unknown target %q: a kernel table is for gpu or cpu", target.text)
	}
	t := &Table{Target: target.text, File: p.lex.file, byOp: map[string]*Entry{}}
	p.runtime = map[string]bool{}
	for p.keyword("runtime") {
		for {
			name := p.expect('i', "the name of a runtime attribute")
			if p.err != nil {
				return nil, p.err
			}
			p.runtime[name.text] = true
			t.Runtime = append(t.Runtime, name.text)
			if !p.is(',', "") {
				break
			}
			p.next()
		}
	}
	for p.err == nil && p.tok.kind != 0 {
		e := p.parseEntry()
		if p.err != nil {
			return nil, p.err
		}
		for _, op := range e.Ops {
			if prev, dup := t.byOp[op]; dup {
				return nil, p.failAt(e.Pos, "op %s is listed twice (first at %s)", op, prev.Pos)
			}
			t.byOp[op] = e
		}
		t.Entries = append(t.Entries, e)
	}
	return t, p.err
}

func (p *parser) parseEntry() *Entry {
	doc := strings.Join(p.docs, "\n")
	p.docs = nil
	at := p.tok.pos
	if !p.keyword("op") {
		p.fail("expected 'op', found %s", describe(p.tok))
		return nil
	}
	e := &Entry{Doc: doc, Pos: at}
	p.entry = e
	defer func() { p.entry = nil }()
	for {
		name := p.expect('i', "an op name (pd_op.relu)")
		if p.err != nil {
			return nil
		}
		p.checkOp(name)
		e.Ops = append(e.Ops, name.text)
		if !p.is(',', "") {
			break
		}
		p.next()
	}
	var (
		cur      *Kernel // the kernel the clauses belong to; nil before the first kernel clause
		implicit Kernel  // the clauses of an entry without kernel clauses
		kinded   bool    // instruction or unsupported given
	)
	for p.err == nil && p.tok.kind == 'i' && clauses[p.tok.text] && p.tok.text != "op" {
		word := p.tok
		p.next()
		switch word.text {
		case "key":
			if cur != nil || e.Key != "" {
				p.failAt(word.pos, "key is given once per entry, before its kernels")
				break
			}
			p.expect('(', "'('")
			ref := p.valueRef()
			p.expect(')', "')'")
			if ref != nil {
				e.Key = ref.name
			}
		case "source":
			s := p.expect('s', "the Paddle source file, a string")
			switch {
			case cur != nil:
				cur.Source = s.text
			default:
				e.Source = s.text
			}
		case "instruction", "unsupported":
			if kinded || cur != nil || len(implicit.DTypes) > 0 || implicit.AnyDType || len(implicit.Requires) > 0 {
				p.failAt(word.pos, "%s is an entry of its own: no kernels, dtypes or requires beside it", word.text)
				break
			}
			kinded = true
			e.Kind = Instruction
			if word.text == "unsupported" {
				e.Kind = Unsupported
			}
			e.Reason = p.expect('s', "why, a string").text
		case "dtypes":
			k := cur
			if k == nil {
				k = &implicit
			}
			if kinded {
				p.failAt(word.pos, "an entry that is instruction or unsupported has no dtypes")
				break
			}
			if len(k.DTypes) > 0 || k.AnyDType {
				p.failAt(word.pos, "dtypes given twice")
				break
			}
			p.dtypes(k)
		case "require":
			if kinded {
				p.failAt(word.pos, "an entry that is instruction or unsupported has no requires")
				break
			}
			r := p.require(word.pos)
			switch {
			case r == nil:
			case cur != nil:
				cur.Requires = append(cur.Requires, r)
			default:
				implicit.Requires = append(implicit.Requires, r)
			}
		case "kernel":
			if kinded {
				p.failAt(word.pos, "an entry that is instruction or unsupported has no kernels")
				break
			}
			if cur == nil && (len(implicit.DTypes) > 0 || implicit.AnyDType) {
				p.failAt(word.pos, "dtypes before the first kernel clause belong to no kernel: give them after it")
				break
			}
			name := p.expect('i', "the kernel's name (cudnn, cutlass, …)")
			k := &Kernel{Name: name.text, Pos: word.pos}
			for _, prev := range e.Kernels {
				if prev.Name == k.Name {
					p.failAt(name.pos, "kernel %s is given twice", k.Name)
				}
				if prev.If == nil {
					p.failAt(word.pos, "kernel %s can never be chosen: kernel %s before it has no if", k.Name, prev.Name)
				}
			}
			if p.keyword("if") {
				p.expect('(', "'('")
				k.If = p.expr()
				p.expect(')', "')'")
			}
			e.Kernels = append(e.Kernels, k)
			cur = k
		}
	}
	if p.err != nil {
		return nil
	}
	if p.tok.kind != 0 && !p.is('i', "op") {
		p.fail("expected a clause (key, source, dtypes, require, kernel, instruction, unsupported) or the next op, found %s", describe(p.tok))
		return nil
	}
	if e.Kind != Kernels {
		return e
	}
	if len(e.Kernels) == 0 {
		implicit.Pos = e.Pos
		e.Kernels = []*Kernel{&implicit}
	} else {
		// Requires before the first kernel clause hold for every kernel.
		e.Requires = implicit.Requires
	}
	for _, k := range e.Kernels {
		if len(k.DTypes) == 0 && !k.AnyDType {
			p.failAt(k.Pos, "kernel of %s without dtypes(…)", e.Ops[0])
			return nil
		}
		if k.Source == "" {
			k.Source = e.Source
		}
		if k.Source == "" {
			p.failAt(k.Pos, "%s: no source: every entry cites the Paddle file it comes from", e.Ops[0])
			return nil
		}
		for _, r := range k.Requires {
			if r.Source == "" {
				r.Source = k.Source
			}
		}
	}
	for _, r := range e.Requires {
		if r.Source == "" {
			r.Source = e.Source
		}
	}
	return e
}

// checkOp reports an op name the context does not declare.
func (p *parser) checkOp(name tok) {
	if p.ctx == nil {
		return
	}
	if p.ctx.Schema(name.text) == nil {
		p.failAt(name.pos, "unknown op %s (no catalog declares it)", name.text)
	}
}

// dtypes parses a dtypes(…) clause into k: the data types, or any (a kernel registered for every type).
func (p *parser) dtypes(k *Kernel) {
	p.expect('(', "'('")
	if p.is('i', "any") {
		p.next()
		p.expect(')', "')' after any")
		k.AnyDType = true
		return
	}
	var out []ir.DType
	for p.err == nil {
		t := p.expect('i', "a data type (float32, int64, …) or any")
		d, ok := ir.DTypeFromDataType(t.text)
		if p.err == nil && !ok {
			p.failAt(t.pos, "unknown data type %q (Paddle's names: float32, float16, bfloat16, int64, bool, …)", t.text)
		}
		out = append(out, d)
		if !p.is(',', "") {
			break
		}
		p.next()
	}
	p.expect(')', "')'")
	k.DTypes = out
}

func (p *parser) require(at diag.Position) *Require {
	name := p.expect('i', "the constraint's name")
	p.expect(':', "':'")
	r := &Require{Name: name.text, Pos: at}
	r.Cond = p.expr()
	msg := p.expect('s', "the message of a finding, a string")
	if p.err != nil {
		return nil
	}
	r.Message = p.message(msg)
	if p.keyword("source") {
		r.Source = p.expect('s', "the Paddle source file, a string").text
	}
	return r
}

// message parses the {expressions} of a message string.
func (p *parser) message(t tok) *Message {
	m := &Message{}
	rest := t.text
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			m.parts = append(m.parts, rest)
			return m
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			p.failAt(t.pos, "message: '{' without '}'")
			return m
		}
		m.parts = append(m.parts, rest[:i])
		// The expression's columns: after the quote, the text before it and the brace (messages have no escapes
		// before their expressions that would shift them; if one does, the column is approximate).
		col := t.pos.Column + 1 + (len(t.text) - len(rest)) + i + 1
		sub := &parser{ctx: p.ctx, entry: p.entry, runtime: p.runtime,
			lex: lexer{file: t.pos.Filename, src: []byte(rest[i+1 : i+j]), line: t.pos.Line, col: col}}
		sub.next()
		x := sub.expr()
		if sub.err == nil && sub.tok.kind != 0 {
			sub.fail("unexpected %s in the message's {…}", describe(sub.tok))
		}
		if sub.err != nil {
			p.err = sub.err
			return m
		}
		m.exprs = append(m.exprs, x)
		rest = rest[i+j+1:]
	}
}

// Expressions, loosest binding first.

func (p *parser) expr() Expr {
	if p.err != nil {
		return &lit{at: p.tok.pos, v: unknown}
	}
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		p.fail("expression nested more than %d deep", maxDepth)
		return &lit{at: p.tok.pos, v: unknown}
	}
	c := p.or()
	if p.is('?', "") {
		at := p.tok.pos
		p.next()
		then := p.expr()
		p.expect(':', "':' of ?:")
		elze := p.expr()
		return &cond{at: at, c: c, then: then, elze: elze}
	}
	return c
}

func (p *parser) or() Expr {
	x := p.and()
	for p.is('|', "||") {
		at := p.tok.pos
		p.next()
		x = &binary{at: at, op: "||", x: x, y: p.and()}
	}
	return x
}

func (p *parser) and() Expr {
	x := p.not()
	for p.is('&', "&&") {
		at := p.tok.pos
		p.next()
		x = &binary{at: at, op: "&&", x: x, y: p.not()}
	}
	return x
}

func (p *parser) not() Expr {
	if p.is('!', "!") && p.depth < maxDepth {
		p.depth++
		defer func() { p.depth-- }()
		at := p.tok.pos
		p.next()
		return &unary{at: at, op: "!", x: p.not()}
	}
	return p.cmp()
}

func (p *parser) cmp() Expr {
	x := p.add()
	if p.err != nil {
		return x
	}
	switch {
	case p.tok.kind == '=' || p.tok.kind == '!' && p.tok.text == "!=" || p.tok.kind == '<' || p.tok.kind == '>' || p.is('i', "in"):
		op, at := p.tok.text, p.tok.pos
		p.next()
		return &binary{at: at, op: op, x: x, y: p.add()}
	}
	return x
}

func (p *parser) add() Expr {
	x := p.mul()
	for p.is('+', "") || p.is('-', "") {
		op, at := p.tok.text, p.tok.pos
		p.next()
		x = &binary{at: at, op: op, x: x, y: p.mul()}
	}
	return x
}

func (p *parser) mul() Expr {
	x := p.unaryExpr()
	for p.is('*', "") || p.is('/', "") || p.is('%', "") && p.percentIsOperator() {
		op, at := p.tok.text, p.tok.pos
		p.next()
		x = &binary{at: at, op: op, x: x, y: p.unaryExpr()}
	}
	return x
}

// percentIsOperator tells the remainder operator from a %value: a value reference follows without a space.
func (p *parser) percentIsOperator() bool {
	off := p.lex.off
	return off >= len(p.lex.src) || !identStart(p.lex.src[off])
}

func (p *parser) unaryExpr() Expr {
	if p.is('-', "") && p.depth < maxDepth {
		p.depth++
		defer func() { p.depth-- }()
		at := p.tok.pos
		p.next()
		return &unary{at: at, op: "-", x: p.unaryExpr()}
	}
	x := p.primary()
	for p.is('[', "") {
		at := p.tok.pos
		p.next()
		i := p.expr()
		p.expect(']', "']'")
		x = &index{at: at, x: x, i: i}
	}
	return x
}

// maxDepth bounds the nesting of expressions, so that no input exhausts the stack.
const maxDepth = 100

func (p *parser) primary() Expr {
	t := p.tok
	if p.err != nil {
		return &lit{at: t.pos, v: unknown}
	}
	switch t.kind {
	case 'n':
		p.next()
		if i, err := strconv.ParseInt(t.text, 10, 64); err == nil {
			return &lit{at: t.pos, v: i}
		}
		f, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			p.failAt(t.pos, "bad number %s", t.text)
		}
		return &lit{at: t.pos, v: f}
	case 's':
		p.next()
		return &lit{at: t.pos, v: t.text}
	case '$':
		p.next()
		name := p.expect('i', "an attribute name after '$'")
		p.checkAttr(name)
		return &attrRef{at: t.pos, name: name.text}
	case '%':
		ref := p.valueRef()
		if ref != nil {
			p.failAt(t.pos, "%%%s is a tensor: use it in dtype(…), rank(…), dim(…) or present(…)", ref.name)
		}
		return &lit{at: t.pos, v: unknown}
	case '(':
		p.next()
		x := p.expr()
		p.expect(')', "')'")
		return x
	case '[':
		p.next()
		l := &list{at: t.pos}
		for p.err == nil && !p.is(']', "") {
			l.elems = append(l.elems, p.expr())
			if !p.is(',', "") {
				break
			}
			p.next()
		}
		p.expect(']', "']'")
		return l
	case 'i':
		p.next()
		switch t.text {
		case "true", "false":
			return &lit{at: t.pos, v: t.text == "true"}
		case "sm":
			return &smRef{at: t.pos}
		}
		if fn, ok := functions[t.text]; ok && p.is('(', "") {
			p.next()
			c := &call{at: t.pos, fn: fn.kind}
			for i := 0; i < fn.arity && p.err == nil; i++ {
				if i > 0 {
					p.expect(',', "','")
				}
				if i == 0 && fn.tensor {
					if ref := p.valueRef(); ref != nil {
						c.args = append(c.args, ref)
					}
					continue
				}
				c.args = append(c.args, p.expr())
			}
			p.expect(')', "')' ("+t.text+" takes "+strconv.Itoa(fn.arity)+" argument(s))")
			return c
		}
		if d, ok := ir.DTypeFromDataType(t.text); ok {
			return &lit{at: t.pos, v: d}
		}
		p.failAt(t.pos, "unknown name %q: write $%s for an attribute, %%%s for a tensor, or a data type", t.text, t.text, t.text)
		return &lit{at: t.pos, v: unknown}
	}
	p.fail("expected an expression, found %s", describe(t))
	return &lit{at: t.pos, v: unknown}
}

// valueRef parses %name and checks that every op of the entry has an operand or result of that name.
func (p *parser) valueRef() *valueRef {
	at := p.tok.pos
	if !p.is('%', "") {
		p.fail("expected %%NAME (an operand or result), found %s", describe(p.tok))
		return nil
	}
	p.next()
	name := p.expect('i', "an operand or result name after '%'")
	if p.err != nil {
		return nil
	}
	if p.ctx != nil && p.entry != nil {
		for _, op := range p.entry.Ops {
			s := p.ctx.Schema(op)
			if s == nil {
				continue
			}
			i := s.OperandIndex(name.text)
			if i < 0 && s.ResultIndex(name.text) < 0 {
				p.failAt(name.pos, "%s has no operand or result %s", op, name.text)
				return nil
			}
			for j := 0; j < i; j++ {
				if s.Operands[j].Variadic {
					p.failAt(name.pos, "%s: operand %s follows a variadic operand", op, name.text)
					return nil
				}
			}
		}
	}
	return &valueRef{at: at, name: name.text}
}

// checkAttr reports an attribute some op of the entry does not declare (runtime attributes aside).
func (p *parser) checkAttr(name tok) {
	if p.ctx == nil || p.entry == nil || p.runtime[name.text] {
		return
	}
	for _, op := range p.entry.Ops {
		if s := p.ctx.Schema(op); s != nil && s.Attr(name.text) == nil {
			p.failAt(name.pos, "%s has no attribute %s", op, name.text)
			return
		}
	}
}
