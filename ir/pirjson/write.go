package pirjson

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/pirdrr/drr/internal/bgwrite"
	"github.com/pirdrr/drr/ir"
)

// WriteOptions configures Write and Marshal. The zero value writes the program as Paddle would.
type WriteOptions struct {
	// Version is the PIR JSON version to write: 0 means the program's version (Program.Version, the version it
	// was read with; 1 for programs built in memory). Every op is written with the attribute kinds of the version
	// written: the upgrades of Paddle's patches up to it are applied to every op (see MaxVersion), which changes
	// the ops of an older program and the ops a rewrite created with the catalog's version-1 kinds, and leaves
	// alone what already has the kinds of that version. An older version than the program's is an error.
	Version int
	// KeepStackOps writes cf.stack_create, cf.tuple_push and cf.tuple_pop. Paddle's writer drops a stack_create
	// together with the tuple_push and tuple_pop that are the only users of its inlet and outlet, unless
	// FLAGS_save_cf_stack_op is set; operands that read a dropped value are then written as null ({"%":0}).
	KeepStackOps bool
	// Stream lets Write write a program of more than 64 MiB of JSON as it encodes it, on a goroutine of its own,
	// instead of holding the output until the whole program is encoded: for a writer whose output a failure
	// discards (pirfile's atomic file writes), since an encoding error then comes after part of it was written.
	Stream bool
}

// Write writes p as PIR JSON to w, in the byte layout of Paddle's writer (see Marshal). The output is held until
// the whole program is encoded, so nothing is written if it cannot be; with opts.Stream, a program of more than 64
// MiB of JSON (streamFrom) is written as it is encoded, on a goroutine of its own (internal/bgwrite), so that its
// output is not held whole and the writes overlap the encoding — and if it then cannot be encoded, the error comes
// after part of it was written.
func Write(w io.Writer, p *ir.Program, opts WriteOptions) error {
	if !opts.Stream {
		return write(w, p, opts, math.MaxInt)
	}
	return write(w, p, opts, streamFrom)
}

// write is Write, streaming once from bytes are held (the tests' way to reach streaming with small programs).
func write(w io.Writer, p *ir.Program, opts WriteOptions, from int) error {
	_, to, err := versions(p, opts)
	if err != nil {
		return err
	}
	enc, err := encode(p, opts, to, w, from)
	if enc != nil && enc.stream != nil {
		if err == nil {
			enc.stream.Swap(enc.buf)
		}
		if ferr := enc.stream.Finish(); err == nil {
			err = ferr
		}
		return err
	}
	if err != nil {
		return err
	}
	for _, c := range append(enc.chunks, enc.buf) {
		if _, err := w.Write(c); err != nil {
			return err
		}
	}
	return nil
}

// Marshal returns p as PIR JSON in the byte layout of Paddle's writer (nlohmann::json dump of a std::map): compact,
// keys sorted bytewise, no trailing newline, floats and strings formatted as nlohmann does. Value ids are
// renumbered (results from 1 in write order, an op's results before the ops of its regions; block arguments −1,
// −2, …; 0 for absent operands), regions and blocks are named region_N and block_N in write order, and every
// builtin.parameter that fits the compressed form is written as "p". "A" lists an op's attributes in Paddle's
// order (see the package documentation), "OA" its persistable and stop_gradient attributes if p.Trainable.
func Marshal(p *ir.Program, opts WriteOptions) ([]byte, error) {
	_, to, err := versions(p, opts)
	if err != nil {
		return nil, err
	}
	w, err := encode(p, opts, to, nil, 0)
	if err != nil {
		return nil, err
	}
	n := len(w.buf)
	for _, c := range w.chunks {
		n += len(c)
	}
	out := make([]byte, 0, n)
	for _, c := range w.chunks {
		out = append(out, c...)
	}
	return append(out, w.buf...), nil
}

