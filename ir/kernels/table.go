package kernels

import (
	"sort"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

// Table is a parsed kernel table: what Paddle can run on one kind of target.
type Table struct {
	// Target is the kind of target the table is for ("gpu", "cpu"), as ir.Target.KernelTable names it.
	Target string
	// File is the table's file name, for positions.
	File string
	// Entries are the table's entries in file order.
	Entries []*Entry
	// Runtime are the attributes any op may carry at run time, outside its schema (Paddle's force_backend).
	Runtime []string

	byOp map[string]*Entry
}

// EntryKind says what an entry states about its ops.
type EntryKind uint8

// The kinds of entry.
const (
	// Kernels: the ops run the kernels of the entry.
	Kernels EntryKind = iota
	// Instruction: the executor runs the ops itself (builtin.combine, pd_op.data, pd_op.fetch); no kernel needed.
	Instruction
	// Unsupported: Paddle has no kernel for the ops on the target.
	Unsupported
)

// Entry is what the table says about one op or several ops that share their kernels (relu and relu_).
type Entry struct {
	Ops  []string
	Doc  string
	Pos  diag.Position
	Kind EntryKind
	// Reason says why an Instruction or Unsupported entry needs no kernel or has none.
	Reason string
	// Source is the Paddle file the entry comes from (a kernel's own Source overrides it).
	Source string
	// Key names the operand or result whose data type selects the kernel ("" : the first tensor operand, else
	// the first result).
	Key string
	// Requires hold for every kernel of the entry.
	Requires []*Require
	// Kernels are tried in order; the first whose If holds (or that has none) is the one Paddle runs.
	Kernels []*Kernel
}

// Kernel is one kernel Paddle registers for an entry's ops.
type Kernel struct {
	// Name is the kernel's name in findings ("cudnn", "cutlass"; "" for the only kernel of an entry).
	Name string
	Pos  diag.Position
	// If selects the kernel (nil: always).
	If Expr
	// DTypes are the data types the kernel registers, for the key tensor.
	DTypes []ir.DType
	// AnyDType says the kernel is registered for every data type (ALL_DTYPE), DTypes being empty.
	AnyDType bool
	// Source is the Paddle file of the kernel's registration.
	Source string
	// Requires are the conditions the kernel checks.
	Requires []*Require
}

// Require is a condition a kernel checks: a named constraint, the expression that must hold, the message of a
// finding when it does not, and the Paddle source that checks it.
type Require struct {
	Name    string
	Pos     diag.Position
	Cond    Expr
	Message *Message
	Source  string
}

// Lookup returns the entry of the named op, or nil.
func (t *Table) Lookup(op string) *Entry { return t.byOp[op] }

// Ops returns the names of the ops the table lists, sorted.
func (t *Table) Ops() []string {
	out := make([]string, 0, len(t.byOp))
	for n := range t.byOp {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Constraints returns the names of the constraints the table checks ("dtype" and every require's name), sorted
// and without repetition.
func (t *Table) Constraints() []string {
	seen := map[string]bool{ConstraintDType: true}
	out := []string{ConstraintDType}
	add := func(rs []*Require) {
		for _, r := range rs {
			if !seen[r.Name] {
				seen[r.Name] = true
				out = append(out, r.Name)
			}
		}
	}
	for _, e := range t.Entries {
		add(e.Requires)
		for _, k := range e.Kernels {
			add(k.Requires)
		}
		if e.Kind == Unsupported && !seen[ConstraintNoKernel] {
			seen[ConstraintNoKernel] = true
			out = append(out, ConstraintNoKernel)
		}
	}
	sort.Strings(out)
	return out
}
