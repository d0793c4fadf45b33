package drr

import (
	"strings"
)

// This file parses rewrite statements and expressions.

// rewriteStmt parses one statement of a rewrite block.
func (p *parser) rewriteStmt() RewriteStmt {
	t := p.tok()
	if t.kind == tIdent && !isPunct(p.peek(1), "(") {
		switch t.text {
		case "replace":
			p.next()
			st := &ReplaceStmt{}
			if p.isKw("later") {
				p.next()
				p.expectKw("uses", "after 'replace later'")
				p.expectKw("of", "after 'replace later uses'")
				st.Later = true
			}
			v := p.tok()
			if v.kind != tValue {
				if st.Later {
					p.failFound("value after 'replace later uses of'")
				}
				p.failFound("value or 'later uses of' after 'replace'")
			}
			p.next()
			st.Old = &ValueExpr{Span: p.span(v), Name: v.text[1:]}
			p.expectKw("with", "after 'replace %s'", v.text)
			if !p.exprStart() {
				p.failFound("replacement expression after 'with'")
			}
			st.New = p.expr()
			st.Span = p.span(t)
			return st
		case "erase":
			p.next()
			v := p.tok()
			var target Expr
			switch v.kind {
			case tLabel:
				target = &LabelExpr{Span: p.tokSpan(v), Name: v.text[1:]}
			case tValue:
				target = &ValueExpr{Span: p.tokSpan(v), Name: v.text[1:]}
			default:
				p.failFound("op label (@name) or value after 'erase'")
			}
			p.next()
			return &EraseStmt{Span: p.span(t), Target: target}
		}
	}
	if p.startsResults() && !(p.isP("(") && !p.parenResults()) {
		st := p.a.assignStmts.new()
		st.Results = p.results()
		if !p.isP("=") {
			if len(st.Results) == 1 && st.Results[0].Kind == ResultValue {
				p.failFound("'=' after result %%%s", st.Results[0].Name)
			}
			p.failFound("'=' after results")
		}
		p.next()
		if !p.exprStart() {
			p.failFound("expression after '='")
		}
		st.Value = p.expr()
		if p.isP("->") {
			p.next()
			mark := p.s.types.mark()
			for {
				p.s.types.push(p.typePattern("result type after '->'"))
				if !p.isP(",") {
					break
				}
				p.next()
			}
			st.Types = p.s.types.take(mark)
		}
		st.Span = p.span(t)
		return st
	}
	if !p.exprStart() {
		p.failFound("rewrite statement (assignment, replace, erase or native call)")
	}
	x := p.expr()
	if _, ok := x.(*CallExpr); !ok {
		p.errAtPos(x.Pos(), "a rewrite statement that is an expression must be a call (of a native rewrite)")
		panic(bailout{})
	}
	return &ExprStmt{Span: p.span(t), X: x}
}

// parenResults reports whether the '(' at the current token starts a
// parenthesised result list, i.e. `(%a, _) =` or `() =`.
func (p *parser) parenResults() bool {
	for j := p.i + 1; j < len(p.toks); j++ {
		t := &p.toks[j]
		switch {
		case t.kind == tValue || (t.kind == tIdent && t.text == "_") || isPunct(t, "...") || isPunct(t, ","):
			continue
		case isPunct(t, ")"):
			return isPunct(&p.toks[min(j+1, len(p.toks)-1)], "=")
		}
		return false
	}
	return false
}

// ---------------------------------------------------------------------------
// Expressions

// exprStart reports whether an expression can start at the current token.
func (p *parser) exprStart() bool {
	t := p.tok()
	switch t.kind {
	case tEOF, tSep, tTopSep:
		return false
	case tPunct:
		switch t.text {
		case "(", "[", "!", "-":
			return true
		}
		return false
	}
	return true
}

