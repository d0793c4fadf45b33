package drr

import (
	"strconv"

	"github.com/alecthomas/participle/v2/lexer"
)

// Building match blocks and types (see build.go).

func (b *builder) patternStmt(g *gPatternStmt) *PatternStmt {
	st := b.a.patternStmts.new()
	st.Span = b.span(g.Tokens)
	if g.Label != nil {
		l := g.Label.Label
		st.Label = &Ident{Span: b.tokSpan(l), Name: l.Value[1:]}
	}
	if g.Results != nil {
		st.Results = b.results(g.Results.Results)
	}
	st.Op = b.opPattern(g.Op.Tokens, g.Op.Head, g.Op.Attrs)
	if g.Opt != nil {
		st.Optional = true
		b.optionalStmt(st)
	}
	if sig := g.Op.Sig; sig != nil {
		st.Op.Sig = b.signature(sig.Tokens, sig.Inputs, sig.NoIn)
		if sig.First != nil {
			st.Op.Sig.Outputs = append(st.Op.Sig.Outputs, b.typ(sig.First))
			for _, n := range sig.More {
				st.Op.Sig.Outputs = append(st.Op.Sig.Outputs, b.typ(n.Type))
			}
		}
	}
	return st
}

// optionalStmt reports what an optional statement, `%c = op(x, …)?`, cannot be: it binds one value, the op's
// result or x, so it has one named result, no label, and a first operand without alternatives.
func (b *builder) optionalStmt(st *PatternStmt) {
	switch {
	case st.Label != nil:
		b.fail(st.Label.Span, "an optional statement cannot have a label: its op may be absent")
	case len(st.Results) != 1 || st.Results[0].Kind != ResultValue || st.Results[0].Spread:
		b.fail(st.Span, "an optional statement binds one value, %%c = %s(…)?: its op's result, or its first operand when the op is absent", displayName(st.Op.Name))
	case len(st.Op.Operands) == 0:
		b.fail(st.Span, "optional %s has no operand to stand for it when it is absent", displayName(st.Op.Name))
	case isAlt(st.Op.Operands[0]):
		b.fail(st.Span, "the first operand of optional %s has alternatives itself: write the forms as alternatives", displayName(st.Op.Name))
	}
}

// results builds a result list; '...' may only come last.
func (b *builder) results(g *gResults) []*Result {
	var toks []lexer.Token
	if g.Paren != nil {
		if g.Paren.First != nil {
			toks = append(toks, *g.Paren.First.t)
		}
		for _, r := range g.Paren.Rest {
			toks = append(toks, *r.t)
		}
	} else {
		toks = append(toks, *g.First.t)
		for _, r := range g.Rest {
			toks = append(toks, *r.t)
		}
	}
	if len(toks) == 0 {
		return nil
	}
	out := make([]*Result, len(toks))
	for i, t := range toks {
		r := b.a.results.new()
		r.Span = b.tokSpan(t)
		switch {
		case isKind(&t, tValue):
			r.Kind, r.Name = ResultValue, t.Value[1:]
		case isKind(&t, tWild):
			r.Kind = ResultWildcard
		default:
			r.Kind = ResultEllipsis
		}
		if i > 0 && out[i-1].Kind == ResultEllipsis {
			b.fail(r.Span, "'...' must be the last result")
		}
		out[i] = r
	}
	if g.Dots != nil {
		out[0].Spread = true
		out[0].Span = out[0].Span.to(b.tokSpan(*g.Dots.t))
		if len(out) > 1 || out[0].Kind != ResultValue {
			b.fail(out[0].Span, "%%name... (every result of the op, as a list) must be the only result")
		}
	}
	return out
}

// opPattern builds an op pattern's name, operands and attributes.
func (b *builder) opPattern(toks []lexer.Token, h *gOpHead, attrs *gAttrMap) *OpPattern {
	op := b.a.opPatterns.new()
	op.Span = b.span(toks)
	op.Name = b.opName(*h.Name.t)
	op.Lparen, op.Rparen = b.tokSpan(*h.Open.t), b.tokSpan(*h.Close.t)
	if len(h.Operands) > 0 {
		op.Operands = make([]Operand, len(h.Operands))
		for i, o := range h.Operands {
			op.Operands[i] = b.operand(o)
		}
	}
	if attrs != nil {
		op.Attrs = b.attrMap(attrs, op.Name)
	}
	return op
}

func (b *builder) nestedOp(g *gNestedOp) *OpPattern {
	op := b.opPattern(g.Tokens, g.Head, g.Attrs)
	if sig := g.Sig; sig != nil {
		op.Sig = b.signature(sig.Tokens, sig.Inputs, sig.NoIn)
		if sig.Output != nil {
			op.Sig.Outputs = []TypePattern{b.typ(sig.Output)}
		}
	}
	return op
}

