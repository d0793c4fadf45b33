package cost

import (
	"fmt"

	"github.com/pirdrr/drr/ir"
)

// analyzer walks a program once: the runtime/load-time dataflow, each op's work and time. It allocates per program,
// not per op: the records are one growing slice, the runtime, input and output facts of op results one flag byte
// per op (all results of an op are computed together), indexed by the program's dense op numbering, and what an op
// kind needs (its role, its formula) is looked up once per kind. Programs repeat their layers, so an op whose kind,
// attribute list and types are those of the last op of its kind takes that op's work, and its time when its
// compulsory operands are those of that op too (workMemo): on the 100k-block MLIR workload (gen.py), measured before
// and after drrc apply's rule pass, 16,720 formula runs for 185,614 ops with a formula.
type analyzer struct {
	m   *Model
	dyn int64
	ops []OpCost

	ids       *ir.OpIDs
	opFlags   []uint8            // by op number: opRuntime, opInput, opOutput
	otherRT   map[*ir.Op]bool    // the same for ops without a number (built outside the program's allocator)
	valueRT   map[*ir.Value]bool // block arguments, and values a runtime op wrote in place (true)
	outputs   map[*ir.Value]bool // values the program returns (sink operands, or sink results without output ops)
	kinds     []kindInfo         // by OpInfo ID
	view      opView
	memos     []workMemo // by OpInfo ID
	noFormula map[string]error
	rates     [2][32]float64 // Device.Rate by unit and element type, cached (0: not yet)

	// stream folds the records of each top-level op into sum once the op (its regions included) is analyzed,
	// and drops them: Summarize needs only the sums, and the records of a 3-million-op program took 330 MB
	// and a fifth of drrc apply's time to write.
	stream bool
	sum    summing
}

// Flags of an op by its number (analyzer.opFlags).
const (
	opRuntime uint8 = 1 << iota // the op's results are runtime values
	opInput                     // the op's results are program inputs (isInput)
	opOutput                    // a result of the op is in analyzer.outputs
)

// rate returns the device's rate for work on unit in type dt.
func (a *analyzer) rate(u Unit, dt ir.DType) float64 {
	if int(u) >= len(a.rates) || int(dt) >= len(a.rates[0]) {
		return a.m.Device.Rate(u, dt)
	}
	r := &a.rates[u][dt]
	if *r == 0 {
		*r = a.m.Device.Rate(u, dt)
	}
	return *r
}

// kindInfo is what the analyzer knows of an op kind.
type kindInfo struct {
	known   bool
	role    Role // for ops with operands; a registered kind without operands or side effects is a Source
	formula formula
	name    string // the name the formula is registered under (for errors)
	perOp   bool   // a kernel-dialect kind: the formula depends on the op's op_name attribute
	input   bool   // pd_op.data or pd_op.feed: its results are program inputs
}

// newAnalyzer prepares an analysis of p.
func newAnalyzer(m *Model, p *ir.Program, stream bool) *analyzer {
	a := &analyzer{m: m, dyn: m.DynamicDim, ids: p.OpIDs(), stream: stream}
	if a.dyn <= 0 {
		a.dyn = 1
	}
	a.opFlags = make([]uint8, a.ids.Len())
	if !stream {
		a.ops = make([]OpCost, 0, a.ids.Len())
	}
	a.sum.s = Summary{Device: m.Device.Name, DynamicDim: a.dyn}
	a.outputs = outputValues(p)
	for v := range a.outputs {
		if def := v.DefiningOp(); def != nil {
			if id := a.ids.ID(def); id >= 0 && id < len(a.opFlags) {
				a.opFlags[id] |= opOutput
			}
		}
	}
	a.view.dyn = a.dyn
	return a
}

