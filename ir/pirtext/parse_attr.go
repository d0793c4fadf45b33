package pirtext

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"github.com/pirdrr/drr/ir"
)

// Attributes.
//
// Tagged (era B) values say their kind: (Int32)1, (Int64)-1, (Index)3, (Float)1e-05, (Double)1, (Pointer)0x…,
// (Complex64)[re,im], (pd_op.IntArray)[…], (pd_op.DataType)float32, (pd_op.Place)Place(cpu),
// (pd_op.DataLayout)NCHW, (pd_op.Scalar)float32:(Float)1, (TensorName)"x". Strings are quoted, booleans are
// true/false, lists are […], types stand for type attributes, <#AttrNull> is the null attribute, and dialect
// attributes that the engine does not model (kernel_key:<backend:GPU|…>, kernel_info:(0x7f…)) are kept as
// ir.OpaqueAttr with their exact text.
//
// Untagged (era C) values do not: 1, 1e-05, [1,1], float32, NCHW, Place(cpu). They are read as ir.Literal and
// given a kind by the op's schema (Context.Coerce), or guessed (Context.Guess) when the op is unregistered or does
// not declare the attribute.

// attrNode is a parsed attribute value: a finished attribute, or an untagged literal still waiting for its kind.
type attrNode struct {
	a   ir.Attribute
	lit ir.Literal
}

// layoutNames are the spellings of Paddle's DataLayout values (DataLayoutToString).
var layoutNames = map[string]bool{
	"NCHW": true, "NHWC": true, "NCDHW": true, "NDHWC": true, "Undefined(AnyLayout)": true, "ONEDNN": true,
	"SPARSE_COO": true, "SPARSE_CSR": true, "PSTRING_UNION": true, "STRIDED": true,
}

// dictExtent returns the end of the attribute map opening at i: just after the first '}' outside a string, or -1
// if there is none or the map contains a '{'. The per-op-name attribute cache is keyed by this text.
func dictExtent(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '}':
			return j + 1
		case '{':
			return -1
		case '"':
			end, _ := quotedEnd(src, j)
			if end < 0 {
				return -1
			}
			j = end - 1
		}
	}
	return -1
}

// dictEntry is an attribute map read before: its attributes, and where its top-level string values are in its
// text.
type dictEntry struct {
	attrs []ir.NamedAttr
	strs  []strSpan
}

// strSpan locates a string value in the text of an attribute map: the attribute's index, and the offsets of the
// opening and closing quotes from the '{'.
type strSpan struct {
	attr, open, close int32
}

// attrDict parses an attribute map {k:v,…} at the cursor for an op of kind e. Maps are cached per op name by
// their text: a repeated map costs one scan and one lookup, a map that differs from the last of its kind only in
// one string (each parameter's name) a comparison and a copy. The returned slice is shared and must not be
// changed.
func (p *parser) attrDict(e *opEntry) []ir.NamedAttr {
	if p.slow {
		return p.attrDictSlow(e)
	}
	start := p.pos
	// The map read last for this op kind, repeated here: the same bytes end at the same '}'.
	if n := len(e.lastText); n > 0 && bytes.HasPrefix(p.src[start:], e.lastText) {
		p.advanceTo(start + n)
		e.hits++
		return e.last.attrs
	}
	fast := -1
	if e.hits >= e.misses {
		if attrs, ok := p.cachedDict(e, start, &fast); ok {
			return attrs
		}
	}
	if attrs, ok := p.attrVariant(e); ok {
		p.rememberDict(e, start, attrs)
		return attrs
	}
	if fast == -1 {
		if attrs, ok := p.cachedDict(e, start, &fast); ok {
			return attrs
		}
	}
	nw := len(p.warns)
	p.strSpans = p.strSpans[:0]
	attrs := p.attrDictSlow(e)
	if fast == p.pos && len(p.warns) == nw && e.dicts != nil {
		p.rememberDict(e, start, attrs)
	}
	return attrs
}

