package ir

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/pirdrr/drr/diag"
)

// Verify checks that a program is well formed and returns what it found, errors and warnings, in program order:
//
//   - every operand's definition dominates its use: a result is defined earlier in the same block or in an
//     enclosing block, a block argument belongs to an enclosing block (so no value escapes its region);
//   - use lists are consistent with operands (the IR's own invariants, like go/ssa's sanity checker);
//   - registered ops have the operand, result and region counts of their schema, carry every required attribute,
//     and their attributes have the declared kinds;
//   - blocks of pd_op.if and pd_op.while regions end with a terminator of the right arity, terminators appear only
//     there, and while bodies take one argument per loop-carried value;
//   - parameters read under one name have one type (a warning otherwise).
//
// Unregistered ops are checked for dominance and consistency only.
//
// A use list is checked by walking it when its value is defined, except a long one (more than longList uses: a
// weight every block reads), whose records are scattered over the program: walking it would visit a million
// records out of order. Such a list is checked from its records instead, as the ops reading the value come in
// program order (see tally); if one fails, the program is verified again walking every list, so that the messages
// are those of the walk, in program order.
func Verify(p *Program) diag.Diagnostics {
	v := &verifier{prog: p, body: p.Body(), fast: true}
	v.block(v.body)
	v.checkParams()
	if failed := v.failedTallies(); failed != nil {
		v = &verifier{prog: p, body: v.body, failed: failed}
		v.block(v.body)
		v.checkParams()
	}
	v.params()
	return v.diags
}

// longList is the number of uses above which Verify checks a use list from its records (tally) rather than by
// walking it.
const longList = 32

type verifier struct {
	prog     *Program
	numbered *Numbering
	diags    diag.Diagnostics
	// unnamed counts the parameter ops without a name; mistyped holds the parameters some op reads with another
	// type than the parameter table gives (only those can be read with two types).
	unnamed  int
	mistyped map[string]bool
	// paramOps holds the parameter ops met since checkParams last ran.
	paramOps [paramBatch]*Op
	nParams  int
	// kinds classifies op kinds by OpInfo.ID (kindOf), so that each op costs an index rather than name comparisons.
	kinds []opKind

	body *Block
	// fast checks long use lists from their records (tallies, recent: the tallies met last, by their value's
	// address); failed holds the tallies that did not add up, for the second pass, which walks every list.
	fast    bool
	tallies map[*Value]*tally
	recent  [16]*tally
	failed  map[*Value]tally
}

// tally is what the verifier learned of a long use list from the operand records that read its value, in the
// program's ops. The list is correct when the value was defined in the program, every record's successor in the
// list reads the same value, links back to it and is a record of the program's ops (so the records form chains),
// one record has no predecessor and is the value's first use, one has no successor, and the records number the
// value's use count. (Besides the one chain from the first use, these checks would also accept rings of records
// linked to each other and to nothing else, which no sequence of linking and unlinking uses makes.)
type tally struct {
	val          *Value
	defined      bool
	bad          bool
	records      int32
	heads, tails int32
}

// opKind is what the verifier checks of an op kind besides its schema: whether it is a terminator, a parameter
// read, pd_op.if or pd_op.while. kindKnown marks an entry filled in.
type opKind uint8

const (
	kindKnown opKind = 1 << iota
	kindTerminator
	kindParam
	kindControlFlow
)

// kindOf returns the classification of op's kind.
func (v *verifier) kindOf(op *Op) opKind {
	id := op.info.ID
	if id < len(v.kinds) && v.kinds[id] != 0 {
		return v.kinds[id]
	}
	k := kindKnown
	if isTerminator(op) {
		k |= kindTerminator
	}
	switch op.info.Name {
	case ParameterOpName, GetParameterOpName:
		k |= kindParam
	case "pd_op.if", "pd_op.while":
		k |= kindControlFlow
	}
	if id >= 0 && id < 1<<20 {
		if id >= len(v.kinds) {
			v.kinds = append(v.kinds, make([]opKind, id+1-len(v.kinds))...)
		}
		v.kinds[id] = k
	}
	return k
}

