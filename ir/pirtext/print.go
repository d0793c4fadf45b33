package pirtext

import (
	"io"
	"math/bits"
	"slices"
	"strconv"
	"unsafe"

	"github.com/pirdrr/drr/internal/bgwrite"
	"github.com/pirdrr/drr/ir"
)

// Print returns the program as PIR text.
func Print(p *ir.Program, opts WriteOptions) []byte {
	pr := newPrinter(nil, opts)
	pr.program(p)
	return pr.buf
}

// Write writes the program as PIR text to w, the way Paddle's printer prints it (see the package documentation
// for the few differences). It returns the first error of w.
func Write(w io.Writer, p *ir.Program, opts WriteOptions) error {
	pr := newPrinter(w, opts)
	pr.program(p)
	return pr.end()
}

// printer writes one program. Values are numbered as they are printed, like Paddle's printer does: an op's results
// when the op is printed (before the ops of its regions), block arguments with their own counter when their block
// is. The numbers are kept per op and per block (results and arguments are consecutive), so a value costs no entry
// of its own: in an array indexed by the op's ir.OpIDs number (4 bytes per op, in the order the reader allocated
// them, so mostly visited in order), and for ops without one (built by Context.NewOp) in an opTable.
type printer struct {
	buf      []byte
	w        io.Writer
	flusher  *bgwrite.Writer // nil until the output outgrows one buffer
	untagged bool

	opIDs     *ir.OpIDs
	opNum     []int32 // by op ID: the number of the op's first result plus one (0: not printed yet)
	opBase    opTable // the ops without an ID
	blockBase map[*ir.Block]int32
	// early holds values printed before their definition (only in programs that are not well formed), numbered on
	// first sight as Paddle's printer does; arguments are stored as -1-N.
	early   map[*ir.Value]int32
	nextRes int32
	nextArg int32

	types textCache
	attrs textCache
	// names caches the quoted op names by OpInfo, keys the printed attribute names by their bytes' address.
	names textCache
	keys  [64]struct {
		data *byte
		n    int
		text string
	}
	sorted []ir.NamedAttr
	maps   mapCache
	tails  [64]tailEntry
}

// tailEntry is the last tail (see printer.tail) printed for an op kind: the attribute list and the operand and
// result types it was printed from, and its text.
type tailEntry struct {
	info  *ir.OpInfo
	attrs mapKey
	nops  int // how many of types are operand types (the rest are result types)
	types []ir.Type
	text  []byte
}

func newPrinter(w io.Writer, opts WriteOptions) *printer {
	return &printer{
		w:         w,
		untagged:  opts.Untagged,
		blockBase: make(map[*ir.Block]int32),
	}
}

func (pr *printer) program(p *ir.Program) {
	pr.opIDs = p.OpIDs()
	pr.opNum = make([]int32, pr.opIDs.Len())
	pr.opBase.init(0)
	pr.buf = make([]byte, 0, flushSize+4096)
	pr.buf = append(pr.buf, "{\n"...)
	body := p.Body()
	if body.NumArgs() > 0 {
		pr.argLine(body, 1, true)
	}
	pr.ops(body, 1)
	pr.buf = append(pr.buf, "}\n"...)
}

func (pr *printer) indent(level int) {
	for i := 0; i < level; i++ {
		pr.buf = append(pr.buf, "    "...)
	}
}

// ops prints the ops of b at the given nesting level.
func (pr *printer) ops(b *ir.Block, level int) {
	for op := b.First(); op != nil; op = op.Next() {
		pr.op(op, level)
		if len(pr.buf) >= flushSize {
			pr.flush()
		}
	}
}

func (pr *printer) op(op *ir.Op, level int) {
	pr.indent(level)
	pr.results(op)
	pr.buf = append(pr.buf, " = "...)
	switch op.Name() {
	case "pd_op.if":
		if op.NumRegions() == 2 && op.Region(0).NumBlocks() == 1 && op.Region(1).NumBlocks() == 1 {
			pr.ifOp(op, level)
			return
		}
	case "pd_op.while":
		if op.NumRegions() == 1 && op.Region(0).NumBlocks() == 1 && op.NumOperands() > 0 {
			pr.whileOp(op, level)
			return
		}
	case "cinn_op.group":
		if op.NumRegions() == 1 && op.Region(0).NumBlocks() == 1 {
			pr.groupOp(op, level)
			return
		}
	}
	pr.opName(op)
	pr.buf = append(pr.buf, " ("...)
	pr.operands(op, 0)
	pr.buf = append(pr.buf, ')')
	pr.tail(op)
	for _, r := range op.Regions() {
		for _, b := range r.Blocks() {
			pr.buf = append(pr.buf, '\n')
			pr.indent(level)
			pr.buf = append(pr.buf, "{\n"...)
			pr.blockBody(b, level+1)
			pr.indent(level)
			pr.buf = append(pr.buf, '}')
		}
	}
	pr.buf = append(pr.buf, '\n')
}

