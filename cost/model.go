package cost

import (
	"github.com/pirdrr/drr/ir"
)

// Model estimates what programs cost on a device.
type Model struct {
	// Device is the profile times are estimated for.
	Device *Device
	// DynamicDim is the size a dynamic (-1) dim counts as: 0 means 1, one sample per inference.
	DynamicDim int64
}

// NewModel returns a model for the named device (LookupDevice) with dynamic dims of 1.
func NewModel(device string) (*Model, error) {
	d, err := LookupDevice(device)
	if err != nil {
		return nil, err
	}
	return &Model{Device: d}, nil
}

// Role says what an op is to the cost model.
type Role uint8

const (
	// Compute ops do the program's work, at run time or at load time (Phase).
	Compute Role = iota
	// Source ops bring values in: the program's inputs (pd_op.data, pd_op.feed), its weights (builtin.parameter,
	// builtin.get_parameter) and constants (ops without operands or side effects: pd_op.full, full_int_array, …).
	Source
	// Sink ops take values out: pd_op.fetch, builtin.shadow_output, builtin.set_parameter.
	Sink
	// Plumbing ops move no data: the vector ops builtin.combine, builtin.split, builtin.slice and the control-flow
	// dialect's ops (cf.yield, …); pd_op.if and pd_op.while themselves (their regions' ops are costed).
	Plumbing
)

// String names the role: "compute", "source", "sink" or "plumbing".
func (r Role) String() string {
	return [...]string{"compute", "source", "sink", "plumbing"}[r]
}

// OpCost is the cost of one op.
type OpCost struct {
	Op   *ir.Op
	Role Role
	// Runtime is set for an op that runs on every inference: it depends on a program input (or on a random or
	// stateful op). Other ops compute from weights and constants only, once, at load time.
	Runtime bool
	Work    Work
	// Time is the op's estimated time per inference on the model's device (zero for load-time ops and ops
	// without kernels).
	Time Interval
	// Err says why the op could not be costed (no formula for it, or types the formula cannot read); its Work is
	// then zero and the op is counted as uncosted.
	Err error
	// Dynamic is set when the op's types had dynamic dims, which counted as Model.DynamicDim.
	Dynamic bool
	// Branch is set for the ops of an if branch that is not the costlier one: they are listed but their kernels,
	// FLOPs, bytes and time are not in the summary.
	Branch bool
	// Fused is set for the ops inside a region compiled into one kernel (cinn_op.group): listed, counted in Ops,
	// their cost that of the enclosing op.
	Fused bool
}

// Counted reports whether the op counts as a runtime or load-time op: a compute op not inside a fused region.
func (c *OpCost) Counted() bool { return c.Role == Compute && !c.Fused }

// Report is the cost of a program: every op's and their sum.
type Report struct {
	Summary Summary
	// Ops lists every op of the program in pre-order (Program.Walk).
	Ops []OpCost
}

// Analyze computes the cost of every op of p (nested regions included) and the summary.
func (m *Model) Analyze(p *ir.Program) *Report {
	a := newAnalyzer(m, p, false)
	a.program(p)
	return &Report{Summary: a.summarize(), Ops: a.ops}
}

// Summarize is Analyze's summary alone.
func (m *Model) Summarize(p *ir.Program) Summary {
	a := newAnalyzer(m, p, true)
	a.program(p)
	return a.summarize()
}