// names returns the numbering of the program's values, made on the first message that needs it: a program that
// verifies clean is never numbered (at a million ops that is a map of every value).
func (v *verifier) names() *Numbering {
	if v.numbered == nil {
		v.numbered = NumberValues(v.prog.Body())
	}
	return v.numbered
}

func (v *verifier) report(sev diag.Severity, op *Op, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if op != nil {
		msg = v.names().Describe(op) + ": " + msg
	}
	d := diag.Diagnostic{Pos: diag.Position{Filename: v.prog.File}, Severity: sev, Message: msg}
	if op != nil {
		d.Pos = op.Loc.In(v.prog.File)
	}
	v.diags = append(v.diags, d)
}

func (v *verifier) block(b *Block) {
	for _, a := range b.args {
		v.uses(a)
	}
	for op := b.first; op != nil; op = op.next {
		v.op(op)
	}
}

func (v *verifier) op(op *Op) {
	if op.block == nil || op.isErased() {
		v.report(diag.Error, op, "op is linked into a block but marked detached or erased")
	}
	uses := op.operandSlice()
	for i := range uses {
		u := &uses[i]
		if u.owner != op { // its index is then i: its place among op's records
			v.report(diag.Error, op, "operand %d has a corrupt use record", i)
			continue
		}
		val := u.value
		if val == nil {
			continue
		}
		if v.fast && val.nuses > longList {
			v.tally(u, val)
		}
		// Nearly every operand is a result of an earlier op of the same block.
		if d := val.def(); d != nil && d.block == op.block && d != op && !d.isErased() && op.block.orderValid {
			if d.order < op.order {
				continue
			}
		}
		if !Dominates(val, op) {
			v.report(diag.Error, op, "operand %d (%s) %s", i, v.names().Name(val), v.whyNotVisible(val, op))
		}
	}
	for i := range op.NumResults() {
		v.uses(op.result(i))
	}
	kind := v.kindOf(op)
	if kind&kindTerminator != 0 {
		p := op.ParentOp()
		if op.next != nil {
			v.report(diag.Error, op, "terminator is not the last op of its block")
		}
		if p == nil || p.info.Name == ModuleOpName {
			v.report(diag.Error, op, "terminator outside a region")
		}
	}
	if s := op.info.Schema; s != nil {
		v.schema(op, s)
	}
	if kind&kindParam != 0 {
		v.paramOp(op)
	}
	if kind&kindControlFlow != 0 {
		v.controlFlow(op)
	}
	for _, r := range op.regionSlice() {
		for _, b := range r.blocks {
			v.block(b)
		}
	}
}

// uses checks the use list of val: every use points back at val from an op that reads it in that slot. A long
// list is left to its records (tally) on the first pass.
func (v *verifier) uses(val *Value) {
	if v.fast && val.nuses > longList {
		v.tallyOf(val).defined = true
		return
	}
	n, reported := 0, len(v.diags)
	for u := val.first; u != nil; u = u.next {
		n++
		if u.value != val {
			v.report(diag.Error, val.def(), "use list of %s holds a use of another value", v.names().Name(val))
			return
		}
		if u.owner.isErased() {
			v.report(diag.Error, val.def(), "%s is used by an erased %s", v.names().Name(val), u.owner.Name())
		}
		if n > int(val.nuses) {
			break
		}
	}
	if n != int(val.nuses) {
		v.report(diag.Error, val.def(), "%s has %d uses in its list but counts %d", v.names().Name(val), n, val.nuses)
	}
	if v.failed == nil || len(v.diags) != reported {
		return
	}
	if t, ok := v.failed[val]; ok {
		// The walk found nothing, the records did: a record of the program reading val outside its list, or a
		// record in the list of an op that is not in the program.
		v.report(diag.Error, val.def(), "the use list of %s does not match the %d operand records of the program that read it", v.names().Name(val), t.records)
	}
}

