package compare

import (
	"fmt"
	"strings"

	"github.com/pirdrr/drr/analysis"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
)

// Shared computations. A rewrite changes a program in places; the ops upstream of every rewrite, and those beside
// them, are in the program after as they were before: the same op on the same operands. Evaluated on the same
// inputs and weights with deterministic kernels they give the same bits, so the evaluation of after takes their
// values from the evaluation of before (interp.Options.Reuse) instead of computing them again. sharedOps decides
// which; docs/verify.md gives the argument.

// sharing is what one comparison reuses: keep lists the values of before to hold for after, reuse maps each op of
// after that is not evaluated to the values of before its results take (nil where no evaluated op reads the
// result), and ops counts the ops of after reused.
type sharing struct {
	keep  map[*ir.Value]bool
	reuse map[*ir.Op][]*ir.Value
	ops   int
	// matched maps every op of after that computes what an op of before computes to that op (reused or read again).
	matched map[*ir.Op]*ir.Op
}

// bufferFacts says, for the top-level ops of one program, which read every operand with the elements it had when
// it was computed (clean: no op wrote its buffer in between), and which values have their buffer written after
// they were computed (dirty, at the end of the program).
type bufferFacts struct {
	clean map[*ir.Op]bool
	dirty map[*ir.Value]bool
}

// buffers computes the bufferFacts of p's top-level block, or reports false when p holds an op with regions (whose
// writes it does not follow).
func buffers(p *ir.Program) (*bufferFacts, bool) {
	f := &bufferFacts{clean: map[*ir.Op]bool{}, dirty: map[*ir.Value]bool{}}
	defined := map[*ir.Value]bool{}
	for _, a := range p.Body().Args() {
		defined[a] = true
	}
	for op := range p.Body().Ops() {
		if op.NumRegions() > 0 {
			return nil, false
		}
		clean := true
		for i := range op.NumOperands() {
			if v := op.Operand(i); v != nil && f.dirty[v] {
				clean = false
			}
		}
		f.clean[op] = clean
		for i := range op.NumOperands() {
			v := op.Operand(i)
			if v == nil || !analysis.Writes(op, i) || deadWrite(op) {
				continue
			}
			for _, m := range analysis.Buffer(v) {
				if defined[m] && m.DefiningOp() != op {
					f.dirty[m] = true
				}
			}
		}
		for _, r := range op.Results() {
			defined[r] = true
		}
	}
	return f, true
}

// shareable reports whether op of a program with facts f computes its results from its operands alone, with
// neither a write nor a later change of what it computed: a top-level op with a schema (or a parameter or input
// read), no regions, no output, no random draw, writing no operand, reading every operand clean, and whose
// results no op writes afterwards.
func shareable(op *ir.Op, f *bufferFacts) bool {
	switch {
	case op.NumResults() == 0 || op.NumRegions() > 0 || ir.IsOutputOp(op) || interp.IsRandomOp(op) || !f.clean[op]:
		return false
	case op.Schema() == nil && op.Name() != ir.ParameterOpName:
		return false
	}
	for i := range op.NumOperands() {
		if analysis.Writes(op, i) && !deadWrite(op) {
			return false
		}
	}
	for _, r := range op.Results() {
		if f.dirty[r] {
			return false
		}
	}
	return true
}

// sharedOps finds the ops of after that compute what an op of before computes: the same name, attributes and
// result types, and operands that are the same values — values of before's and after's that correspond, by
// induction from the parameters (the same name and variable, written by neither program) and the inputs (the same
// pd_op.data op) — both shareable. Such an op of after with operands is reused; ops without operands (parameters,
// inputs, constants) are read again, which costs nothing a comparison would save (the draws are kept, see
// Options.KeepDraws). nil when nothing is shared or either program has ops with regions.
func sharedOps(before, after *ir.Program) *sharing {
	fb, ok := buffers(before)
	if !ok {
		return nil
	}
	fa, ok := buffers(after)
	if !ok {
		return nil
	}
	mb, ma := analysis.MutableParams(before), analysis.MutableParams(after)
	// Before's shareable ops by key. Two ops of before that compute the same thing (constants a pass would merge)
	// are one: the later one's results stand for the first's (canon), so that after's merged op matches both uses.
	index := map[string][]*ir.Op{}
	canon := map[*ir.Value]*ir.Value{}
	for op := range before.Body().Ops() {
		if !shareable(op, fb) || !sameParam(before, after, mb, ma, op) {
			continue
		}
		k := opKey(op, func(v *ir.Value) *ir.Value {
			if c := canon[v]; c != nil {
				return c
			}
			return v
		})
		if first := findSame(index[k], op); first != nil {
			for j, r := range op.Results() {
				canon[r] = first.Result(j)
			}
			continue
		}
		index[k] = append(index[k], op)
	}
	corr := map[*ir.Value]*ir.Value{} // after → before
	matched := map[*ir.Op]*ir.Op{}
	for op := range after.Body().Ops() {
		if !shareable(op, fa) {
			continue
		}
		missing := false
		k := opKey(op, func(v *ir.Value) *ir.Value {
			b := corr[v]
			missing = missing || b == nil
			return b
		})
		if missing {
			continue
		}
		if b := findSame(index[k], op); b != nil {
			matched[op] = b
			for j, r := range op.Results() {
				corr[r] = b.Result(j)
			}
		}
	}
	unshareWritten(after, matched)
	s := &sharing{keep: map[*ir.Value]bool{}, reuse: map[*ir.Op][]*ir.Value{}, matched: matched}
	reused := func(op *ir.Op) bool { return op != nil && matched[op] != nil && op.NumOperands() > 0 }
	for op := range after.Body().Ops() {
		if !reused(op) {
			continue
		}
		s.ops++
		from := make([]*ir.Value, op.NumResults())
		for j, r := range op.Results() {
			// A result is carried over when an op that is evaluated reads it, or when nothing reads it (a sink,
			// an output of a program without output ops).
			need := !r.HasUses()
			for u := range r.Uses() {
				need = need || !reused(u.Owner())
			}
			if need {
				from[j] = corr[r]
				s.keep[corr[r]] = true
			}
		}
		s.reuse[op] = from
	}
	return s
}

