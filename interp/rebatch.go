package interp

import (
	"github.com/pirdrr/drr/ir"
)

// Rebatching: GraphNet captured vision models at their training batch (32 to 128) and many of those graphs are
// fully static — the input is builtin.tensor<64x3x224x224xf32>, and the batch is baked into the reshape shapes of
// the model ([64, 56, 56, 96] in Swin's window partition, [4096, 49, 3, 3, 32] for its 64·64 windows). Evaluating
// them at the captured batch costs 64 times what one image costs. Compare therefore first evaluates such a pair of
// programs at Options.Batch: the inputs whose dim 0 is the captured batch B get dim 0 = b (Options.InputShapes,
// with Options.IgnoreDeclaredShapes), and the constants that carry the batch in their first element — the values
// of pd_op.full_int_array and the shape of pd_op.full — take b for B and k·b for k·B. The substitution is the same
// in both programs. When the rebatched programs agree, the comparison stands (Report.Rebatched says so); when
// either cannot be evaluated or they differ, the programs at their captured batch decide: a guess that took a
// channel count for the batch costs time, never a false failure.

// Rebatch describes a comparison at a smaller batch than the captured one.
type Rebatch struct {
	// From is the captured batch, To the batch the programs were evaluated at.
	From, To int64
	// Inputs and Constants count the inputs and constants whose batch was replaced (in the before program).
	Inputs, Constants int
}

// capturedBatch returns the batch a program's static inputs were captured at: dim 0 of its largest captured input
// of rank 2 or more (rebatchableInput), when it exceeds opts.Batch; else 0.
func capturedBatch(opts Options, p *ir.Program) int64 {
	var best, bestN int64
	for op := range p.Walk() {
		tt, _, ok := rebatchableInput(opts, p, op)
		if !ok || len(tt.Dims) < 2 {
			continue
		}
		n := int64(1)
		for _, d := range tt.Dims {
			n *= d
		}
		if n > bestN {
			best, bestN = tt.Dims[0], n
		}
	}
	if best > int64(opts.batch()) {
		return best
	}
	return 0
}

// rebatchableInput returns the type and name of a captured program input (pd_op.data, pd_op.feed): one the
// program records a sample of (ir.Program.Feeds, GraphNet's input_meta.py) without its data, fully static, and
// without a shape given in opts.InputShapes. Programs that record no sample (a model's own inference.json) are
// evaluated at the batch their types say.
func rebatchableInput(opts Options, p *ir.Program, op *ir.Op) (*ir.TensorType, string, bool) {
	if op.Name() != "pd_op.data" && op.Name() != "pd_op.feed" || op.NumResults() != 1 {
		return nil, "", false
	}
	name, _ := ir.AsString(op.Attr("name"))
	if _, given := opts.InputShapes[name]; given {
		return nil, "", false
	}
	if rec := p.Feeds[name]; rec == nil || rec.Data != nil {
		return nil, "", false
	}
	tt := ir.TensorOf(op.Result(0).Type())
	if tt == nil || len(tt.Dims) == 0 || !tt.Static() {
		return nil, "", false
	}
	return tt, name, true
}

// rebatch returns copies of before and after with the captured batch from replaced by to, and the options that
// evaluate them (the rebatched inputs' shapes, declared shapes not checked). It also describes what it replaced.
func rebatch(opts Options, before, after *ir.Program, from, to int64) (*ir.Program, *ir.Program, Options, Rebatch) {
	rb := Rebatch{From: from, To: to}
	shapes := map[string][]int{}
	for name, s := range opts.InputShapes {
		shapes[name] = s
	}
	for op := range before.Walk() {
		tt, name, ok := rebatchableInput(opts, before, op)
		if !ok || tt.Dims[0] != from {
			continue
		}
		s := make([]int, len(tt.Dims))
		for i, d := range tt.Dims {
			s[i] = int(d)
		}
		s[0] = int(to)
		shapes[name] = s
		rb.Inputs++
	}
	b2, n := rebatchConstants(before, from, to)
	a2, _ := rebatchConstants(after, from, to)
	rb.Constants = n
	opts.InputShapes = shapes
	opts.IgnoreDeclaredShapes = true
	return b2, a2, opts, rb
}

// rebatchConstants returns a copy of p whose pd_op.full_int_array values and pd_op.full shapes have their first
// element k·from replaced by k·to, and the number of constants changed.
func rebatchConstants(p *ir.Program, from, to int64) (*ir.Program, int) {
	c := p.Clone()
	ctx := c.Ctx
	rw := ir.NewRewriter(ctx, nil)
	n := 0
	for op := range c.Walk() {
		attr := ""
		switch op.Name() {
		case "pd_op.full_int_array":
			attr = "value"
		case "pd_op.full":
			attr = "shape"
		default:
			continue
		}
		a := op.Attr(attr)
		vals, ok := ir.AsInts(a)
		if !ok || len(vals) == 0 || vals[0] < from || vals[0]%from != 0 {
			continue
		}
		vals = append([]int64(nil), vals...)
		vals[0] = vals[0] / from * to
		var na ir.Attribute
		switch a.(type) {
		case *ir.IntArrayAttr:
			na = ctx.IntArray(vals)
		default:
			na = ctx.Int64s(vals...)
		}
		rw.SetAttr(op, attr, na)
		n++
	}
	return c, n
}