// versions returns the version of p and the version to write.
func versions(p *ir.Program, opts WriteOptions) (from, to int, err error) {
	from = p.Version
	if from == 0 {
		from = MinVersion
	}
	if from < MinVersion || from > MaxVersion {
		return 0, 0, fmt.Errorf("pirjson: Program.Version: %s", versionError(int64(from)))
	}
	to = opts.Version
	if to == 0 {
		to = from
	}
	if to < MinVersion || to > MaxVersion {
		return 0, 0, fmt.Errorf("pirjson: cannot write: %s", versionError(int64(to)))
	}
	if to < from {
		return 0, 0, fmt.Errorf("pirjson: cannot write PIR JSON version %d: the program is version %d (downgrades are not supported)", to, from)
	}
	return from, to, nil
}

// encode writes p into the chunks of a writer, and once they hold from bytes to out if out is not nil (see Write).
// It returns the writer also with an error, once it has one, for Write to end its stream.
func encode(p *ir.Program, opts WriteOptions, to int, out io.Writer, from int) (*writer, error) {
	w := &writer{
		ctx:       p.Ctx,
		out:       out,
		from:      from,
		trainable: p.Trainable,
		nextID:    1,
		nextArg:   -1,
		ids:       p.OpIDs(),
		opIDs:     map[*ir.Op]int64{},
		argIDs:    map[*ir.Value]int64{},
		names:     map[*ir.OpInfo]string{},
		types:     make(map[ir.Type][]byte, 64),
		attrs:     make(map[ir.Attribute][]byte, 256),
		// From version 1, not from the program's: the ops a rewrite created have the catalog's version-1 kinds
		// whatever the program's version (the patches are idempotent on ops that have the newer kinds already).
		up: newUpgrade(MinVersion, to),
	}
	if !opts.KeepStackOps {
		w.dropStackOps(p)
	}
	w.buf = make([]byte, 0, min(chunkSize, 256*p.NumOps()+reserve))
	w.buf = append(w.buf, `{"base_code":{"magic":"pir","trainable":`...)
	w.buf = strconv.AppendBool(w.buf, p.Trainable)
	w.buf = append(w.buf, `,"version":`...)
	w.buf = strconv.AppendInt(w.buf, int64(to), 10)
	w.buf = append(w.buf, `},"program":{"regions":[`...)
	if p.Module == nil || p.Module.NumRegions() != 1 {
		return w, fmt.Errorf("pirjson: the program has no module region")
	}
	if n := p.Module.Region(0).NumBlocks(); n != 1 {
		return w, fmt.Errorf("pirjson: the program region has %d blocks; PIR JSON needs exactly 1", n)
	}
	if err := w.region(p.Module, 0, w.kwargs(p.Module)); err != nil {
		return w, err
	}
	w.buf = append(w.buf, "]}}"...)
	return w, nil
}

// writer holds the state of one Write or Marshal.
type writer struct {
	ctx       *ir.Context
	buf       []byte          // the chunk being written
	chunks    [][]byte        // the full chunks before it, held
	held      int             // the bytes in chunks
	out       io.Writer       // Write's writer, nil for Marshal
	from      int             // the bytes held before the output goes to out
	stream    *bgwrite.Writer // writing to out, once the chunks held reached streamFrom
	trainable bool
	nextID    int64            // next result id
	nextArg   int64            // next block argument id
	nRegion   int              // next region_N
	nBlock    int              // next block_N
	ids       *ir.OpIDs        // the dense numbers of the program allocator's ops
	opNum     []int32          // by op number: the id of the op's first result plus one (0: not written yet)
	opIDs     map[*ir.Op]int64 // the same for ops without a number (or ids past opNum's range)
	argIDs    map[*ir.Value]int64
	types     map[ir.Type][]byte
	attrs     map[ir.Attribute][]byte
	names     map[*ir.OpInfo]string // compressed op names
	dropped   map[*ir.Op]bool
	up        upgrade
	scratch   []ir.NamedAttr
}