// rememberDict makes the map just read, from start to the cursor, with the string spans in p.strSpans, the last of
// e's kind, and adds it to e's cache unless the kind's maps rarely repeat (builtin.parameter, with a name per op):
// the last map of such a kind lives in e itself, so that reading a map per op leaves no garbage.
func (p *parser) rememberDict(e *opEntry, start int, attrs []ir.NamedAttr) {
	text := p.src[start:p.pos]
	e.misses++
	d := &e.lastOwn
	if e.misses < 64 || e.hits >= e.misses {
		d = &dictEntry{}
		e.dicts[string(text)] = d
	}
	d.attrs, d.strs = attrs, append(d.strs[:0], p.strSpans...)
	e.lastText, e.last = append(e.lastText[:0], text...), d
}

// cachedDict looks the map at start up in e's cache, setting *end to its extent (0 if the cache cannot hold it).
func (p *parser) cachedDict(e *opEntry, start int, end *int) ([]ir.NamedAttr, bool) {
	*end = max(0, dictExtent(p.src, start))
	if *end == 0 {
		return nil, false
	}
	text := p.src[start:*end]
	d, ok := e.dicts[string(text)]
	if !ok {
		return nil, false
	}
	p.advanceTo(*end)
	e.hits++
	e.lastText, e.last = append(e.lastText[:0], text...), d
	return d.attrs, true
}

// attrVariant reads the map at the cursor if it is the last map of e's kind with one string value changed: the
// same text up to the string, a new string without escapes or line ends, and the same text after it. Its
// attributes are those of the last map with that one replaced, as attrDictSlow would read them.
//
// The spans of the new map's strings are left in p.strSpans.
func (p *parser) attrVariant(e *opEntry) ([]ir.NamedAttr, bool) {
	if e.last == nil || len(e.last.strs) == 0 {
		return nil, false
	}
	src, last := p.src[p.pos:], e.lastText
	m := commonPrefix(src, last)
	for _, sp := range e.last.strs {
		open, close := int(sp.open), int(sp.close)
		if m <= open {
			return nil, false // the maps differ before this string (spans are in order)
		}
		if m > close {
			continue
		}
		end := bytes.IndexByte(src[open+1:], '"')
		if end < 0 {
			return nil, false
		}
		end += open + 1
		body := src[open+1 : end]
		if bytes.IndexByte(body, '\\') >= 0 || bytes.IndexByte(body, '\n') >= 0 {
			return nil, false
		}
		rest := last[close+1:]
		if !bytes.HasPrefix(src[end+1:], rest) {
			return nil, false
		}
		attrs := p.attrRun(len(e.last.attrs))
		copy(attrs, e.last.attrs)
		attrs[sp.attr].Value = p.ctx.StrBytes(body)
		// The strings after this one move by the difference in length.
		spans := append(p.strSpans[:0], e.last.strs...)
		delta := int32(end - close)
		for k := range spans {
			if spans[k].open > sp.open {
				spans[k].open += delta
			}
			if spans[k].close >= sp.close {
				spans[k].close += delta
			}
		}
		p.strSpans = spans
		p.advanceTo(p.pos + end + 1 + len(rest))
		return attrs, true
	}
	return nil, false
}

// attrRun returns n attribute slots from the parser's slab (the attribute lists of the maps it does not share).
func (p *parser) attrRun(n int) []ir.NamedAttr {
	if n > 64 {
		return make([]ir.NamedAttr, n)
	}
	if len(p.attrSlab) < n {
		p.attrSlab = make([]ir.NamedAttr, 1024)
	}
	s := p.attrSlab[:n:n]
	p.attrSlab = p.attrSlab[n:]
	return s
}

