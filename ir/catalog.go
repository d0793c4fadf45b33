package ir

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseCatalog parses a dialect catalog (a .dialect file) into a Dialect whose schemas use c for their default
// attributes. The dialect is not registered; see Context.LoadCatalog. Errors are positioned: "file:line:col: message".
//
// A catalog is "dialect NAME [id N]" followed by ops:
//
//	/// doc comment
//	op NAME(operand, optional?, variadic..., mutable: IntArray) -> (result, optional?, variadic...)
//	    attrs(name: kind = default, …)     kinds: bool i32 i64 index f32 f64 str … IntArray DataType Place, X[] arrays;
//	                                       "name: kind?" is an optional attribute without default (AttrSpec.Optional)
//	    args(operand, attr, mutable, …)    Paddle's argument order, when it is not operands then attrs
//	    traits(ReadOnly, …) inplace(x -> out) view(x -> out) infer(rule) regions(n)
//
// args lists the op's arguments in the order of Paddle's op yaml (the signature of paddle._C_ops.NAME): every
// operand, and the attributes that are arguments. It is needed only where a mutable operand follows an attribute
// (slice: input, axes, starts, ends, infer_flags, decrease_axis); see OpSchema.Args.
func (c *Context) ParseCatalog(filename string, src []byte) (*Dialect, error) {
	p := &catParser{ctx: c, lex: catLexer{file: filename, src: src, line: 1, col: 1}}
	p.next()
	d, err := p.file()
	if err != nil {
		return nil, err
	}
	d.Source = filename
	return d, nil
}

// LoadCatalog parses a catalog and registers its dialect.
func (c *Context) LoadCatalog(filename string, src []byte) (*Dialect, error) {
	d, err := c.ParseCatalog(filename, src)
	if err != nil {
		return nil, err
	}
	if err := c.RegisterDialect(d); err != nil {
		return nil, fmt.Errorf("%s: %w", filename, err)
	}
	return d, nil
}

type catTok struct {
	kind      byte // 'i' ident, 'n' number, 's' string, 'd' doc comment, 0 EOF, else punctuation ('.' = "...", '>' = "->")
	text      string
	line, col int
}

type catLexer struct {
	file      string
	src       []byte
	pos       int
	line, col int
}

func (l *catLexer) errorf(line, col int, format string, args ...any) error {
	return fmt.Errorf("%s:%d:%d: %s", l.file, line, col, fmt.Sprintf(format, args...))
}

func (l *catLexer) advance(n int) {
	for i := 0; i < n && l.pos < len(l.src); i++ {
		if l.src[l.pos] == '\n' {
			l.line++
			l.col = 1
		} else {
			l.col++
		}
		l.pos++
	}
}

func (l *catLexer) scan() (catTok, error) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			l.advance(1)
			continue
		}
		if c == '/' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '/' {
			line, col := l.line, l.col
			end := l.pos
			for end < len(l.src) && l.src[end] != '\n' {
				end++
			}
			text := string(l.src[l.pos:end])
			l.advance(end - l.pos)
			if strings.HasPrefix(text, "///") {
				return catTok{kind: 'd', text: strings.TrimSpace(text[3:]), line: line, col: col}, nil
			}
			continue
		}
		break
	}
	if l.pos >= len(l.src) {
		return catTok{kind: 0, line: l.line, col: l.col}, nil
	}
	line, col := l.line, l.col
	s := l.src[l.pos:]
	c := s[0]
	switch {
	case isIdentStart(c):
		n := 1
		for n < len(s) && isIdentChar(s[n]) {
			n++
		}
		l.advance(n)
		return catTok{kind: 'i', text: string(s[:n]), line: line, col: col}, nil
	case c >= '0' && c <= '9' || c == '-' && len(s) > 1 && (s[1] >= '0' && s[1] <= '9' || s[1] == 'i' || s[1] == '.'):
		n := 1
		for n < len(s) && (isIdentChar(s[n]) || s[n] == '.' || (s[n] == '-' || s[n] == '+') && (s[n-1] == 'e' || s[n-1] == 'E')) {
			n++
		}
		l.advance(n)
		return catTok{kind: 'n', text: string(s[:n]), line: line, col: col}, nil
	case c == '"':
		var b strings.Builder
		n := 1
		for {
			if n >= len(s) || s[n] == '\n' {
				return catTok{}, l.errorf(line, col, "unterminated string")
			}
			if s[n] == '"' {
				break
			}
			if s[n] == '\\' && n+1 < len(s) {
				switch s[n+1] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				default:
					b.WriteByte(s[n+1])
				}
				n += 2
				continue
			}
			b.WriteByte(s[n])
			n++
		}
		l.advance(n + 1)
		return catTok{kind: 's', text: b.String(), line: line, col: col}, nil
	case c == '.' && len(s) >= 3 && s[1] == '.' && s[2] == '.':
		l.advance(3)
		return catTok{kind: '.', text: "...", line: line, col: col}, nil
	case c == '-' && len(s) >= 2 && s[1] == '>':
		l.advance(2)
		return catTok{kind: '>', text: "->", line: line, col: col}, nil
	case strings.IndexByte("(),:?=[]", c) >= 0:
		l.advance(1)
		return catTok{kind: c, text: string(c), line: line, col: col}, nil
	}
	return catTok{}, l.errorf(line, col, "unexpected character %q", c)
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isIdentChar(c byte) bool  { return isIdentStart(c) || c >= '0' && c <= '9' }

