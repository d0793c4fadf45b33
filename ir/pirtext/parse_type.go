package pirtext

import (
	"strings"

	"github.com/pirdrr/drr/ir"
)

// Types.
//
//	type   = scalar | "vec[" [ type { "," type } ] "]" | tensor-spelling "<" { dim "x" } elem ">"
//	       | "pd_op.selectedrows<" { dim "x" } elem ">" | "pd_op.tensor_array<" elem ">" | "<<NULL TYPE>>"
//	       | ident [ "<" … ">" ]                          (other dialects' types, kept as ir.OpaqueType)
//
// The dense tensor spellings are builtin.tensor, pd_op.tensor, tensor, pd_op.v_tensor and the kernel dialect's
// <place>_tensor (gpu_tensor, cpu_tensor, undefined_tensor, …).

// typeExtent returns the end of the type starting at i as the fast path sees it: an identifier immediately
// followed by a bracketed group (<…>, or […] after vec), or a bracketed <…> group; -1 if there is none. The type
// cache is keyed by this text.
func typeExtent(src []byte, i int) int {
	if i >= len(src) {
		return -1
	}
	if src[i] == '<' {
		return balancedEnd(src, i, '<', '>')
	}
	end := identEnd(src, i)
	if end == i {
		return -1
	}
	if end < len(src) {
		switch src[end] {
		case '<':
			return balancedEnd(src, end, '<', '>')
		case '[':
			if end-i == 3 && string(src[i:end]) == "vec" {
				return balancedEnd(src, end, '[', ']')
			}
		}
	}
	return end
}

// startsType reports whether a type can start at the cursor.
func (p *parser) startsType() bool {
	c := p.peek()
	return isIdentStart(c) || c == '<' && p.hasPrefix(nullType)
}

// typ parses a type at the cursor (after white space), through the per-parse cache keyed by its text.
func (p *parser) typ() ir.Type {
	if p.slow {
		return p.typeSlow()
	}
	start := p.pos
	// A type read last that the source repeats here: the same bytes have the same extent, provided the text is not
	// the start of a longer identifier.
	rest := p.src[start:]
	for i := range p.recentTypes {
		r := &p.recentTypes[i]
		if n := len(r.text); n > 0 && len(rest) >= n && string(rest[:n]) == string(r.text) {
			if last := r.text[n-1]; last == '>' || last == ']' || n == len(rest) || !isIdentChar(rest[n]) && rest[n] != '<' && rest[n] != '[' {
				p.pos = start + n
				return r.t
			}
		}
	}
	fast := typeExtent(p.src, start)
	if fast > start {
		text := p.src[start:fast]
		if t, ok := p.types[string(text)]; ok {
			p.pos = fast
			p.remember(text, t)
			return t
		}
	}
	t := p.typeSlow()
	if fast == p.pos {
		p.types[string(p.src[start:fast])] = t
		p.remember(p.src[start:fast], t)
	}
	return t
}

// recentType is an entry of the parser's small cache of the types read last, checked before the map.
type recentType struct {
	text []byte
	t    ir.Type
}

func (p *parser) remember(text []byte, t ir.Type) {
	p.recentTypes[p.recentNext%len(p.recentTypes)] = recentType{text, t}
	p.recentNext++
}

func (p *parser) typeSlow() ir.Type {
	if p.peek() == '<' {
		if p.hasPrefix(nullType) {
			p.pos += len(nullType)
			return p.ctx.NullType()
		}
		p.fail("expected a type, found %s", p.describe())
	}
	start := p.here()
	startPos := p.pos
	id := p.ident()
	if len(id) == 0 {
		p.fail("expected a type, found %s", p.describe())
	}
	p.enter()
	defer p.leave()
	name := string(id)
	if name == "vec" && p.peek() == '[' {
		p.pos++
		var elems []ir.Type
		p.skipSpace()
		if p.peek() != ']' {
			for {
				p.skipSpace()
				if !p.startsType() {
					p.fail("expected a type in vec[…], found %s", p.describe())
				}
				elems = append(elems, p.typ())
				p.skipSpace()
				if p.peek() == ']' {
					break
				}
				p.expect(',', "',' or ']' in vec[…]")
			}
		}
		p.pos++
		return p.ctx.Vector(elems...)
	}
	if p.peek() != '<' {
		if d, ok := ir.DTypeFromText(name); ok {
			return p.ctx.Scalar(d)
		}
		return p.ctx.Opaque(name)
	}
	switch {
	case isTensorSpelling(name):
		p.pos++
		dims, elem := p.shapedBody(start, name)
		return p.ctx.Tensor(name, dims, elem)
	case name == "pd_op.selectedrows":
		p.pos++
		dims, elem := p.shapedBody(start, name)
		return p.ctx.SelectedRows(dims, elem, ir.DefaultLayout, nil, 0)
	case name == "pd_op.tensor_array":
		p.pos++
		elem := p.elemType(start, name)
		if p.peek() != '>' {
			p.failAt(start, "bad %s type: expected '>' after the element type, found %s", name, p.describe())
		}
		p.pos++
		return p.ctx.TensorArray(elem, nil, ir.DefaultLayout)
	}
	end := balancedEnd(p.src, p.pos, '<', '>')
	if end < 0 {
		p.failAt(start, "unterminated type %s<…", name)
	}
	p.pos = end
	return p.ctx.Opaque(string(p.src[startPos:end]))
}