// tallyOf returns the tally of val, making it on first sight.
func (v *verifier) tallyOf(val *Value) *tally {
	slot := &v.recent[uintptr(unsafe.Pointer(val))>>4%uintptr(len(v.recent))]
	if t := *slot; t != nil && t.val == val {
		return t
	}
	t := v.tallies[val]
	if t == nil {
		if v.tallies == nil {
			v.tallies = map[*Value]*tally{}
		}
		t = &tally{val: val}
		v.tallies[val] = t
	}
	*slot = t
	return t
}

// tally counts u, an operand record of an op of the program reading val (which has a long use list), and checks its
// link to the next record: that one reads val, links back to u and is a record of an op of the program; a record
// without a predecessor is val's first use. (Predecessors need no check of their own: a record whose predecessor
// does not lead to it starts a second chain, which ends in a second record without a successor.) The next record
// is mostly one of the op before u's (as a reader links them), so this reads memory nearly in order.
func (v *verifier) tally(u *Use, val *Value) {
	t := v.tallyOf(val)
	t.records++
	if u.prev == nil {
		t.heads++
		t.bad = t.bad || val.first != u
	}
	if n := u.next; n == nil {
		t.tails++
	} else if n.value != val || n.prev != u || !v.inProgram(n) {
		t.bad = true
	}
}

// inProgram reports whether u is an operand record of an op of the program: one of its owner's records, and the
// owner not erased and in a block of the program.
func (v *verifier) inProgram(u *Use) bool {
	o := u.owner
	if o == nil || o.isErased() {
		return false
	}
	off := uintptr(unsafe.Pointer(u)) - uintptr(unsafe.Pointer(o.uses))
	if size := unsafe.Sizeof(Use{}); off >= uintptr(o.nOperands)*size || off%size != 0 {
		return false
	}
	for b := o.block; b != nil; {
		if b == v.body {
			return true
		}
		if b.region == nil || b.region.op == nil || b.region.op.isErased() {
			return false
		}
		b = b.region.op.block
	}
	return false
}

// failedTallies returns the tallies of values defined in the program whose use lists did not check out, or nil.
func (v *verifier) failedTallies() map[*Value]tally {
	var failed map[*Value]tally
	for val, t := range v.tallies {
		if !t.defined {
			continue // not a value of the program: its readers are reported
		}
		if t.bad || t.records != val.nuses || t.heads != 1 || t.tails != 1 {
			if failed == nil {
				failed = map[*Value]tally{}
			}
			failed[val] = *t
		}
	}
	return failed
}

func (v *verifier) whyNotVisible(val *Value, op *Op) string {
	if d := val.def(); d != nil {
		switch {
		case d.isErased():
			return "is defined by an erased op"
		case d.block == nil:
			return "is defined by a detached op"
		case d.IsAncestorOf(op):
			return "is used inside the region of the op that defines it"
		}
		anc := op
		for anc != nil && anc.block != d.block {
			anc = anc.ParentOp()
		}
		if anc == nil {
			return "is defined in a region that does not enclose this op"
		}
		return "is used before its definition"
	}
	return "is an argument of a block that does not enclose this op"
}