// kind returns the cached facts of op's kind.
func (a *analyzer) kind(op *ir.Op) *kindInfo {
	info := op.Info()
	for len(a.kinds) <= info.ID {
		a.kinds = append(a.kinds, kindInfo{})
	}
	k := &a.kinds[info.ID]
	if !k.known {
		k.known = true
		k.role = baseRole(op)
		name := op.Name()
		k.perOp = kernelOpName(op) != name || containsByte(name, '(')
		k.formula, _, k.name = lookup(op)
		k.input = isInputName(name)
	}
	return k
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// isRuntime reports whether v is computed per inference.
func (a *analyzer) isRuntime(v *ir.Value) bool {
	if v == nil {
		return false
	}
	if len(a.valueRT) > 0 {
		if rt, ok := a.valueRT[v]; ok {
			return rt
		}
	}
	def := v.DefiningOp()
	if def == nil {
		return false
	}
	if id := a.ids.ID(def); id >= 0 && id < len(a.opFlags) {
		return a.opFlags[id]&opRuntime != 0
	}
	return a.otherRT[def]
}

// compulsory reports whether v's bytes must come from device memory whatever is fused: !isRuntime(v) ||
// isInput(v), with one look-up of v's defining op.
func (a *analyzer) compulsory(v *ir.Value) bool {
	if len(a.valueRT) > 0 {
		if rt, ok := a.valueRT[v]; ok {
			return !rt || a.isInput(v)
		}
	}
	def := v.DefiningOp()
	if def == nil {
		return true
	}
	if id := a.ids.ID(def); id >= 0 && id < len(a.opFlags) {
		f := a.opFlags[id]
		return f&opRuntime == 0 || f&opInput != 0
	}
	return !a.otherRT[def] || a.isInput(v)
}

// setRuntime records whether op's results are computed per inference, and whether they are program inputs (k is
// op's kind, id its number: OpIDs.ID).
func (a *analyzer) setRuntime(op *ir.Op, id int, k *kindInfo, rt bool) {
	if id >= 0 && id < len(a.opFlags) {
		f := a.opFlags[id] &^ (opRuntime | opInput)
		if rt {
			f |= opRuntime
		}
		if k.makesInputs(op) {
			f |= opInput
		}
		a.opFlags[id] = f
		return
	}
	if a.otherRT == nil {
		a.otherRT = map[*ir.Op]bool{}
	}
	a.otherRT[op] = rt
}

// setValue records whether a block argument or a value written in place is computed per inference.
func (a *analyzer) setValue(v *ir.Value, rt bool) {
	if a.valueRT == nil {
		a.valueRT = map[*ir.Value]bool{}
	}
	a.valueRT[v] = rt
}

// block analyzes the ops of b in order, nested regions included (pre-order, as Program.Walk).
func (a *analyzer) block(b *ir.Block) {
	for op := range b.Ops() {
		a.op(op)
	}
}

// program analyzes p's body; when streaming, each top-level op's records go into the sums once it is done (the
// records of an op's regions are read while the op is analyzed, never after).
func (a *analyzer) program(p *ir.Program) {
	if !a.stream {
		a.block(p.Body())
		return
	}
	for op := range p.Body().Ops() {
		a.op(op)
		for i := range a.ops {
			a.sum.add(&a.ops[i])
		}
		a.ops = a.ops[:0] // the records are overwritten by the next ops': their pointers keep nothing alive the program does not
	}
}

func (a *analyzer) op(op *ir.Op) {
	k := *a.kind(op) // a copy: the table may grow while the regions are analyzed
	id := a.ids.ID(op)
	at := len(a.ops)
	role := k.role
	if role == Compute && op.NumOperands() == 0 && op.Schema() != nil && !op.Schema().Has(ir.SideEffects) {
		role = Source // a constant: computed from its attributes alone
	}
	if k.perOp && kernelOpName(op) == "pd_op.data" {
		role = Source // the kernel dialect's data(phi_kernel)
	}
	a.ops = append(a.ops, OpCost{Op: op, Role: role})
	rt := a.intrinsicRuntime(op)
	for i := 0; i < op.NumOperands() && !rt; i++ {
		rt = a.isRuntime(op.Operand(i))
	}
	if op.NumRegions() > 0 {
		// The regions' arguments carry the op's operands (a while's loop state): runtime when the op's inputs are.
		var starts [3]int
		for i, r := range op.Regions() {
			if i < len(starts) {
				starts[i] = len(a.ops)
			}
			for _, blk := range r.Blocks() {
				for _, arg := range blk.Args() {
					a.setValue(arg, rt)
				}
				a.block(blk)
			}
		}
		end := len(a.ops)
		for i := at + 1; i < end; i++ {
			if n := &a.ops[i]; n.Runtime && n.Role == Compute {
				rt = true
			}
		}
		if op.Name() == "pd_op.if" && op.NumRegions() == 2 {
			a.chooseBranch(starts[0], starts[1], end)
		}
		if fusedRegions[op.Name()] {
			a.ops[at].Runtime = rt
			a.setRuntime(op, id, &k, rt)
			a.fuse(at, end, id)
			return
		}
	}
	c := &a.ops[at]
	c.Runtime = rt
	a.setRuntime(op, id, &k, rt)
	if rt {
		// A runtime op writing an operand in place makes that buffer's later contents runtime values too.
		if s := op.Schema(); s != nil {
			for _, io := range s.Inplace {
				if io.Operand < op.NumOperands() && op.Operand(io.Operand) != nil {
					a.setValue(op.Operand(io.Operand), true)
				}
			}
		}
	}
	if c.Role != Compute {
		return
	}
	f, name := k.formula, k.name
	if k.perOp {
		f, _, name = lookup(op)
	}
	w, dynamic, m, err := a.workOf(op, f, name)
	c.Dynamic = dynamic
	if err != nil {
		c.Err = err
		return
	}
	c.Work = w
	if rt {
		c.Time = a.time(op, id, w, m)
	}
}

// work runs an op's formula (or says that it has none) and checks the result.
func (a *analyzer) work(f formula, name string, v *opView) (Work, error) {
	if f == nil {
		err, ok := a.noFormula[name]
		if !ok {
			err = fmt.Errorf("no cost formula for %s", name)
			if a.noFormula == nil {
				a.noFormula = map[string]error{}
			}
			a.noFormula[name] = err
		}
		return Work{}, err
	}
	w, err := f(v)
	if err != nil {
		return Work{}, fmt.Errorf("%s: %v", name, err)
	}
	if w.FLOPs < 0 || w.Read < 0 || w.Written < 0 {
		return Work{}, fmt.Errorf("%s: negative work (%d FLOPs, %d bytes read, %d written)", name, w.FLOPs, w.Read, w.Written)
	}
	return w, nil
}

// fuse makes the op at index at, whose region is compiled into one kernel, the sum of its nested ops (at+1 to end):
// their operations, the bytes of the values they read from outside the region and of its results, one kernel. The
// nested ops are marked Fused: listed, but counted through the region's op.
func (a *analyzer) fuse(at, end, id int) {
	c := &a.ops[at]
	inside := map[*ir.Op]bool{}
	for i := at + 1; i < end; i++ {
		inside[a.ops[i].Op] = true
		a.ops[i].Fused = true
	}
	v := &opView{op: c.Op, dyn: a.dyn}
	w := Work{Kernels: 1, Unit: Vector, Written: v.writeAll()}
	seen := map[*ir.Value]bool{}
	var top int64 = -1
	for i := at + 1; i < end; i++ {
		n := &a.ops[i]
		if n.Err != nil && c.Err == nil {
			c.Err = n.Err
		}
		w.FLOPs += n.Work.FLOPs
		if n.Work.FLOPs > top {
			top, w.Unit, w.DType = n.Work.FLOPs, n.Work.Unit, n.Work.DType
		}
		for j := 0; j < n.Op.NumOperands(); j++ {
			val := n.Op.Operand(j)
			if val == nil || seen[val] {
				continue
			}
			seen[val] = true
			if def := val.DefiningOp(); def != nil && inside[def] || val.IsBlockArg() && inside[val.OwnerBlock().ParentOp()] {
				continue
			}
			w.Read += v.valueBytes(val)
		}
		c.Dynamic = c.Dynamic || n.Dynamic
	}
	if c.Err != nil {
		return
	}
	c.Work = w
	if c.Runtime {
		c.Time = a.time(c.Op, id, w, nil)
	}
}

// chooseBranch keeps the costlier branch of an if (then: ops[then:els], else: ops[els:end]) in the summary: a run
// takes one branch.
func (a *analyzer) chooseBranch(then, els, end int) {
	total := func(from, to int) float64 {
		t := 0.0
		for i := from; i < to; i++ {
			if !a.ops[i].Branch {
				t += a.ops[i].Time.High
			}
		}
		return t
	}
	from, to := els, end
	if total(els, end) > total(then, els) {
		from, to = then, els
	}
	for i := from; i < to; i++ {
		a.ops[i].Branch = true
	}
}

// intrinsicRuntime reports whether op runs per inference whatever its operands: program inputs, random and other
// ops with side effects that are not outputs, control flow aside (its regions decide), and unregistered ops
// without operands (nothing says what they read).
func (a *analyzer) intrinsicRuntime(op *ir.Op) bool {
	s := op.Schema()
	if s == nil {
		return op.NumOperands() == 0 && op.Name() != ir.ModuleOpName
	}
	if !s.Has(ir.SideEffects) || ir.IsOutputOp(op) || op.NumRegions() > 0 {
		return false
	}
	return true
}

// baseRole classifies an op kind (see Role); op decides what the name alone does not (regions, terminators).
func baseRole(op *ir.Op) Role {
	name := op.Name()
	switch {
	case fusedRegions[name]:
		return Compute
	case ir.IsOutputOp(op):
		return Sink
	case name == ir.ParameterOpName || name == "builtin.get_parameter" || name == "pd_op.data" || name == "pd_op.feed":
		return Source
	case name == "builtin.combine" || name == "builtin.split" || name == "builtin.slice":
		return Plumbing
	case op.NumRegions() > 0:
		return Plumbing
	}
	if op.Has(ir.Terminator) {
		return Plumbing
	}
	if s := op.Schema(); s != nil && s.Dialect != nil && s.Dialect.Name == "cf" {
		return Plumbing
	}
	return Compute
}

// time estimates a runtime op's time per inference the way XLA's GPU performance model does for a kernel:
// compute and memory traffic overlap (max), plus the launch overhead. The interval's upper end moves every byte the
// op reads and writes through device memory (XLA's estimate); the lower end only the bytes that must come from or
// go to memory whatever is fused: the weights, constants and program inputs the op reads, and the program outputs it
// writes. Fusing ops so changes the lower end by the launches saved alone, the upper end by launches and bytes.
//
// m, when not nil, is the memo of op's kind holding op's types: an op whose operands are read from memory as those
// of the op m's time was computed for, with no output result, takes that time.
func (a *analyzer) time(op *ir.Op, id int, w Work, m *workMemo) Interval {
	if w.Kernels == 0 {
		return Interval{}
	}
	output := len(a.outputs) > 0 && a.maybeOutput(id)
	var mask uint64 // the operands whose bytes are compulsory
	n := op.NumOperands()
	if m != nil && !output && n <= 64 {
		for i := 0; i < n; i++ {
			if val := op.Operand(i); val != nil && a.compulsory(val) {
				mask |= 1 << i
			}
		}
		if m.timed && m.timeMask == mask && m.timeWork == w {
			return m.time
		}
	} else {
		m = nil
	}
	t := a.timeOf(op, w, output, m != nil, mask)
	if m != nil {
		m.timed, m.timeMask, m.timeWork, m.time = true, mask, w, t
	}
	return t
}

// timeOf is time without a memo; with masked, mask says which operands' bytes are compulsory.
func (a *analyzer) timeOf(op *ir.Op, w Work, output, masked bool, mask uint64) Interval {
	d := a.m.Device
	compute := 0.0
	if w.FLOPs > 0 {
		compute = float64(w.FLOPs) / a.rate(w.Unit, w.DType)
	}
	bw := d.MemoryBandwidth.Value
	launch := float64(w.Kernels) * d.LaunchOverhead.Value
	v := &opView{op: op, dyn: a.dyn}
	compulsory := int64(0)
	for i := 0; i < op.NumOperands(); i++ {
		val := op.Operand(i)
		if masked {
			if mask&(1<<i) != 0 {
				compulsory += v.valueBytes(val)
			}
		} else if val != nil && a.compulsory(val) {
			compulsory += v.valueBytes(val)
		}
	}
	compulsory = min(compulsory, w.Read)
	out := int64(0)
	if output {
		for _, r := range op.Results() {
			if a.outputs[r] {
				out += v.valueBytes(r)
			}
		}
	}
	compulsory += min(out, w.Written)
	return Interval{
		Low:  launch + max(compute, float64(compulsory)/bw),
		High: launch + max(compute, float64(w.Read+w.Written)/bw),
	}
}

// isInput reports whether v is a program input (a pd_op.data or pd_op.feed result, also of the kernel dialect).
func (a *analyzer) isInput(v *ir.Value) bool {
	def := v.DefiningOp()
	if def == nil {
		return false
	}
	return a.kind(def).makesInputs(def)
}

// makesInputs reports whether op, of kind k, makes program inputs: by its name, or for a kernel-dialect kind by the
// op_name it runs.
func (k *kindInfo) makesInputs(op *ir.Op) bool {
	if k.perOp {
		return isInputName(kernelOpName(op))
	}
	return k.input
}

// isInputName reports whether ops named name (an op's name or a kernel's op_name) make program inputs.
func isInputName(name string) bool { return name == "pd_op.data" || name == "pd_op.feed" }

// maybeOutput reports whether a result of the op numbered id (OpIDs.ID) may be in a.outputs: false when the op
// has a number and none of its results is.
func (a *analyzer) maybeOutput(id int) bool {
	if id >= 0 && id < len(a.opFlags) {
		return a.opFlags[id]&opOutput != 0
	}
	return true
}

// outputValues returns the values p returns: the operands of its output ops or, for a program without them, the
// results of its sinks (ir.HasOutputs, ir.IsSink).
func outputValues(p *ir.Program) map[*ir.Value]bool {
	out := map[*ir.Value]bool{}
	if ir.HasOutputs(p) {
		for op := range p.Walk() {
			if ir.IsOutputOp(op) {
				for i := 0; i < op.NumOperands(); i++ {
					out[op.Operand(i)] = true
				}
			}
		}
		return out
	}
	for _, v := range ir.SinkTensors(p.Body()) {
		out[v] = true
	}
	return out
}
