package pirtext

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unsafe"

	"github.com/pirdrr/drr/ir"
)

// The reader's fast path: ops on one line, in the exact layout printers write,
//
//	(%a, %b) = "name" (%x, <<NULL VALUE>>) {k:v,…} : (T, T) -> T, T
//
// with plain numbered values (%N), operands already defined, operand types that are the operands' own, and no
// regions. Such a line is read with byte comparisons where op reads it token by token: the signature's operand
// types are compared with the text the operands' types were read from, the result types with those of the last op
// of the same kind, the attribute map with the last map of that kind (attrDict). Anything else, and anything
// the general reader would warn about or reject, leaves the fast path before it changed the program, and op reads
// the line, with the same result and the same messages.

// typeText is an entry of the parser's cache of the text each type was last read from, by type.
type typeText struct {
	t    ir.Type
	text []byte
}

// typeID returns the words of an interface value holding a type: two types are the same exactly when their words
// are (types are interned, and every type is a pointer).
func typeID(t ir.Type) [2]uintptr { return *(*[2]uintptr)(unsafe.Pointer(&t)) }

// textOf returns the cache entry of t.
func (p *parser) textOf(t ir.Type) *typeText {
	id := typeID(t)
	return &p.typeTexts[(id[1]>>4^id[1]>>12)%uintptr(len(p.typeTexts))]
}

// rememberText records that t was read from src[start:end].
func (p *parser) rememberText(t ir.Type, start, end int) {
	e := p.textOf(t)
	e.t = t
	e.text = append(e.text[:0], p.src[start:end]...)
}

// typeAt reports whether the source at i holds the text t was last read from, and returns its end.
func (p *parser) typeAt(i int, t ir.Type) (int, bool) {
	e := p.textOf(t)
	if e.t == nil || typeID(e.t) != typeID(t) {
		return i, false
	}
	n := len(e.text)
	if len(p.src)-i < n || string(p.src[i:i+n]) != string(e.text) {
		return i, false
	}
	return i + n, true
}

// slotValue returns the value in slot n (not negative) of the numbered names, nil if there is none.
func (p *parser) slotValue(n int) *ir.Value {
	// Unsigned, the page and the index are a shift and a mask.
	if pg := uint(n) / slotPage; pg < uint(len(p.nums)) && p.nums[pg] != nil {
		return p.nums[pg][uint(n)%slotPage]
	}
	return nil
}

// plainNum reads the value name at src[i] ('%') as a plain number N: digits without a leading 0 (except "0"
// itself) that end the name. It returns N and the end of the name; ok is false for other names. Up to seven
// digits are read from one word: the digits are the bytes below the first that is not one, converted by three
// multiplications (moved to the top of the word, the zero bytes above them read as leading 0s).
func plainNum(src []byte, i int) (n, j int, ok bool) {
	var d int
	if len(src)-i > 8 {
		w := binary.LittleEndian.Uint64(src[i+1:])
		x := (w&0xF0F0F0F0F0F0F0F0 ^ 0x3030303030303030) | ((w+0x0606060606060606)&0xF0F0F0F0F0F0F0F0 ^ 0x3030303030303030)
		d = bits.TrailingZeros64(x) >> 3
		if d == 0 || d > 1 && byte(w) == '0' {
			return 0, i, false
		}
		if d < 8 {
			// The byte after the digits is in the word: the name ends there unless it is a name byte.
			if charClass[byte(w>>(8*uint(d)))]&clValueName != 0 {
				return 0, i, false
			}
			v := w << (64 - 8*uint(d))
			v = (v & 0x0F0F0F0F0F0F0F0F) * 2561 >> 8
			v = (v & 0x00FF00FF00FF00FF) * 6553601 >> 16
			return int((v & 0x0000FFFF0000FFFF) * 42949672960001 >> 32), i + 1 + d, true
		}
	}
	n, d = digitsSlow(src, i+1)
	j = i + 1 + d
	if d == 0 || d > 1 && src[i+1] == '0' || j < len(src) && charClass[src[j]]&clValueName != 0 {
		return 0, i, false
	}
	return n, j, true
}