// dropStackOps marks the cf stack ops Paddle's writer leaves out.
func (w *writer) dropStackOps(p *ir.Program) {
	for op := range p.Walk() {
		if op.Name() != "cf.stack_create" {
			continue
		}
		if w.dropped == nil {
			w.dropped = map[*ir.Op]bool{}
		}
		w.dropped[op] = true
		for i, user := range map[int]string{1: "cf.tuple_push", 2: "cf.tuple_pop"} {
			if i >= op.NumResults() {
				continue
			}
			v := op.Result(i)
			if v.HasOneUse() && v.FirstUse().Owner().Name() == user {
				w.dropped[v.FirstUse().Owner()] = true
			}
		}
	}
}

// kwargs returns the keyword-argument keys per block of op's regions from its kwargsAttr, or nil if op has none
// or the attribute does not fit the blocks (then it is written as an ordinary attribute).
func (w *writer) kwargs(op *ir.Op) [][]string {
	a, ok := op.Attr(kwargsAttr).(*ir.ArrayAttr)
	if !ok {
		return nil
	}
	var blocks []*ir.Block
	for _, r := range op.Regions() {
		blocks = append(blocks, r.Blocks()...)
	}
	if len(a.Elems) != len(blocks) {
		return nil
	}
	out := make([][]string, len(blocks))
	for i, e := range a.Elems {
		keys, ok := e.(*ir.ArrayAttr)
		if !ok || len(keys.Elems) > blocks[i].NumArgs() {
			return nil
		}
		for _, k := range keys.Elems {
			s, ok := k.(*ir.StrAttr)
			if !ok {
				return nil
			}
			out[i] = append(out[i], s.Value)
		}
	}
	return out
}

// region writes region ri of op; kw holds the keyword keys of all blocks of op, from kwargs.
func (w *writer) region(op *ir.Op, ri int, kw [][]string) error {
	w.buf = append(w.buf, `{"#":"region_`...)
	w.buf = strconv.AppendInt(w.buf, int64(w.nRegion), 10)
	w.nRegion++
	w.buf = append(w.buf, `","blocks":[`...)
	bi := 0
	for r := 0; r < ri; r++ {
		bi += op.Region(r).NumBlocks()
	}
	for i, b := range op.Region(ri).Blocks() {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		var keys []string
		if kw != nil {
			keys = kw[bi+i]
		}
		if err := w.blockJSON(b, keys); err != nil {
			return err
		}
	}
	w.buf = append(w.buf, "]}"...)
	return nil
}

// blockJSON writes a block; its last len(keys) arguments are keyword arguments with these keys.
func (w *writer) blockJSON(b *ir.Block, keys []string) error {
	w.buf = append(w.buf, `{"#":"block_`...)
	w.buf = strconv.AppendInt(w.buf, int64(w.nBlock), 10)
	w.nBlock++
	w.buf = append(w.buf, `","args":[`...)
	npos := b.NumArgs() - len(keys)
	for i, a := range b.Args() {
		if i == npos {
			w.buf = append(w.buf, `],"kwargs":[`...)
		} else if i > 0 {
			w.buf = append(w.buf, ',')
		}
		w.argIDs[a] = w.nextArg
		w.buf = append(w.buf, `{"#":`...)
		w.buf = strconv.AppendInt(w.buf, w.nextArg, 10)
		w.nextArg--
		w.buf = append(w.buf, `,"TT":`...)
		if err := w.typ(a.Type()); err != nil {
			return fmt.Errorf("pirjson: block argument %d: %w", i, err)
		}
		if i >= npos {
			w.buf = append(w.buf, `,"key":`...)
			w.buf = appendString(w.buf, keys[i-npos])
		}
		w.buf = append(w.buf, '}')
	}
	w.buf = append(w.buf, `],"ops":[`...)
	first := true
	for op := range b.Ops() {
		if w.dropped[op] {
			continue
		}
		w.grow()
		if !first {
			w.buf = append(w.buf, ',')
		}
		first = false
		if err := w.op(op); err != nil {
			return err
		}
	}
	w.buf = append(w.buf, "]}"...)
	return nil
}

