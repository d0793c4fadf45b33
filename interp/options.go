package interp

import (
	"context"

	"github.com/pirdrr/drr/ir"
)

// Precision is the floating-point type the interpreter computes in.
type Precision uint8

// The evaluation precisions. Float64 is the default of Evaluate and of rule verification: a 1e-5 relative check is
// most sensitive when the arithmetic itself is far more precise than that. Auto evaluates a program in the
// precision of its floating-point types (float32 unless some tensor of more than one element is float64; the
// float64 scalars that float32 models pass to arange and linspace do not count): a float32 model is then computed
// as Paddle computes it, in half the memory, and compared with an error budget (package compare).
const (
	Float64 Precision = iota
	Float32
	Auto
)

// String returns "float64", "float32" or "auto".
func (p Precision) String() string {
	switch p {
	case Float32:
		return "float32"
	case Auto:
		return "auto"
	}
	return "float64"
}

// Resolve turns Auto into the precision of the programs' floating-point types: float64 when some tensor of some
// program is float64 (or complex128) and has more than one element (or dynamic dims), float32 otherwise. Evaluate
// resolves its precision so; a comparison of two programs resolves it over both, so that they are computed alike.
func (p Precision) Resolve(progs ...*ir.Program) Precision {
	if p != Auto {
		return p
	}
	for _, prog := range progs {
		for op := range prog.Walk() {
			for _, r := range op.Results() {
				tt := ir.TensorOf(r.Type())
				if tt == nil || tt.DType() != ir.DTypeFloat64 && tt.DType() != ir.DTypeComplex128 {
					continue
				}
				n := int64(1)
				for _, d := range tt.Dims {
					if d < 0 {
						n = 2
						break
					}
					n *= d
				}
				if n > 1 {
					return Float64
				}
			}
		}
	}
	return Float32
}

// Options configures evaluation. The zero value is usable: float64, declared static shapes checked, at most 100000
// loop iterations. (The shapes and values of random inputs and weights are package feeds' Options.)
type Options struct {
	// Precision selects float64 (default) or float32 arithmetic. Every floating-point element type (f16, bf16,
	// f32, f64) is computed in this precision; integer and boolean values are held exactly (in float32 mode, up to
	// 2^24).
	Precision Precision
	// IgnoreDeclaredShapes turns off the check that every computed result has the static dims its type declares
	// (needed when the inputs are fed at other shapes than a fully static model declares: feeds.Options.InputShapes).
	IgnoreDeclaredShapes bool
	// MaxLoopIterations bounds the iterations of one pd_op.while (default 100000); exceeding it is an error.
	MaxLoopIterations int
	// MaxElements bounds the element count of every input, parameter and result (default 2^28, 1 GiB in float32):
	// a larger tensor is an error instead of an out-of-memory crash.
	MaxElements int
	// MaxMACs bounds the multiply-accumulates of one conv2d, matmul or fc (default 2^40, about 20 seconds on two
	// cores with the assembly kernels, package tensor; 2^37 with the portable ones took as long): a larger op is
	// an error instead of an apparent hang. The largest convolutions of the GraphNet corpus at batch 1
	// (segmentation heads of 76 to 108 GMAC) are a tenth of it.
	MaxMACs int64
	// Context, when set, stops an evaluation once it is done (a deadline passed, a cancellation): the machine
	// looks at it before each op, and Evaluate (and package compare's Programs) then return an error that wraps
	// its cause (one kernel already running is not interrupted: MaxMACs bounds the longest). drrc verify -timeout
	// and the playground's time budget set it.
	Context context.Context

	// SkipOutputs lists output ops (fetch, shadow_output, set_parameter) not to evaluate: their operands are not
	// computed for them, and they give no Output. A comparison leaves out so the shadow outputs that only publish a
	// weight (package compare), which would otherwise draw every weight a model cut to one layer publishes.
	SkipOutputs map[*ir.Op]bool
	// Compact keeps the elements of outputs in the evaluation precision (Output.Elems) instead of a float64 copy in
	// Output.Value.Data: a comparison holds the outputs of two programs at once, and a float32 model's outputs then
	// take half the memory (Mask-RT-DETR-L's masks, 1.8 GB per program as float64).
	Compact bool

	// Keep, Reuse and Carry let one evaluation take over values an earlier evaluation of another program computed
	// (package compare evaluates the program before a rewrite, then the program after it, whose ops upstream of
	// and beside the rewrites are the same ops on the same inputs). With Carry set, the values of Keep are held in
	// it as their top-level ops compute them, whatever their lifetime. An op of Reuse is not evaluated: its result
	// j takes the value Carry holds for Reuse[op][j] (nil: the result is left unbound, for no evaluated op reads
	// it); a write to a reused buffer copies it first, so the earlier evaluation's values stay as they were. The
	// caller vouches that the two computations are the same (compare's sharedOps says when); both evaluations
	// must be in the same precision.
	Keep  map[*ir.Value]bool
	Reuse map[*ir.Op][]*ir.Value
	Carry *Carry
}

func (o Options) maxElements() int {
	if o.MaxElements > 0 {
		return o.MaxElements
	}
	return 1 << 28
}

