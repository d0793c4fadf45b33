package pirtext

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/internal/mapfile"
	"github.com/pirdrr/drr/ir"
)

// Parse reads a PIR text program. It accepts what Paddle's printers wrote from 2023-08 on (see the package
// documentation) and builds the program in ctx: ops get the line and column of their first token, Program.File is
// filename, and the parameter table is collected (Program.CollectParams).
//
// It returns the program, the warnings (signature operand types that contradict the operand's own type,
// attribute values that do not fit their schema), and, if the text cannot be read, a nil program and an *Error
// that says where and what was expected. Parse never panics.
func Parse(ctx *ir.Context, filename string, src []byte, opts ReadOptions) (prog *ir.Program, warns diag.Diagnostics, err error) {
	return parse(ctx, filename, src, opts, nil)
}

// parseHooks are the ways to run the reader other than Parse's: source, if not nil, is the file src is the content
// of, told where the parser is after each op so that it hands back what the parser has passed (ParseFile); slow turns the fast path and the caches off, and fastOps counts
// the ops the fast path read (tests, which compare the two); prefaultFrom, if not 0, replaces the source size from
// which the allocator prefaults (tests).
type parseHooks struct {
	source       *mapfile.Source
	slow         bool
	fastOps      int
	prefaultFrom int
}

// parse is Parse, with hooks (nil for none).
func parse(ctx *ir.Context, filename string, src []byte, opts ReadOptions, hooks *parseHooks) (prog *ir.Program, warns diag.Diagnostics, err error) {
	p := newParser(ctx, filename, src)
	p.opts = opts
	if hooks != nil {
		p.source, p.slow = hooks.source, hooks.slow
		if hooks.prefaultFrom > 0 {
			p.prefaultFrom = hooks.prefaultFrom
		}
		defer func() { hooks.fastOps = p.fastOps }()
	}
	defer func() {
		if r := recover(); r != nil {
			prog, warns, err = nil, p.warns, p.toError(r)
		}
		p.freeSlots()
	}()
	prog = p.program()
	return prog, p.warns, nil
}

// parser reads one source. Errors are raised with scanner.fail (a panic carrying an *Error) and recovered in
// Parse.
type parser struct {
	scanner
	ctx     *ir.Context
	alloc   *ir.Allocator
	opts    ReadOptions
	warns   diag.Diagnostics
	depth   int
	builder *ir.Builder
	// prefaultFrom is the source size from which the allocator prefaults (defaultPrefaultFrom).
	prefaultFrom int

	// Values by name: %N in nums (N bounded by the source size), every other name in named. nums is paged, so
	// that it grows without copying (and without garbage) and sparse numbers cost no memory between them. Where
	// a value is defined is found again in the source when a message needs it (defPos).
	nums  []*[slotPage]*ir.Value
	named map[string]*ir.Value
	// slots holds nums's pages outside the heap where the system allows (file_linux.go); nil until the first page
	// (or if the system refused it: slotsTried).
	slots      *slotArena
	slotsTried bool
	// open holds the blocks being read, outermost first; a value is visible while its block is open.
	open []*ir.Block
	// argPos records where block arguments are defined (results are found from their op's position).
	argPos  map[*ir.Value]position
	pending *pendingUse

	// Per-parse caches keyed by source text.
	types        map[string]ir.Type
	recentTypes  [4]recentType
	recentNext   int
	ops          map[string]*opEntry
	recentOps    [8]*opEntry
	recentOpNext int
	keys         map[string]string
	// The fast path's caches (parse_fast.go): the text each type was last read from, and op entries by name.
	typeTexts [128]typeText
	names     [1 << nameBits]*opEntry
	// prevOp is the kind of the last op fastOpName read (its next is the kind tried first for the next line).
	prevOp *opEntry

	// strSpans are the string values attrDictSlow read last (for attrVariant); attrSlab holds attribute lists.
	strSpans []strSpan
	attrSlab []ir.NamedAttr

	// params builds the parameter table from the parameter ops read, in program order.
	params *ir.ParamsBuilder

	// source, if set, is the file src is the content of (ParseFile), told where the parser is after each op.
	source *mapfile.Source
	// slow turns the fast path and the caches of types and attribute maps off; fastOps counts the ops the fast
	// path read.
	slow    bool
	fastOps int

	// Scratch space for the op being read (regions copy what they need before reading nested ops).
	resNames []valueRef
	operands []*ir.Value
	opRefs   []valueRef
	sigTypes []ir.Type
	sigPos   []position
	resTypes []ir.Type
}

