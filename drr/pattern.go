package drr

// This file parses match blocks: pattern statements, op patterns, operands,
// attribute maps, signatures and types.

// startsResults reports whether a result list starts here.
func (p *parser) startsResults() bool {
	t := p.tok()
	switch t.kind {
	case tValue:
		return true
	case tIdent:
		return t.text == "_"
	case tPunct:
		return t.text == "..." || t.text == "("
	}
	return false
}

func (p *parser) results() []*Result {
	paren := p.isP("(")
	if paren {
		p.next()
		if p.isP(")") {
			p.next()
			return nil
		}
	}
	mark := p.s.results.mark()
	for {
		t := p.tok()
		r := p.a.results.new()
		switch {
		case t.kind == tValue:
			r.Kind, r.Name = ResultValue, t.text[1:]
		case t.kind == tIdent && t.text == "_":
			r.Kind = ResultWildcard
		case isPunct(t, "..."):
			r.Kind = ResultEllipsis
		default:
			p.failFound("result (%%name, _ or ...)")
		}
		if n := len(p.s.results.items); n > mark && p.s.results.items[n-1].Kind == ResultEllipsis {
			p.fail(t, "'...' must be the last result")
		}
		p.next()
		r.Span = p.span(t)
		p.s.results.push(r)
		if !p.isP(",") {
			break
		}
		p.next()
	}
	if paren {
		p.expect(")", "after results")
	}
	return p.s.results.take(mark)
}

func (p *parser) patternStmt() *PatternStmt {
	first := p.tok()
	st := p.a.patternStmts.new()
	if first.kind == tLabel {
		p.next()
		st.Label = &Ident{Span: p.span(first), Name: first.text[1:]}
		p.expect("=", "after op label %s", first.text)
	}
	if p.startsResults() {
		st.Results = p.results()
		if !p.isP("=") {
			if len(st.Results) == 1 && st.Results[0].Kind == ResultValue {
				p.failFound("'=' after result %%%s", st.Results[0].Name)
			}
			p.failFound("'=' after results")
		}
		p.next()
	}
	if !p.opNameStart() {
		if st.Label == nil && st.Results == nil {
			p.failFound("pattern statement (e.g. '%%y = pd_op.relu(%%x)')")
		}
		p.failFound("op name after '='")
	}
	st.Op = p.opPattern(false)
	st.Span = p.span(first)
	return st
}

// opNameStart reports whether an op name starts here.
func (p *parser) opNameStart() bool {
	t := p.tok()
	return (t.kind == tIdent && t.text != "_") || t.kind == tString
}

// opName consumes an identifier or string naming an op.
func (p *parser) opName() *OpName {
	t := p.next()
	if t.kind == tString {
		v := unquote(t.text)
		if v == "" {
			p.fail(t, "empty op name")
		}
		n := p.a.opNames.new()
		n.Span, n.Name, n.Quoted = p.span(t), v, true
		return n
	}
	n := p.a.opNames.new()
	n.Span, n.Name = p.span(t), t.text
	return n
}

// displayName is how an op name appears in messages.
func displayName(n *OpName) string {
	if n.Quoted && !isPlainDotted(n.Name) {
		return quote(n.Name)
	}
	return n.Name
}

// opPattern parses `name(operands) {attrs} : (types) -> types`. nested
// patterns (operands of another op) take at most one result type, since a
// ',' after it separates operands of the consumer.
func (p *parser) opPattern(nested bool) *OpPattern {
	first := p.tok()
	op := p.a.opPatterns.new()
	op.Name = p.opName()
	name := displayName(op.Name)
	if p.isP("[") && p.peek(1).kind == tIdent && p.peek(1).text == "id" {
		// "[id:N]" printed by some Paddle versions after the op name: ignored.
		p.next()
		p.next()
		p.expect(":", "after 'id' in op id")
		if p.tok().kind != tInt {
			p.failFound("integer op id")
		}
		p.next()
		p.expect("]", "after op id")
	}
	if !p.isP("(") {
		p.failFound("'(' after op name %s", name)
	}
	p.next()
	op.Operands = p.operandList(name, ")")
	if p.isP("{") {
		op.Attrs = p.attrMap(name)
	}
	if p.isP(":") || p.isP("->") {
		op.Sig = p.signature(name, nested)
	}
	op.Span = p.span(first)
	return op
}

// operandList parses operands up to and including the closing bracket.
func (p *parser) operandList(owner, closer string) []Operand {
	mark := p.s.operands.mark()
	for !p.isP(closer) {
		p.s.operands.push(p.operand(owner))
		if p.isP(",") {
			p.next()
			continue
		}
		if !p.isP(closer) {
			if closer == "]" {
				p.failFound("',' or ']' in the combined operands of %s", owner)
			}
			p.failFound("')' after operands of %s", owner)
		}
	}
	p.next()
	return p.s.operands.take(mark)
}