// isTensorSpelling reports whether name spells a dense tensor type.
func isTensorSpelling(name string) bool {
	switch name {
	case ir.DenseTensor, ir.LegacyTensor, ir.BareTensor, ir.ValueTensor:
		return true
	}
	// Kernel dialect types: gpu_tensor, cpu_tensor, undefined_tensor, … (no dialect prefix).
	return strings.HasSuffix(name, "_tensor") && !strings.Contains(name, ".")
}

// shapedBody parses "{dim x} elem >" after the '<' of a tensor or selected-rows type.
func (p *parser) shapedBody(start position, name string) ([]int64, ir.Type) {
	var dims []int64
	for {
		c := p.peek()
		if c != '-' && !isDigit(c) {
			break
		}
		d := p.intValue("a dimension")
		if d < ir.Dynamic {
			p.failAt(start, "bad %s type: dimension %d (a dimension is a size or -1)", name, d)
		}
		dims = append(dims, d)
		if p.peek() != 'x' {
			p.failAt(start, "bad %s type: expected 'x' after dimension %d, found %s", name, d, p.describe())
		}
		p.pos++
	}
	elem := p.elemType(start, name)
	if p.peek() != '>' {
		p.failAt(start, "bad %s type: expected '>' after the element type, found %s", name, p.describe())
	}
	p.pos++
	return dims, elem
}

// elemType parses the element type of a shaped type: a scalar, <<NULL TYPE>>, or a bracketed type.
func (p *parser) elemType(start position, name string) ir.Type {
	if p.peek() == '<' {
		if !p.hasPrefix(nullType) {
			p.failAt(start, "bad %s type: expected an element type, found %s", name, p.describe())
		}
		p.pos += len(nullType)
		return p.ctx.NullType()
	}
	end := identEnd(p.src, p.pos)
	if end == p.pos {
		p.failAt(start, "bad %s type: expected an element type, found %s", name, p.describe())
	}
	if end < len(p.src) && (p.src[end] == '<' || p.src[end] == '[') {
		return p.typ()
	}
	if d, ok := ir.DTypeFromText(string(p.src[p.pos:end])); ok {
		p.pos = end
		return p.ctx.Scalar(d)
	}
	p.failAt(start, "bad %s type: unknown element type %s", name, clip(p.src[p.pos:end]))
	return nil
}

// typeList parses types separated by ',' for as long as a type starts at the cursor, recording their positions
// in pos if it is not nil.
func (p *parser) typeList(dst []ir.Type, pos *[]position) []ir.Type {
	p.skipSpace()
	if !p.startsType() {
		return dst
	}
	for {
		if pos != nil {
			*pos = append(*pos, p.here())
		}
		dst = append(dst, p.typ())
		p.skipSpace()
		if p.peek() != ',' {
			return dst
		}
		p.pos++
		p.skipSpace()
		if !p.startsType() {
			p.fail("expected a type after ',', found %s", p.describe())
		}
	}
}

// ParseType parses a type as PIR text writes it (builtin.tensor<1x64xf32>, vec[…], f32, …).
func ParseType(ctx *ir.Context, s string) (t ir.Type, err error) {
	p := newParser(ctx, "<type>", []byte(s))
	defer p.recoverTo(&err)
	p.skipSpace()
	if !p.startsType() {
		p.fail("expected a type, found %s", p.describe())
	}
	t = p.typ()
	p.skipSpace()
	if !p.eof() {
		p.fail("unexpected %s after the type", p.describe())
	}
	return t, nil
}