// nameBits is the size of the fast path's table of op names, in bits.
const nameBits = 7

// slotPage is the number of value slots in a page of parser.nums.
const slotPage = 4096

// valueRef is an occurrence of a value name in the source: its bytes (after '%'), position, and index in the
// parser's slot slice (-1 for names that are not plain numbers small enough to index it).
type valueRef struct {
	start, end int32
	pos        position
	slot       int32
}

// pendingUse is the first use of a name that was not defined yet; it is an error unless reading fails earlier.
type pendingUse struct {
	ref  valueRef
	name string
}

// opEntry is what the parser knows about an op name: the interned name, its schema, and the attribute maps read
// for it, by text.
type opEntry struct {
	name string
	// quoted is the name as it appears between quotes when it needs no escapes ("" otherwise).
	quoted string
	schema *ir.OpSchema
	dicts  map[string]*dictEntry
	// last is the map read most recently (its text copied), compared before the lookup: ops of one kind often
	// repeat their map, or change only one of its strings (attrVariant).
	lastText []byte
	last     *dictEntry
	// lastOwn holds the last map when it is not in dicts.
	lastOwn dictEntry
	// hits and misses of the cache; an op kind whose maps rarely repeat (builtin.parameter, with a name per op)
	// stops adding them.
	hits, misses int
	// info is the op kind's record in the Context, once an op of the kind is created.
	info *ir.OpInfo
	// resTypes are the result types of the last op of the kind the fast path read.
	resTypes []ir.Type
	// tail is the rest of the last line of the kind the fast path read piece by piece, after its operands (" {…} :
	// (T, T) -> T" and the line end), with the operand types it names and the attributes and result types it holds:
	// a line that ends the same, with operands of those types, reads the same.
	tail         []byte
	tailOperands []ir.Type
	tailAttrs    []ir.NamedAttr
	tailResults  []ir.Type
	// tailSig is where the tail's attribute map ends in it (0 if it has none): a line whose map differs but
	// whose rest (the signature and the line end) is the tail's from there has the tail's result types.
	tailSig int
	// next is the kind of the op fastOpName read after the last op of this kind: the kind it tries first on the
	// next line (programs repeat their sequences of op kinds).
	next *opEntry
	// nameWords holds the quoted name and its closing quote as little-endian words, nameMasks their bytes that
	// count, when they fit in three words (shortName): fastOpName compares a name with them without a call.
	nameWords, nameMasks [3]uint64
	shortName            bool
}

func newParser(ctx *ir.Context, filename string, src []byte) *parser {
	return &parser{
		scanner:      scanner{file: filename, src: src, line: 1},
		ctx:          ctx,
		types:        make(map[string]ir.Type),
		ops:          make(map[string]*opEntry),
		keys:         make(map[string]string),
		named:        make(map[string]*ir.Value),
		prefaultFrom: defaultPrefaultFrom,
	}
}

// toError turns a recovered panic into the error Parse returns. An earlier use of an undefined value wins over a
// later syntax error.
func (p *parser) toError(r any) *Error {
	e, ok := r.(*Error)
	if fault, isFault := r.(interface{ Addr() uintptr }); !ok && isFault && p.source != nil && p.source.Mapped() {
		// ParseFile's mapped source faulted: the file shrank while it was read.
		return &Error{Pos: diag.Position{Filename: p.file, Line: p.line, Column: p.pos - p.lineStart + 1}, Msg: fmt.Sprintf("the file changed while it was read (%v)", fault)}
	}
	if !ok {
		return &Error{Pos: diag.Position{Filename: p.file, Line: p.line, Column: p.pos - p.lineStart + 1}, Msg: fmt.Sprintf("internal error: %v", r), Internal: true}
	}
	if u := p.pending; u != nil {
		if int(u.ref.pos.line) < e.Pos.Line || int(u.ref.pos.line) == e.Pos.Line && int(u.ref.pos.col) < e.Pos.Column {
			return &Error{Pos: diag.Position{Filename: p.file, Line: int(u.ref.pos.line), Column: int(u.ref.pos.col)}, Msg: "undefined value %" + u.name}
		}
	}
	return e
}

