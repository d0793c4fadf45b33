package feeds

import (
	"encoding/binary"
	"strings"

	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
)

// Rebatching: GraphNet captured vision models at their training batch (32 to 128) and many of those graphs are
// fully static — the input is builtin.tensor<64x3x224x224xf32>, and the batch is baked into the reshape shapes of
// the model ([64, 56, 56, 96] in Swin's window partition, [4096, 49, 3, 3, 32] for its 64·64 windows). Evaluating
// them at the captured batch costs 64 times what one image costs. A comparison (package compare) therefore first
// evaluates such a pair of programs at Options.Batch (CapturedBatch, RebatchPrograms): the inputs whose dim 0 is the captured batch B get dim 0 = b (Options.InputShapes,
// with Options.IgnoreDeclaredShapes), and the shapes that carry the batch in their first element — the values of
// the pd_op.full_int_array ops read only as a `shape` operand (reshape's, expand's, uniform's) and the shape of
// pd_op.full — take b for B and k·b for k·B. Other integer lists are left alone: a split's sections [128, 384]
// are channels, whatever the batch. Small inputs recorded with their data follow (rebatchFeeds): an integer that
// holds B holds b, and data of rank 2 or more whose dim 0 is B keeps its first b rows. The substitution is the same in both
// programs. When the rebatched programs agree, the comparison stands (compare.Report.Rebatched says so); when
// either cannot be evaluated or they differ, the programs at their captured batch decide: a guess that took a
// channel count for the batch costs time, never a false failure.

// Rebatch describes a comparison at a smaller batch than the captured one.
type Rebatch struct {
	// From is the captured batch, To the batch the programs were evaluated at.
	From, To int64
	// Inputs and Constants count the inputs and constants whose batch was replaced (in the before program).
	Inputs, Constants int
	// Why, in compare.Report.NotRebatched, says why the comparison at To did not stand: the error evaluating either
	// program, or the outputs that differ.
	Why string
}

// CapturedBatch returns the batch a program's inputs were captured at: dim 0 of its largest captured input of rank
// 2 or more (capturedInput), when it exceeds opts.Batch; else 0.
func CapturedBatch(opts Options, p *ir.Program) int64 {
	var best, bestN int64
	for op := range p.Walk() {
		dims, _, ok := capturedInput(opts, p, op)
		if !ok || len(dims) < 2 {
			continue
		}
		n := int64(1)
		for _, d := range dims {
			n *= d
		}
		if n > bestN {
			best, bestN = dims[0], n
		}
	}
	if best > int64(opts.BatchSize()) {
		return best
	}
	return 0
}

// capturedInput returns the dims and name of a captured program input (pd_op.data, pd_op.feed): one the program
// records a sample of (ir.Program.Feeds, GraphNet's input_meta.py) without its data, and that opts.InputShapes does
// not shape. Its dims are the declared ones, a dynamic one taken from the sample; all must be known. A weight
// captured as an input (GraphNet names it after a parameter: original_name param_N) is none: its dim 0 is no batch.
// Programs that record no sample (a model's own inference.json) are evaluated at the batch their types say.
func capturedInput(opts Options, p *ir.Program, op *ir.Op) ([]int64, string, bool) {
	name, rec := recordedInput(opts, p, op)
	if rec == nil || rec.Data != nil {
		return nil, "", false
	}
	tt := ir.TensorOf(op.Result(0).Type())
	if tt == nil || len(tt.Dims) == 0 {
		return nil, "", false
	}
	dims := append([]int64(nil), tt.Dims...)
	rt := ir.TensorOf(rec.Type)
	for i, d := range dims {
		if d < 0 && rt != nil && len(rt.Dims) == len(dims) {
			dims[i] = rt.Dims[i]
		}
		if dims[i] < 0 {
			return nil, "", false
		}
	}
	return dims, name, true
}

// recordedInput returns the name and record of a program input (pd_op.data, pd_op.feed) whose sample the program
// records (ir.Program.Feeds) and that opts.InputShapes does not shape, unless it is a weight captured as an input
// (original_name param_N); else a nil record.
func recordedInput(opts Options, p *ir.Program, op *ir.Op) (string, *ir.Variable) {
	if op.Name() != "pd_op.data" && op.Name() != "pd_op.feed" || op.NumResults() != 1 {
		return "", nil
	}
	name, _ := ir.AsString(op.Attr("name"))
	if _, given := opts.InputShapes[name]; given {
		return "", nil
	}
	rec := p.Feeds[name]
	if rec == nil || strings.HasPrefix(rec.OriginalName, "param") {
		return "", nil
	}
	return name, rec
}