func (p *parser) attrDictSlow(e *opEntry) []ir.NamedAttr {
	open, start := p.here(), p.pos
	p.pos++ // '{'
	p.skipSpace()
	if p.peek() == '}' {
		p.pos++
		return nil
	}
	var attrs []ir.NamedAttr
	var seen map[string]bool
	for {
		p.skipSpace()
		kpos := p.here()
		var key string
		switch c := p.peek(); {
		case c == '"':
			key = p.ctx.AttrName(p.quoted())
		case isIdentStart(c):
			key = p.intern(p.ident())
		default:
			if p.eof() {
				p.failAt(open, "unterminated attribute map: expected '}', found end of file")
			}
			p.fail("expected an attribute name, found %s", p.describe())
		}
		if !p.accept(':') {
			p.fail("expected ':' after the attribute name %s, found %s", key, p.describe())
		}
		p.skipSpace()
		vpos, vstart := p.here(), p.pos
		n := p.attrValue()
		var spec *ir.AttrSpec
		if e.schema != nil {
			spec = e.schema.Attr(key)
		}
		a := p.resolve(n, spec, vpos, key, e.name)
		if _, isStr := a.(*ir.StrAttr); isStr && p.src[vstart] == '"' {
			p.strSpans = append(p.strSpans, strSpan{attr: int32(len(attrs)), open: int32(vstart - start), close: int32(p.pos - 1 - start)})
		}
		if len(attrs) < 8 {
			for _, x := range attrs {
				if x.Name == key {
					p.failAt(kpos, "attribute %s is given twice", key)
				}
			}
		} else {
			if seen == nil {
				seen = make(map[string]bool, 2*len(attrs))
				for _, x := range attrs {
					seen[x.Name] = true
				}
			}
			if seen[key] {
				p.failAt(kpos, "attribute %s is given twice", key)
			}
			seen[key] = true
		}
		attrs = append(attrs, ir.NamedAttr{Name: key, Value: a})
		p.skipSpace()
		if p.peek() == '}' {
			p.pos++
			return attrs
		}
		if p.eof() {
			p.failAt(open, "unterminated attribute map: expected '}', found end of file")
		}
		p.expect(',', "',' or '}' in the attribute map")
	}
}

// resolve gives an untagged literal its kind: the schema's when the attribute is declared (a literal that does not
// fit is guessed, with a warning), a guess otherwise.
func (p *parser) resolve(n attrNode, spec *ir.AttrSpec, pos position, key, op string) ir.Attribute {
	if n.a != nil {
		return n.a
	}
	if spec != nil {
		a, err := p.coerce(spec.Type, n.lit)
		if err == nil {
			return a
		}
		g, gerr := p.guess(n.lit)
		if gerr != nil {
			p.failAt(pos, "bad value for attribute %s: %v", key, gerr)
		}
		p.warn(pos, "attribute %s of %s: %v; read as %s", key, op, err, kindName(g))
		return g
	}
	a, err := p.guess(n.lit)
	if err != nil {
		p.failAt(pos, "bad value for attribute %s: %v", key, err)
	}
	return a
}

func kindName(a ir.Attribute) string {
	if arr, ok := a.(*ir.ArrayAttr); ok && len(arr.Elems) > 0 {
		return arr.Elems[0].Kind().String() + "[]"
	}
	return a.Kind().String()
}

// coerce converts a literal to an attribute of type t, like Context.Coerce, except that f32 values are read from
// their text with 32-bit rounding (and must fit), and scalar type spellings become type attributes.
func (p *parser) coerce(t ir.AttrType, l ir.Literal) (ir.Attribute, error) {
	if t.Array && l.Kind == ir.LitList {
		elems := make([]ir.Attribute, len(l.List))
		for i, e := range l.List {
			a, err := p.coerce(ir.AttrType{Kind: t.Kind}, e)
			if err != nil {
				return nil, fmt.Errorf("element %d: %w", i, err)
			}
			elems[i] = a
		}
		return p.ctx.Array(elems...), nil
	}
	if !t.Array {
		switch {
		case t.Kind == ir.KindAny:
			return p.guess(l)
		case l.Kind == ir.LitString:
			switch t.Kind {
			case ir.KindStr:
				return p.ctx.Str(l.Str), nil
			case ir.KindTensorName:
				return p.ctx.TensorName(l.Str), nil
			}
			return nil, fmt.Errorf("cannot use %s as %s", l, t)
		case t.Kind == ir.KindFloat && l.Kind == ir.LitFloat && l.Str != "":
			f, _ := parseFloat(l.Str, 32)
			if math.IsInf(f, 0) && !math.IsInf(l.Float, 0) {
				return nil, fmt.Errorf("%s is out of range for f32", l.Str)
			}
			return p.ctx.Float(float32(f)), nil
		case t.Kind == ir.KindType && l.Kind == ir.LitIdent:
			if d, ok := ir.DTypeFromText(l.Str); ok {
				return p.ctx.TypeAttr(p.ctx.Scalar(d)), nil
			}
		}
	}
	return p.ctx.Coerce(t, l)
}