func (v *verifier) schema(op *Op, s *OpSchema) {
	if n := len(op.operandSlice()); !s.OperandCountOK(n) {
		if s.OperandsAsAttrs(n, op.Attr) {
			v.report(diag.Warning, op, "has %d operands and attribute %s; %s takes it as an operand now (an older program's form)", n, s.Operands[n].Name, s.Name)
		} else {
			v.report(diag.Error, op, "has %d operands; %s takes %s", n, s.Name, countText(len(s.Operands), variadicOperands(s), "operand"))
		}
	} else if !s.IsVariadic() {
		for i, spec := range s.Operands {
			if !spec.Optional && op.operandSlice()[i].value == nil {
				v.report(diag.Error, op, "operand %d (%s) is absent but not optional", i, spec.Name)
			}
		}
	}
	if !s.ResultCountOK(op.NumResults()) {
		v.report(diag.Error, op, "has %d results; %s has %s", op.NumResults(), s.Name, resultCountText(s))
	}
	if len(op.regionSlice()) != s.Regions {
		v.report(diag.Error, op, "has %d regions; %s has %d", len(op.regionSlice()), s.Name, s.Regions)
	}
	for _, spec := range s.Attrs {
		a := op.Attr(spec.Name)
		if a == nil {
			if spec.Default == nil && !spec.Optional {
				v.report(diag.Error, op, "missing required attribute %s (%s)", spec.Name, spec.Type)
			}
			continue
		}
		if !spec.Type.Accepts(a) {
			if sameShapeOtherWidth(spec.Type, a) {
				// Older programs store some attributes at another width (full.value as f32, pool2d's strides as
				// i32[] before PIR patch 2): a warning, since Paddle itself reads them.
				v.report(diag.Warning, op, "attribute %s is %s; %s wants %s (an older program's width)", spec.Name, describeAttrKind(a), s.Name, spec.Type)
			} else {
				v.report(diag.Error, op, "attribute %s is %s; %s wants %s", spec.Name, describeAttrKind(a), s.Name, spec.Type)
			}
		}
	}
}