// digitsSlow reads the decimal digits at src[i:] one byte at a time and returns their value and number; at most 9
// are read (so that the value fits), the caller checks what follows. plainNum uses it near the end of the source
// and for numbers of eight digits or more.
func digitsSlow(src []byte, i int) (n, d int) {
	for d < 9 && i+d < len(src) {
		c := src[i+d]
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
		d++
	}
	return n, d
}

// lit reports whether src[i:] starts with s.
func lit(src []byte, i int, s string) bool {
	return len(src)-i >= len(s) && string(src[i:i+len(s)]) == s
}

// lit2 reports whether src[i:] starts with the two bytes s (as one comparison).
func lit2(src []byte, i int, s string) bool {
	return len(src)-i >= 2 && binary.LittleEndian.Uint16(src[i:]) == uint16(s[0])|uint16(s[1])<<8
}

// lit4 reports whether src[i:] starts with the four bytes s (as one comparison).
func lit4(src []byte, i int, s string) bool {
	return len(src)-i >= 4 && binary.LittleEndian.Uint32(src[i:]) == uint32(s[0])|uint32(s[1])<<8|uint32(s[2])<<16|uint32(s[3])<<24
}

// opFast reads the op at the cursor if it has the fast path's shape, and reports whether it did. When it did not,
// the cursor, the line count and the warnings are as they were, no value is defined and no op created.
func (p *parser) opFast(b *ir.Block) bool {
	start, line, lineStart, nwarns := p.pos, p.line, p.lineStart, len(p.warns)
	if p.readFast(b) {
		p.fastOps++
		return true
	}
	p.pos, p.line, p.lineStart, p.warns = start, line, lineStart, p.warns[:nwarns]
	return false
}