// guess gives a literal a kind without a schema: Context.Guess, except that DataLayout spellings become DataLayout
// and scalar type spellings that are not also DataType spellings become type attributes.
func (p *parser) guess(l ir.Literal) (ir.Attribute, error) {
	switch l.Kind {
	case ir.LitIdent:
		if _, ok := ir.DTypeFromDataType(l.Str); !ok {
			if layoutNames[l.Str] {
				return p.ctx.DataLayout(l.Str), nil
			}
			if d, ok := ir.DTypeFromText(l.Str); ok {
				return p.ctx.TypeAttr(p.ctx.Scalar(d)), nil
			}
		}
	case ir.LitList:
		elems := make([]ir.Attribute, len(l.List))
		for i, e := range l.List {
			a, err := p.guess(e)
			if err != nil {
				return nil, err
			}
			elems[i] = a
		}
		return p.ctx.Array(elems...), nil
	}
	return p.ctx.Guess(l)
}

// attrValue parses one attribute value at the cursor.
func (p *parser) attrValue() attrNode {
	p.skipSpace()
	switch c := p.peek(); {
	case c == '"':
		return attrNode{a: p.ctx.Str(p.quoted())}
	case c == '[':
		return p.attrList()
	case c == '(':
		return attrNode{a: p.taggedAttr()}
	case c == '<':
		return attrNode{a: p.angleAttr()}
	case c == '-' || c == '+' || isDigit(c):
		return p.numberLit()
	case isIdentStart(c):
		return p.identAttr()
	}
	p.fail("expected an attribute value, found %s", p.describe())
	return attrNode{}
}

func (p *parser) attrList() attrNode {
	open := p.here()
	p.pos++ // '['
	p.enter()
	defer p.leave()
	var elems []attrNode
	p.skipSpace()
	if p.peek() != ']' {
		for {
			elems = append(elems, p.attrValue())
			p.skipSpace()
			if p.peek() == ']' {
				break
			}
			if p.eof() {
				p.failAt(open, "unterminated list: expected ']', found end of file")
			}
			p.expect(',', "',' or ']' in the list")
		}
	}
	p.pos++
	final := 0
	for _, e := range elems {
		if e.a != nil {
			final++
		}
	}
	if final == 0 {
		l := ir.Literal{Kind: ir.LitList, List: make([]ir.Literal, len(elems))}
		for i, e := range elems {
			l.List[i] = e.lit
		}
		return attrNode{lit: l}
	}
	out := make([]ir.Attribute, len(elems))
	for i, e := range elems {
		if e.a != nil {
			out[i] = e.a
			continue
		}
		a, err := p.guess(e.lit)
		if err != nil {
			p.failAt(open, "bad list element %d: %v", i, err)
		}
		out[i] = a
	}
	return attrNode{a: p.ctx.Array(out...)}
}

// angleAttr parses <#AttrNull>, <<NULL TYPE>> (a type attribute) or a dialect attribute <…> kept as its text.
func (p *parser) angleAttr() ir.Attribute {
	switch {
	case p.hasPrefix(nullAttr):
		p.pos += len(nullAttr)
		return p.ctx.NullAttr()
	case p.hasPrefix(nullType):
		p.pos += len(nullType)
		return p.ctx.TypeAttr(p.ctx.NullType())
	}
	end := balancedEnd(p.src, p.pos, '<', '>')
	if end < 0 {
		p.fail("unterminated attribute <…>: expected '>' before the end of the line")
	}
	text := string(p.src[p.pos:end])
	p.pos = end
	return p.ctx.OpaqueAttr(text)
}