// op writes one op.
func (w *writer) op(op *ir.Op) error {
	if op.Name() == ir.ParameterOpName && w.paramFits(op) {
		return w.param(op)
	}
	name, ok := w.names[op.Info()]
	if !ok {
		name = compressName(op.Name())
		if err := checkOpName(name); err != nil {
			return err
		}
		w.names[op.Info()] = name
	}
	w.buf = append(w.buf, `{"#":`...)
	w.buf = appendString(w.buf, name)
	kw := w.kwargs(op)
	attrs := w.opAttrs(op, kw != nil)
	if d := duplicateName(attrs); d != "" {
		return fmt.Errorf("pirjson: %s: attribute %s appears twice", op.Name(), d)
	}
	w.buf = append(w.buf, `,"A":[`...)
	if err := w.attrList(attrs); err != nil {
		return fmt.Errorf("pirjson: %s: %w", op.Name(), err)
	}
	w.buf = append(w.buf, `],"I":[`...)
	for i := 0; i < op.NumOperands(); i++ {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		id, err := w.valueID(op.Operand(i))
		if err != nil {
			return fmt.Errorf("pirjson: %s: operand %d %w", op.Name(), i, err)
		}
		w.buf = append(w.buf, `{"%":`...)
		w.buf = strconv.AppendInt(w.buf, id, 10)
		w.buf = append(w.buf, '}')
	}
	w.buf = append(w.buf, `],"O":[`...)
	if op.NumResults() > 0 {
		w.setOpID(op, w.nextID)
	}
	for i := 0; i < op.NumResults(); i++ {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		if err := w.result(op.Result(i).Type()); err != nil {
			return fmt.Errorf("pirjson: %s: result %d: %w", op.Name(), i, err)
		}
	}
	if err := w.addedOutputs(op); err != nil {
		return err
	}
	w.buf = append(w.buf, ']')
	if w.trainable {
		w.buf = append(w.buf, `,"OA":[`...)
		n := 0
		for _, name := range [2]string{attrPersistable, attrStopGradient} {
			if a := op.Attr(name); a != nil {
				if n > 0 {
					w.buf = append(w.buf, ',')
				}
				n++
				if err := w.attrEntry(name, a); err != nil {
					return fmt.Errorf("pirjson: %s: %w", op.Name(), err)
				}
			}
		}
		w.buf = append(w.buf, ']')
	}
	if op.NumRegions() > 0 {
		w.buf = append(w.buf, `,"regions":[`...)
		for i := range op.Regions() {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			if err := w.region(op, i, kw); err != nil {
				return err
			}
		}
		w.buf = append(w.buf, ']')
	}
	w.buf = append(w.buf, '}')
	return nil
}

// Output goes to chunks of chunkSize bytes, so that the output is never copied while it grows; an op starts a
// new chunk when fewer than reserve bytes are left (a larger op just grows its chunk). Write holds the chunks until
// they reach streamFrom bytes, and then writes each as it fills.
const (
	chunkSize  = 1 << 20
	reserve    = 64 << 10
	streamFrom = 64 << 20
)

// grow starts a new chunk when the current one runs low: it holds the full one, or hands it to the stream.
func (w *writer) grow() {
	if cap(w.buf)-len(w.buf) >= reserve {
		return
	}
	if w.stream != nil {
		w.buf = w.stream.Swap(w.buf)
		return
	}
	w.chunks = append(w.chunks, w.buf)
	w.held += len(w.buf)
	if w.out != nil && w.held >= w.from {
		// Stream from now on: the chunks held go first; the last buffer handed back is the one to fill.
		w.stream = bgwrite.New(w.out, chunkSize)
		for _, c := range w.chunks {
			w.buf = w.stream.Swap(c)
		}
		w.chunks, w.held = nil, 0
		return
	}
	w.buf = make([]byte, 0, chunkSize)
}