// tail prints the rest of a generic op's line after its operands, " {attrs} : (T, T) -> T", through the cache of
// the last tail of the op's kind: ops of a kind with the same attribute list and types print the same tail.
func (pr *printer) tail(op *ir.Op) {
	e := &pr.tails[uintptr(unsafe.Pointer(op.Info()))>>4%uintptr(len(pr.tails))]
	attrs := op.Attrs()
	var k mapKey
	if len(attrs) > 0 {
		k = mapKey{uintptr(unsafe.Pointer(&attrs[0])), len(attrs)}
	}
	nops, nres := op.NumOperands(), op.NumResults()
	if e.info == op.Info() && e.attrs == k && e.nops == nops && len(e.types) == nops+nres {
		same := true
		for i := 0; i < nops && same; i++ {
			same = sameType(e.types[i], operandType(op, i))
		}
		for i := 0; i < nres && same; i++ {
			same = sameType(e.types[nops+i], op.Result(i).Type())
		}
		if same {
			pr.buf = append(pr.buf, e.text...)
			return
		}
	}
	start := len(pr.buf)
	pr.buf = append(pr.buf, ' ')
	pr.attrMap(op)
	pr.buf = append(pr.buf, " : ("...)
	e.types = e.types[:0]
	for i := 0; i < nops; i++ {
		if i > 0 {
			pr.buf = append(pr.buf, ", "...)
		}
		t := operandType(op, i)
		pr.typ(t)
		e.types = append(e.types, t)
	}
	pr.buf = append(pr.buf, ") -> "...)
	for i := 0; i < nres; i++ {
		if i > 0 {
			pr.buf = append(pr.buf, ", "...)
		}
		t := op.Result(i).Type()
		pr.typ(t)
		e.types = append(e.types, t)
	}
	e.info, e.attrs, e.nops = op.Info(), k, nops
	e.text = append(e.text[:0], pr.buf[start:]...)
}

// ifOp prints pd_op.if as Paddle 3.0 does:
//
//	(%5) = "pd_op.if" (%4) {attrs} -> T {
//	    …
//	} else {
//	    …
//	}
func (pr *printer) ifOp(op *ir.Op, level int) {
	pr.opName(op)
	pr.buf = append(pr.buf, " ("...)
	pr.operands(op, 0)
	pr.buf = append(pr.buf, ") "...)
	pr.attrMap(op)
	pr.buf = append(pr.buf, " -> "...)
	pr.resultTypes(op)
	pr.buf = append(pr.buf, " {\n"...)
	pr.blockBody(op.Region(0).Block(0), level+1)
	pr.indent(level)
	pr.buf = append(pr.buf, "} else {\n"...)
	pr.blockBody(op.Region(1).Block(0), level+1)
	pr.indent(level)
	pr.buf = append(pr.buf, "}\n"...)
}

// whileOp prints pd_op.while as Paddle does, plus its attributes and result types when they carry information:
//
//	(%4) = "pd_op.while"(cond=%3, inputs=%0) [{attrs}] [-> T] {
//	^%arg_0
//	    …
//	}
func (pr *printer) whileOp(op *ir.Op, level int) {
	pr.opName(op)
	pr.buf = append(pr.buf, "(cond="...)
	pr.value(op.Operand(0))
	pr.buf = append(pr.buf, ", inputs="...)
	pr.operands(op, 1)
	pr.buf = append(pr.buf, ')')
	if hasVisibleAttrs(op) {
		pr.buf = append(pr.buf, ' ')
		pr.attrMap(op)
	}
	inputsTyped := op.NumResults() == op.NumOperands()-1
	for i := 0; inputsTyped && i < op.NumResults(); i++ {
		inputsTyped = op.Result(i).Type() == operandType(op, i+1)
	}
	if !inputsTyped {
		pr.buf = append(pr.buf, " -> "...)
		pr.resultTypes(op)
	}
	pr.buf = append(pr.buf, " {\n"...)
	body := op.Region(0).Block(0)
	argsTyped := body.NumArgs() == op.NumOperands()-1
	for i := 0; argsTyped && i < body.NumArgs(); i++ {
		argsTyped = body.Arg(i).Type() == operandType(op, i+1)
	}
	pr.argLine(body, level, !argsTyped)
	pr.ops(body, level+1)
	pr.indent(level)
	pr.buf = append(pr.buf, "}\n"...)
}

