package playground

import (
	"fmt"

	"github.com/pirdrr/drr/ir"
)

// The transformer sample's dimensions: a sequence of 16 tokens of 64 features, 4 attention heads, a feed-forward
// block of 4×64.
const (
	tfSeq    = 16
	tfHidden = 64
	tfHeads  = 4
	tfFFN    = 256
)

// buildTransformer builds TinyTransformer with the given number of encoder layers (the sample has 2; the load
// test uses 60, about 3,000 ops): x[-1,16,64] → layers → layer norm → mean over the sequence → fetch. Each layer
// is pre-norm attention and feed-forward with residual adds, as BERT-like models are exported:
//
//	h = ln(x); q, k, v = h·Wq + bq, …; heads = reshape [0,16,4,16] → transpose [0,2,1,3]
//	a = softmax(scale(q·kᵀ, 1/4)) · v → transpose back → reshape [0,16,64] → ·Wo + bo; x += a
//	h = ln(x); x += gelu(h·W1 + b1)·W2 + b2
//
// The layer norms are decomposed into mean, subtract, multiply, rsqrt as Paddle's primitive decomposition writes
// them, so that every op runs in the reference interpreter.
func buildTransformer(ctx *ir.Context, layers int) (*ir.Program, error) {
	g := &builder{ctx: ctx, p: ir.NewProgram(ctx)}
	g.b = ir.NewBuilder(ctx)
	g.b.SetInsertionPointToEnd(g.p.Body())
	f32 := ctx.Scalar(ir.DTypeFloat32)
	tensor := func(dims ...int64) ir.Type { return ctx.Tensor(ir.DenseTensor, dims, f32) }

	type layerParams struct{ ln1g, ln1b, wq, bq, wk, bk, wv, bv, wo, bo, ln2g, ln2b, w1, b1, w2, b2 *ir.Value }
	params := make([]layerParams, layers)
	for i := range params {
		n := func(s string) string { return fmt.Sprintf("encoder.%d.%s", i, s) }
		lp := &params[i]
		lp.ln1g, lp.ln1b = g.param(n("ln1.w_0"), tensor(tfHidden)), g.param(n("ln1.b_0"), tensor(tfHidden))
		lp.wq, lp.bq = g.param(n("q.w_0"), tensor(tfHidden, tfHidden)), g.param(n("q.b_0"), tensor(tfHidden))
		lp.wk, lp.bk = g.param(n("k.w_0"), tensor(tfHidden, tfHidden)), g.param(n("k.b_0"), tensor(tfHidden))
		lp.wv, lp.bv = g.param(n("v.w_0"), tensor(tfHidden, tfHidden)), g.param(n("v.b_0"), tensor(tfHidden))
		lp.wo, lp.bo = g.param(n("out.w_0"), tensor(tfHidden, tfHidden)), g.param(n("out.b_0"), tensor(tfHidden))
		lp.ln2g, lp.ln2b = g.param(n("ln2.w_0"), tensor(tfHidden)), g.param(n("ln2.b_0"), tensor(tfHidden))
		lp.w1, lp.b1 = g.param(n("ffn1.w_0"), tensor(tfHidden, tfFFN)), g.param(n("ffn1.b_0"), tensor(tfFFN))
		lp.w2, lp.b2 = g.param(n("ffn2.w_0"), tensor(tfFFN, tfHidden)), g.param(n("ffn2.b_0"), tensor(tfHidden))
	}
	lnfG, lnfB := g.param("final_ln.w_0", tensor(tfHidden)), g.param("final_ln.b_0", tensor(tfHidden))

	sg := func(n int) ir.Attribute {
		bs := make([]bool, n)
		return ctx.Bools(bs...)
	}
	x := g.op("pd_op.data", nil, attrs(
		"name", ctx.Str("x"), "shape", ctx.IntArray([]int64{-1, tfSeq, tfHidden}), "dtype", ctx.DataType(ir.DTypeFloat32),
		"place", ctx.Place(ir.Place{Type: ir.PlaceUndefined}), "stop_gradient", ctx.Bools(true)))
	ints := func(v ...int64) *ir.Value {
		return g.op("pd_op.full_int_array", nil, attrs("value", ctx.Int64s(v...), "dtype", ctx.DataType(ir.DTypeInt64),
			"place", ctx.Place(ir.Place{Type: ir.PlaceCPU}), "stop_gradient", ctx.Bools(true)))
	}
	binary := func(name string, a, b *ir.Value) *ir.Value {
		return g.op(name, []*ir.Value{a, b}, attrs("stop_gradient", sg(1)))
	}
	linear := func(h, w, b *ir.Value) *ir.Value {
		m := g.op("pd_op.matmul", []*ir.Value{h, w}, attrs("transpose_x", ctx.Bool(false), "transpose_y", ctx.Bool(false), "stop_gradient", sg(1)))
		return binary("pd_op.add", m, b)
	}
	// layerNorm over the last axis, decomposed: (x − mean) · rsqrt(var + eps) · γ + β.
	layerNorm := func(x, gamma, beta *ir.Value) *ir.Value {
		mean := func(v *ir.Value) *ir.Value {
			return g.op("pd_op.mean", []*ir.Value{v, ints(-1)}, attrs("keepdim", ctx.Bool(true), "stop_gradient", sg(1)))
		}
		d := binary("pd_op.subtract", x, mean(x))
		v := mean(binary("pd_op.multiply", d, d))
		eps := g.op("pd_op.full", nil, attrs("shape", ctx.IntArray([]int64{1}), "value", ctx.Double(1e-5),
			"dtype", ctx.DataType(ir.DTypeFloat32), "place", ctx.Place(ir.Place{Type: ir.PlaceCPU}), "stop_gradient", ctx.Bools(true)))
		r := g.op("pd_op.rsqrt", []*ir.Value{binary("pd_op.add", v, eps)}, attrs("stop_gradient", sg(1)))
		return binary("pd_op.add", binary("pd_op.multiply", binary("pd_op.multiply", d, r), gamma), beta)
	}
	heads := func(v *ir.Value) *ir.Value {
		r := g.op("pd_op.reshape", []*ir.Value{v, ints(0, tfSeq, tfHeads, tfHidden/tfHeads)}, attrs("stop_gradient", sg(1)))
		return g.op("pd_op.transpose", []*ir.Value{r}, attrs("perm", ctx.Int32s(0, 2, 1, 3), "stop_gradient", sg(1)))
	}
	for _, lp := range params {
		h := layerNorm(x, lp.ln1g, lp.ln1b)
		q, k, v := heads(linear(h, lp.wq, lp.bq)), heads(linear(h, lp.wk, lp.bk)), heads(linear(h, lp.wv, lp.bv))
		s := g.op("pd_op.matmul", []*ir.Value{q, k}, attrs("transpose_x", ctx.Bool(false), "transpose_y", ctx.Bool(true), "stop_gradient", sg(1)))
		scale := g.op("pd_op.full", nil, attrs("shape", ctx.IntArray([]int64{1}), "value", ctx.Double(0.25),
			"dtype", ctx.DataType(ir.DTypeFloat32), "place", ctx.Place(ir.Place{Type: ir.PlaceCPU}), "stop_gradient", ctx.Bools(true)))
		s = g.op("pd_op.scale", []*ir.Value{s, scale}, attrs("bias", ctx.Float(0), "bias_after_scale", ctx.Bool(true), "stop_gradient", sg(1)))
		p := g.op("pd_op.softmax", []*ir.Value{s}, attrs("axis", ctx.Int32(-1), "stop_gradient", sg(1)))
		a := g.op("pd_op.matmul", []*ir.Value{p, v}, attrs("transpose_x", ctx.Bool(false), "transpose_y", ctx.Bool(false), "stop_gradient", sg(1)))
		a = g.op("pd_op.transpose", []*ir.Value{a}, attrs("perm", ctx.Int32s(0, 2, 1, 3), "stop_gradient", sg(1)))
		a = g.op("pd_op.reshape", []*ir.Value{a, ints(0, tfSeq, tfHidden)}, attrs("stop_gradient", sg(1)))
		x = binary("pd_op.add", x, linear(a, lp.wo, lp.bo))
		h = layerNorm(x, lp.ln2g, lp.ln2b)
		f := g.op("pd_op.gelu", []*ir.Value{linear(h, lp.w1, lp.b1)}, attrs("approximate", ctx.Bool(false), "stop_gradient", sg(1)))
		x = binary("pd_op.add", x, linear(f, lp.w2, lp.b2))
	}
	x = layerNorm(x, lnfG, lnfB)
	x = g.op("pd_op.mean", []*ir.Value{x, ints(1)}, attrs("keepdim", ctx.Bool(false), "stop_gradient", sg(1)))
	g.op("pd_op.fetch", []*ir.Value{x}, attrs("name", ctx.Str("pooled"), "col", ctx.Int32(0), "persistable", ctx.Bools(true), "stop_gradient", sg(1)))
	if g.err != nil {
		return nil, g.err
	}
	g.p.File = "tinytransformer"
	g.p.CollectParams()
	if errs := ir.Verify(g.p).Errors(); len(errs) > 0 {
		return nil, errs
	}
	return g.p, nil
}