func (o Options) maxMACs() int64 {
	if o.MaxMACs > 0 {
		return o.MaxMACs
	}
	return 1 << 40
}

// CheckSize fails with a *LimitError naming what (`input "x"`) when a tensor of the given shape exceeds
// MaxElements, and with an error when the shape has a negative dim or too many elements to count.
func (o Options) CheckSize(what string, shape []int) error {
	n, err := NumElements(shape)
	if err != nil {
		return err
	}
	if n > o.maxElements() {
		return &LimitError{What: what, Value: int64(n), Limit: int64(o.maxElements()), Option: "MaxElements"}
	}
	return nil
}

func (o Options) maxLoop() int {
	if o.MaxLoopIterations > 0 {
		return o.MaxLoopIterations
	}
	return 100000
}

// Feed holds what a program reads from outside: input tensors by input name and parameter values by parameter
// name.
type Feed struct {
	// Inputs maps the name attribute of pd_op.data / pd_op.feed ops to their values.
	Inputs map[string]*Tensor
	// Params maps parameter names to values. A parameter found here is read from here; otherwise from
	// ir.Variable.Data of the program.
	Params map[string]*Tensor
	// Seed seeds the streams of the program's random ops (uniform, randint, dropout in training, …; see
	// the package documentation). feeds.Random sets it to its seed.
	Seed uint64
	// Drawer, when set, gives the parameters that neither Params nor the program's data hold, when a program
	// first reads them (package feeds draws random weights so: a model whose weights do not fit in memory at once
	// is evaluated holding only those of the ops in flight).
	Drawer ParamDrawer
}

// ParamDrawer gives a parameter's values when an evaluation first reads it (Feed.Drawer).
type ParamDrawer interface {
	// DrawParam returns the values of the named parameter in the precision p of the evaluation (Float32 or
	// Float64, never Auto), or ok false when the drawer does not give that parameter. An evaluation may call it
	// from several goroutines at once (OpEvaluator aside, one per Evaluate).
	DrawParam(name string, p Precision) (d Drawn, ok bool, err error)
}

// Drawn is a parameter's values as a ParamDrawer gives them.
type Drawn struct {
	// DType and Shape must agree with the parameter's declared type.
	DType ir.DType
	Shape []int
	// Data holds the elements in row-major order in the evaluation's precision: []float32 for Float32,
	// []float64 for Float64; it is rounded to DType already.
	Data any
	// Borrowed says that the drawer keeps Data for another evaluation: the evaluation copies it before the first
	// write to the parameter (an inplace op, builtin.set_parameter) instead of writing it.
	Borrowed bool
}

// OutputKind tells how an output was found.
type OutputKind uint8

// The kinds of program outputs.
const (
	// FetchOutput is the operand of a pd_op.fetch, copied when the fetch runs.
	FetchOutput OutputKind = iota
	// ShadowOutput is the operand of a builtin.shadow_output, read when the program ends.
	ShadowOutput
	// ParameterOutput is the operand of a builtin.set_parameter (the outputs of older programs), copied when it
	// runs; Name is the parameter_name.
	ParameterOutput
	// SinkOutput is a result of a sink of the top-level block (ir.IsSink: an op none of whose results is used) of a
	// program without fetch, shadow_output or set_parameter (such as the GraphNet captures), read when the program
	// ends. Parameter, input and constant ops (full, full_int_array, …) are never sinks.
	SinkOutput
)

// String returns "fetch", "shadow_output" or "sink".
func (k OutputKind) String() string {
	switch k {
	case FetchOutput:
		return "fetch"
	case ShadowOutput:
		return "shadow_output"
	case ParameterOutput:
		return "set_parameter"
	}
	return "sink"
}

// Output is one output of an evaluated program.
type Output struct {
	// Kind says how the output was found.
	Kind OutputKind
	// Name is the fetch name, the shadow_output output_name, the set_parameter parameter_name, or for sinks a
	// description of the value ("%12 (pd_op.add at file:40)").
	Name string
	// Col is the fetch column (-1 for other kinds).
	Col int
	// Value is the output tensor.
	Value *Tensor
	// Random is set when the output depends on the draw of a random op.
	Random bool
	// Rounding estimates the rounding error of the output's computation: a variance in units of the square of the
	// unit roundoff of the evaluation's precision (Precision.UnitRoundoff; see the package documentation).
	Rounding float64
	// Elems holds the elements ([]float32 or []float64, the evaluation precision) when the evaluation was compact
	// (Options.Compact); Value then has no Data.
	Elems any
}

// Result is the outcome of evaluating a program.
type Result struct {
	// Outputs: fetches and set_parameters in the order they run, then shadow outputs in the order they ran, or
	// (programs with none of those) sinks in program order.
	Outputs []Output
	// Precision is the precision the program was evaluated in (Auto resolved).
	Precision Precision
}

// Output returns the output with the given name, or nil.
func (r *Result) Output(name string) *Output {
	for i := range r.Outputs {
		if r.Outputs[i].Name == name {
			return &r.Outputs[i]
		}
	}
	return nil
}