// binaryPrec returns the precedence of a binary operator token (0 if the
// token is not one): || 1, && 2, comparisons and in 3, + - 4, * / % 5.
func binaryPrec(t *token) int {
	switch t.kind {
	case tPunct:
		switch t.text {
		case "||":
			return 1
		case "&&":
			return 2
		case "==", "!=", "<", "<=", ">", ">=":
			return 3
		case "+", "-":
			return 4
		case "*", "/", "%":
			return 5
		}
	case tIdent:
		if t.text == "in" {
			return 3
		}
	}
	return 0
}

// expr parses a full expression (conditional expressions bind loosest).
func (p *parser) expr() Expr {
	x := p.binary(1)
	if p.isP("?") {
		p.next()
		then := p.operandExpr("expression after '?'")
		p.expect(":", "in conditional expression '… ? … : …'")
		els := p.operandExpr("expression after ':' in conditional expression")
		return &CondExpr{Span: x.span().to(els.span()), Cond: x, Then: then, Else: els}
	}
	return x
}

// operandExpr parses an expression that must be present.
func (p *parser) operandExpr(what string) Expr {
	if !p.exprStart() {
		p.failFound("%s", what)
	}
	return p.expr()
}

func (p *parser) binary(minPrec int) Expr {
	x := p.unary()
	for {
		t := p.tok()
		prec := binaryPrec(t)
		if prec == 0 || prec < minPrec {
			return x
		}
		p.next()
		if !p.exprStart() {
			p.failFound("operand after '%s'", t.text)
		}
		y := p.binary(prec + 1)
		b := p.a.binaryExprs.new()
		*b = BinaryExpr{Span: x.span().to(y.span()), X: x, Op: t.text, OpSpan: p.tokSpan(t), Y: y}
		x = b
	}
}

func (p *parser) unary() Expr {
	t := p.tok()
	if isPunct(t, "!") || isPunct(t, "-") {
		p.next()
		if !p.exprStart() {
			p.failFound("operand after unary '%s'", t.text)
		}
		x := p.unary()
		if lit, ok := x.(*BasicLit); ok && t.text == "-" && (lit.Kind == IntLit || lit.Kind == FloatLit) && !strings.HasPrefix(lit.Text, "-") {
			// "- 1" is the literal -1, as "-1" is.
			lit.Span = p.tokSpan(t).to(lit.Span)
			lit.Text = "-" + lit.Text
			lit.Value = lit.Text
			return lit
		}
		return &UnaryExpr{Span: p.tokSpan(t).to(x.span()), Op: t.text, X: x}
	}
	return p.postfix()
}

func (p *parser) postfix() Expr {
	x := p.primary()
	for {
		switch {
		case p.isP("["):
			p.next()
			idx := p.operandExpr("index expression after '['")
			p.expect("]", "after index expression")
			x = &IndexExpr{Span: p.spanFrom(x.span()), X: x, Index: idx}
		case p.isP("..."):
			p.next()
			return &SpreadExpr{Span: p.spanFrom(x.span()), X: x}
		default:
			return x
		}
	}
}

func (p *parser) primary() Expr {
	t := p.tok()
	switch t.kind {
	case tInt:
		p.next()
		return p.basicLit(t, IntLit)
	case tFloat:
		p.next()
		return p.basicLit(t, FloatLit)
	case tString:
		if isPunct(p.peek(1), "(") {
			return p.call()
		}
		p.next()
		return p.stringLit(t)
	case tValue:
		p.next()
		v := p.a.valueExprs.new()
		v.Span, v.Name = p.span(t), t.text[1:]
		return v
	case tHole:
		p.next()
		h := p.a.holeExprs.new()
		h.Span, h.Name = p.span(t), t.text[1:]
		return h
	case tLabel:
		p.next()
		return &LabelExpr{Span: p.span(t), Name: t.text[1:]}
	case tSym:
		p.next()
		return &SymbolLit{Span: p.span(t), Text: t.text}
	case tNull:
		p.next()
		return p.basicLit(t, NullLit)
	case tTensor, tNullType:
		ty := p.typePattern("type")
		return &TypeExpr{Span: ty.span(), Type: ty}
	case tTag:
		return p.tagged()
	case tIdent:
		switch t.text {
		case "true", "false":
			p.next()
			return p.basicLit(t, BoolLit)
		case "null":
			p.next()
			return p.basicLit(t, NullLit)
		case "_":
			p.next()
			return &WildcardExpr{Span: p.span(t)}
		}
		if isPunct(p.peek(1), "(") {
			return p.call()
		}
		p.next()
		n := p.a.nameExprs.new()
		n.Span, n.Name = p.span(t), t.text
		return n
	case tPunct:
		switch t.text {
		case "(":
			p.next()
			x := p.operandExpr("expression after '('")
			p.expect(")", "to close '(' at %d:%d", t.line, t.col)
			return &ParenExpr{Span: p.span(t), X: x}
		case "[":
			return p.list()
		}
	}
	p.failFound("expression")
	return nil
}