// RebatchPrograms returns copies of before and after with the captured batch from replaced by to, and the options that
// evaluate them (the rebatched inputs' shapes, declared shapes not checked). It also describes what it replaced.
//
// With multiples, a shape's first element k·from becomes k·to (Swin's [4096, 49, 3, 3, 32] for 64 windows of 64
// images); without, only from itself is replaced (a [64, 144, 144] mask of 8·8 windows, captured at batch 32, is
// no multiple of the batch). It also reports whether multiples changed a constant, in either program, that from
// alone would not.
func RebatchPrograms(opts Options, before, after *ir.Program, from, to int64, multiples bool) (*ir.Program, *ir.Program, Options, Rebatch, bool) {
	rb := Rebatch{From: from, To: to}
	shapes := map[string][]int{}
	for name, s := range opts.InputShapes {
		shapes[name] = s
	}
	for op := range before.Walk() {
		dims, name, ok := capturedInput(opts, before, op)
		if !ok || dims[0] != from {
			continue
		}
		s := make([]int, len(dims))
		for i, d := range dims {
			s[i] = int(d)
		}
		s[0] = int(to)
		shapes[name] = s
		rb.Inputs++
	}
	b2, n, mult := rebatchConstants(before, from, to, multiples)
	// A pass may have made a shape that is a multiple of the batch by chance (a fused weight reshaped to
	// [768, 3, 768] at batch 8): it counts, or the attempt without multiples would never be made.
	a2, _, multAfter := rebatchConstants(after, from, to, multiples)
	mult = mult || multAfter
	rb.Constants = n
	rb.Inputs += rebatchFeeds(opts, b2, from, to, shapes)
	rebatchFeeds(opts, a2, from, to, shapes)
	opts.InputShapes = shapes
	opts.IgnoreDeclaredShapes = true
	return b2, a2, opts, rb, mult
}

// rebatchFeeds rebatches, in p (a copy), the inputs whose sample was recorded with its data: an integer scalar or
// short list that holds the batch (the batch size fed as an input, which CLIP's expand of the class token reads)
// holds to where it held from, and data of rank 2 or more whose dim 0 is the batch (labels, [8, 1]) keeps its first
// to rows, the new shape going into shapes. A vector of B values is left alone: PicoDet records the 8 bins of its
// distribution head ([8], at batch 8), which are no batch. It returns how many inputs it changed. The recorded Data is replaced, never written:
// the copy shares it with the original program.
func rebatchFeeds(opts Options, p *ir.Program, from, to int64, shapes map[string][]int) int {
	n := 0
	for op := range p.Walk() {
		name, rec := recordedInput(opts, p, op)
		if rec == nil || rec.Data == nil {
			continue
		}
		rt := ir.TensorOf(rec.Type)
		if rt == nil || !rt.Static() {
			continue
		}
		size := interp.ElemSize(rt.DType())
		if size == 0 || int64(len(rec.Data)) != rt.NumElements()*int64(size) {
			continue
		}
		switch {
		case len(rt.Dims) >= 2 && rt.Dims[0] == from:
			row := len(rec.Data) / int(from)
			dims := append([]int64(nil), rt.Dims...)
			dims[0] = to
			s := make([]int, len(dims))
			for i, d := range dims {
				s[i] = int(d)
			}
			rec.Data = append([]byte(nil), rec.Data[:int(to)*row]...)
			rec.Type = p.Ctx.WithDims(rt, dims)
			shapes[name] = s
			n++
		case rt.NumElements() <= 8 && (rt.DType() == ir.DTypeInt64 || rt.DType() == ir.DTypeInt32):
			data, changed := append([]byte(nil), rec.Data...), false
			for i := 0; i < len(data); i += size {
				if size == 8 && int64(binary.LittleEndian.Uint64(data[i:])) == from {
					binary.LittleEndian.PutUint64(data[i:], uint64(to))
					changed = true
				}
				if size == 4 && int64(int32(binary.LittleEndian.Uint32(data[i:]))) == from {
					binary.LittleEndian.PutUint32(data[i:], uint32(to))
					changed = true
				}
			}
			if changed {
				rec.Data = data
				n++
			}
		}
	}
	return n
}

// rebatchConstants returns a copy of p whose shapes (shapeConstant) have their first element from (with
// multiples, k·from) replaced by to (k·to), the number of constants changed, and whether some was a multiple.
func rebatchConstants(p *ir.Program, from, to int64, multiples bool) (*ir.Program, int, bool) {
	c := p.Clone()
	ctx := c.Ctx
	rw := ir.NewRewriter(ctx, nil)
	n, mult := 0, false
	for op := range c.Walk() {
		attr := shapeConstant(op)
		if attr == "" {
			continue
		}
		a := op.Attr(attr)
		vals, ok := ir.AsInts(a)
		if !ok || len(vals) == 0 || vals[0] < from || vals[0]%from != 0 || !multiples && vals[0] != from {
			continue
		}
		mult = mult || vals[0] != from
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
	return c, n, mult
}

// shapeConstant returns the attribute of op that holds a shape: pd_op.full's shape, or the value of a
// pd_op.full_int_array every reader of which takes it as an operand named shape; "" for other ops.
func shapeConstant(op *ir.Op) string {
	switch op.Name() {
	case "pd_op.full":
		return "shape"
	case "pd_op.full_int_array":
	default:
		return ""
	}
	r := op.Result(0)
	if !r.HasUses() {
		return ""
	}
	for u := range r.Uses() {
		s := u.Owner().Schema()
		if s == nil || u.Index() >= len(s.Operands) || s.Operands[u.Index()].Name != "shape" {
			return ""
		}
	}
	return "value"
}