// readFast is opFast, leaving the cursor anywhere when it fails.
func (p *parser) readFast(b *ir.Block) bool {
	src := p.src
	start, nwarns := p.pos, len(p.warns)
	loc := p.here()
	i := start + 1 // after '('
	p.resNames = p.resNames[:0]
	if i < len(src) && src[i] == ')' {
		i++
	} else {
		for {
			if i >= len(src) || src[i] != '%' {
				return false
			}
			// A plain numbered name with a slot (see valueRef), not defined yet.
			n, j, ok := plainNum(src, i)
			if !ok || n > len(src)+64 || p.slotValue(n) != nil {
				return false
			}
			r := valueRef{start: int32(i + 1), end: int32(j), pos: position{int32(p.line), int32(i - p.lineStart + 1)}, slot: int32(n)}
			p.resNames = append(p.resNames, r)
			i = j
			if lit2(src, i, ", ") {
				i += 2
				continue
			}
			if i < len(src) && src[i] == ')' {
				i++
				break
			}
			return false
		}
	}
	if !lit4(src, i, ` = "`) {
		return false
	}
	i += 4
	e, j := p.fastOpName(i)
	if e == nil || !lit2(src, j, " (") {
		return false
	}
	i = j + 2
	// Operands.
	p.operands = p.operands[:0]
	if i < len(src) && src[i] == ')' {
		i++
	} else {
		for {
			switch {
			case i < len(src) && src[i] == '%':
				// A plain numbered name, defined.
				n, j, ok := plainNum(src, i)
				if !ok {
					return false
				}
				v := p.slotValue(n)
				if v == nil || v.OwnerBlock() != b && !p.visible(v) {
					return false
				}
				p.operands = append(p.operands, v)
				i = j
			case lit(src, i, nullValue):
				p.operands = append(p.operands, nil)
				i += len(nullValue)
			default:
				return false
			}
			if lit2(src, i, ", ") {
				i += 2
				continue
			}
			if i < len(src) && src[i] == ')' {
				i++
				break
			}
			return false
		}
	}
	// The rest of the line: as the last of the kind's, or read piece by piece.
	if n := len(e.tail); n > 0 && len(p.operands) == len(e.tailOperands) && len(p.resNames) == len(e.tailResults) &&
		len(src)-i >= n && string(src[i:i+n]) == string(e.tail) {
		if !p.tailOperandTypes(e) {
			return false // the general reader warns
		}
		p.pos = i + n
		p.line++
		p.lineStart = p.pos
		e.hits++ // a repeated attribute map (see attrDict)
		return p.finishFast(b, e, loc, e.tailAttrs, e.tailResults)
	}
	tail := i
	// Attributes.
	var attrs []ir.NamedAttr
	if lit2(src, i, " {") {
		p.pos = i + 1
		attrs = p.attrDict(e)
		if len(p.warns) != nwarns {
			return false
		}
		i = p.pos
		// The rest of the line as the last of the kind's after its map: its types are that line's.
		if k := e.tailSig; k > 0 && len(p.operands) == len(e.tailOperands) && len(p.resNames) == len(e.tailResults) &&
			len(src)-i >= len(e.tail)-k && string(src[i:i+len(e.tail)-k]) == string(e.tail[k:]) && p.tailOperandTypes(e) {
			end := i + len(e.tail) - k
			e.tail = append(e.tail[:0], src[tail:end]...)
			e.tailSig = i - tail
			e.tailAttrs = attrs
			p.pos = end
			p.line++
			p.lineStart = end
			return p.finishFast(b, e, loc, attrs, e.tailResults)
		}
	}
	sig := i - tail
	if !lit4(src, i, " : (") {
		return false
	}
	i += 4
	// Operand types: the operands' own.
	p.sigTypes = p.sigTypes[:0]
	for k, v := range p.operands {
		if k > 0 {
			if !lit2(src, i, ", ") {
				return false
			}
			i += 2
		}
		if v != nil {
			if j, ok := p.typeAt(i, v.Type()); ok {
				p.sigTypes = append(p.sigTypes, v.Type())
				i = j
				continue
			}
		}
		p.pos = i
		if !p.startsType() {
			return false
		}
		t := p.typ()
		if v != nil && typeID(t) != typeID(v.Type()) {
			return false // the general reader warns
		}
		if v != nil {
			p.rememberText(t, i, p.pos)
		}
		p.sigTypes = append(p.sigTypes, t)
		i = p.pos
	}
	if !lit4(src, i, ") ->") || !lit(src, i+4, " ") {
		return false
	}
	i += 5
	// Result types: those of the last op of the kind, or read.
	p.resTypes = p.resTypes[:0]
	for k := range p.resNames {
		if k > 0 {
			if !lit2(src, i, ", ") {
				return false
			}
			i += 2
		}
		if k < len(e.resTypes) {
			if j, ok := p.typeAt(i, e.resTypes[k]); ok {
				p.resTypes = append(p.resTypes, e.resTypes[k])
				i = j
				continue
			}
		}
		p.pos = i
		if !p.startsType() {
			return false
		}
		t := p.typ()
		p.rememberText(t, i, p.pos)
		p.resTypes = append(p.resTypes, t)
		i = p.pos
	}
	// The end of the line.
	switch {
	case i == len(src):
	case src[i] == '\n':
		i++
	case src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n':
		i += 2
	default:
		return false
	}
	p.pos = i
	if i > 0 && src[i-1] == '\n' {
		p.line++
		p.lineStart = i
		e.tail = append(e.tail[:0], src[tail:i]...)
		e.tailOperands = append(e.tailOperands[:0], p.sigTypes...)
		e.tailAttrs = attrs
		e.tailResults = append(e.tailResults[:0], p.resTypes...)
		e.tailSig = sig
	}
	e.resTypes = append(e.resTypes[:0], p.resTypes...)
	return p.finishFast(b, e, loc, attrs, p.resTypes)
}

// tailOperandTypes reports whether the operands just read have the types of the operands of e's tail (an absent
// operand has any).
func (p *parser) tailOperandTypes(e *opEntry) bool {
	for k, v := range p.operands {
		if v != nil && typeID(v.Type()) != typeID(e.tailOperands[k]) {
			return false
		}
	}
	return true
}

// finishFast creates the op the fast path read, unless regions follow on the next line (a generic op's) or its
// result types go on there, which the general reader reads. The cursor is at the start of the next line.
func (p *parser) finishFast(b *ir.Block, e *opEntry, loc position, attrs []ir.NamedAttr, results []ir.Type) bool {
	src, i := p.src, p.pos
	for lit4(src, i, "    ") {
		i += 4 // the next line's indentation, four spaces a level
	}
	for i < len(src) && src[i] == ' ' {
		i++
	}
	p.pos = i
	if i < len(src) && charClass[src[i]]&clSkip != 0 {
		p.skipSpace() // blank lines, comments: the regions may start after them
	}
	if c := p.peek(); c == '{' || c == ',' || len(results) == 0 && p.startsType() {
		// Regions, result types that go on after a line break (after a comma, or the first of them after an
		// arrow that ended the line): the general reader reads them.
		return false
	}
	p.newOp(b, e, loc, attrs, results, 0)
	return true
}

