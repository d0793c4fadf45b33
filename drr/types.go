package drr

import (
	"strings"
	"unicode/utf8"
)

// parseTensorType parses a tensor type token such as
// `builtin.tensor<-1x64x56x56xf32>` or `tensor<?x$c x ? x ? x f32>`. The
// lexer keeps the whole type in one token because `64x3x7x7xf32` cannot be
// split by ordinary lexing; this small parser splits the body at the 'x'
// separators (blanks around them are allowed) and yields positioned dims
// and dtype. The last item is the element type.
func parseTensorType(text string, tok Span, a *nodeSlabs) (*TensorType, *Diagnostic) {
	lt := strings.IndexByte(text, '<')
	name := text[:lt]
	body := text[lt+1 : len(text)-1]
	base := lt + 1 // offset of body within text
	// The token is on one line: positions inside it only move the column.
	pointAt := func(i int) Span {
		s := tok
		s.off += int32(base + i)
		s.col += int32(utf8.RuneCountInString(text[:base+i]))
		s.end, s.endCol = s.off, s.col
		return s
	}
	at := func(i int) Position { return pointAt(i).Pos() }

	type item struct {
		kind  byte // 'i' int, '?' any, '*' star, '$' hole, 'n' name
		text  string
		start int
		end   int
	}
	var items []item
	expectItem := true
	i := 0
	for i < len(body) {
		c := body[i]
		if c == ' ' || c == '\t' {
			i++
			continue
		}
		if !expectItem {
			if c == 'x' {
				i++
				expectItem = true
				continue
			}
			last := items[len(items)-1]
			if last.kind == 'n' {
				return nil, errorf(at(i), "unexpected %s after element type %s in %s type", quoteRune(body[i:]), last.text, name)
			}
			return nil, errorf(at(i), "expected 'x' after dimension %s in %s type, found %s", last.text, name, quoteRune(body[i:]))
		}
		start := i
		var kind byte
		switch {
		case c == '?' || c == '*':
			kind = c
			i++
		case c == '$':
			i++
			for i < len(body) && isNameChar(body[i]) {
				i++
			}
			if i == start+1 {
				return nil, errorf(at(start), "expected a hole name after '$' in %s type", name)
			}
			kind = '$'
		case isDigit(c) || (c == '-' && i+1 < len(body) && isDigit(body[i+1])):
			i++
			for i < len(body) && isDigit(body[i]) {
				i++
			}
			kind = 'i'
		case isIdentStart(c):
			for i < len(body) && isNameChar(body[i]) {
				i++
			}
			kind = 'n'
		default:
			return nil, errorf(at(i), "unexpected %s in %s type", quoteRune(body[i:]), name)
		}
		items = append(items, item{kind: kind, text: body[start:i], start: start, end: i})
		expectItem = false
	}
	if len(items) == 0 {
		return nil, errorf(at(0), "empty %s type: expected element type such as f32", name)
	}
	if expectItem {
		return nil, errorf(at(len(body)), "expected element type after 'x' in %s type", name)
	}
	t := a.tensorTypes.new()
	t.Span, t.Name = tok, name
	dims := make([]*Dim, 0, len(items)-1)
	star := false
	for k, it := range items {
		sp := pointAt(it.start).to(pointAt(it.end))
		if k == len(items)-1 {
			d := a.dtypes.new()
			d.Span = sp
			switch it.kind {
			case 'n':
				d.Kind, d.Name = DtypeScalar, it.text
			case '$':
				d.Kind, d.Name = DtypeHole, it.text[1:]
			case '?':
				d.Kind = DtypeAny
			default:
				return nil, errorf(sp.Pos(), "%s type must end with an element type such as f32, found %s", name, it.text)
			}
			t.Dtype = d
			continue
		}
		d := a.dims.new()
		d.Span = sp
		switch it.kind {
		case 'i':
			d.Kind, d.Text = DimInt, it.text
		case '?':
			d.Kind, d.Text = DimAny, "?"
		case '$':
			d.Kind, d.Text = DimHole, it.text[1:]
		case '*':
			if star {
				return nil, errorf(sp.Pos(), "'*' may appear only once in a %s type", name)
			}
			star = true
			d.Kind, d.Text = DimStar, "*"
		default:
			return nil, errorf(sp.Pos(), "%s is not a dimension (only the last item of a %s type is the element type)", it.text, name)
		}
		dims = append(dims, d)
	}
	if len(dims) > 0 {
		t.Dims = dims
	}
	return t, nil
}

// quoteRune quotes the first character of s for a message.
func quoteRune(s string) string {
	r, _ := utf8.DecodeRuneInString(s)
	if r == '\'' {
		return `"'"`
	}
	return "'" + string(r) + "'"
}