func (b *builder) operands(gs []*gOperand) []Operand {
	if len(gs) == 0 {
		return nil
	}
	out := make([]Operand, len(gs))
	for i, g := range gs {
		out[i] = b.operand(g)
	}
	return out
}

func (b *builder) operand(g *gOperand) Operand {
	first := b.operand1(g)
	if g.Opt != nil {
		sp := first.span().to(b.tokSpan(*g.Opt.t))
		op, isOp := first.(*OpPattern)
		switch {
		case !isOp:
			b.fail(sp, "only an op pattern can be optional ('?'); write alternatives with '|'")
		case len(op.Operands) == 0:
			b.fail(sp, "optional %s has no operand to stand for it when it is absent", displayName(op.Name))
		case isAlt(op.Operands[0]):
			b.fail(sp, "the first operand of optional %s has alternatives itself: write the forms as alternatives", displayName(op.Name))
		default:
			first = &AltOperand{Span: sp, Alts: []Operand{op, op.Operands[0]}, Optional: true}
		}
	}
	if len(g.Alts) == 0 {
		return first
	}
	if o, ok := first.(*AltOperand); ok && o.Optional {
		b.fail(o.Span, "an optional op cannot be an alternative; write its two forms as alternatives")
	}
	alt := &AltOperand{Alts: []Operand{first}}
	for _, n := range g.Alts {
		// `a | b | c` nests to the right in the grammar; the alternatives are one flat list.
		switch o := b.operand(n.Operand).(type) {
		case *AltOperand:
			if o.Optional { // `a | op(x)?`: the optional op stays one alternative of its own
				b.fail(o.Span, "an optional op cannot be an alternative; write its two forms as alternatives")
			}
			alt.Alts = append(alt.Alts, o.Alts...)
		default:
			alt.Alts = append(alt.Alts, o)
		}
	}
	alt.Span = first.span().to(alt.Alts[len(alt.Alts)-1].span())
	return alt
}

// isAlt reports whether o is alternatives (or an optional op).
func isAlt(o Operand) bool {
	_, ok := o.(*AltOperand)
	return ok
}

// operand1 builds an operand without its alternatives.
func (b *builder) operand1(g *gOperand) Operand {
	switch {
	case g.Value != nil:
		sp := b.tokSpan(*g.Value.t)
		name := g.Value.t.Value[1:]
		if g.Spread != nil {
			return &VariadicOperand{Span: sp.to(b.tokSpan(*g.Spread.t)), Name: name}
		}
		v := b.a.valueOperands.new()
		v.Span, v.Name = sp, name
		if g.Type != nil {
			v.Type = b.typ(g.Type)
			v.Span = sp.to(v.Type.span())
		}
		return v
	case g.Op != nil:
		return b.nestedOp(g.Op)
	case set(g.Wild):
		return &WildcardOperand{Span: b.tokSpan(g.Wild)}
	case g.Null != nil:
		return &NullOperand{Span: b.tokSpan(*g.Null.t), Text: g.Null.t.Value}
	case g.Combine != nil:
		return &CombineOperand{Span: b.span(g.Combine.Tokens), Elems: b.operands(g.Combine.Elems)}
	case g.Each != nil:
		return b.each(g.Each)
	}
	return &EitherOperand{Span: b.span(g.Either.Tokens), Operands: b.operands(g.Either.Operands)}
}

// each builds `each(min, max) elem`; the counts must be 1 <= min <= max <= MaxUsers (a list group's MaxEach is
// the checker's).
func (b *builder) each(g *gEach) *EachOperand {
	o := &EachOperand{Span: b.span(g.Tokens), Elem: b.operand(g.Elem)}
	counts := b.tokSpan(*g.Min.t).to(b.tokSpan(*g.Max.t))
	lo, errLo := strconv.Atoi(g.Min.t.Value)
	hi, errHi := strconv.Atoi(g.Max.t.Value)
	switch {
	case errLo != nil || errHi != nil || lo < 1 || hi < 1:
		b.fail(counts, "the element counts of each(min, max) are integers from 1 to %d", MaxEach)
	case lo > hi:
		b.fail(counts, "each(%d, %d): the smallest count is larger than the largest", lo, hi)
	case hi > MaxUsers:
		b.fail(counts, "each(%d, %d): at most %d elements", lo, hi, MaxUsers)
	}
	o.Min, o.Max = lo, hi
	return o
}

// attrMap builds an attribute map of the op (or call) named owner;
// `$rest...` may only come last.
func (b *builder) attrMap(g *gAttrMap, owner *OpName) *AttrMap {
	m := b.a.attrMaps.new()
	m.Span = b.span(g.Tokens)
	for _, e := range g.Entries {
		if m.Rest != nil {
			b.fail(b.span(e.Tokens), "'$%s...' must be the last entry in the attributes of %s", m.Rest.Name, displayName(owner))
		}
		if set(e.Rest) {
			m.Rest = &RestAttrs{Span: b.span(e.Tokens), Name: e.Rest.Value[1:]}
			continue
		}
		entry := b.a.attrEntries.new()
		entry.Span, entry.Key, entry.Value = b.span(e.Tokens), b.ident(e.Key), b.expr(e.Value)
		m.Entries = append(m.Entries, entry)
	}
	return m
}