// unshareWritten takes out of matched the ops of after whose results share a value of before with another op's
// result and are written where they die (deadWrite), so that after computes them itself. A value of before stands
// for several of after's when before's congruent ops are one (two full_like of one input) or when after computes one
// thing twice; after then reads them all from one buffer, which is safe while they are only read. An op that
// writes one of them in place where it dies (set_value_with_tensor_ into one of the two zero tensors) copies the
// borrowed buffer first, but the copy is the buffer all of them read, and the others would see the write.
// (Co-DINO-R50/subgraph_1 failed its verification that way, without a fault in the program after.)
func unshareWritten(after *ir.Program, matched map[*ir.Op]*ir.Op) {
	written := map[*ir.Value]bool{}
	for op := range after.Body().Ops() {
		if !deadWrite(op) {
			continue
		}
		for i := range op.NumOperands() {
			if v := op.Operand(i); v != nil && analysis.Writes(op, i) {
				for _, m := range analysis.Buffer(v) {
					written[m] = true
				}
			}
		}
	}
	if len(written) == 0 {
		return
	}
	backs := map[*ir.Value]int{} // how many results of after each value of before stands for
	for _, b := range matched {
		for _, r := range b.Results() {
			backs[r]++
		}
	}
	for op, b := range matched {
		for j, r := range op.Results() {
			if written[r] && backs[b.Result(j)] > 1 {
				delete(matched, op)
				break
			}
		}
	}
}

// opKey is op's name, result types and operands (mapped by to before's values): what two ops computing the same
// thing have in common besides their attributes.
func opKey(op *ir.Op, to func(*ir.Value) *ir.Value) string {
	var b strings.Builder
	if deadWrite(op) {
		b.WriteString(ir.NonInplaceName(op.Name()))
	} else {
		b.WriteString(op.Name())
	}
	for _, r := range op.Results() {
		fmt.Fprintf(&b, " %p", r.Type())
	}
	b.WriteString(" |")
	for i := range op.NumOperands() {
		v := op.Operand(i)
		if v != nil {
			v = to(v)
		}
		fmt.Fprintf(&b, " %p", v)
	}
	return b.String()
}

// findSame returns the first op of ops with op's attributes, or nil.
func findSame(ops []*ir.Op, op *ir.Op) *ir.Op {
	for _, b := range ops {
		if sameAttrs(b, op) {
			return b
		}
	}
	return nil
}

// sameAttrs reports whether a and b have the same attributes (names and interned values, in any order), but for
// those the interpreter never reads (unread).
func sameAttrs(a, b *ir.Op) bool {
	n := 0
	for _, x := range a.Attrs() {
		if unread[x.Name] {
			continue
		}
		n++
		if b.Attr(x.Name) != x.Value {
			return false
		}
	}
	for _, x := range b.Attrs() {
		if !unread[x.Name] {
			n--
		}
	}
	return n == 0
}

// unread are the attributes no kernel of package interp reads: they say how Paddle trains and stores a value
// (passes that rebuild an op drop them), not what it computes.
var unread = map[string]bool{"stop_gradient": true, "persistable": true}

// sameParam reports whether op of before, when it reads a parameter, reads one after has under the same name with
// the same variable (type, data, statistics), written by neither program (mb, ma: their analysis.MutableParams);
// other ops pass.
func sameParam(before, after *ir.Program, mb, ma map[string]bool, op *ir.Op) bool {
	switch op.Name() {
	case ir.ParameterOpName, ir.GetParameterOpName:
	default:
		return true
	}
	n, ok := ir.AsString(op.Attr("parameter_name"))
	if !ok {
		return false
	}
	vb, va := before.Params[n], after.Params[n]
	if vb == nil || va == nil || vb.Mutable || va.Mutable || vb.Type != va.Type || vb.Stats != va.Stats ||
		len(vb.Data) != len(va.Data) || len(vb.Data) > 0 && &vb.Data[0] != &va.Data[0] {
		return false
	}
	return !mb[n] && !ma[n]
}

// deadWrite reports whether op is an inplace op (X_) whose writes nothing can see but its own results: every operand
// it writes dies at it and shares its buffer with nothing else. Its results then hold what the op without the
// underscore computes into a fresh buffer, and the write changes no value any later op reads (package rules'
// reinplace makes ops so).
func deadWrite(op *ir.Op) bool {
	s := op.Schema()
	if s == nil || len(s.Inplace) == 0 || op.NumRegions() > 0 {
		return false
	}
	for i := range op.NumOperands() {
		v := op.Operand(i)
		if v == nil || !analysis.Writes(op, i) {
			continue
		}
		if !analysis.DiesAt(v, op) || analysis.Aliased(v, op.Results()...) {
			return false
		}
	}
	return true
}