func (p *parser) basicLit(t *token, kind LitKind) *BasicLit {
	l := p.a.basicLits.new()
	*l = BasicLit{Span: p.tokSpan(t), Kind: kind, Text: t.text, Value: t.text}
	return l
}

func (p *parser) stringLit(t *token) *BasicLit {
	l := p.a.basicLits.new()
	*l = BasicLit{Span: p.tokSpan(t), Kind: StringLit, Text: t.text, Value: unquote(t.text)}
	return l
}

func (p *parser) list() *ListExpr {
	lb := p.next()
	l := p.a.listExprs.new()
	mark := p.s.exprs.mark()
	for !p.isP("]") {
		if !p.exprStart() {
			p.failFound("list element")
		}
		p.s.exprs.push(p.expr())
		if p.isP(",") {
			p.next()
			continue
		}
		if !p.isP("]") {
			p.failFound("',' or ']' after list element")
		}
	}
	p.next()
	l.Elems = p.s.exprs.take(mark)
	l.Span = p.span(lb)
	return l
}

// tagged parses a tagged PIR literal: (Tag) followed directly by its value.
func (p *parser) tagged() Expr {
	t := p.next()
	tag := t.text[1 : len(t.text)-1]
	v := p.tok()
	var val Expr
	switch v.kind {
	case tInt:
		p.next()
		val = p.basicLit(v, IntLit)
	case tFloat:
		p.next()
		val = p.basicLit(v, FloatLit)
	case tString:
		p.next()
		val = p.stringLit(v)
	case tSym:
		p.next()
		val = &SymbolLit{Span: p.span(v), Text: v.text}
	case tTensor:
		ty := p.typePattern("type")
		val = &TypeExpr{Span: ty.span(), Type: ty}
	case tIdent:
		p.next()
		switch v.text {
		case "true", "false":
			val = p.basicLit(v, BoolLit)
		default:
			val = &NameExpr{Span: p.span(v), Name: v.text}
		}
	case tPunct:
		if v.text == "[" {
			val = p.list()
		}
	}
	if val == nil {
		p.failFound("literal after tag %s", t.text)
	}
	return &TaggedLit{Span: p.span(t), Tag: tag, Value: val}
}

// call parses `name(args) {attrs}`.
func (p *parser) call() *CallExpr {
	first := p.tok()
	c := p.a.callExprs.new()
	c.Func = p.opName()
	name := displayName(c.Func)
	what := "operands"
	if c.Func.IsBare() {
		what = "arguments"
	}
	p.next() // '('
	mark := p.s.exprs.mark()
	for !p.isP(")") {
		if !p.exprStart() {
			p.failFound("%s of %s", strings.TrimSuffix(what, "s"), name)
		}
		p.s.exprs.push(p.expr())
		if p.isP(",") {
			p.next()
			continue
		}
		if !p.isP(")") {
			p.failFound("')' after %s of %s", what, name)
		}
	}
	p.next()
	c.Args = p.s.exprs.take(mark)
	if p.isP("{") {
		c.Attrs = p.attrMap(name)
	}
	c.Span = p.span(first)
	return c
}
