package drr

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/pirdrr/drr/drr/rule"
)

// Building rewrite statements and expressions (see build.go).

func (b *builder) rewriteStmt(g *gRewriteStmt) RewriteStmt {
	switch {
	case g.Replace != nil:
		r := g.Replace
		old := *r.Old.t
		return &ReplaceStmt{Span: b.span(r.Tokens), Later: r.Later != nil, Each: r.Dots != nil,
			Old: &ValueExpr{Span: b.tokSpan(old), Name: old.Value[1:]}, New: b.expr(r.New)}
	case g.Erase != nil:
		t := *g.Erase.Target.t
		var target Expr
		if isKind(&t, tLabel) {
			target = &LabelExpr{Span: b.tokSpan(t), Name: t.Value[1:]}
		} else {
			target = &ValueExpr{Span: b.tokSpan(t), Name: t.Value[1:]}
		}
		return &EraseStmt{Span: b.span(g.Erase.Tokens), Target: target}
	case g.Assign != nil:
		a := g.Assign
		st := b.a.assignStmts.new()
		st.Span, st.Results, st.Value = b.span(a.Tokens), b.results(a.Results), b.expr(a.Value)
		if a.Types != nil {
			st.Types = []TypePattern{b.typ(a.Types.First)}
			for _, n := range a.Types.More {
				st.Types = append(st.Types, b.typ(n.Type))
			}
		}
		return st
	}
	x := b.expr(g.Call.X)
	if _, ok := x.(*CallExpr); !ok {
		b.fail(x.span(), "a rewrite statement that is an expression must be a call (of a native rewrite)")
	}
	return &ExprStmt{Span: x.span(), X: x}
}

// binaryPrecedence returns the precedence of a binary operator: || 1, && 2,
// comparisons and in 3, + - 4, * / % 5.
func binaryPrecedence(op string) int {
	switch op {
	case "||":
		return 1
	case "&&":
		return 2
	case "==", "!=", "<", "<=", ">", ">=", "in":
		return 3
	case "+", "-":
		return 4
	case "*", "/", "%":
		return 5
	}
	return 0
}

func (b *builder) expr(g *gExpr) Expr {
	// A chain of n operators is a tree of height up to n, and a conditional adds a level.
	levels := len(g.Ops) + 1
	if g.Cond != nil {
		levels++
	}
	b.deeper(levels, func() Span {
		if k := rule.MaxExprDepth - (b.depth - levels) - 1; k >= 0 && k < len(g.Ops) {
			return b.tokSpan(*g.Ops[k].Op.t) // the first operator past the limit
		}
		return b.termStart(g.X)
	})
	defer func() { b.depth -= levels }()
	operands := make([]Expr, len(g.Ops)+1)
	operands[0] = b.term(g.X)
	for i, op := range g.Ops {
		operands[i+1] = b.term(op.Y)
	}
	x, _ := b.binary(g.Ops, operands, 0, 1)
	if c := g.Cond; c != nil {
		then, els := b.expr(c.Then), b.expr(c.Else)
		return &CondExpr{Span: x.span().to(els.span()), Cond: x, Then: then, Else: els}
	}
	return x
}

// binary groups operands[i:] joined by ops[i:] by precedence (operators of
// equal precedence associate to the left), taking only operators that bind
// at least as tightly as minPrec; it returns the expression and the index
// of the first operand it did not take.
func (b *builder) binary(ops []*gBinOp, operands []Expr, i, minPrec int) (Expr, int) {
	x := operands[i]
	i++
	for i-1 < len(ops) {
		op := ops[i-1].Op.t
		prec := binaryPrecedence(op.Value)
		if prec < minPrec {
			break
		}
		var y Expr
		y, i = b.binary(ops, operands, i, prec+1)
		bin := b.a.binaryExprs.new()
		*bin = BinaryExpr{Span: x.span().to(y.span()), X: x, Op: op.Value, OpSpan: b.tokSpan(*op), Y: y}
		x = bin
	}
	return x, i
}

// term builds a primary expression with its indexes, spread and unary
// operators (which bind looser than the indexes).
func (b *builder) term(g *gTerm) Expr {
	levels := len(g.Unary) + len(g.Index)
	if g.Spread != nil {
		levels++
	}
	if levels > 0 {
		b.deeper(levels, func() Span { return b.termStart(g) })
		defer func() { b.depth -= levels }()
	}
	x := b.primary(g)
	for _, ix := range g.Index {
		x = &IndexExpr{Span: x.span().to(b.span(ix.Tokens)), X: x, Index: b.expr(ix.X)}
	}
	if g.Spread != nil {
		x = &SpreadExpr{Span: x.span().to(b.tokSpan(*g.Spread.t)), X: x}
	}
	for i := len(g.Unary) - 1; i >= 0; i-- {
		op := *g.Unary[i].Op.t
		opSpan := b.tokSpan(op)
		if lit, ok := x.(*BasicLit); ok && op.Value == "-" && (lit.Kind == IntLit || lit.Kind == FloatLit) && !strings.HasPrefix(lit.Text, "-") {
			// "- 1" is the literal -1, as "-1" is.
			lit.Span = opSpan.to(lit.Span)
			lit.Text = "-" + lit.Text
			lit.Value = lit.Text
			continue
		}
		x = &UnaryExpr{Span: opSpan.to(x.span()), Op: op.Value, X: x}
	}
	return x
}

