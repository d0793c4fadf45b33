package drr

import (
	"strconv"
	"strings"
)

// This file prints declarations, statements, expressions and types as docs
// (format_layout.go): the text with canonical spacing, and the places where
// a line may break.

// ---------------------------------------------------------------------------
// Declarations

// familyDoc prints `family name = set`.
func familyDoc(f *Family) *doc {
	d := &doc{}
	d.text("family " + f.Name.Name + " = ")
	d.family(f.Set)
	return d
}

func (d *doc) family(e FamilyExpr) {
	switch e := e.(type) {
	case *FamilyList:
		d.list("[", "]", firstChar(e.Span), lastChar(e.Span), len(e.Ops),
			func(i int) Span { return e.Ops[i].Span }, func(i int) { d.text(opNameString(e.Ops[i])) })
	case *FamilyTrait:
		d.text("trait(" + e.Trait.Name + ")")
	case *FamilyRef:
		d.text(e.Name.Name)
	case *FamilyDiff:
		d.family(e.X)
		d.text(" - ")
		d.family(e.Y)
	}
}

// paramDeclDoc prints `param name: kind = default`.
func paramDeclDoc(pd *ParamDecl) *doc {
	d := &doc{}
	d.text("param " + pd.Name.Name + ": " + pd.Type.Name + " = ")
	d.expr(pd.Default, 0)
	return d
}

func nativeString(n *Native) string {
	var b strings.Builder
	b.WriteString("native ")
	b.WriteString(n.Kind.String())
	b.WriteByte(' ')
	b.WriteString(n.Name.Name)
	b.WriteByte('(')
	for i, par := range n.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		if par.Kind == HoleParam {
			b.WriteByte('$')
		} else {
			b.WriteByte('%')
		}
		b.WriteString(par.Name)
		b.WriteString(": ")
		b.WriteString(par.Type.Name)
	}
	b.WriteByte(')')
	if n.Result != nil {
		b.WriteString(" -> ")
		b.WriteString(n.Result.Name)
	}
	return b.String()
}

// opNameString prints an op name: unquoted if it is a plain dotted
// identifier or was written bare, quoted otherwise.
func opNameString(n *OpName) string {
	if !n.Quoted || isPlainDotted(n.Name) {
		return n.Name
	}
	return quote(n.Name)
}

// ---------------------------------------------------------------------------
// Statements

func resultsString(rs []*Result) string {
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteString(", ")
		}
		switch r.Kind {
		case ResultValue:
			b.WriteByte('%')
			b.WriteString(r.Name)
			if r.Spread {
				b.WriteString("...")
			}
		case ResultWildcard:
			b.WriteByte('_')
		case ResultEllipsis:
			b.WriteString("...")
		}
	}
	return b.String()
}

func patternStmtDoc(s *PatternStmt) *doc {
	d := &doc{}
	if s.Label != nil {
		d.text("@" + s.Label.Name + " = ")
	}
	if len(s.Results) > 0 {
		d.text(resultsString(s.Results) + " = ")
	}
	d.opPattern(s.Op)
	if s.Optional {
		d.text("?")
	}
	return d
}

// patternStmtString prints a pattern statement on one line.
func patternStmtString(s *PatternStmt) string { return patternStmtDoc(s).flat() }

func (d *doc) opPattern(op *OpPattern) {
	d.text(opNameString(op.Name))
	d.list("(", ")", op.Lparen, op.Rparen, len(op.Operands),
		func(i int) Span { return op.Operands[i].span() }, func(i int) { d.operand(op.Operands[i]) })
	d.attrMap(op.Attrs)
	if sig := op.Sig; sig != nil {
		if sig.NoInputs {
			d.text(" ->")
		} else {
			// A signature is pasted printed PIR, which is long: it keeps the
			// author's breaks, but a long line does not break inside it.
			d.text(" : ")
			start := len(d.items)
			d.list("(", ")", sig.Lparen, sig.Rparen, len(sig.Inputs),
				func(i int) Span { return sig.Inputs[i].span() }, func(i int) { d.text(typeString(sig.Inputs[i])) })
			d.keepOnly(start)
			d.text(" ->")
		}
		if len(sig.Outputs) > 0 {
			var b strings.Builder
			b.WriteByte(' ')
			writeTypes(&b, sig.Outputs)
			d.text(b.String())
		}
	}
}