// numberLit parses an untagged number (an int, a float, [+-]inf, [+-]nan) or a hexadecimal pointer 0x….
func (p *parser) numberLit() attrNode {
	start := p.pos
	if p.peek() == '0' && (p.peekAt(1) == 'x' || p.peekAt(1) == 'X') {
		end := p.pos + 2
		for end < len(p.src) && isIdentChar(p.src[end]) && p.src[end] != '.' {
			end++
		}
		text := string(p.src[start:end])
		p.pos = end
		return attrNode{a: p.ctx.Pointer(text)}
	}
	if c := p.peek(); (c == '-' || c == '+') && isIdentStart(p.peekAt(1)) {
		end := identEnd(p.src, p.pos+1)
		switch w := string(p.src[p.pos+1 : end]); w {
		case "inf", "nan":
			text := string(p.src[start:end])
			p.pos = end
			f, _ := parseFloat(text, 64)
			return attrNode{lit: ir.Literal{Kind: ir.LitFloat, Float: f, Str: text}}
		}
		p.fail("expected an attribute value, found %s", p.describe())
	}
	end := numberEnd(p.src, p.pos)
	if end == p.pos || end < len(p.src) && isIdentChar(p.src[end]) {
		p.fail("expected an attribute value, found %s", p.describe())
	}
	text := string(p.src[start:end])
	p.pos = end
	return attrNode{lit: p.numberLiteral(text, start)}
}

func (p *parser) numberLiteral(text string, start int) ir.Literal {
	isFloat := text == "-0" || text == "+0"
	for i := 0; i < len(text) && !isFloat; i++ {
		switch text[i] {
		case '.', 'e', 'E':
			isFloat = true
		}
	}
	if isFloat {
		f, _ := parseFloat(text, 64)
		return ir.Literal{Kind: ir.LitFloat, Float: f, Str: text}
	}
	v, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		p.fail("integer %s is out of range", text)
	}
	return ir.Literal{Kind: ir.LitInt, Int: v}
}

// parseFloat parses a number of PIR text with the given bit size: decimal (out-of-range values become ±inf or 0,
// as C's atof makes them), [+-]inf, [+-]nan.
func parseFloat(s string, bits int) (float64, bool) {
	switch s {
	case "inf", "+inf":
		return math.Inf(1), true
	case "-inf":
		return math.Inf(-1), true
	case "nan", "+nan", "-nan":
		return math.NaN(), true
	}
	f, err := strconv.ParseFloat(s, bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true
		}
		return 0, false
	}
	return f, true
}

// identAttr parses an attribute value that starts with an identifier: true/false, inf/nan, Place(…), a data type
// or layout spelling, or a type.
func (p *parser) identAttr() attrNode {
	start := p.pos
	end := identEnd(p.src, p.pos)
	id := string(p.src[start:end])
	next := byte(0)
	if end < len(p.src) {
		next = p.src[end]
	}
	switch id {
	case "true", "false":
		p.pos = end
		return attrNode{a: p.ctx.Bool(id == "true")}
	case "inf", "nan":
		p.pos = end
		f, _ := parseFloat(id, 64)
		return attrNode{lit: ir.Literal{Kind: ir.LitFloat, Float: f, Str: id}}
	case "Place":
		if next == '(' {
			at := p.here()
			p.pos = end
			pl := p.place(at)
			// The literal carries the place's canonical text, so that Coerce and Guess see what prints.
			s := pl.String()
			return attrNode{lit: ir.Literal{Kind: ir.LitPlace, Str: s[len("Place(") : len(s)-1]}}
		}
	case "Undefined":
		if string(p.src[end:min(end+11, len(p.src))]) == "(AnyLayout)" {
			p.pos = end + 11
			return attrNode{lit: ir.Literal{Kind: ir.LitIdent, Str: "Undefined(AnyLayout)"}}
		}
	}
	if next == '<' || id == "vec" && next == '[' {
		return attrNode{a: p.ctx.TypeAttr(p.typ())}
	}
	_, isData := ir.DTypeFromDataType(id)
	d, isText := ir.DTypeFromText(id)
	if isText && !isData {
		// A scalar type spelling that is not a DataType spelling (f32, i64, b, …) can only be a type attribute.
		p.pos = end
		return attrNode{a: p.ctx.TypeAttr(p.ctx.Scalar(d))}
	}
	if isData || layoutNames[id] {
		p.pos = end
		return attrNode{lit: ir.Literal{Kind: ir.LitIdent, Str: id}}
	}
	p.fail("expected an attribute value, found identifier %s (strings must be quoted)", clip(p.src[start:end]))
	return attrNode{}
}