// termStart returns the span of a term's first token, where errors about the whole term are reported.
func (b *builder) termStart(g *gTerm) Span {
	if len(g.Unary) > 0 {
		return b.tokSpan(*g.Unary[0].Op.t)
	}
	switch {
	case g.Atom != nil:
		return b.tokSpan(*g.Atom.t)
	case g.Call != nil:
		return b.tokSpan(g.Call.Tokens[0])
	case g.Tagged != nil:
		return b.tokSpan(g.Tagged.Tag)
	case g.Paren != nil:
		return b.tokSpan(g.Paren.Tokens[0])
	case g.List != nil:
		return b.tokSpan(g.List.Tokens[0])
	}
	return b.tokSpan(g.Type.Name)
}

// primary builds the primary expression of a term.
func (b *builder) primary(g *gTerm) Expr {
	switch {
	case g.Atom != nil:
		if isKind(g.Atom.t, tNullType) {
			sp := b.tokSpan(*g.Atom.t)
			return &TypeExpr{Span: sp, Type: &NullType{Span: sp}}
		}
		return b.token(*g.Atom.t)
	case g.Call != nil:
		c := b.a.callExprs.new()
		c.Span, c.Func = b.span(g.Call.Tokens), b.opName(*g.Call.Name.t)
		c.Lparen, c.Rparen = b.tokSpan(g.Call.Tokens[1]), b.tokSpan(*g.Call.Close.t)
		if len(g.Call.Args) > 0 {
			c.Args = make([]Expr, len(g.Call.Args))
			for i, a := range g.Call.Args {
				c.Args[i] = b.expr(a)
			}
		}
		if g.Call.Attrs != nil {
			c.Attrs = b.attrMap(g.Call.Attrs, c.Func)
		}
		return c
	case g.Tagged != nil:
		t := g.Tagged
		lit := &TaggedLit{Span: b.span(t.Tokens), Tag: tagName(t.Tag)}
		switch {
		case t.List != nil:
			lit.Value = b.list(t.List)
		case t.Type != nil:
			ty := b.tensorType(t.Type)
			lit.Value = &TypeExpr{Span: ty.Span, Type: ty}
		default:
			lit.Value = b.token(*t.Value.t)
		}
		return lit
	case g.Paren != nil:
		return &ParenExpr{Span: b.span(g.Paren.Tokens), X: b.expr(g.Paren.X)}
	case g.List != nil:
		return b.list(g.List)
	}
	ty := b.tensorType(g.Type)
	return &TypeExpr{Span: ty.Span, Type: ty}
}

func (b *builder) list(g *gList) *ListExpr {
	l := b.a.listExprs.new()
	l.Span = b.span(g.Tokens)
	if len(g.Elems) > 0 {
		l.Elems = make([]Expr, len(g.Elems))
		for i, e := range g.Elems {
			l.Elems[i] = b.expr(e)
		}
	}
	return l
}

// token builds the expression of a single token.
func (b *builder) token(t lexer.Token) Expr {
	sp := b.tokSpan(t)
	switch kindOf(t.Type) {
	case tValue:
		v := b.a.valueExprs.new()
		v.Span, v.Name = sp, t.Value[1:]
		return v
	case tHole:
		h := b.a.holeExprs.new()
		h.Span, h.Name = sp, t.Value[1:]
		return h
	case tInt:
		return b.basicLit(t, IntLit)
	case tFloat:
		return b.basicLit(t, FloatLit)
	case tString:
		return b.basicLit(t, StringLit)
	case tLabel:
		return &LabelExpr{Span: sp, Name: t.Value[1:]}
	case tSym:
		return &SymbolLit{Span: sp, Text: t.Value}
	case tNull:
		return b.basicLit(t, NullLit)
	case tWild:
		return &WildcardExpr{Span: sp}
	}
	switch t.Value {
	case "true", "false":
		return b.basicLit(t, BoolLit)
	case "null":
		return b.basicLit(t, NullLit)
	}
	n := b.a.nameExprs.new()
	n.Span, n.Name = sp, t.Value
	return n
}