func (d *doc) operand(o Operand) {
	switch o := o.(type) {
	case *ValueOperand:
		if o.Type != nil {
			d.text("%" + o.Name + ": " + typeString(o.Type))
		} else {
			d.text("%" + o.Name)
		}
	case *VariadicOperand:
		d.text("%" + o.Name + "...")
	case *WildcardOperand:
		d.text("_")
	case *NullOperand:
		if o.Text == "" {
			d.text("null")
		} else {
			d.text(o.Text)
		}
	case *CombineOperand:
		d.list("[", "]", firstChar(o.Span), lastChar(o.Span), len(o.Elems),
			func(i int) Span { return o.Elems[i].span() }, func(i int) { d.operand(o.Elems[i]) })
	case *EitherOperand:
		d.text("either")
		d.list("(", ")", firstChar(o.Span), lastChar(o.Span), len(o.Operands),
			func(i int) Span { return o.Operands[i].span() }, func(i int) { d.operand(o.Operands[i]) })
	case *EachOperand:
		d.text("each(" + strconv.Itoa(o.Min) + ", " + strconv.Itoa(o.Max) + ") ")
		d.operand(o.Elem)
	case *AltOperand:
		if o.Optional {
			d.operand(o.Alts[0])
			d.text("?")
			break
		}
		for i, a := range o.Alts {
			if i > 0 {
				d.text(" | ")
			}
			d.operand(a)
		}
	case *OpPattern:
		d.opPattern(o)
	}
}

// attrMap prints ` {k: v, …}`; nothing for a nil or empty map.
func (d *doc) attrMap(m *AttrMap) {
	if m == nil || (len(m.Entries) == 0 && m.Rest == nil) {
		return
	}
	n := len(m.Entries)
	if m.Rest != nil {
		n++
	}
	span := func(i int) Span {
		if i == len(m.Entries) {
			return m.Rest.Span
		}
		return m.Entries[i].Span
	}
	d.text(" ")
	d.list("{", "}", firstChar(m.Span), lastChar(m.Span), n, span, func(i int) {
		if i == len(m.Entries) {
			d.text("$" + m.Rest.Name + "...")
			return
		}
		e := m.Entries[i]
		d.text(e.Key.Name + ": ")
		d.expr(e.Value, 0)
	})
}

// writeAttrMap prints an attribute map on one line (see doc.attrMap).
func writeAttrMap(b *strings.Builder, m *AttrMap) {
	d := &doc{}
	d.attrMap(m)
	b.WriteString(d.flat())
}

func rewriteStmtDoc(s RewriteStmt) *doc {
	d := &doc{}
	switch s := s.(type) {
	case *AssignStmt:
		if len(s.Results) > 0 {
			d.text(resultsString(s.Results) + " = ")
		}
		d.expr(s.Value, 0)
		if len(s.Types) > 0 {
			// The line may break before "->" (the author's break is kept; a line too wide breaks there first).
			d.brk(s.Value.span(), s.Types[0].span(), true)
			d.items[len(d.items)-1].arrow = true
			var b strings.Builder
			b.WriteString("-> ")
			writeTypes(&b, s.Types)
			d.text(b.String())
		}
	case *ReplaceStmt:
		if s.Later {
			d.text("replace later uses of ")
		} else {
			d.text("replace ")
		}
		d.expr(s.Old, 0)
		if s.Each {
			d.text("...")
		}
		d.text(" with ")
		d.expr(s.New, 0)
	case *EraseStmt:
		d.text("erase ")
		d.expr(s.Target, 0)
	case *ExprStmt:
		d.expr(s.X, 0)
	}
	return d
}

// rewriteStmtString prints a rewrite statement on one line.
func rewriteStmtString(s RewriteStmt) string { return rewriteStmtDoc(s).flat() }

func constraintDoc(e Expr) *doc {
	d := &doc{}
	d.expr(e, 0)
	return d
}

// ---------------------------------------------------------------------------
// Types

func writeTypes(b *strings.Builder, ts []TypePattern) {
	for i, t := range ts {
		if i > 0 {
			b.WriteString(", ")
		}
		writeType(b, t)
	}
}

func typeString(t TypePattern) string {
	var b strings.Builder
	writeType(&b, t)
	return b.String()
}

func writeType(b *strings.Builder, t TypePattern) {
	switch t := t.(type) {
	case *TensorType:
		b.WriteString(t.Name)
		b.WriteByte('<')
		sep := "x"
		spaced := t.Dtype != nil && t.Dtype.Kind == DtypeHole
		for _, d := range t.Dims {
			spaced = spaced || d.Kind == DimHole || d.Kind == DimExpr
		}
		if spaced {
			sep = " x "
		}
		for _, d := range t.Dims {
			switch d.Kind {
			case DimHole:
				b.WriteByte('$')
				b.WriteString(d.Text)
			case DimAny:
				b.WriteByte('?')
			case DimStar:
				b.WriteByte('*')
			case DimExpr:
				b.WriteString(exprString(d.Expr))
			default:
				b.WriteString(d.Text)
			}
			b.WriteString(sep)
		}
		if d := t.Dtype; d != nil {
			switch d.Kind {
			case DtypeHole:
				b.WriteByte('$')
				b.WriteString(d.Name)
			case DtypeAny:
				b.WriteByte('?')
			default:
				b.WriteString(d.Name)
			}
		}
		b.WriteByte('>')
	case *VecType:
		b.WriteString("vec[")
		writeTypes(b, t.Elems)
		b.WriteByte(']')
	case *NamedType:
		b.WriteString(t.Name)
	case *HoleType:
		b.WriteByte('$')
		b.WriteString(t.Name)
	case *AnyType:
		b.WriteByte('?')
	case *NullType:
		b.WriteString("<<NULL TYPE>>")
	case *TypeOf:
		b.WriteString("type(%")
		b.WriteString(t.Value)
		b.WriteByte(')')
	case *AnyTypes:
		b.WriteString("...")
	}
}