func operandType(op *ir.Op, i int) ir.Type {
	if v := op.Operand(i); v != nil {
		return v.Type()
	}
	return nil
}

// groupOp prints cinn_op.group as CINN does (unquoted name, no signature), plus its attributes when it has some:
//
//	(%1) = cinn_op.group () [{attrs}] -> T {
//	    …
//	}
func (pr *printer) groupOp(op *ir.Op, level int) {
	pr.buf = append(pr.buf, op.Name()...)
	pr.buf = append(pr.buf, " ("...)
	pr.operands(op, 0)
	pr.buf = append(pr.buf, ')')
	if hasVisibleAttrs(op) {
		pr.buf = append(pr.buf, ' ')
		pr.attrMap(op)
	}
	pr.buf = append(pr.buf, " -> "...)
	pr.resultTypes(op)
	pr.buf = append(pr.buf, " {\n"...)
	pr.blockBody(op.Region(0).Block(0), level+1)
	pr.indent(level)
	pr.buf = append(pr.buf, "}\n"...)
}

// blockBody prints a block's argument line (with types: Paddle prints none outside while bodies, and this printer
// keeps them so that text round trips are lossless) and its ops.
func (pr *printer) blockBody(b *ir.Block, level int) {
	if b.NumArgs() > 0 {
		pr.argLine(b, level, true)
	}
	pr.ops(b, level)
}

// argLine prints "^%arg_0, %arg_1" and, if typed, " : T, T", numbering the arguments.
func (pr *printer) argLine(b *ir.Block, level int, typed bool) {
	pr.indent(level)
	pr.buf = append(pr.buf, '^')
	base := pr.nextArg
	pr.blockBase[b] = base
	pr.nextArg += int32(b.NumArgs())
	for i := 0; i < b.NumArgs(); i++ {
		if i > 0 {
			pr.buf = append(pr.buf, ", "...)
		}
		pr.buf = append(pr.buf, "%arg_"...)
		pr.buf = strconv.AppendInt(pr.buf, int64(base)+int64(i), 10)
	}
	if typed && b.NumArgs() > 0 {
		pr.buf = append(pr.buf, " : "...)
		for i := 0; i < b.NumArgs(); i++ {
			if i > 0 {
				pr.buf = append(pr.buf, ", "...)
			}
			pr.typ(b.Arg(i).Type())
		}
	}
	pr.buf = append(pr.buf, '\n')
}

// results prints "(%a, %b)" and numbers the op's results.
func (pr *printer) results(op *ir.Op) {
	pr.buf = append(pr.buf, '(')
	n := op.NumResults()
	if n == 0 {
		pr.buf = append(pr.buf, ')')
		return
	}
	contiguous := true
	if len(pr.early) > 0 {
		for i := 0; i < n; i++ {
			if _, ok := pr.early[op.Result(i)]; ok {
				contiguous = false
			}
		}
	}
	if contiguous {
		base := pr.nextRes
		if id := pr.opIDs.ID(op); id >= 0 {
			pr.opNum[id] = base + 1
		} else {
			pr.opBase.put(op, base)
		}
		pr.nextRes += int32(n)
		for i := 0; i < n; i++ {
			if i > 0 {
				pr.buf = append(pr.buf, ", "...)
			}
			pr.buf = append(pr.buf, '%')
			pr.buf = appendUint(pr.buf, uint32(base)+uint32(i))
		}
	} else {
		for i := 0; i < n; i++ {
			if i > 0 {
				pr.buf = append(pr.buf, ", "...)
			}
			v := op.Result(i)
			if _, ok := pr.early[v]; !ok {
				pr.early[v] = pr.nextRes
				pr.nextRes++
			}
			pr.value(v)
		}
	}
	pr.buf = append(pr.buf, ')')
}

// operands prints the op's operands from index `from`, separated by ", ".
func (pr *printer) operands(op *ir.Op, from int) {
	for i := from; i < op.NumOperands(); i++ {
		if i > from {
			pr.buf = append(pr.buf, ", "...)
		}
		pr.value(op.Operand(i))
	}
}

