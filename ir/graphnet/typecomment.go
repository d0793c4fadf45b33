package graphnet

import (
	"strconv"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// signature is what the comment before a statement of forward says about its op:
//
//	# pd_op.layer_norm: (1x21x768xf32, 1x21xf32, 1x21xf32) <- (1x21x768xf32, 768xf32, 768xf32)
//
// the op name, its result types and its operand types. A nil type stands for "None": an absent optional operand or
// result.
type signature struct {
	op       string
	results  []ir.Type
	operands []ir.Type
	pos      ir.Loc // of the op name
}

// dtypeText maps GraphNet's spelling of element types in type comments to DTypes, and back.
var dtypeText = map[string]ir.DType{
	"b": ir.DTypeBool, "ui8": ir.DTypeUint8, "i8": ir.DTypeInt8, "ui16": ir.DTypeUint16, "i16": ir.DTypeInt16,
	"ui32": ir.DTypeUint32, "i32": ir.DTypeInt32, "ui64": ir.DTypeUint64, "i64": ir.DTypeInt64,
	"f16": ir.DTypeFloat16, "bf16": ir.DTypeBFloat16, "f32": ir.DTypeFloat32, "f64": ir.DTypeFloat64,
	"c64": ir.DTypeComplex64, "c128": ir.DTypeComplex128, "f8e4m3fn": ir.DTypeFloat8E4M3FN,
	"f8e5m2": ir.DTypeFloat8E5M2,
}

var dtypeSpelling = func() map[ir.DType]string {
	m := map[ir.DType]string{}
	for s, d := range dtypeText {
		m[d] = s
	}
	return m
}()

// typeParser reads the types of a signature comment, reporting errors at their column in the comment.
type typeParser struct {
	ctx  *ir.Context
	file string
	s    string
	i    int
	base ir.Loc // position of s[0]
	err  *Error
	memo map[string]ir.Type
}

func (p *typeParser) failf(format string, args ...any) {
	if p.err == nil {
		p.err = errorAt(p.file, ir.Loc{Line: p.base.Line, Col: p.base.Col + int32(p.i)}, format, args...)
	}
}

// sigTypes are the result and operand types of a signature; many comments share them.
type sigTypes struct {
	results, operands []ir.Type
}

// parseSignature parses the text of a comment (after '#'). It returns ok=false without an error when the comment is
// not a signature at all (it does not have the "NAME: (" shape), and an error when it has that shape but is
// malformed. memo caches tensor types by their text, and sigs the types of whole signatures (shared, read-only).
func parseSignature(ctx *ir.Context, file string, c comment, memo map[string]ir.Type, sigs map[string]sigTypes) (*signature, bool, *Error) {
	text := c.text
	lead := len(text) - len(strings.TrimLeft(text, " "))
	rest := text[lead:]
	colon := strings.Index(rest, ": (")
	if colon <= 0 || strings.ContainsAny(rest[:colon], " \t()") || !strings.Contains(rest[:colon], ".") {
		return nil, false, nil
	}
	// The comment's text starts one column after '#'.
	base := ir.Loc{Line: c.pos.Line, Col: c.pos.Col + 1}
	sig := &signature{op: rest[:colon], pos: ir.Loc{Line: base.Line, Col: base.Col + int32(lead)}}
	types := rest[colon+2:]
	if st, ok := sigs[types]; ok {
		sig.results, sig.operands = st.results, st.operands
		return sig, true, nil
	}
	p := &typeParser{ctx: ctx, file: file, s: text, i: lead + colon + 2, base: base, memo: memo}
	sig.results = p.typeList()
	p.skipSpaces()
	if p.err == nil && !strings.HasPrefix(p.s[p.i:], "<-") {
		p.failf("expected '<-' between the result and operand types")
	}
	p.i += 2
	p.skipSpaces()
	sig.operands = p.typeList()
	p.skipSpaces()
	if p.err == nil && p.i < len(p.s) {
		p.failf("unexpected %q after the operand types", p.s[p.i:])
	}
	if p.err != nil {
		return nil, true, p.err
	}
	sigs[types] = sigTypes{sig.results, sig.operands}
	return sig, true, nil
}

func (p *typeParser) skipSpaces() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

// typeList parses "(T, T, …)".
func (p *typeParser) typeList() []ir.Type {
	if p.err != nil {
		return nil
	}
	if p.i >= len(p.s) || p.s[p.i] != '(' {
		p.failf("expected '('")
		return nil
	}
	p.i++
	var out []ir.Type
	for p.err == nil {
		p.skipSpaces()
		if p.i < len(p.s) && p.s[p.i] == ')' {
			p.i++
			return out
		}
		if len(out) > 0 {
			if p.i >= len(p.s) || p.s[p.i] != ',' {
				p.failf("expected ',' or ')' in a type list")
				return nil
			}
			p.i++
			p.skipSpaces()
		}
		out = append(out, p.typ())
	}
	return nil
}

// typ parses one type: None, a vector [T, …], or a tensor type such as 1x21x768xf32, -1x3xf32 or xi64 (0-d).
func (p *typeParser) typ() ir.Type {
	if strings.HasPrefix(p.s[p.i:], "None") {
		p.i += 4
		return nil
	}
	if p.i < len(p.s) && p.s[p.i] == '[' {
		p.i++
		var elems []ir.Type
		for p.err == nil {
			p.skipSpaces()
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.i++
				return p.ctx.Vector(elems...)
			}
			if len(elems) > 0 {
				if p.i >= len(p.s) || p.s[p.i] != ',' {
					p.failf("expected ',' or ']' in a vector type")
					return nil
				}
				p.i++
				p.skipSpaces()
			}
			t := p.typ()
			if t == nil && p.err == nil {
				p.failf("a vector cannot hold None")
			}
			elems = append(elems, t)
		}
		return nil
	}
	start := p.i
	for p.i < len(p.s) && p.s[p.i] != ',' && p.s[p.i] != ')' && p.s[p.i] != ']' && p.s[p.i] != ' ' {
		p.i++
	}
	word := p.s[start:p.i]
	if t, ok := p.memo[word]; ok {
		return t
	}
	x := strings.LastIndexByte(word, 'x')
	if x < 0 {
		p.i = start
		p.failf("expected a type, found %q", word)
		return nil
	}
	dt, ok := dtypeText[word[x+1:]]
	if !ok {
		p.i = start + x + 1
		p.failf("unknown element type %q", word[x+1:])
		return nil
	}
	var dims []int64
	if x > 0 {
		for _, d := range strings.Split(word[:x], "x") {
			n, err := strconv.ParseInt(d, 10, 64)
			if err != nil || n < -1 {
				p.i = start
				p.failf("bad dimension %q in %q", d, word)
				return nil
			}
			dims = append(dims, n)
		}
	}
	t := p.ctx.Tensor(ir.DenseTensor, dims, p.ctx.Scalar(dt))
	p.memo[word] = t
	return t
}

// formatType writes t as a type comment spells it.
func formatType(b *strings.Builder, t ir.Type) bool {
	switch t := t.(type) {
	case nil, *ir.NullType:
		b.WriteString("None")
	case *ir.TensorType:
		if t.IsValue() {
			return false // pd_op.v_tensor is pirdrr's; Paddle has no such type
		}
		for i, d := range t.Dims {
			if i > 0 {
				b.WriteByte('x')
			}
			b.WriteString(strconv.FormatInt(d, 10))
		}
		s, ok := dtypeSpelling[t.DType()]
		if !ok {
			return false
		}
		b.WriteByte('x')
		b.WriteString(s)
	case *ir.VectorType:
		b.WriteByte('[')
		for i, e := range t.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			if !formatType(b, e) {
				return false
			}
		}
		b.WriteByte(']')
	default:
		return false
	}
	return true
}