// signature builds a signature's inputs; the caller adds the outputs.
func (b *builder) signature(toks []lexer.Token, in *gSigInputs, noInputs bool) *Signature {
	sig := &Signature{Span: b.span(toks), NoInputs: noInputs}
	if in != nil {
		sig.Lparen, sig.Rparen = b.tokSpan(in.Tokens[1]), b.tokSpan(in.Tokens[len(in.Tokens)-1])
	}
	if in != nil && len(in.Types) > 0 {
		sig.Inputs = make([]TypePattern, len(in.Types))
		for i, t := range in.Types {
			sig.Inputs[i] = b.typ(t)
		}
	}
	return sig
}

// ---------------------------------------------------------------------------
// Types

func (b *builder) typ(g *gType) TypePattern {
	switch {
	case g.Tensor != nil:
		return b.tensorType(g.Tensor)
	case g.Vec != nil:
		v := &VecType{Span: b.span(g.Vec.Tokens)}
		for _, e := range g.Vec.Elems {
			v.Elems = append(v.Elems, b.typ(e))
		}
		return v
	case g.TypeOf != nil:
		return &TypeOf{Span: b.span(g.TypeOf.Tokens), Value: g.TypeOf.Value.t.Value[1:]}
	}
	t := *g.Tok.t
	sp := b.tokSpan(t)
	switch kindOf(t.Type) {
	case tHole:
		return &HoleType{Span: sp, Name: t.Value[1:]}
	case tNullType:
		return &NullType{Span: sp}
	case tWild:
		return &AnyType{Span: sp}
	case tPunct:
		if t.Value == "..." {
			return &AnyTypes{Span: sp}
		}
		return &AnyType{Span: sp}
	}
	return &NamedType{Span: sp, Name: t.Value}
}

// tensorType builds a tensor type: every item but the last is a dimension
// (an integer, ?, $hole, or * once), the last is the element type (a name,
// $hole or ?).
func (b *builder) tensorType(g *gTensorType) *TensorType {
	name := g.Name.Value
	var gitems []*gTensorItem
	if g.First != nil {
		gitems = append(gitems, g.First)
		for _, n := range g.More {
			gitems = append(gitems, n.Item)
		}
	}
	// A parenthesised item stands as its '(' token among the others; exprs keeps its expression.
	items := make([]lexer.Token, len(gitems))
	exprs := make([]*gParen, len(gitems))
	for i, it := range gitems {
		if it.Paren != nil {
			items[i], exprs[i] = it.Paren.Tokens[0], it.Paren
		} else {
			items[i] = *it.Tok.t
		}
	}
	t := b.a.tensorTypes.new()
	t.Span, t.Name = b.span(g.Tokens), name
	dims := make([]*Dim, 0, len(items)-1)
	star := false
	for k, it := range items {
		sp := b.tokSpan(it)
		if exprs[k] != nil {
			sp = b.span(exprs[k].Tokens)
			if k == len(items)-1 {
				b.fail(sp, "%s type must end with an element type such as f32, found a dimension expression", name)
			}
			d := b.a.dims.new()
			d.Span, d.Kind = sp, DimExpr
			d.Expr = &ParenExpr{Span: sp, X: b.expr(exprs[k].X)}
			dims = append(dims, d)
			continue
		}
		if k == len(items)-1 {
			d := b.a.dtypes.new()
			d.Span = sp
			switch {
			case isKind(&it, tIdent):
				d.Kind, d.Name = DtypeScalar, it.Value
			case isKind(&it, tHole):
				d.Kind, d.Name = DtypeHole, it.Value[1:]
			case isPunctTok(&it, "?"):
				d.Kind = DtypeAny
			default:
				b.fail(sp, "%s type must end with an element type such as f32, found %s", name, it.Value)
			}
			t.Dtype = d
			continue
		}
		d := b.a.dims.new()
		d.Span = sp
		switch {
		case isKind(&it, tInt):
			d.Kind, d.Text = DimInt, it.Value
		case isPunctTok(&it, "?"):
			d.Kind, d.Text = DimAny, "?"
		case isKind(&it, tHole):
			d.Kind, d.Text = DimHole, it.Value[1:]
		case isPunctTok(&it, "*"):
			if star {
				b.fail(sp, "'*' may appear only once in a %s type", name)
			}
			star = true
			d.Kind, d.Text = DimStar, "*"
		default:
			b.fail(sp, "%s is not a dimension (only the last item of a %s type is the element type)", it.Value, name)
		}
		dims = append(dims, d)
	}
	if len(dims) > 0 {
		t.Dims = dims
	}
	return t
}