// recoverTo is the deferred handler of the small entry points (ParseType, ParseAttribute).
func (p *parser) recoverTo(err *error) {
	if r := recover(); r != nil {
		*err = p.toError(r)
	}
}

func (p *parser) warn(pos position, format string, args ...any) {
	p.warns = append(p.warns, diag.Diagnostic{Severity: diag.Warning, Pos: ir.Loc{Line: pos.line, Col: pos.col}.In(p.file),
		Message: fmt.Sprintf(format, args...)})
}

// enter and leave bound the nesting depth.
func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail("nesting is too deep (more than %d levels)", maxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

// intern returns the attribute name b as the Context's copy (ir.Context.AttrName), through a map of this parse's
// names.
func (p *parser) intern(b []byte) string {
	if s, ok := p.keys[string(b)]; ok {
		return s
	}
	s := p.ctx.AttrNameBytes(b)
	p.keys[s] = s
	return s
}

// entry returns the opEntry of an op name, checking the few names read last before the map.
func (p *parser) entry(name []byte) *opEntry {
	for _, e := range p.recentOps {
		if e != nil && e.name == string(name) {
			return e
		}
	}
	e, ok := p.ops[string(name)]
	if !ok {
		s := string(name)
		e = &opEntry{name: s, schema: p.ctx.Schema(s), dicts: make(map[string]*dictEntry)}
		if s != "" && !strings.ContainsAny(s, "\"\\\n") {
			e.quoted = s
			e.setNameWords()
		}
		p.ops[s] = e
	}
	p.recentOps[p.recentOpNext%len(p.recentOps)] = e
	p.recentOpNext++
	return e
}

// defaultPrefaultFrom is the source size from which the reader has the allocator prefault its chunks on another
// goroutine (ir.Allocator.Prefault): about 200,000 ops, whose records take 45 MB.
const defaultPrefaultFrom = 32 << 20

// program reads the whole source: a block in braces, or (as some documents copy programs) bare ops.
func (p *parser) program() *ir.Program {
	prog := ir.NewProgram(p.ctx)
	prog.File = p.file
	p.builder = ir.NewBuilder(p.ctx)
	p.alloc = prog.Allocator()
	large := len(p.src) >= p.prefaultFrom
	if large {
		defer p.alloc.Prefault()()
	}
	// A large program's parameter table is built on the other core as its parameter ops are read.
	p.params = ir.NewParamsBuilder(p.ctx, large)
	defer p.params.Stop() // a failed read leaves no goroutine behind
	p.skipSpace()
	if p.eof() {
		p.fail("expected a program ('{' and its ops), found end of file")
	}
	body := prog.Body()
	if p.peek() == '{' {
		open := p.here()
		p.pos++
		p.block(body, open, true, nil, false)
		p.skipSpace()
		if !p.eof() {
			p.fail("unexpected %s after the end of the program", p.describe())
		}
	} else {
		p.block(body, position{}, false, nil, false)
	}
	if u := p.pending; u != nil {
		if v := p.lookup(u.ref); v != nil {
			def := p.defPos(v)
			p.failAt(u.ref.pos, "value %%%s is used before its definition at %d:%d", u.name, def.line, def.col)
		}
		p.failAt(u.ref.pos, "undefined value %%%s", u.name)
	}
	prog.Params = p.params.Params()
	return prog
}

// block reads a block's arguments and ops up to its closing '}' (consumed) or, for a program without braces, the
// end of the source. argTypes are the default types of its arguments (a while body's inputs); while says whether
// they are required.
func (p *parser) block(b *ir.Block, open position, braced bool, argTypes []ir.Type, while bool) {
	p.enter()
	p.open = append(p.open, b)
	p.blockArgs(b, argTypes, while)
	for {
		p.skipSpace()
		if p.eof() {
			if braced {
				p.fail("expected '}' to close the block opened at %d:%d, found end of file", open.line, open.col)
			}
			break
		}
		if p.peek() == '}' {
			if !braced {
				p.fail("unexpected '}': no block is open")
			}
			p.pos++
			break
		}
		if p.slow || p.peek() != '(' || !p.opFast(b) {
			p.op(b)
		}
		if p.source != nil {
			p.source.Passed(p.pos)
		}
	}
	p.open = p.open[:len(p.open)-1]
	p.leave()
}

// blockArgs reads the argument lines at the start of a block:
//
//	^%arg_0, %arg_1 [: T, T]       (while bodies print the names only; their types are the loop inputs')
//	^kw: %kwarg_x %kwarg_y         (keyword arguments, read as plain arguments)
//
// Each name may carry an attribute map, as newer printers write (%arg_0 {…}); it is read and dropped.
func (p *parser) blockArgs(b *ir.Block, defaults []ir.Type, while bool) {
	for {
		p.skipSpace()
		if p.peek() != '^' {
			return
		}
		p.pos++
		kw := p.acceptWord("kw")
		if kw {
			p.expect(':', "':' after ^kw")
		}
		var refs []valueRef
		for {
			p.skipSpace()
			if p.peek() != '%' {
				break
			}
			refs = append(refs, p.valueRef())
			p.skipSpace()
			if p.peek() == '{' {
				p.attrDictSlow(&opEntry{name: "block argument"})
				p.skipSpace()
			}
			if p.peek() == ',' {
				p.pos++
				continue
			}
			if !kw {
				break
			}
		}
		var types []ir.Type
		if p.accept(':') {
			var pos []position
			types = p.typeList(nil, &pos)
			if len(types) != len(refs) {
				at := p.here()
				if len(pos) > 0 {
					at = pos[0]
				}
				p.failAt(at, "%s for %s", plural(len(types), "type"), plural(len(refs), "block argument"))
			}
		}
		for i, r := range refs {
			var t ir.Type
			switch n := b.NumArgs(); {
			case types != nil:
				t = types[i]
			case n < len(defaults):
				t = defaults[n]
			case while:
				p.failAt(r.pos, "block argument %%%s has no type: the while op has %s (write ^%%a, %%b : T, T to give the types)",
					p.src[r.start:r.end], plural(len(defaults), "input"))
			default:
				t = p.ctx.NullType()
			}
			a := b.AddArg(t)
			p.define(r, a)
			if p.argPos == nil {
				p.argPos = make(map[*ir.Value]position)
			}
			p.argPos[a] = r.pos
		}
	}
}

// valueRef consumes a value name %… at the cursor. A name that is a plain number (no leading zero) not larger
// than the source gets a slot index.
func (p *parser) valueRef() valueRef {
	pos := p.here()
	src := p.src
	start := p.pos + 1 // after '%'
	i, n := start, 0
	for i < len(src) && isDigit(src[i]) && i-start < 9 {
		n = n*10 + int(src[i]-'0')
		i++
	}
	slot := int32(n)
	if i == start || i-start > 1 && src[start] == '0' || n > len(src)+64 {
		slot = -1
	}
	for i < len(src) && charClass[src[i]]&clValueName != 0 {
		slot = -1
		i++
	}
	p.pos = i
	if i == start {
		p.failAt(pos, "expected a value name after '%%', found %s", p.describe())
	}
	return valueRef{start: int32(start), end: int32(i), pos: pos, slot: slot}
}

// slotIndex returns the slot index of a name, or -1.
func (p *parser) slotIndex(r valueRef) int { return int(r.slot) }

// lookup returns the value of a name, or nil while it is undefined.
func (p *parser) lookup(r valueRef) *ir.Value {
	if i := p.slotIndex(r); i >= 0 {
		if pg := i / slotPage; pg < len(p.nums) && p.nums[pg] != nil {
			return p.nums[pg][i%slotPage]
		}
		return nil
	}
	return p.named[string(p.src[r.start:r.end])]
}

// slotPage returns a new page for nums: from the arena while it lasts, else from the heap.
func (p *parser) slotPage() *[slotPage]*ir.Value {
	if !p.slotsTried {
		p.slotsTried = true
		p.slots = newSlotArena(len(p.src) + 64 + slotPage)
	}
	if p.slots != nil {
		if pg := p.slots.page(); pg != nil {
			return pg
		}
	}
	return new([slotPage]*ir.Value)
}

// freeSlots drops the value-name table and gives its arena back.
func (p *parser) freeSlots() {
	p.nums = nil
	if p.slots != nil {
		p.slots.free()
		p.slots = nil
	}
}

// define binds a name to a value of the innermost open block.
func (p *parser) define(r valueRef, v *ir.Value) {
	if i := p.slotIndex(r); i >= 0 {
		pg := i / slotPage
		if pg >= len(p.nums) {
			p.nums = append(p.nums, make([]*[slotPage]*ir.Value, pg+1-len(p.nums))...)
		}
		if p.nums[pg] == nil {
			p.nums[pg] = p.slotPage()
		}
		s := &p.nums[pg][i%slotPage]
		if *s != nil {
			p.definedTwice(r, *s)
		}
		*s = v
		return
	}
	key := string(p.src[r.start:r.end])
	if old := p.named[key]; old != nil {
		p.definedTwice(r, old)
	}
	p.named[key] = v
}

func (p *parser) definedTwice(r valueRef, old *ir.Value) {
	def := p.defPos(old)
	p.failAt(r.pos, "value %%%s is already defined at %d:%d", p.src[r.start:r.end], def.line, def.col)
}

// use resolves an operand name. A name not defined yet is remembered (reading continues, so that the error can
// say whether it is defined later) and read as an absent operand.
func (p *parser) use(r valueRef) *ir.Value {
	v := p.lookup(r)
	if v == nil {
		if p.pending == nil {
			p.pending = &pendingUse{ref: r, name: string(p.src[r.start:r.end])}
		}
		return nil
	}
	if !p.visible(v) {
		def := p.defPos(v)
		p.failAt(r.pos, "value %%%s is defined at %d:%d inside a region that does not enclose this use",
			p.src[r.start:r.end], def.line, def.col)
	}
	return v
}

// visible reports whether v is defined in an open block (the innermost, nearly always).
func (p *parser) visible(v *ir.Value) bool {
	b := v.OwnerBlock()
	for i := len(p.open) - 1; i >= 0; i-- {
		if p.open[i] == b {
			return true
		}
	}
	return false
}

// defPos returns where the name of v is defined: for a result, its place in the result list of its op, read again
// from the op's position; for a block argument, the position recorded when it was read.
func (p *parser) defPos(v *ir.Value) position {
	op := v.DefiningOp()
	if op == nil {
		return p.argPos[v]
	}
	// The offset of the op's line: back from the cursor's line, which is at or after it.
	start := p.lineStart
	for line := int32(p.line); line > op.Loc.Line && start > 0; line-- {
		start = bytes.LastIndexByte(p.src[:start-1], '\n') + 1
	}
	s := scanner{src: p.src, pos: start + int(op.Loc.Col), line: int(op.Loc.Line), lineStart: start} // after '('
	for k := 0; ; k++ {
		s.skipSpace()
		if k == v.Index() || s.peek() != '%' {
			return s.here()
		}
		s.pos++
		for s.pos < len(s.src) && charClass[s.src[s.pos]]&clValueName != 0 {
			s.pos++
		}
		s.skipSpace()
		if s.peek() == ',' {
			s.pos++
		}
	}
}

// operand reads one operand: a value name or <<NULL VALUE>>.
func (p *parser) operand() (*ir.Value, valueRef) {
	p.skipSpace()
	switch {
	case p.peek() == '%':
		r := p.valueRef()
		return p.use(r), r
	case p.hasPrefix(nullValue):
		pos := p.here()
		p.pos += len(nullValue)
		return nil, valueRef{pos: pos}
	}
	p.fail("expected an operand (a value like %%3, or <<NULL VALUE>>), found %s", p.describe())
	return nil, valueRef{}
}

// operandList reads "(a, b, …)" after the '(' into the operand scratch.
func (p *parser) operandList() {
	p.operands, p.opRefs = p.operands[:0], p.opRefs[:0]
	p.skipSpace()
	if p.peek() == ')' {
		p.pos++
		return
	}
	for {
		v, r := p.operand()
		p.operands = append(p.operands, v)
		p.opRefs = append(p.opRefs, r)
		p.skipSpace()
		if p.peek() == ')' {
			p.pos++
			return
		}
		p.expect(',', "',' or ')' in the operand list")
	}
}

// op reads one op and appends it to b:
//
//	(results) = "name" [id:N] (operands) {attrs} : (types) -> types [{region} …]     generic form
//	(results) = "name" (operands) [{attrs}] -> types {block} [else {block} …]      pd_op.if, cinn_op.group
//	(results) = "pd_op.while"(cond=%c, inputs=%a, …) [{attrs}] [-> types] {^args …}  pd_op.while
//
// The name may be unquoted (older prints of pd_op.if and cinn_op.group).
func (p *parser) op(b *ir.Block) {
	loc := p.here()
	if p.peek() != '(' {
		p.fail("expected an op (its results in parentheses, like (%%0) = \"pd_op.relu\" …), found %s", p.describe())
	}
	p.pos++
	p.resNames = p.resNames[:0]
	p.skipSpace()
	if p.peek() != ')' {
		for {
			p.skipSpace()
			if p.peek() != '%' {
				p.fail("expected a result value like %%0, found %s", p.describe())
			}
			p.resNames = append(p.resNames, p.valueRef())
			p.skipSpace()
			if p.peek() == ')' {
				break
			}
			p.expect(',', "',' or ')' in the result list")
		}
	}
	p.pos++
	p.expect('=', "'=' after the result list")
	p.skipSpace()
	var e *opEntry
	switch c := p.peek(); {
	case c == '"':
		e = p.quotedOpName()
	case isIdentStart(c):
		e = p.entry(p.ident())
	default:
		p.fail("expected an op name, found %s", p.describe())
	}
	p.skipSpace()
	if p.peek() == '[' {
		p.opID()
		p.skipSpace()
	}
	if p.peek() == '(' && p.whileAhead() {
		p.whileOp(b, e, loc)
		return
	}
	if !p.accept('(') {
		p.fail("expected '(' and the operands of %s, found %s", e.name, p.describe())
	}
	p.operandList()
	var attrs []ir.NamedAttr
	p.skipSpace()
	if p.peek() == '{' {
		attrs = p.attrDict(e)
		p.skipSpace()
	}
	switch {
	case p.peek() == ':':
		p.pos++
		p.signature()
		p.results(loc)
		p.skipSpace()
		n := 0
		if p.peek() == '{' {
			n = p.countBlocks(false)
		}
		op := p.newOp(b, e, loc, attrs, p.resTypes, n)
		p.regions(op, loc, n, false)
	case p.acceptArrow():
		p.resTypes = p.typeList(p.resTypes[:0], nil)
		p.results(loc)
		p.skipSpace()
		n := 0
		if p.peek() == '{' {
			n = p.countBlocks(true)
		}
		op := p.newOp(b, e, loc, attrs, p.resTypes, n)
		p.regions(op, loc, n, true)
	default:
		p.fail("expected ':' and the type signature of %s, found %s", e.name, p.describe())
	}
}

// quotedOpName reads a quoted op name.
func (p *parser) quotedOpName() *opEntry {
	rest := p.src[p.pos+1:]
	for _, e := range p.recentOps {
		if e != nil {
			if n := len(e.quoted); len(rest) > n && rest[n] == '"' && string(rest[:n]) == e.quoted {
				p.pos += n + 2
				return e
			}
		}
	}
	start := p.here()
	end, escaped := quotedEnd(p.src, p.pos)
	if end < 0 {
		p.failAt(start, "unterminated string")
	}
	if end == p.pos+2 {
		p.failAt(start, "empty op name")
	}
	if !escaped {
		body := p.src[p.pos+1 : end-1]
		p.advanceTo(end)
		return p.entry(body)
	}
	return p.entry([]byte(p.quoted()))
}

// opID skips " [id:N]", which printers write in verbose mode.
func (p *parser) opID() {
	p.pos++ // '['
	if !p.acceptWord("id") {
		p.fail("expected id:N in [id:N], found %s", p.describe())
	}
	p.expect(':', "':' in [id:N]")
	p.skipSpace()
	p.intValue("a number in [id:N]")
	p.expect(']', "']' after [id:N")
}

// signature reads "(types) -> types" after the ':' of the generic form, checks the operand types against the
// operands' own types (a mismatch is a warning: the value's type wins, as in Paddle's parser) and leaves the
// result types in the scratch.
func (p *parser) signature() {
	p.skipSpace()
	open := p.here()
	p.expect('(', "'(' and the operand types")
	p.sigPos = p.sigPos[:0]
	p.sigTypes = p.typeList(p.sigTypes[:0], &p.sigPos)
	p.expect(')', "',' or ')' after the operand types")
	if len(p.sigTypes) != len(p.operands) {
		p.failAt(open, "the signature lists %s for %s", plural(len(p.sigTypes), "operand type"), plural(len(p.operands), "operand"))
	}
	for i, t := range p.sigTypes {
		if v := p.operands[i]; v != nil && v.Type() != t {
			r := p.opRefs[i]
			p.warn(p.sigPos[i], "operand %d (%%%s) has type %s but the signature says %s; using the value's type",
				i, p.src[r.start:r.end], v.Type(), t)
		}
	}
	if !p.acceptArrow() {
		p.fail("expected '->' and the result types, found %s", p.describe())
	}
	p.resTypes = p.typeList(p.resTypes[:0], nil)
}

// results checks that the result names and types agree in number.
func (p *parser) results(loc position) {
	if len(p.resTypes) != len(p.resNames) {
		p.failAt(loc, "the op has %s but its signature lists %s", plural(len(p.resNames), "result"), plural(len(p.resTypes), "result type"))
	}
}

// newOp creates the op from the scratch (operands, result names) and appends it to b. Its results are defined at once for ops without
// regions, and after the regions otherwise (see regions).
func (p *parser) newOp(b *ir.Block, e *opEntry, loc position, attrs []ir.NamedAttr, results []ir.Type, regions int) *ir.Op {
	var op *ir.Op
	if regions == 0 {
		if e.info == nil {
			e.info = p.ctx.OpInfo(e.name)
		}
		op = p.alloc.Append(b, e.info, p.operands, results, attrs, ir.Loc{Line: loc.line, Col: loc.col})
	} else {
		op = p.alloc.NewOp(p.ctx, ir.OpSpec{Name: e.name, Operands: p.operands, Results: results, Attrs: attrs,
			Regions: regions, Loc: ir.Loc{Line: loc.line, Col: loc.col}})
		p.builder.SetInsertionPointToEnd(b)
		p.builder.Insert(op)
	}
	if ir.IsParamOp(op) {
		p.params.Append(op)
	}
	if regions == 0 {
		for i := range p.resNames {
			r := &p.resNames[i]
			// A numbered name whose slot is free goes in directly; define does the rest.
			if r.slot >= 0 {
				n := uint(r.slot)
				if pg := n / slotPage; pg < uint(len(p.nums)) && p.nums[pg] != nil && p.nums[pg][n%slotPage] == nil {
					p.nums[pg][n%slotPage] = op.Result(i)
					continue
				}
			}
			p.define(*r, op.Result(i))
		}
	}
	return op
}

// regions reads the n blocks of op's regions, one block per region ("else" between them in the custom form), then
// defines op's results, which its regions cannot see.
func (p *parser) regions(op *ir.Op, loc position, n int, custom bool) {
	if n == 0 {
		return
	}
	names := append([]valueRef(nil), p.resNames...)
	for i := 0; i < n; i++ {
		if i > 0 && custom && !p.acceptWord("else") {
			p.fail("expected 'else' and the next region of %s, found %s", op.Name(), p.describe())
		}
		p.skipSpace()
		open := p.here()
		if !p.accept('{') {
			p.fail("expected '{' to open region %d of %s, found %s", i, op.Name(), p.describe())
		}
		p.block(op.Region(i).AddBlock(), open, true, nil, false)
	}
	for i, r := range names {
		p.define(r, op.Result(i))
	}
}

// whileAhead reports whether the '(' at the cursor opens the custom while header "(cond=".
func (p *parser) whileAhead() bool {
	i := skipSpaceRaw(p.src, p.pos+1)
	end := identEnd(p.src, i)
	if string(p.src[i:end]) != "cond" {
		return false
	}
	i = skipSpaceRaw(p.src, end)
	return i < len(p.src) && p.src[i] == '='
}

// whileOp reads the custom form of pd_op.while after its name. Paddle's printer writes neither its attributes nor
// its result types (they are the inputs' types); this reader accepts both, as the printer here writes them when
// they carry information: "{attrs}" after the ')' and "-> types" before the body.
func (p *parser) whileOp(b *ir.Block, e *opEntry, loc position) {
	p.pos++ // '('
	p.acceptWord("cond")
	p.expect('=', "'=' after cond")
	v, r := p.operand()
	p.operands = append(p.operands[:0], v)
	p.opRefs = append(p.opRefs[:0], r)
	if p.accept(',') {
		if !p.acceptWord("inputs") {
			p.fail("expected inputs= in the while header, found %s", p.describe())
		}
		p.expect('=', "'=' after inputs")
		p.skipSpace()
		if p.peek() != ')' {
			for {
				v, r := p.operand()
				p.operands = append(p.operands, v)
				p.opRefs = append(p.opRefs, r)
				p.skipSpace()
				if p.peek() != ',' {
					break
				}
				p.pos++
			}
		}
	}
	p.expect(')', "')' after the while inputs")
	var attrs []ir.NamedAttr
	p.skipSpace()
	if p.peek() == '{' && p.attrsAhead() {
		attrs = p.attrDict(e)
	}
	inputs := make([]ir.Type, len(p.operands)-1)
	for i, v := range p.operands[1:] {
		if v != nil {
			inputs[i] = v.Type()
		} else {
			inputs[i] = p.ctx.NullType()
		}
	}
	if p.acceptArrow() {
		p.resTypes = p.typeList(p.resTypes[:0], nil)
		p.results(loc)
	} else {
		if len(p.resNames) != len(inputs) {
			p.failAt(loc, "the while op has %s but %s (write -> types to give the result types)", plural(len(p.resNames), "result"), plural(len(inputs), "input"))
		}
		p.resTypes = append(p.resTypes[:0], inputs...)
	}
	p.skipSpace()
	open := p.here()
	p.expect('{', "'{' and the body of the while op")
	op := p.newOp(b, e, loc, attrs, p.resTypes, 1)
	names := append([]valueRef(nil), p.resNames...)
	p.block(op.Region(0).AddBlock(), open, true, inputs, true)
	for i, r := range names {
		p.define(r, op.Result(i))
	}
}

// attrsAhead reports whether the '{' at the cursor opens an attribute map rather than a body: a name and ':'
// follow, or it is "{}" followed by another '{'.
func (p *parser) attrsAhead() bool {
	i := skipSpaceRaw(p.src, p.pos+1)
	if i >= len(p.src) {
		return false
	}
	switch c := p.src[i]; {
	case c == '}':
		j := skipSpaceRaw(p.src, i+1)
		return j < len(p.src) && p.src[j] == '{'
	case c == '"':
		end, _ := quotedEnd(p.src, i)
		if end < 0 {
			return false
		}
		j := skipSpaceRaw(p.src, end)
		return j < len(p.src) && p.src[j] == ':'
	case isIdentStart(c):
		j := skipSpaceRaw(p.src, identEnd(p.src, i))
		return j < len(p.src) && p.src[j] == ':'
	}
	return false
}

// skipSpaceRaw returns the offset of the first byte at or after i that is not white space or in a comment.
func skipSpaceRaw(src []byte, i int) int {
	for i < len(src) {
		switch src[i] {
		case ' ', '\t', '\r', '\n', '\f', '\v':
			i++
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
				continue
			}
			return i
		case 0xEF:
			if i+2 < len(src) && src[i+1] == 0xBB && src[i+2] == 0xBF {
				i += 3
				continue
			}
			return i
		default:
			return i
		}
	}
	return i
}