// place parses "(…)" after Place. A device id that the place's text does not keep (after cpu or a pinned
// allocation, which print without one, as Paddle prints them) is dropped, so that the place prints as read.
func (p *parser) place(open position) ir.Place {
	s := p.placeBody()
	pl, ok := ir.ParsePlace(s)
	if !ok || pl.Type == ir.PlaceCustom && pl.Custom == "" {
		p.failAt(open, "bad place Place(%s)", s)
	}
	switch pl.Type {
	case ir.PlaceCPU, ir.PlaceGPUPinned, ir.PlaceXPUPinned:
		pl.Device = 0
	}
	return pl
}

// placeBody parses "(…)" after Place and returns the inside.
func (p *parser) placeBody() string {
	open := p.here()
	p.pos++ // '('
	i := p.pos
	for i < len(p.src) && p.src[i] != ')' && p.src[i] != '\n' {
		i++
	}
	if i >= len(p.src) || p.src[i] != ')' {
		p.failAt(open, "unterminated Place(…)")
	}
	s := string(p.src[p.pos:i])
	p.pos = i + 1
	return s
}

// taggedAttr parses a tagged value (Tag)value, or a dialect value in parentheses such as (0x7f5e24fb27c0).
func (p *parser) taggedAttr() ir.Attribute {
	open := p.here()
	start := p.pos
	p.pos++ // '('
	if isDigit(p.peek()) {
		end := identEnd(p.src, p.pos)
		for end < len(p.src) && isIdentChar(p.src[end]) {
			end++
		}
		if end >= len(p.src) || p.src[end] != ')' {
			p.failAt(open, "expected an attribute value: a tag like (Int32) or a pointer like (0x7f…)")
		}
		p.pos = end + 1
		return p.ctx.OpaqueAttr(string(p.src[start:p.pos]))
	}
	tagEnd := identEnd(p.src, p.pos)
	if tagEnd == p.pos || tagEnd >= len(p.src) || p.src[tagEnd] != ')' {
		p.failAt(open, "expected an attribute value, found %s", p.describe())
	}
	tag := string(p.src[p.pos:tagEnd])
	p.pos = tagEnd + 1
	switch tag {
	case "Int32":
		v := p.intValue("an integer after (Int32)")
		if v < math.MinInt32 || v > math.MaxInt32 {
			p.failAt(open, "(Int32)%d is out of range", v)
		}
		return p.ctx.Int32(int32(v))
	case "Int64":
		return p.ctx.Int64(p.intValue("an integer after (Int64)"))
	case "Index":
		return p.ctx.Index(p.intValue("an integer after (Index)"))
	case "Float":
		return p.ctx.Float(float32(p.floatValue(32, "(Float)")))
	case "Double":
		return p.ctx.Double(p.floatValue(64, "(Double)"))
	case "Pointer":
		end := identEnd(p.src, p.pos)
		if end == p.pos {
			end = numberEnd(p.src, p.pos)
			for end < len(p.src) && isIdentChar(p.src[end]) {
				end++
			}
		}
		if end == p.pos {
			p.fail("expected a pointer after (Pointer), found %s", p.describe())
		}
		text := string(p.src[p.pos:end])
		p.pos = end
		return p.ctx.Pointer(text)
	case "Complex64", "Complex128":
		bits := 128
		if tag == "Complex64" {
			bits = 64
		}
		p.expect('[', "'[' after ("+tag+")")
		p.skipSpace()
		re := p.floatValue(bits/2, "("+tag+")")
		p.expect(',', "',' between the real and imaginary parts")
		p.skipSpace()
		im := p.floatValue(bits/2, "("+tag+")")
		p.expect(']', "']' after the imaginary part")
		return p.ctx.Complex(bits, re, im)
	case "pd_op.IntArray":
		p.expect('[', "'[' after (pd_op.IntArray)")
		var v []int64
		p.skipSpace()
		if p.peek() != ']' {
			for {
				p.skipSpace()
				v = append(v, p.intValue("an integer in the IntArray"))
				p.skipSpace()
				if p.peek() == ']' {
					break
				}
				p.expect(',', "',' or ']' in the IntArray")
			}
		}
		p.pos++
		return p.ctx.IntArray(v)
	case "pd_op.DataType":
		id := p.ident()
		if d, ok := ir.DTypeFromDataType(string(id)); ok {
			return p.ctx.DataType(d)
		}
		if d, ok := ir.DTypeFromText(string(id)); ok {
			return p.ctx.DataType(d)
		}
		if len(id) == 0 {
			p.fail("expected a data type after (pd_op.DataType), found %s", p.describe())
		}
		p.failAt(open, "unknown data type %s", clip(id))
	case "pd_op.Place":
		if string(p.ident()) != "Place" || p.peek() != '(' {
			p.failAt(open, "expected Place(…) after (pd_op.Place)")
		}
		return p.ctx.Place(p.place(open))
	case "pd_op.DataLayout":
		id := string(p.ident())
		if id == "" {
			p.fail("expected a data layout after (pd_op.DataLayout), found %s", p.describe())
		}
		if id == "Undefined" && p.hasPrefix("(AnyLayout)") {
			p.pos += len("(AnyLayout)")
			id = "Undefined(AnyLayout)"
		}
		return p.ctx.DataLayout(id)
	case "pd_op.Scalar":
		id := p.ident()
		d, ok := ir.DTypeFromDataType(string(id))
		if !ok {
			p.failAt(open, "expected a data type after (pd_op.Scalar), found %s", clip(id))
		}
		if p.peek() != ':' {
			p.fail("expected ':' after the data type of (pd_op.Scalar), found %s", p.describe())
		}
		p.pos++
		vpos := p.here()
		p.enter()
		v := p.resolve(p.attrValue(), nil, vpos, "(pd_op.Scalar)", "")
		p.leave()
		return p.ctx.ScalarAttr(d, v)
	case "Type":
		if !p.startsType() {
			p.fail("expected a type after (Type), found %s", p.describe())
		}
		return p.ctx.TypeAttr(p.typ())
	case "TensorName":
		if p.peek() != '"' {
			p.fail("expected a string after (TensorName), found %s", p.describe())
		}
		return p.ctx.TensorName(p.quoted())
	}
	p.failAt(open, "unknown attribute tag (%s)", clip([]byte(tag)))
	return nil
}