// value prints a value's name, numbering it if it has not been printed yet.
func (pr *printer) value(v *ir.Value) {
	if v == nil {
		pr.buf = append(pr.buf, nullValue...)
		return
	}
	if len(pr.early) > 0 {
		if id, ok := pr.early[v]; ok {
			pr.appendID(id)
			return
		}
	}
	if d := v.DefiningOp(); d != nil {
		if id := pr.opIDs.ID(d); id >= 0 {
			if n := pr.opNum[id]; n > 0 {
				pr.appendID(n - 1 + int32(v.Index()))
				return
			}
		} else if base, ok := pr.opBase.get(d); ok {
			pr.appendID(base + int32(v.Index()))
			return
		}
		if pr.early == nil {
			pr.early = make(map[*ir.Value]int32)
		}
		pr.early[v] = pr.nextRes
		pr.nextRes++
		pr.appendID(pr.early[v])
		return
	}
	if base, ok := pr.blockBase[v.OwnerBlock()]; ok {
		pr.appendID(-1 - (base + int32(v.Index())))
		return
	}
	if pr.early == nil {
		pr.early = make(map[*ir.Value]int32)
	}
	pr.early[v] = -1 - pr.nextArg
	pr.nextArg++
	pr.appendID(pr.early[v])
}

func (pr *printer) appendID(id int32) {
	if id < 0 {
		pr.buf = append(pr.buf, "%arg_"...)
		pr.buf = appendUint(pr.buf, uint32(-1-id))
		return
	}
	pr.buf = append(pr.buf, '%')
	pr.buf = appendUint(pr.buf, uint32(id))
}

// sameType reports whether a and b are the same type: the same words (types are interned pointers), without the
// runtime's interface comparison.
func sameType(a, b ir.Type) bool {
	return *(*[2]uintptr)(unsafe.Pointer(&a)) == *(*[2]uintptr)(unsafe.Pointer(&b))
}

// appendUint appends the decimal digits of v, two at a time, in place.
func appendUint(b []byte, v uint32) []byte {
	t := bits.Len32(v|1) * 1233 >> 12 // about log10(v)
	n := t + 1
	if t > 0 && v < pow10[t] {
		n--
	}
	if cap(b)-len(b) < n {
		b = slices.Grow(b, n)
	}
	b = b[:len(b)+n]
	i := len(b)
	for v >= 100 {
		q := v / 100
		r := (v - q*100) * 2
		i -= 2
		b[i], b[i+1] = digitPairs[r], digitPairs[r+1]
		v = q
	}
	if v >= 10 {
		b[i-2], b[i-1] = digitPairs[2*v], digitPairs[2*v+1]
	} else {
		b[i-1] = byte('0' + v)
	}
	return b
}

var pow10 = [...]uint32{1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000}

const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

// resultTypes prints the result types separated by ", " (<<NULL TYPE>> for a result without one).
func (pr *printer) resultTypes(op *ir.Op) {
	for i := 0; i < op.NumResults(); i++ {
		if i > 0 {
			pr.buf = append(pr.buf, ", "...)
		}
		pr.typ(op.Result(i).Type())
	}
}

// attrMap prints {k:v,…} with the keys sorted, as Paddle's printer (a std::map) does, leaving out op_callstack and
// sym_shape_str as it does. Ops share attribute lists (a reader gives every op of a kind with the same map one
// list, a rewrite every op it builds with the same attributes), so a list met a second time is printed into the
// printer's cache, by its address, and copied from there afterwards; a list met once (each parameter's) is not.
func (pr *printer) attrMap(op *ir.Op) {
	attrs := op.Attrs()
	if len(attrs) == 0 {
		pr.buf = append(pr.buf, "{}"...)
		return
	}
	k := mapKey{uintptr(unsafe.Pointer(&attrs[0])), len(attrs)}
	if s, ok := pr.maps.get(k); ok {
		pr.buf = append(pr.buf, s...)
		return
	}
	start := len(pr.buf)
	pr.formatMap(attrs)
	pr.maps.met(k, pr.buf[start:])
}

// formatMap prints an attribute list as attrMap does.
func (pr *printer) formatMap(attrs []ir.NamedAttr) {
	for i := 1; i < len(attrs); i++ {
		if attrs[i].Name < attrs[i-1].Name {
			pr.sorted = append(pr.sorted[:0], attrs...)
			slices.SortStableFunc(pr.sorted, func(a, b ir.NamedAttr) int {
				switch {
				case a.Name < b.Name:
					return -1
				case a.Name > b.Name:
					return 1
				}
				return 0
			})
			attrs = pr.sorted
			break
		}
	}
	pr.buf = append(pr.buf, '{')
	first := true
	for _, a := range attrs {
		if hiddenAttr(a.Name) {
			continue
		}
		if !first {
			pr.buf = append(pr.buf, ',')
		}
		first = false
		pr.key(a.Name)
		pr.buf = append(pr.buf, ':')
		pr.attr(a.Value)
	}
	pr.buf = append(pr.buf, '}')
}