// countBlocks counts the region blocks that follow an op's signature without reading them (the op must be created
// with its number of regions before they are read): brace groups, separated by "else" in the custom form. The
// scan skips strings, comments and <…> groups the way the reader does; if it loses track, the reader reports the
// error when it gets there.
func (p *parser) countBlocks(custom bool) int {
	n := 0
	i := p.pos
	for {
		i = skipSpaceRaw(p.src, i)
		if i >= len(p.src) || p.src[i] != '{' {
			return n
		}
		n++
		end := skipGroup(p.src, i)
		if end < 0 {
			return n
		}
		i = end
		if custom {
			j := skipSpaceRaw(p.src, i)
			k := identEnd(p.src, j)
			if string(p.src[j:k]) != "else" {
				return n
			}
			i = k
		}
	}
}

// skipGroup returns the end of the brace group opening at i, or -1 if it does not close.
func skipGroup(src []byte, i int) int {
	depth := 0
	for i < len(src) {
		switch c := src[i]; c {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '"':
			end, _ := quotedEnd(src, i)
			if end < 0 {
				return -1
			}
			i = end
			continue
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
				continue
			}
		case '-':
			if i+1 < len(src) && src[i+1] == '>' {
				i += 2
				continue
			}
		case '<':
			if end := balancedEnd(src, i, '<', '>'); end > 0 {
				i = end
				continue
			}
		}
		i++
	}
	return -1
}