// fastOpName reads the quoted op name whose first byte is at i and returns its entry and the end of the name
// (after the closing quote); nil when the name is new, has escapes or is not closed on its line (the general
// reader reads those). It tries the kind that followed the last op's kind the last time first (nextName), then
// the parser's table of names by their length and last bytes (two slots per hash).
func (p *parser) fastOpName(i int) (*opEntry, int) {
	prev := p.prevOp
	if prev != nil && prev.next != nil {
		if j, ok := prev.next.nameAt(p.src, i); ok {
			p.prevOp = prev.next
			return prev.next, j
		}
	}
	e, j := p.lookupOpName(i)
	if e != nil {
		if prev != nil {
			prev.next = e
		}
		p.prevOp = e
	}
	return e, j
}

// lookupOpName is fastOpName through the table of names.
func (p *parser) lookupOpName(i int) (*opEntry, int) {
	src := p.src
	j := quoteIndex(src[i:])
	if j <= 0 {
		return nil, i
	}
	name := src[i : i+j]
	h := nameHash(name)
	for _, e := range [2]*opEntry{p.names[h], p.names[h^1]} {
		if e != nil && e.quoted == string(name) {
			return e, i + j + 1 // e.quoted has no escape and no line end: neither has name
		}
	}
	if bytes.IndexByte(name, '\\') >= 0 || bytes.IndexByte(name, '\n') >= 0 {
		return nil, i
	}
	e := p.entry(name)
	if e.quoted == "" {
		return nil, i
	}
	if p.names[h] != nil && p.names[h^1] == nil {
		h ^= 1
	}
	p.names[h] = e
	return e, i + j + 1
}

// setNameWords sets e's nameWords and nameMasks from its quoted name.
func (e *opEntry) setNameWords() {
	q := e.quoted + `"`
	if len(q) > 8*len(e.nameWords) {
		return
	}
	for k := 0; k < len(q); k++ {
		e.nameWords[k/8] |= uint64(q[k]) << (8 * (k % 8))
		e.nameMasks[k/8] |= 0xFF << (8 * (k % 8))
	}
	e.shortName = true
}

// nameAt reports whether src[i:] starts with e's quoted name and its closing quote, and returns their end.
func (e *opEntry) nameAt(src []byte, i int) (int, bool) {
	n := len(e.quoted)
	if e.shortName && len(src)-i >= 24 {
		w := src[i : i+24]
		if binary.LittleEndian.Uint64(w)&e.nameMasks[0] != e.nameWords[0] ||
			binary.LittleEndian.Uint64(w[8:])&e.nameMasks[1] != e.nameWords[1] ||
			binary.LittleEndian.Uint64(w[16:])&e.nameMasks[2] != e.nameWords[2] {
			return i, false
		}
		return i + n + 1, true
	}
	if n == 0 || len(src)-i <= n || string(src[i:i+n]) != e.quoted || src[i+n] != '"' {
		return i, false
	}
	return i + n + 1, true
}

// quoteIndex returns the index of the first '"' in b, or -1: eight bytes at a time, for the short op names.
func quoteIndex(b []byte) int {
	i := 0
	for ; len(b)-i >= 8; i += 8 {
		const ones, highs, quotes = 0x0101010101010101, 0x8080808080808080, 0x2222222222222222
		w := binary.LittleEndian.Uint64(b[i:]) ^ quotes
		if z := (w - ones) &^ w & highs; z != 0 {
			return i + bits.TrailingZeros64(z)/8
		}
	}
	for ; i < len(b); i++ {
		if b[i] == '"' {
			return i
		}
	}
	return -1
}

// nameHash mixes the length and the last eight bytes of an op name into an index of parser.names.
func nameHash(name []byte) uintptr {
	var w uint64
	if n := len(name); n >= 8 {
		w = binary.LittleEndian.Uint64(name[n-8:])
	} else {
		for _, c := range name {
			w = w<<8 | uint64(c)
		}
	}
	return uintptr((w^uint64(len(name)))*0x9E3779B97F4A7C15) >> (64 - nameBits)
}