func countText(n int, variadic bool, what string) string {
	if variadic {
		return fmt.Sprintf("at least %d %ss", n-1, what)
	}
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func resultCountText(s *OpSchema) string {
	for _, r := range s.Results {
		if r.Variadic {
			return countText(len(s.Results), true, "result")
		}
	}
	min := len(s.Results)
	for min > 0 && s.Results[min-1].Optional {
		min--
	}
	if min != len(s.Results) {
		return fmt.Sprintf("%d to %d results", min, len(s.Results))
	}
	return countText(len(s.Results), false, "result")
}

// sameShapeOtherWidth reports whether a differs from type t only in the width of its numbers: f32 for f64 (or
// back), i32 for i64 (or back), element-wise for arrays.
func sameShapeOtherWidth(t AttrType, a Attribute) bool {
	similar := func(k AttrKind, want AttrKind) bool {
		switch want {
		case KindFloat, KindDouble:
			return k == KindFloat || k == KindDouble
		case KindInt32, KindInt64:
			return k == KindInt32 || k == KindInt64
		}
		return false
	}
	if t.Array {
		arr, ok := a.(*ArrayAttr)
		if !ok {
			return false
		}
		for _, e := range arr.Elems {
			if e.Kind() != t.Kind && !similar(e.Kind(), t.Kind) {
				return false
			}
		}
		return true
	}
	return similar(a.Kind(), t.Kind)
}

// describeAttrKind names the kind of a as a catalog type (i32, f32[], IntArray, …).
func describeAttrKind(a Attribute) string {
	if arr, ok := a.(*ArrayAttr); ok {
		if len(arr.Elems) == 0 {
			return "an empty array"
		}
		k := arr.Elems[0].Kind()
		for _, e := range arr.Elems[1:] {
			if e.Kind() != k {
				return "a mixed array"
			}
		}
		return k.String() + "[]"
	}
	return a.Kind().String()
}

// controlFlow checks pd_op.if and pd_op.while, whose regions Paddle's printer and our rules give meaning to.
func (v *verifier) controlFlow(op *Op) {
	switch op.info.Name {
	case "pd_op.if":
		if len(op.regionSlice()) != 2 {
			return
		}
		for i, r := range op.regionSlice() {
			if len(r.blocks) != 1 {
				v.report(diag.Error, op, "branch %d has %d blocks; an if branch has 1", i, len(r.blocks))
				continue
			}
			v.yields(op, r.blocks[0], op.NumResults(), fmt.Sprintf("branch %d", i))
		}
		if len(op.operandSlice()) != 1 {
			v.report(diag.Error, op, "has %d operands; pd_op.if takes its condition only", len(op.operandSlice()))
		}
	case "pd_op.while":
		if len(op.regionSlice()) != 1 || len(op.regionSlice()[0].blocks) != 1 {
			if len(op.regionSlice()) == 1 {
				v.report(diag.Error, op, "body has %d blocks; a while body has 1", len(op.regionSlice()[0].blocks))
			}
			return
		}
		body := op.regionSlice()[0].blocks[0]
		carried := len(op.operandSlice()) - 1
		if carried < 0 {
			v.report(diag.Error, op, "has no condition operand")
			return
		}
		if len(body.args) != carried {
			v.report(diag.Error, op, "body has %d arguments for %d loop-carried values", len(body.args), carried)
		}
		if op.NumResults() != carried {
			v.report(diag.Error, op, "has %d results for %d loop-carried values", op.NumResults(), carried)
		}
		v.yields(op, body, carried+1, "body")
	}
}

func (v *verifier) yields(op *Op, b *Block, want int, where string) {
	t := b.Terminator()
	if t == nil {
		v.report(diag.Error, op, "%s does not end with cf.yield", where)
		return
	}
	if len(t.operandSlice()) != want {
		v.report(diag.Error, t, "yields %d values; %s of %s must yield %d", len(t.operandSlice()), where, op.Name(), want)
	}
}

// paramBatch is the number of parameter ops checkParams looks up at once.
const paramBatch = 64

// paramOp queues a parameter op for checkParams.
func (v *verifier) paramOp(op *Op) {
	v.paramOps[v.nParams] = op
	if v.nParams++; v.nParams == paramBatch {
		v.checkParams()
	}
}

// checkParams notes the queued parameter ops for params: a name read with another type than the parameter table's
// is mistyped. When every op reads its parameter with the table's type, no name is read with two types, and params
// need not collect the names of a million parameters to find out. The ops are looked up in batches because each
// lookup in a table of a million names is a cache miss or two: one after another, with nothing of the walk between
// them, the processor overlaps them (at 1M blocks the lookups were 8 % of drrc apply's samples, one op at a time).
func (v *verifier) checkParams() {
	for _, op := range v.paramOps[:v.nParams] {
		name, ok := AsString(op.Attr("parameter_name"))
		if !ok {
			v.unnamed++
			continue
		}
		if op.NumResults() != 1 {
			continue
		}
		if pv := v.prog.Params[name]; pv == nil || pv.Type != op.Result(0).Type() {
			if v.mistyped == nil {
				v.mistyped = map[string]bool{}
			}
			v.mistyped[name] = true
		}
	}
	clear(v.paramOps[:v.nParams])
	v.nParams = 0
}

// params reports parameter ops without a name, and warns when one parameter name is read with different types
// (only mistyped names can be). It walks the program again only when there is something to report.
func (v *verifier) params() {
	if v.unnamed == 0 && len(v.mistyped) == 0 {
		return
	}
	types := map[string]Type{}
	for op := range v.prog.Walk() {
		if op.info.Name != ParameterOpName && op.info.Name != GetParameterOpName {
			continue
		}
		name, ok := AsString(op.Attr("parameter_name"))
		if !ok {
			v.report(diag.Error, op, "parameter op without a parameter_name")
			continue
		}
		if op.NumResults() != 1 || !v.mistyped[name] {
			continue
		}
		t := op.Result(0).Type()
		if prev, seen := types[name]; seen && prev != t {
			v.report(diag.Warning, op, "parameter %s is read as %s here and as %s before", strings.TrimSpace(name), t, prev)
			continue
		}
		types[name] = t
	}
}