type catParser struct {
	ctx  *Context
	lex  catLexer
	tok  catTok
	err  error
	docs []string
	// args holds the names of the current op's args(…) clause until the op is complete; hasArgs says the clause
	// was given.
	args    []catTok
	hasArgs bool
}

func (p *catParser) next() {
	if p.err != nil {
		return
	}
	for {
		t, err := p.lex.scan()
		if err != nil {
			p.err = err
			p.tok = catTok{}
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

func (p *catParser) fail(format string, args ...any) error {
	if p.err != nil {
		return p.err
	}
	p.err = p.lex.errorf(p.tok.line, p.tok.col, format, args...)
	return p.err
}

func describe(t catTok) string {
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

func (p *catParser) expect(kind byte, what string) (catTok, error) {
	if p.err != nil {
		return catTok{}, p.err
	}
	if p.tok.kind != kind {
		return catTok{}, p.fail("expected %s, found %s", what, describe(p.tok))
	}
	t := p.tok
	p.next()
	return t, p.err
}

func (p *catParser) keyword(word string) bool {
	if p.tok.kind == 'i' && p.tok.text == word {
		p.next()
		return true
	}
	return false
}

func (p *catParser) file() (*Dialect, error) {
	p.docs = nil
	if !p.keyword("dialect") {
		return nil, p.fail("a catalog starts with 'dialect NAME', found %s", describe(p.tok))
	}
	name, err := p.expect('i', "the dialect name")
	if err != nil {
		return nil, err
	}
	d := &Dialect{Name: name.text, JSONID: -1}
	if p.keyword("id") {
		n, err := p.expect('n', "the dialect's JSON id")
		if err != nil {
			return nil, err
		}
		id, convErr := strconv.Atoi(n.text)
		if convErr != nil || id < 0 {
			return nil, p.lex.errorf(n.line, n.col, "bad dialect id %s", n.text)
		}
		d.JSONID = id
	}
	seen := map[string]bool{}
	for p.err == nil && p.tok.kind != 0 {
		s, err := p.op(d)
		if err != nil {
			return nil, err
		}
		if seen[s.Name] {
			return nil, fmt.Errorf("%s: op %s declared twice", p.lex.file, s.Name)
		}
		seen[s.Name] = true
		d.Ops = append(d.Ops, s)
	}
	return d, p.err
}

func (p *catParser) op(d *Dialect) (*OpSchema, error) {
	doc := strings.Join(p.docs, "\n")
	p.docs = nil
	start := p.tok
	if !p.keyword("op") {
		return nil, p.fail("expected 'op', found %s", describe(p.tok))
	}
	name, err := p.expect('i', "the op name")
	if err != nil {
		return nil, err
	}
	s := &OpSchema{Name: d.Name + "." + name.text, Doc: doc}
	if _, err := p.expect('(', "'(' before the operands of "+name.text); err != nil {
		return nil, err
	}
	for p.err == nil && p.tok.kind != ')' {
		o, err := p.operand()
		if err != nil {
			return nil, err
		}
		s.Operands = append(s.Operands, o)
		if p.tok.kind == ',' {
			p.next()
		} else if p.tok.kind != ')' {
			return nil, p.fail("expected ',' or ')' in the operands of %s, found %s", name.text, describe(p.tok))
		}
	}
	p.next()
	if _, err := p.expect('>', "'->' before the results of "+name.text); err != nil {
		return nil, err
	}
	if _, err := p.expect('(', "'(' before the results of "+name.text); err != nil {
		return nil, err
	}
	for p.err == nil && p.tok.kind != ')' {
		r, err := p.expect('i', "a result name")
		if err != nil {
			return nil, err
		}
		rs := ResultSpec{Name: r.text}
		switch p.tok.kind {
		case '?':
			rs.Optional = true
			p.next()
		case '.':
			rs.Variadic = true
			p.next()
		}
		s.Results = append(s.Results, rs)
		if p.tok.kind == ',' {
			p.next()
		} else if p.tok.kind != ')' {
			return nil, p.fail("expected ',' or ')' in the results of %s, found %s", name.text, describe(p.tok))
		}
	}
	p.next()
	p.args, p.hasArgs = nil, false
	for p.err == nil && p.tok.kind == 'i' && p.tok.text != "op" {
		if err := p.clause(s); err != nil {
			return nil, err
		}
	}
	if p.err != nil {
		return nil, p.err
	}
	if err := checkSchema(s); err != nil {
		return nil, p.lex.errorf(start.line, start.col, "%v", err)
	}
	if err := p.resolveArgs(s); err != nil {
		return nil, err
	}
	return s, nil
}

// resolveArgs fills s.Args from the op's args(…) clause, or with the operands followed by the attributes when it
// has none. The clause must name every operand once, and follow Paddle's rule for the yaml args: tensor inputs
// (operands that are not mutable attributes) come first, and mutable operands keep their operand order.
func (p *catParser) resolveArgs(s *OpSchema) error {
	if !p.hasArgs {
		s.Args = make([]Arg, 0, len(s.Operands)+len(s.Attrs))
		for i, o := range s.Operands {
			s.Args = append(s.Args, Arg{Name: o.Name, Operand: i, Attr: -1})
		}
		for i, a := range s.Attrs {
			if !a.Optional {
				s.Args = append(s.Args, Arg{Name: a.Name, Operand: -1, Attr: i})
			}
		}
		return nil
	}
	s.Args = make([]Arg, 0, len(p.args))
	seen := map[string]bool{}
	lastMutable, sawNonTensor := -1, false
	for _, t := range p.args {
		if seen[t.text] {
			return p.lex.errorf(t.line, t.col, "%s: argument %s listed twice", s.Name, t.text)
		}
		seen[t.text] = true
		if oi := s.OperandIndex(t.text); oi >= 0 {
			if s.Operands[oi].Mutable == KindAny {
				if sawNonTensor {
					return p.lex.errorf(t.line, t.col, "%s: operand %s comes after an attribute; Paddle lists tensor inputs first", s.Name, t.text)
				}
			} else {
				if oi < lastMutable {
					return p.lex.errorf(t.line, t.col, "%s: mutable operand %s is out of the operands' order", s.Name, t.text)
				}
				lastMutable, sawNonTensor = oi, true
			}
			s.Args = append(s.Args, Arg{Name: t.text, Operand: oi, Attr: -1})
			continue
		}
		ai := indexAttr(s.Attrs, t.text)
		if ai < 0 {
			return p.lex.errorf(t.line, t.col, "%s has no operand or attribute %s", s.Name, t.text)
		}
		sawNonTensor = true
		s.Args = append(s.Args, Arg{Name: t.text, Operand: -1, Attr: ai})
	}
	for _, o := range s.Operands {
		if !seen[o.Name] {
			return p.lex.errorf(p.args[0].line, p.args[0].col, "%s: args(…) does not list operand %s", s.Name, o.Name)
		}
	}
	return nil
}

func indexAttr(attrs []AttrSpec, name string) int {
	for i, a := range attrs {
		if a.Name == name {
			return i
		}
	}
	return -1
}

func (p *catParser) operand() (OperandSpec, error) {
	n, err := p.expect('i', "an operand name")
	if err != nil {
		return OperandSpec{}, err
	}
	o := OperandSpec{Name: n.text}
	if p.tok.kind == ':' {
		p.next()
		t, err := p.attrType()
		if err != nil {
			return o, err
		}
		o.Mutable = t.Kind
	}
	switch p.tok.kind {
	case '?':
		o.Optional = true
		p.next()
	case '.':
		o.Variadic = true
		p.next()
	}
	return o, p.err
}

func (p *catParser) attrType() (AttrType, error) {
	t, err := p.expect('i', "an attribute kind")
	if err != nil {
		return AttrType{}, err
	}
	k, ok := AttrKindFromName(t.text)
	if !ok || k == KindArray || k == KindOpaque || k == KindNull {
		return AttrType{}, p.lex.errorf(t.line, t.col, "unknown attribute kind %q", t.text)
	}
	at := AttrType{Kind: k}
	if p.tok.kind == '[' {
		p.next()
		if _, err := p.expect(']', "']' after '[' in an array kind"); err != nil {
			return at, err
		}
		at.Array = true
	}
	return at, nil
}

func (p *catParser) clause(s *OpSchema) error {
	kw := p.tok
	p.next()
	if _, err := p.expect('(', "'(' after "+kw.text); err != nil {
		return err
	}
	list := func(item func() error) error {
		for p.err == nil && p.tok.kind != ')' {
			if err := item(); err != nil {
				return err
			}
			if p.tok.kind == ',' {
				p.next()
			} else if p.tok.kind != ')' {
				return p.fail("expected ',' or ')' in %s(…), found %s", kw.text, describe(p.tok))
			}
		}
		p.next()
		return p.err
	}
	switch kw.text {
	case "attrs":
		return list(func() error {
			n, err := p.expect('i', "an attribute name")
			if err != nil {
				return err
			}
			if _, err := p.expect(':', "':' after attribute "+n.text); err != nil {
				return err
			}
			t, err := p.attrType()
			if err != nil {
				return err
			}
			spec := AttrSpec{Name: n.text, Type: t}
			if p.tok.kind == '?' {
				spec.Optional = true
				p.next()
				if p.tok.kind == '=' {
					return p.fail("optional attribute %s has no default", n.text)
				}
			}
			if p.tok.kind == '=' {
				p.next()
				lt := p.tok
				lit, err := p.literal()
				if err != nil {
					return err
				}
				a, err := p.ctx.Coerce(t, lit)
				if err != nil {
					return p.lex.errorf(lt.line, lt.col, "default of %s: %v", n.text, err)
				}
				spec.Default = a
			}
			for _, prev := range s.Attrs {
				if prev.Name == spec.Name {
					return p.lex.errorf(n.line, n.col, "attribute %s declared twice", n.text)
				}
			}
			s.Attrs = append(s.Attrs, spec)
			return nil
		})
	case "traits":
		return list(func() error {
			t, err := p.expect('i', "a trait name")
			if err != nil {
				return err
			}
			tr, ok := TraitFromName(t.text)
			if !ok || tr == Inplace || tr == ViewLike {
				return p.lex.errorf(t.line, t.col, "unknown trait %q (traits: ReadOnly, ValueSemantics, Terminator, SideEffects, Commutative, ConstantLike; use inplace(…) and view(…) for the others)", t.text)
			}
			s.Traits |= tr
			return nil
		})
	case "inplace", "view":
		return list(func() error {
			in, err := p.expect('i', "an operand name")
			if err != nil {
				return err
			}
			if _, err := p.expect('>', "'->' in "+kw.text+"(…)"); err != nil {
				return err
			}
			out, err := p.expect('i', "a result name")
			if err != nil {
				return err
			}
			oi, ri := s.OperandIndex(in.text), s.ResultIndex(out.text)
			if oi < 0 {
				return p.lex.errorf(in.line, in.col, "%s has no operand %s", s.Name, in.text)
			}
			if ri < 0 {
				return p.lex.errorf(out.line, out.col, "%s has no result %s", s.Name, out.text)
			}
			if kw.text == "inplace" {
				s.Inplace = append(s.Inplace, IOPair{oi, ri})
				s.Traits |= Inplace
			} else {
				s.View = append(s.View, IOPair{oi, ri})
				s.Traits |= ViewLike
			}
			return nil
		})
	case "args":
		if p.hasArgs {
			return p.lex.errorf(kw.line, kw.col, "%s: args(…) given twice", s.Name)
		}
		p.hasArgs = true
		err := list(func() error {
			t, err := p.expect('i', "an operand or attribute name")
			if err != nil {
				return err
			}
			p.args = append(p.args, t)
			return nil
		})
		if err == nil && len(p.args) == 0 && len(s.Operands) > 0 {
			return p.lex.errorf(kw.line, kw.col, "%s: args(…) is empty", s.Name)
		}
		return err
	case "infer":
		t, err := p.expect('i', "a result-type rule name")
		if err != nil {
			return err
		}
		s.Infer = t.text
		_, err = p.expect(')', "')' after the rule name")
		return err
	case "regions":
		n, err := p.expect('n', "the number of regions")
		if err != nil {
			return err
		}
		r, convErr := strconv.Atoi(n.text)
		if convErr != nil || r < 0 {
			return p.lex.errorf(n.line, n.col, "bad region count %s", n.text)
		}
		s.Regions = r
		_, err = p.expect(')', "')' after the region count")
		return err
	}
	return p.lex.errorf(kw.line, kw.col, "unknown clause %q (clauses: attrs, args, traits, inplace, view, infer, regions)", kw.text)
}

func (p *catParser) literal() (Literal, error) {
	t := p.tok
	switch t.kind {
	case 'n':
		p.next()
		l, err := ParseNumber(t.text)
		if err != nil {
			return l, p.lex.errorf(t.line, t.col, "%v", err)
		}
		return l, nil
	case 's':
		p.next()
		return Literal{Kind: LitString, Str: t.text}, nil
	case '[':
		p.next()
		l := Literal{Kind: LitList, List: []Literal{}}
		for p.err == nil && p.tok.kind != ']' {
			e, err := p.literal()
			if err != nil {
				return l, err
			}
			l.List = append(l.List, e)
			if p.tok.kind == ',' {
				p.next()
			} else if p.tok.kind != ']' {
				return l, p.fail("expected ',' or ']' in a list, found %s", describe(p.tok))
			}
		}
		p.next()
		return l, p.err
	case 'i':
		p.next()
		switch t.text {
		case "true", "false":
			return Literal{Kind: LitBool, Bool: t.text == "true"}, nil
		case "inf", "nan":
			return ParseNumber(t.text)
		case "Place":
			if _, err := p.expect('(', "'(' after Place"); err != nil {
				return Literal{}, err
			}
			var b strings.Builder
			for p.err == nil && p.tok.kind != ')' && p.tok.kind != 0 {
				b.WriteString(p.tok.text)
				p.next()
			}
			if _, err := p.expect(')', "')' after the place"); err != nil {
				return Literal{}, err
			}
			return Literal{Kind: LitPlace, Str: b.String()}, nil
		}
		return Literal{Kind: LitIdent, Str: t.text}, nil
	}
	return Literal{}, p.fail("expected a literal, found %s", describe(t))
}

// checkSchema checks the consistency rules of the catalog format.
func checkSchema(s *OpSchema) error {
	if s.Has(ValueSemantics) && (s.Has(Inplace) || s.Has(ViewLike)) {
		return fmt.Errorf("%s: an inplace or view op cannot have ValueSemantics", s.Name)
	}
	if s.Has(ValueSemantics) {
		s.Traits |= ReadOnly
	}
	names := map[string]bool{}
	for _, o := range s.Operands {
		if names[o.Name] {
			return fmt.Errorf("%s: operand %s declared twice", s.Name, o.Name)
		}
		names[o.Name] = true
	}
	names = map[string]bool{}
	for _, r := range s.Results {
		if names[r.Name] {
			return fmt.Errorf("%s: result %s declared twice", s.Name, r.Name)
		}
		names[r.Name] = true
	}
	return nil
}