func (p *parser) operand(owner string) Operand {
	t := p.tok()
	switch t.kind {
	case tValue:
		p.next()
		name := t.text[1:]
		if p.isP("...") {
			p.next()
			return &VariadicOperand{Span: p.span(t), Name: name}
		}
		v := p.a.valueOperands.new()
		v.Name = name
		if p.isP(":") {
			p.next()
			v.Type = p.typePattern("type of operand " + t.text)
		}
		v.Span = p.span(t)
		return v
	case tNull:
		p.next()
		return &NullOperand{Span: p.span(t), Text: t.text}
	case tPunct:
		if t.text == "[" {
			p.next()
			elems := p.operandList(owner, "]")
			return &CombineOperand{Span: p.span(t), Elems: elems}
		}
	case tIdent:
		switch {
		case t.text == "_":
			p.next()
			return &WildcardOperand{Span: p.span(t)}
		case t.text == "null":
			p.next()
			return &NullOperand{Span: p.span(t), Text: t.text}
		case t.text == "either" && isPunct(p.peek(1), "("):
			p.next()
			p.next()
			ops := p.operandList("either", ")")
			return &EitherOperand{Span: p.span(t), Operands: ops}
		}
		return p.opPattern(true)
	case tString:
		if isPunct(p.peek(1), "(") {
			return p.opPattern(true)
		}
	case tHole:
		p.fail(t, "attribute hole %s cannot be an operand of %s (operands are values like %%x)", t.text, owner)
	}
	p.failFound("operand of %s", owner)
	return nil
}

// attrMap parses `{key: value, …, $rest...}`; owner names the op for messages.
func (p *parser) attrMap(owner string) *AttrMap {
	lb := p.next()
	m := p.a.attrMaps.new()
	mark := p.s.entries.mark()
	for !p.isP("}") {
		t := p.tok()
		if m.Rest != nil {
			p.fail(t, "'$%s...' must be the last entry in the attributes of %s", m.Rest.Name, owner)
		}
		if t.kind == tHole && isPunct(p.peek(1), "...") {
			p.next()
			p.next()
			m.Rest = &RestAttrs{Span: p.span(t), Name: t.text[1:]}
		} else {
			if t.kind != tIdent {
				p.failFound("attribute name in the attributes of %s", owner)
			}
			p.next()
			key := p.a.idents.new()
			key.Span, key.Name = p.span(t), t.text
			if !p.isP(":") {
				p.failFound("':' after attribute name %s", key.Name)
			}
			p.next()
			if !p.exprStart() {
				p.failFound("value of attribute %s", key.Name)
			}
			v := p.expr()
			e := p.a.attrEntries.new()
			e.Span, e.Key, e.Value = p.span(t), key, v
			p.s.entries.push(e)
		}
		if p.isP(",") {
			p.next()
			continue
		}
		if !p.isP("}") {
			what := "attribute " + t.text
			if m.Rest != nil {
				what = "'" + t.text + "...'"
			}
			p.failFound("',' or '}' after %s of %s", what, owner)
		}
	}
	p.next()
	m.Entries = p.s.entries.take(mark)
	m.Span = p.span(lb)
	return m
}

// signature parses `: (types) -> types`, or `-> types` (region ops).
func (p *parser) signature(owner string, nested bool) *Signature {
	first := p.tok()
	sig := &Signature{}
	mark := p.s.types.mark()
	if p.isP("->") {
		sig.NoInputs = true
	} else {
		p.next()
		p.expect("(", "after ':' in the type signature of %s", owner)
		for !p.isP(")") {
			p.s.types.push(p.typePattern("operand type of " + owner))
			if p.isP(",") {
				p.next()
				continue
			}
			if !p.isP(")") {
				p.failFound("',' or ')' after operand type of %s", owner)
			}
		}
		p.next()
		sig.Inputs = p.s.types.take(mark)
	}
	p.expect("->", "after the operand types of %s", owner)
	if p.typeStart() {
		for {
			p.s.types.push(p.typePattern("result type of " + owner))
			if nested || !p.isP(",") {
				break
			}
			p.next()
		}
	}
	sig.Outputs = p.s.types.take(mark)
	sig.Span = p.span(first)
	return sig
}

// ---------------------------------------------------------------------------
// Types

func (p *parser) typeStart() bool {
	t := p.tok()
	switch t.kind {
	case tTensor, tHole, tNullType:
		return true
	case tIdent:
		return true
	case tPunct:
		return t.text == "?" || t.text == "..."
	}
	return false
}

// typePattern parses a type; what describes it for messages.
func (p *parser) typePattern(what string) TypePattern {
	t := p.tok()
	switch t.kind {
	case tTensor:
		p.next()
		tt, d := parseTensorType(t.text, p.tokSpan(t), &p.a)
		if d != nil {
			p.diags = append(p.diags, d)
			panic(bailout{})
		}
		return tt
	case tHole:
		p.next()
		return &HoleType{Span: p.span(t), Name: t.text[1:]}
	case tNullType:
		p.next()
		return &NullType{Span: p.span(t)}
	case tPunct:
		switch t.text {
		case "?":
			p.next()
			return &AnyType{Span: p.span(t)}
		case "...":
			p.next()
			return &AnyTypes{Span: p.span(t)}
		}
	case tIdent:
		switch {
		case t.text == "_":
			p.next()
			return &AnyType{Span: p.span(t)}
		case t.text == "vec" && isPunct(p.peek(1), "["):
			p.next()
			p.next()
			v := &VecType{}
			mark := p.s.types.mark()
			for !p.isP("]") {
				p.s.types.push(p.typePattern("element type of vec[…]"))
				if p.isP(",") {
					p.next()
					continue
				}
				if !p.isP("]") {
					p.failFound("',' or ']' in vec[…]")
				}
			}
			p.next()
			v.Elems = p.s.types.take(mark)
			v.Span = p.span(t)
			return v
		case t.text == "type" && isPunct(p.peek(1), "("):
			p.next()
			p.next()
			v := p.tok()
			if v.kind != tValue {
				p.failFound("value in type(…)")
			}
			p.next()
			p.expect(")", "after type(%s", v.text)
			return &TypeOf{Span: p.span(t), Value: v.text[1:]}
		}
		p.next()
		return &NamedType{Span: p.span(t), Name: t.text}
	}
	p.failFound("%s", what)
	return nil
}