// hasVisibleAttrs reports whether op has an attribute that prints.
func hasVisibleAttrs(op *ir.Op) bool {
	for _, a := range op.Attrs() {
		if !hiddenAttr(a.Name) {
			return true
		}
	}
	return false
}

// hiddenAttr reports whether Paddle's printer leaves the attribute out.
func hiddenAttr(name string) bool {
	switch len(name) {
	case len("op_callstack"):
		return name == "op_callstack"
	case len("sym_shape_str"):
		return name == "sym_shape_str"
	}
	return false
}

// plainName reports whether an attribute name can be printed without quotes.
func plainName(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentChar(s[i]) {
			return false
		}
	}
	return true
}

// typ prints a type through the printer's cache, keyed by the interned type's address.
func (pr *printer) typ(t ir.Type) {
	var key unsafe.Pointer
	switch t := t.(type) {
	case nil, *ir.NullType:
		pr.buf = append(pr.buf, nullType...)
		return
	case *ir.ScalarType:
		pr.buf = append(pr.buf, t.DType.String()...)
		return
	case *ir.TensorType:
		key = unsafe.Pointer(t)
	case *ir.VectorType:
		key = unsafe.Pointer(t)
	case *ir.SelectedRowsType:
		key = unsafe.Pointer(t)
	case *ir.TensorArrayType:
		key = unsafe.Pointer(t)
	default:
		pr.buf = appendType(pr.buf, t)
		return
	}
	if s, ok := pr.types.get(key); ok {
		pr.buf = append(pr.buf, s...)
		return
	}
	start := len(pr.buf)
	pr.buf = appendType(pr.buf, t)
	pr.types.put(key, string(pr.buf[start:]))
}

// attr prints an attribute value: the kinds that print as fast as a cache lookup directly, the others (numbers
// that need formatting, lists, places, …) through the printer's cache.
func (pr *printer) attr(a ir.Attribute) {
	switch a := a.(type) {
	case nil:
		pr.buf = append(pr.buf, nullAttr...)
		return
	case *ir.BoolAttr, *ir.Int32Attr, *ir.Int64Attr, *ir.IndexAttr, *ir.DataTypeAttr, *ir.OpaqueAttr, *ir.NullAttr:
		pr.buf = appendAttr(pr.buf, a, pr.untagged)
		return
	case *ir.StrAttr:
		pr.buf = ir.AppendQuoted(pr.buf, a.Value)
		return
	}
	key := attrKey(a)
	if key == nil {
		pr.buf = appendAttr(pr.buf, a, pr.untagged)
		return
	}
	if s, ok := pr.attrs.get(key); ok {
		pr.buf = append(pr.buf, s...)
		return
	}
	start := len(pr.buf)
	pr.buf = appendAttr(pr.buf, a, pr.untagged)
	pr.attrs.put(key, string(pr.buf[start:]))
}

// attrKey returns the address of an interned attribute whose text the printer caches, or nil.
func attrKey(a ir.Attribute) unsafe.Pointer {
	switch a := a.(type) {
	case *ir.ArrayAttr:
		return unsafe.Pointer(a)
	case *ir.FloatAttr:
		return unsafe.Pointer(a)
	case *ir.DoubleAttr:
		return unsafe.Pointer(a)
	case *ir.IntArrayAttr:
		return unsafe.Pointer(a)
	case *ir.PlaceAttr:
		return unsafe.Pointer(a)
	case *ir.TypeAttr:
		return unsafe.Pointer(a)
	case *ir.ScalarAttr:
		return unsafe.Pointer(a)
	case *ir.ComplexAttr:
		return unsafe.Pointer(a)
	}
	return nil
}

// opName prints the quoted name of op's kind.
func (pr *printer) opName(op *ir.Op) {
	info := op.Info()
	key := unsafe.Pointer(info)
	s, ok := pr.names.get(key)
	if !ok {
		s = string(ir.AppendQuoted(nil, info.Name))
		pr.names.put(key, s)
	}
	pr.buf = append(pr.buf, s...)
}

// key prints an attribute name, quoted if it is not an identifier.
func (pr *printer) key(name string) {
	if name == "" {
		pr.buf = append(pr.buf, `""`...)
		return
	}
	data := unsafe.StringData(name)
	e := &pr.keys[uintptr(unsafe.Pointer(data))>>3&63]
	if e.data != data || e.n != len(name) {
		e.data, e.n = data, len(name)
		if plainName(name) {
			e.text = name
		} else {
			e.text = string(ir.AppendQuoted(nil, name))
		}
	}
	pr.buf = append(pr.buf, e.text...)
}