// checkOpName rejects names that would read back as something else: "p" and unknown numeric dialect ids.
func checkOpName(name string) error {
	if name == paramOpID {
		return fmt.Errorf("pirjson: op name %q would read back as a parameter op", name)
	}
	if _, _, numeric, known := splitID(name); numeric && !known {
		return fmt.Errorf("pirjson: op name %q would read back as an unknown dialect id", name)
	}
	return nil
}

// result writes {"%":id,"TT":type} with the next result id.
func (w *writer) result(t ir.Type) error {
	w.buf = append(w.buf, `{"%":`...)
	w.buf = strconv.AppendInt(w.buf, w.nextID, 10)
	w.nextID++
	w.buf = append(w.buf, `,"TT":`...)
	if err := w.typ(t); err != nil {
		return err
	}
	w.buf = append(w.buf, '}')
	return nil
}

// addedOutputs writes the results that version patches add to op.
func (w *writer) addedOutputs(op *ir.Op) error {
	if w.up == nil {
		return nil
	}
	for _, act := range w.up[op.Name()] {
		if act.kind != addOutput || op.NumResults() != act.index {
			continue
		}
		if op.NumResults() > 0 {
			w.buf = append(w.buf, ',')
		}
		if err := w.result(act.typ(w.ctx)); err != nil {
			return err
		}
	}
	return nil
}

// setOpID records id, the id of op's first result: by the op's number (a slice, visited mostly in order, where a map
// of millions of ops was probed at random: a third of the writer's time at 1M blocks), else in a map.
func (w *writer) setOpID(op *ir.Op, id int64) {
	if i := w.ids.ID(op); i >= 0 && id < math.MaxInt32 {
		if w.opNum == nil {
			w.opNum = make([]int32, w.ids.Len())
		}
		w.opNum[i] = int32(id) + 1
		return
	}
	w.opIDs[op] = id
}

// opID returns the id of op's first result, if op was written.
func (w *writer) opID(op *ir.Op) (int64, bool) {
	if i := w.ids.ID(op); i >= 0 && i < len(w.opNum) {
		if n := w.opNum[i]; n > 0 {
			return int64(n) - 1, true
		}
	}
	id, ok := w.opIDs[op]
	return id, ok
}

// valueID returns the id an operand is written with.
func (w *writer) valueID(v *ir.Value) (int64, error) {
	if v == nil {
		return 0, nil
	}
	if def := v.DefiningOp(); def != nil {
		if base, ok := w.opID(def); ok {
			return base + int64(v.Index()), nil
		}
		if w.dropped[def] {
			return 0, nil
		}
		return 0, fmt.Errorf("reads a result of %s that is not written before it", def.Name())
	}
	if id, ok := w.argIDs[v]; ok {
		return id, nil
	}
	return 0, fmt.Errorf("reads a block argument of a block that does not enclose it")
}

// attrList writes attribute entries separated by commas.
func (w *writer) attrList(attrs []ir.NamedAttr) error {
	for i, a := range attrs {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		if err := w.attrEntry(a.Name, a.Value); err != nil {
			return err
		}
	}
	return nil
}

// attrEntry writes {"AT":attr,"N":name}.
func (w *writer) attrEntry(name string, a ir.Attribute) error {
	w.buf = append(w.buf, `{"AT":`...)
	if err := w.attr(a); err != nil {
		return fmt.Errorf("attribute %s: %w", name, err)
	}
	w.buf = append(w.buf, `,"N":`...)
	w.buf = appendString(w.buf, name)
	w.buf = append(w.buf, '}')
	return nil
}

// duplicateName returns a name that appears twice in attrs, or "".
func duplicateName(attrs []ir.NamedAttr) string {
	if len(attrs) > 16 {
		seen := make(map[string]bool, len(attrs))
		for _, a := range attrs {
			if seen[a.Name] {
				return a.Name
			}
			seen[a.Name] = true
		}
		return ""
	}
	for i, a := range attrs {
		for _, b := range attrs[:i] {
			if a.Name == b.Name {
				return a.Name
			}
		}
	}
	return ""
}