// builder writes a program op by op, with result types from the schemas' type rules.
type builder struct {
	ctx *ir.Context
	p   *ir.Program
	b   *ir.Builder
	err error
}

func attrs(kv ...any) []ir.NamedAttr {
	out := make([]ir.NamedAttr, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, ir.NamedAttr{Name: kv[i].(string), Value: kv[i+1].(ir.Attribute)})
	}
	return out
}

// param declares a parameter as Paddle does (builtin.parameter), before the ops that use it.
func (g *builder) param(name string, t ir.Type) *ir.Value {
	c := g.ctx
	op := g.b.Create(ir.OpSpec{Name: ir.ParameterOpName, Results: []ir.Type{t}, Attrs: attrs(
		"is_distributed", c.Bools(false), "is_parameter", c.Bools(true), "need_clip", c.Bools(true),
		"parameter_name", c.Str(name), "persistable", c.Bools(true), "stop_gradient", c.Bools(false), "trainable", c.Bools(true))})
	return op.Result(0)
}

// op creates an op and returns its first result (nil for an op without results, or after an error).
func (g *builder) op(name string, operands []*ir.Value, a []ir.NamedAttr) *ir.Value {
	if g.err != nil {
		return nil
	}
	types, err := g.ctx.InferResultTypes(g.ctx.Schema(name), operands, a)
	if err != nil {
		g.err = fmt.Errorf("sample %s: %v", name, err)
		return nil
	}
	op := g.b.Create(ir.OpSpec{Name: name, Operands: operands, Results: types, Attrs: a})
	if op.NumResults() == 0 {
		return nil
	}
	return op.Result(0)
}