// floatValue parses a number for a (Float) or (Double) tag.
func (p *parser) floatValue(bits int, tag string) float64 {
	start := p.pos
	end := numberEnd(p.src, p.pos)
	if end == p.pos {
		i := p.pos
		if c := p.peek(); c == '-' || c == '+' {
			i++
		}
		end = identEnd(p.src, i)
	}
	f, ok := parseFloat(string(p.src[start:end]), bits)
	if !ok || end == start || end < len(p.src) && isIdentChar(p.src[end]) {
		p.fail("expected a number after %s, found %s", tag, p.describe())
	}
	p.pos = end
	return f
}

// ParseAttribute parses one attribute value as PIR text writes it, tagged or untagged; untagged values get a
// guessed kind (see Context.Guess).
func ParseAttribute(ctx *ir.Context, s string) (a ir.Attribute, err error) {
	p := newParser(ctx, "<attribute>", []byte(s))
	defer p.recoverTo(&err)
	p.skipSpace()
	pos := p.here()
	a = p.resolve(p.attrValue(), nil, pos, "value", "")
	p.skipSpace()
	if !p.eof() {
		p.fail("unexpected %s after the attribute", p.describe())
	}
	return a, nil
}

// commonPrefix returns the length of the longest common prefix of a and b, comparing eight bytes at a time.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for ; n-i >= 8; i += 8 {
		if x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}
