package cost

import (
	"github.com/pirdrr/drr/ir"
)

// analyzer walks a program once: the runtime/load-time dataflow, each op's work and time.
type analyzer struct {
	m       *Model
	dyn     int64
	report  *Report
	runtime map[*ir.Value]bool // values computed per inference
	outputs map[*ir.Value]bool // values the program returns (sink operands, or sink results without output ops)
}

// block analyzes the ops of b in order, nested regions included (pre-order, as Program.Walk).
func (a *analyzer) block(b *ir.Block) {
	for op := range b.Ops() {
		a.op(op)
	}
}

func (a *analyzer) op(op *ir.Op) {
	c := &OpCost{Op: op, Role: roleOf(op)}
	a.report.Ops = append(a.report.Ops, c)
	rt := a.intrinsicRuntime(op)
	for i := 0; i < op.NumOperands() && !rt; i++ {
		rt = a.runtime[op.Operand(i)]
	}
	if op.NumRegions() > 0 {
		// The regions' arguments carry the op's operands (a while's loop state): runtime when the op's inputs are.
		var starts []int
		for _, r := range op.Regions() {
			starts = append(starts, len(a.report.Ops))
			for _, blk := range r.Blocks() {
				for _, arg := range blk.Args() {
					a.runtime[arg] = rt
				}
				a.block(blk)
			}
		}
		starts = append(starts, len(a.report.Ops))
		nested := a.report.Ops[starts[0]:]
		for _, n := range nested {
			if n.Runtime && n.Role == Compute {
				rt = true
			}
		}
		if op.Name() == "pd_op.if" && op.NumRegions() == 2 {
			a.chooseBranch(a.report.Ops[starts[0]:starts[1]], a.report.Ops[starts[1]:starts[2]])
		}
		if fusedRegions[op.Name()] {
			c.Runtime = rt
			a.fuse(c, nested)
			for _, r := range op.Results() {
				a.runtime[r] = rt
			}
			return
		}
	}
	c.Runtime = rt
	for _, r := range op.Results() {
		a.runtime[r] = rt
	}
	if rt {
		// A runtime op writing an operand in place makes that buffer's later contents runtime values too.
		if s := op.Schema(); s != nil {
			for _, io := range s.Inplace {
				if io.Operand < op.NumOperands() && op.Operand(io.Operand) != nil {
					a.runtime[op.Operand(io.Operand)] = true
				}
			}
		}
	}
	if c.Role != Compute {
		return
	}
	v := &opView{op: op, dyn: a.dyn}
	w, err := workOf(v)
	c.Dynamic = v.dynamic
	if err != nil {
		c.Err = err
		return
	}
	c.Work = w
	if rt {
		c.Time = a.time(op, w)
	}
}

// fuse makes c, an op whose region is compiled into one kernel, the sum of its nested ops: their operations, the
// bytes of the values they read from outside the region and of c's results, one kernel. The nested ops are marked
// Fused: listed, but counted through c.
func (a *analyzer) fuse(c *OpCost, nested []*OpCost) {
	inside := map[*ir.Op]bool{}
	for _, n := range nested {
		inside[n.Op] = true
		n.Fused = true
	}
	v := &opView{op: c.Op, dyn: a.dyn}
	w := Work{Kernels: 1, Unit: Vector, Written: v.writeAll()}
	seen := map[*ir.Value]bool{}
	var top int64 = -1
	for _, n := range nested {
		if n.Err != nil && c.Err == nil {
			c.Err = n.Err
		}
		w.FLOPs += n.Work.FLOPs
		if n.Work.FLOPs > top {
			top, w.Unit, w.DType = n.Work.FLOPs, n.Work.Unit, n.Work.DType
		}
		for i := 0; i < n.Op.NumOperands(); i++ {
			val := n.Op.Operand(i)
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
		c.Time = a.time(c.Op, w)
	}
}

// chooseBranch keeps the costlier branch of an if in the summary: a run takes one branch.
func (a *analyzer) chooseBranch(then, els []*OpCost) {
	total := func(ops []*OpCost) float64 {
		t := 0.0
		for _, c := range ops {
			if !c.Branch {
				t += c.Time.High
			}
		}
		return t
	}
	drop := els
	if total(els) > total(then) {
		drop = then
	}
	for _, c := range drop {
		c.Branch = true
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

// roleOf classifies an op (see Role).
func roleOf(op *ir.Op) Role {
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
	if kernelOpName(op) == "pd_op.data" {
		return Source // the kernel dialect's data(phi_kernel)
	}
	if s := op.Schema(); s != nil && op.NumOperands() == 0 && !s.Has(ir.SideEffects) {
		return Source // a constant: computed from its attributes alone
	}
	return Compute
}

// time estimates a runtime op's time per inference the way XLA's GPU performance model does for a kernel:
// compute and memory traffic overlap (max), plus the launch overhead. The interval's upper end moves every byte the
// op reads and writes through device memory (XLA's estimate); the lower end only the bytes that must come from or
// go to memory whatever is fused: the weights, constants and program inputs the op reads, and the program outputs it
// writes. Fusing ops so changes the lower end by the launches saved alone, the upper end by launches and bytes.
func (a *analyzer) time(op *ir.Op, w Work) Interval {
	if w.Kernels == 0 {
		return Interval{}
	}
	d := a.m.Device
	compute := 0.0
	if w.FLOPs > 0 {
		compute = float64(w.FLOPs) / d.Rate(w.Unit, w.DType)
	}
	bw := d.MemoryBandwidth.Value
	launch := float64(w.Kernels) * d.LaunchOverhead.Value
	v := &opView{op: op, dyn: a.dyn}
	compulsory := int64(0)
	for i := 0; i < op.NumOperands(); i++ {
		val := op.Operand(i)
		if val != nil && !a.runtime[val] || isInput(val) {
			compulsory += v.valueBytes(val)
		}
	}
	compulsory = min(compulsory, w.Read)
	out := int64(0)
	for _, r := range op.Results() {
		if a.outputs[r] {
			out += v.valueBytes(r)
		}
	}
	compulsory += min(out, w.Written)
	return Interval{
		Low:  launch + max(compute, float64(compulsory)/bw),
		High: launch + max(compute, float64(w.Read+w.Written)/bw),
	}
}

// isInput reports whether v is a program input (a pd_op.data or pd_op.feed result).
func isInput(v *ir.Value) bool {
	if v == nil || v.DefiningOp() == nil {
		return false
	}
	n := kernelOpName(v.DefiningOp())
	return n == "pd_op.data" || n == "pd_op.feed"
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
