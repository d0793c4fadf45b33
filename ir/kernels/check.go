package kernels

import (
	"fmt"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

// The constraints the check reports besides the tables' own requires.
const (
	// ConstraintDType: the kernel registers no kernel for the data type of its key tensor.
	ConstraintDType = "dtype"
	// ConstraintNoKernel: the table says Paddle has no kernel for the op on the target.
	ConstraintNoKernel = "no_kernel"
	// ConstraintUnlisted: the table does not list the op, which is therefore not checked (a warning).
	ConstraintUnlisted = "unlisted"
)

// Finding is an op Paddle cannot run on the target as it is, and why.
type Finding struct {
	Op *ir.Op
	// Kernel names the kernel the op selects ("" when its entry has one kernel).
	Kernel string
	// Constraint is the name of the constraint that failed (a require's name, or one of the Constraint consts).
	Constraint string
	// Message says what failed, with the op's values.
	Message string
	// Source is the Paddle file the constraint comes from.
	Source string
	// Warning marks a finding that is not an error: an op the table does not list.
	Warning bool
}

// Check checks every op of p (nested regions included, in program order) against t for target and returns the
// findings, in program order. The ops the table does not list are one warning per op name, at its first op.
func Check(p *ir.Program, t *Table, target ir.Target) []Finding {
	var out []Finding
	unlisted := map[string]int{} // op name → index of its warning in out
	count := map[string]int{}
	for op := range p.Walk() {
		if t.Lookup(op.Name()) == nil {
			count[op.Name()]++
			if _, seen := unlisted[op.Name()]; seen {
				continue
			}
			unlisted[op.Name()] = len(out)
		}
		out = append(out, CheckOp(op, t, target)...)
	}
	for name, i := range unlisted {
		if n := count[name]; n > 1 {
			out[i].Message += fmt.Sprintf(" (%d ops, the first here)", n)
		}
	}
	return out
}

// CheckOp checks one op against t for target.
func CheckOp(op *ir.Op, t *Table, target ir.Target) []Finding {
	e := t.Lookup(op.Name())
	if e == nil {
		return []Finding{{Op: op, Constraint: ConstraintUnlisted, Warning: true,
			Message: fmt.Sprintf("the %s kernel table does not list %s: not checked", t.Target, op.Name())}}
	}
	switch e.Kind {
	case Instruction:
		return nil
	case Unsupported:
		return []Finding{{Op: op, Constraint: ConstraintNoKernel, Source: e.Source,
			Message: fmt.Sprintf("Paddle has no %s kernel for %s: %s", t.Target, op.Name(), e.Reason)}}
	}
	ev := &env{op: op, target: target}
	var k *Kernel
	for _, c := range e.Kernels {
		if c.If == nil || c.If.eval(ev) == true {
			k = c
			break
		}
	}
	if k == nil {
		// The last kernel has an if that does not hold (or is unknown): Paddle would not find a kernel.
		return []Finding{{Op: op, Constraint: ConstraintNoKernel, Source: e.Source,
			Message: fmt.Sprintf("none of the %s kernels of %s is selected: %s", t.Target, op.Name(), kernelNames(e))}}
	}
	var out []Finding
	if d, ok := keyDType(op, e.Key); ok && !k.AnyDType && !hasDType(k.DTypes, d) {
		out = append(out, Finding{Op: op, Kernel: k.Name, Constraint: ConstraintDType, Source: k.Source,
			Message: fmt.Sprintf("no %s kernel for %s: Paddle registers %s", t.Target, d.DataTypeName(), dtypeList(k.DTypes))})
	}
	for _, rs := range [][]*Require{e.Requires, k.Requires} {
		for _, r := range rs {
			if r.Cond.eval(ev) == false {
				out = append(out, Finding{Op: op, Kernel: k.Name, Constraint: r.Name, Source: r.Source,
					Message: r.Message.render(ev)})
			}
		}
	}
	return out
}

// keyDType returns the data type that selects op's kernel: that of the named operand or result, else of the first
// operand with a tensor type, else of the first result. ok is false when the type is not known.
func keyDType(op *ir.Op, key string) (ir.DType, bool) {
	var v *ir.Value
	if key != "" {
		v, _ = resolve(op, key)
	} else {
		for _, o := range op.Operands() {
			if o != nil && tensorOf(o) != nil {
				v = o
				break
			}
		}
		if v == nil && op.NumResults() > 0 {
			v = op.Result(0)
		}
	}
	if v == nil {
		return 0, false
	}
	tt := tensorOf(v)
	if tt == nil || tt.DType() == ir.DTypeUndefined {
		return 0, false
	}
	return tt.DType(), true
}

func hasDType(list []ir.DType, d ir.DType) bool {
	for _, x := range list {
		if x == d {
			return true
		}
	}
	return false
}

func dtypeList(list []ir.DType) string {
	parts := make([]string, len(list))
	for i, d := range list {
		parts[i] = d.DataTypeName()
	}
	return strings.Join(parts, ", ")
}

func kernelNames(e *Entry) string {
	parts := make([]string, len(e.Kernels))
	for i, k := range e.Kernels {
		parts[i] = k.Name
	}
	return strings.Join(parts, ", ")
}

// String formats the finding as one line: the op's constraint, the message and the source.
func (f Finding) String() string {
	var b strings.Builder
	b.WriteString(f.Op.Name())
	if f.Kernel != "" {
		b.WriteString(" (" + f.Kernel + ")")
	}
	b.WriteString(" [" + f.Constraint + "]: " + f.Message)
	if f.Source != "" {
		b.WriteString(" (" + f.Source + ")")
	}
	return b.String()
}

// Diagnostics turns findings into diagnostics of p: positioned at each op as the program's reader placed it, the
// op described by its value numbers as ir.Verify describes it, errors but for unlisted ops (warnings).
func Diagnostics(p *ir.Program, target ir.Target, findings []Finding) diag.Diagnostics {
	if len(findings) == 0 {
		return nil
	}
	names := ir.NumberValues(p.Body())
	out := make(diag.Diagnostics, 0, len(findings))
	for _, f := range findings {
		d := diag.Diagnostic{Severity: diag.Error, Pos: f.Op.Loc.In(p.File)}
		if f.Warning {
			d.Severity = diag.Warning
			d.Message = names.Describe(f.Op) + ": " + f.Message
		} else {
			d.Message = fmt.Sprintf("%s: Paddle cannot run it on %s [%s]: %s", names.Describe(f.Op), target, f.Constraint, f.Message)
			if f.Source != "" {
				d.Message += " (" + f.Source + ")"
			}
		}
		out = append(out, d)
	}
	return out
}

// Error is the error of a program with ops Paddle cannot run on the target (the kernel_check pass): its message
// lists them, and Diagnostics gives them positioned, for drrc to render with their source lines.
type Error struct {
	Target ir.Target
	Diags  diag.Diagnostics
}

func (e *Error) Error() string {
	n := len(e.Diags)
	what := "ops"
	if n == 1 {
		what = "op"
	}
	return fmt.Sprintf("%d %s Paddle cannot run on %s:\n%s", n, what, e.Target, e.Diags.Error())
}

// Diagnostics returns the findings as positioned diagnostics.
func (e *Error) Diagnostics() diag.Diagnostics { return e.Diags }