// ---------------------------------------------------------------------------
// Expressions

// Precedence levels used by the printer (higher binds tighter).
const (
	precCond    = 0
	precUnary   = 6
	precPostfix = 7
)

func exprPrec(e Expr) int {
	switch e := e.(type) {
	case *CondExpr:
		return precCond
	case *BinaryExpr:
		return binaryPrecedence(e.Op)
	case *UnaryExpr:
		return precUnary
	}
	return precPostfix
}

// exprString prints an expression on one line.
func exprString(e Expr) string { return constraintDoc(e).flat() }

// startsWithMinus reports whether e prints with a leading '-' at binding
// level minPrec (so that a unary '-' before it needs a blank).
func startsWithMinus(e Expr, minPrec int) bool {
	if exprPrec(e) < minPrec {
		return false // printed in parentheses
	}
	switch e := e.(type) {
	case *BasicLit:
		return strings.HasPrefix(e.Text, "-")
	case *UnaryExpr:
		return e.Op == "-"
	case *BinaryExpr:
		return startsWithMinus(e.X, exprPrec(e))
	case *CondExpr:
		return startsWithMinus(e.Cond, precCond+1)
	case *IndexExpr:
		return startsWithMinus(e.X, precPostfix)
	case *SpreadExpr:
		return startsWithMinus(e.X, precPostfix)
	}
	return false
}

// expr prints e, parenthesised if it binds looser than minPrec (only
// needed for trees built by hand: parsed trees keep their ParenExprs).
func (d *doc) expr(e Expr, minPrec int) {
	if e == nil {
		return
	}
	if exprPrec(e) < minPrec {
		d.text("(")
		d.expr(e, 0)
		d.text(")")
		return
	}
	switch e := e.(type) {
	case *BasicLit:
		d.text(e.Text)
	case *TaggedLit:
		d.text("(" + e.Tag + ")")
		d.expr(e.Value, precPostfix)
	case *SymbolLit:
		d.text(e.Text)
	case *ListExpr:
		d.list("[", "]", firstChar(e.Span), lastChar(e.Span), len(e.Elems),
			func(i int) Span { return e.Elems[i].span() }, func(i int) { d.expr(e.Elems[i], 0) })
	case *HoleExpr:
		d.text("$" + e.Name)
	case *ValueExpr:
		d.text("%" + e.Name)
	case *LabelExpr:
		d.text("@" + e.Name)
	case *WildcardExpr:
		d.text("_")
	case *NameExpr:
		d.text(e.Name)
	case *TypeExpr:
		d.text(typeString(e.Type))
	case *SpreadExpr:
		d.expr(e.X, precPostfix)
		d.text("...")
	case *UnaryExpr:
		d.text(e.Op)
		if e.Op == "-" && startsWithMinus(e.X, precUnary) {
			d.text(" ")
		}
		d.expr(e.X, precUnary)
	case *BinaryExpr:
		prec := exprPrec(e)
		d.expr(e.X, prec)
		d.text(" " + e.Op)
		d.brk(e.X.span(), e.Y.span(), true)
		d.expr(e.Y, prec+1)
	case *CondExpr:
		d.expr(e.Cond, precCond+1)
		d.text(" ?")
		d.brk(e.Cond.span(), e.Then.span(), true)
		d.expr(e.Then, 0)
		d.text(" :")
		d.brk(e.Then.span(), e.Else.span(), true)
		d.expr(e.Else, 0)
	case *CallExpr:
		d.text(opNameString(e.Func))
		d.list("(", ")", e.Lparen, e.Rparen, len(e.Args),
			func(i int) Span { return e.Args[i].span() }, func(i int) { d.expr(e.Args[i], 0) })
		d.attrMap(e.Attrs)
	case *IndexExpr:
		d.expr(e.X, precPostfix)
		d.text("[")
		d.expr(e.Index, 0)
		d.text("]")
	case *ParenExpr:
		d.open("(")
		d.brk(firstChar(e.Span), e.X.span(), false)
		d.expr(e.X, 0)
		d.brkClose(e.X.span(), lastChar(e.Span), false)
		d.close(")")
	}
}
