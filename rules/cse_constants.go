package rules

import (
	"strings"

	"github.com/pirdrr/drr/analysis"
	"github.com/pirdrr/drr/ir"
)

// MergeConstants is the Go pass cse_constants: within each block, a ConstantLike op (pd_op.full,
// pd_op.full_int_array, builtin.constant) with the same name, attributes and result types as an earlier one in the
// block is replaced by it and erased. It returns the number of ops erased.
//
// The gpu_inference patterns name a constant once when several ops of the pattern read it (multihead_matmul's q, k
// and v reshapes read one shape), since pattern ops bind distinct ops; Paddle's exported programs are CSE'd that
// way already, programs built op by op are not. Running this first makes both look alike. Unregistered ops and ops
// with regions are left alone, and so is a constant some op writes in place (analysis.Mutated): LLaMA's attention
// mask fills two equal `full 0` buffers with assign_value_ (0 and -65504), and one buffer for both would make both
// -65504.
func MergeConstants(p *ir.Program, rw *ir.Rewriter) (int, error) {
	merged := 0
	var blocks []*ir.Block
	blocks = append(blocks, p.Body())
	for op := range p.Walk() {
		for _, r := range op.Regions() {
			blocks = append(blocks, r.Blocks()...)
		}
	}
	for _, b := range blocks {
		first := map[string]*ir.Op{}
		var dups []*ir.Op
		for op := range b.Ops() {
			if op.Schema() == nil || !op.Has(ir.ConstantLike) || op.NumRegions() > 0 || op.NumOperands() > 0 ||
				writtenResult(op) {
				continue
			}
			key := constantKey(op)
			if keep, ok := first[key]; ok {
				for i := 0; i < op.NumResults(); i++ {
					rw.ReplaceAllUsesWith(op.Result(i), keep.Result(i))
				}
				dups = append(dups, op)
				continue
			}
			first[key] = op
		}
		for _, op := range dups {
			if err := rw.Erase(op); err != nil {
				return merged, err
			}
			merged++
		}
	}
	return merged, nil
}

// writtenResult reports whether some op may write the buffer of one of op's results.
func writtenResult(op *ir.Op) bool {
	for i := 0; i < op.NumResults(); i++ {
		if analysis.Mutated(op.Result(i)) {
			return true
		}
	}
	return false
}

// constantKey identifies what a constant op computes: its name, attributes (sorted) and result types.
func constantKey(op *ir.Op) string {
	var b strings.Builder
	b.WriteString(op.Name())
	for _, a := range op.SortedAttrs() {
		b.WriteString("|")
		b.WriteString(a.Name)
		b.WriteString("=")
		b.WriteString(a.Value.String())
	}
	for i := 0; i < op.NumResults(); i++ {
		b.WriteString("|")
		b.WriteString(op.Result(i).Type().String())
	}
	return b.String()
}
