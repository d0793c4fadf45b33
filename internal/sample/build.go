package sample

import (
	"fmt"

	"github.com/pirdrr/drr/ir"
)

// Build constructs the sample model in ctx (which must have the default dialects): TinyResNet, a small image
// classifier shaped like the models Paddle 3.x exports for inference.
//
//	x[-1,3,32,32] → conv3x3(16) → batch_norm_ → relu
//	  → [conv3x3(16) → batch_norm_ → relu_ → conv3x3(16) → batch_norm_] + skip → relu
//	  → depthwise3x3 → batch_norm_ → relu6 → conv1x1(32) → batch_norm_ → hardswish
//	  → global avg pool2d → flatten → matmul(32×10) + bias → softmax → fetch
//
// Every batch norm is in inference mode (is_test, use_global_stats), so the convolution–batch-norm chains fold;
// the relu_ after the second batch norm is the inplace op of seed 000 §2.5.2, so the chain fuses only after it is
// de-inplaced.
func Build(ctx *ir.Context) (*ir.Program, error) {
	g := &gen{ctx: ctx, p: ir.NewProgram(ctx)}
	g.b = ir.NewBuilder(ctx)
	g.b.SetInsertionPointToEnd(g.p.Body())
	f32 := ctx.Scalar(ir.DTypeFloat32)

	// Parameters first, as Paddle writes them.
	type convW struct {
		name       string
		out, in, k int64
	}
	convs := []convW{{"conv1", 16, 3, 3}, {"block1_conv1", 16, 16, 3}, {"block1_conv2", 16, 16, 3}, {"dw", 16, 1, 3}, {"pw", 32, 16, 1}}
	w := map[string]*ir.Value{}
	for _, c := range convs {
		w[c.name] = g.param(c.name+".w_0", ctx.Tensor(ir.DenseTensor, []int64{c.out, c.in, c.k, c.k}, f32))
	}
	bnParams := map[string][4]*ir.Value{}
	for _, bn := range []struct {
		name string
		c    int64
	}{{"bn1", 16}, {"block1_bn1", 16}, {"block1_bn2", 16}, {"dw_bn", 16}, {"pw_bn", 32}} {
		t := ctx.Tensor(ir.DenseTensor, []int64{bn.c}, f32)
		bnParams[bn.name] = [4]*ir.Value{
			g.param(bn.name+".w_1", t), // mean
			g.param(bn.name+".w_2", t), // variance
			g.param(bn.name+".w_0", t), // scale
			g.param(bn.name+".b_0", t), // bias
		}
	}
	fcW := g.param("fc.w_0", ctx.Tensor(ir.DenseTensor, []int64{32, 10}, f32))
	fcB := g.param("fc.b_0", ctx.Tensor(ir.DenseTensor, []int64{10}, f32))

	x := g.op("pd_op.data", nil, attrs(
		"name", ctx.Str("x"), "shape", ctx.IntArray([]int64{-1, 3, 32, 32}), "dtype", ctx.DataType(ir.DTypeFloat32),
		"place", ctx.Place(ir.Place{Type: ir.PlaceUndefined}), "stop_gradient", ctx.Bools(true)))

	conv := func(name string, in *ir.Value, op string, groups int64, pad int64) *ir.Value {
		a := attrs("strides", ctx.Int32s(1, 1), "paddings", ctx.Int32s(pad, pad), "padding_algorithm", ctx.Str("EXPLICIT"),
			"dilations", ctx.Int32s(1, 1), "groups", ctx.Int32(int32(groups)), "data_format", ctx.Str("NCHW"), "stop_gradient", ctx.Bools(false))
		return g.op(op, []*ir.Value{in, w[name]}, a)
	}
	bn := func(name string, in *ir.Value) *ir.Value {
		p := bnParams[name]
		a := attrs("is_test", ctx.Bool(true), "momentum", ctx.Float(0.9), "epsilon", ctx.Float(1e-5),
			"data_format", ctx.Str("NCHW"), "use_global_stats", ctx.Bool(true), "trainable_statistics", ctx.Bool(false),
			"stop_gradient", ctx.Bools(false, true, true, true, true, true))
		return g.op("pd_op.batch_norm_", []*ir.Value{in, p[0], p[1], p[2], p[3]}, a)
	}
	unary := func(name string, in *ir.Value) *ir.Value {
		return g.op(name, []*ir.Value{in}, attrs("stop_gradient", ctx.Bools(false)))
	}

	h := unary("pd_op.relu", bn("bn1", conv("conv1", x, "pd_op.conv2d", 1, 1)))
	skip := h
	h = unary("pd_op.relu_", bn("block1_bn1", conv("block1_conv1", h, "pd_op.conv2d", 1, 1)))
	h = bn("block1_bn2", conv("block1_conv2", h, "pd_op.conv2d", 1, 1))
	h = g.op("pd_op.add", []*ir.Value{h, skip}, attrs("stop_gradient", ctx.Bools(false)))
	h = unary("pd_op.relu", h)
	h = unary("pd_op.relu6", bn("dw_bn", conv("dw", h, "pd_op.depthwise_conv2d", 16, 1)))
	h = unary("pd_op.hardswish", bn("pw_bn", conv("pw", h, "pd_op.conv2d", 1, 0)))

	k := g.op("pd_op.full_int_array", nil, attrs("value", ctx.Int64s(1, 1), "dtype", ctx.DataType(ir.DTypeInt64),
		"place", ctx.Place(ir.Place{Type: ir.PlaceCPU}), "stop_gradient", ctx.Bools(true)))
	h = g.op("pd_op.pool2d", []*ir.Value{h, k}, attrs("strides", ctx.Int32s(1, 1), "paddings", ctx.Int32s(0, 0),
		"ceil_mode", ctx.Bool(false), "exclusive", ctx.Bool(true), "data_format", ctx.Str("NCHW"), "pooling_type", ctx.Str("avg"),
		"global_pooling", ctx.Bool(true), "adaptive", ctx.Bool(false), "padding_algorithm", ctx.Str("EXPLICIT"), "stop_gradient", ctx.Bools(false)))
	h = g.op("pd_op.flatten", []*ir.Value{h}, attrs("start_axis", ctx.Int32(1), "stop_axis", ctx.Int32(3), "stop_gradient", ctx.Bools(false)))
	h = g.op("pd_op.matmul", []*ir.Value{h, fcW}, attrs("transpose_x", ctx.Bool(false), "transpose_y", ctx.Bool(false), "stop_gradient", ctx.Bools(false)))
	h = g.op("pd_op.add", []*ir.Value{h, fcB}, attrs("stop_gradient", ctx.Bools(false)))
	h = g.op("pd_op.softmax", []*ir.Value{h}, attrs("axis", ctx.Int32(-1), "stop_gradient", ctx.Bools(false)))
	g.op("pd_op.fetch", []*ir.Value{h}, attrs("name", ctx.Str("probs"), "col", ctx.Int32(0), "persistable", ctx.Bools(true), "stop_gradient", ctx.Bools(false)))
	if g.err != nil {
		return nil, g.err
	}
	g.p.CollectParams()
	if errs := ir.Verify(g.p).Errors(); len(errs) > 0 {
		return nil, errs
	}
	return g.p, nil
}

type gen struct {
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

func (g *gen) param(name string, t ir.Type) *ir.Value {
	c := g.ctx
	op := g.b.Create(ir.OpSpec{Name: ir.ParameterOpName, Results: []ir.Type{t}, Attrs: attrs(
		"is_distributed", c.Bools(false), "is_parameter", c.Bools(true), "need_clip", c.Bools(true),
		"parameter_name", c.Str(name), "persistable", c.Bools(true), "stop_gradient", c.Bools(false), "trainable", c.Bools(true))})
	return op.Result(0)
}

// op creates an op, its result types from its schema's type rule.
func (g *gen) op(name string, operands []*ir.Value, a []ir.NamedAttr) *ir.Value {
	if g.err != nil {
		return nil
	}
	types, err := g.ctx.InferResultTypes(g.ctx.Schema(name), operands, a)
	if err != nil {
		g.err = fmt.Errorf("sample: %v", err)
		return nil
	}
	op := g.b.Create(ir.OpSpec{Name: name, Operands: operands, Results: types, Attrs: a})
	if op.NumResults() == 0 {
		return nil
	}
	return op.Result(0)
}
