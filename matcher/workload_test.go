package matcher

import (
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// The benchmark workload of ../shared/bench/gen.py, translated: a deterministic CNN-like program of n blocks
// (conv2d→batch_norm→relu chains, conv2d→batch_norm, conv2d→relu, to_vtensor/to_tensor round trips, inplace ops,
// and negative cases), over unregistered pd_op ops, drawn with the same 64-bit LCG so that the block sequence is
// gen.py's.

type lcg struct{ s uint64 }

func (l *lcg) draw(n uint64) uint64 {
	l.s = l.s*6364136223846793005 + 1442695040888963407
	return (l.s >> 32) % n
}

var benchKinds = []struct {
	kind   string
	weight uint64
}{{"cbr", 13}, {"cb", 3}, {"cr", 3}, {"tv", 2}, {"vt", 1}, {"relu_", 2}, {"sigmoid_", 1}, {"scale_", 1},
	{"add_", 1}, {"neg_conv2uses", 1}, {"neg_nhwc", 1}, {"bn2uses", 1}, {"neg_tanh_", 1}, {"tv_shared", 1}}

// benchProgram builds gen.py's program of n blocks with the given seed (gen.py's default is 1).
func benchProgram(ctx *ir.Context, n int, seed uint64) *ir.Program {
	f32 := ctx.Scalar(ir.DTypeFloat32)
	act := ctx.Tensor(ir.DenseTensor, []int64{1, 64, 56, 56}, f32)
	wgt := ctx.Tensor(ir.DenseTensor, []int64{64, 64, 3, 3}, f32)
	vec := ctx.Tensor(ir.DenseTensor, []int64{64}, f32)
	shp := ctx.Tensor(ir.DenseTensor, []int64{4}, ctx.Scalar(ir.DTypeInt64))
	p := ir.NewProgram(ctx)
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(p.Body())
	op := func(name string, operands []*ir.Value, attrs []ir.NamedAttr, t ir.Type) *ir.Value {
		return b.Create(ir.OpSpec{Name: name, Operands: operands, Attrs: attrs, Results: []ir.Type{t}}).Result(0)
	}
	ones := ctx.Int32s(1, 1)
	convAttrs := func(fmt string) []ir.NamedAttr {
		return []ir.NamedAttr{{Name: "data_format", Value: ctx.Str(fmt)}, {Name: "dilations", Value: ones},
			{Name: "groups", Value: ctx.Int32(1)}, {Name: "paddings", Value: ones}, {Name: "strides", Value: ones}}
	}
	bnAttrs := func(fmt string) []ir.NamedAttr {
		return []ir.NamedAttr{{Name: "data_format", Value: ctx.Str(fmt)}, {Name: "epsilon", Value: ctx.Float(1e-05)},
			{Name: "is_test", Value: ctx.Bool(true)}, {Name: "momentum", Value: ctx.Float(0.9)}}
	}
	h := op("pd_op.data", nil, []ir.NamedAttr{{Name: "name", Value: ctx.Str("x")}}, act)
	var bnParams []*ir.Value
	for _, s := range []string{"mean", "var", "scale", "bias"} {
		bnParams = append(bnParams, op(ir.ParameterOpName, nil,
			[]ir.NamedAttr{{Name: "parameter_name", Value: ctx.Str("bn." + s)}}, vec))
	}
	weight := func(i int) *ir.Value {
		return op(ir.ParameterOpName, nil, []ir.NamedAttr{{Name: "parameter_name", Value: ctx.Str("conv" +
			itoa(i) + ".w_0")}}, wgt)
	}
	conv := func(x, w *ir.Value, fmt string) *ir.Value {
		return op("pd_op.conv2d", []*ir.Value{x, w}, convAttrs(fmt), act)
	}
	bn := func(x *ir.Value, fmt string) *ir.Value {
		return op("pd_op.batch_norm", append([]*ir.Value{x}, bnParams...), bnAttrs(fmt), act)
	}
	skip := h
	exposed := false
	rng := &lcg{s: seed}
	var total uint64
	for _, k := range benchKinds {
		total += k.weight
	}
	for i := 0; i < n; i++ {
		r := rng.draw(total)
		kind := ""
		for _, k := range benchKinds {
			if r < k.weight {
				kind = k.kind
				break
			}
			r -= k.weight
		}
		if kind == "tv_shared" && exposed {
			kind = "tv"
		}
		exposed = exposed && (kind == "tv" || kind == "vt")
		switch kind {
		case "cbr":
			skip = h
			h = op("pd_op.relu", []*ir.Value{bn(conv(h, weight(i), "NCHW"), "NCHW")}, nil, act)
		case "cb":
			h = bn(conv(h, weight(i), "NCHW"), "NCHW")
		case "cr":
			h = op("pd_op.relu", []*ir.Value{conv(h, weight(i), "NCHW")}, nil, act)
		case "tv", "vt", "tv_shared":
			first, second := "pd_op.to_vtensor", "pd_op.to_tensor"
			if kind == "vt" {
				first, second = second, first
			}
			inner := op(first, []*ir.Value{h}, nil, act)
			h = op(second, []*ir.Value{inner}, nil, act)
			if kind == "tv_shared" {
				op("pd_op.shape", []*ir.Value{inner}, nil, shp)
				exposed = true
			}
		case "relu_", "sigmoid_", "scale_", "add_":
			var attrs []ir.NamedAttr
			if kind == "scale_" {
				attrs = []ir.NamedAttr{{Name: "bias", Value: ctx.Float(0)}, {Name: "bias_after_scale",
					Value: ctx.Bool(true)}, {Name: "scale", Value: ctx.Float(2)}}
			}
			operands := []*ir.Value{h}
			if kind == "add_" {
				operands = append(operands, skip)
			}
			h = op("pd_op."+kind, operands, attrs, act)
		case "neg_conv2uses":
			c := conv(h, weight(i), "NCHW")
			h = op("pd_op.add", []*ir.Value{op("pd_op.relu", []*ir.Value{bn(c, "NCHW")}, nil, act), c}, nil, act)
		case "bn2uses":
			bv := bn(conv(h, weight(i), "NCHW"), "NCHW")
			h = op("pd_op.add", []*ir.Value{op("pd_op.relu", []*ir.Value{bv}, nil, act), bv}, nil, act)
		case "neg_nhwc":
			h = op("pd_op.relu", []*ir.Value{bn(conv(h, weight(i), "NHWC"), "NHWC")}, nil, act)
		case "neg_tanh_":
			h = op("pd_op.tanh_", []*ir.Value{h}, nil, act)
		}
	}
	b.Create(ir.OpSpec{Name: "pd_op.fetch", Operands: []*ir.Value{h},
		Attrs: []ir.NamedAttr{{Name: "name", Value: ctx.Str("out")}}})
	return p
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var buf [20]byte
	n := len(buf)
	for ; i > 0; i /= 10 {
		n--
		buf[n] = byte('0' + i%10)
	}
	return string(buf[n:])
}

// benchRules are the 12 rules of ../shared/bench/patterns.pdll. HasOneUse(v) becomes the default closure plus an
// explicit uses(%v) == 1 constraint; rules without it mark the intermediate Shared, as PDL does not close over
// uses.
func benchRules(ctx *ir.Context) []*rule.Rule {
	nchw := ctx.Str("NCHW")
	conv := func(b *rule.Builder) {
		b.Op("pd_op.conv2d", "%x", "%w").Label("conv").Attr("data_format", nchw).Attr("strides", "$st").
			Attr("paddings", "$pa").Attr("dilations", "$di").Attr("groups", "$gr").Results("%c")
	}
	var rules []*rule.Rule

	b := rule.NewBuilder(ctx, "ConvBnRelu").Benefit(3)
	b.File = "patterns.drr"
	conv(b)
	b.Op("pd_op.batch_norm", "%c", "%mean", "%var", "%scale", "%bias").Label("bn").Attr("data_format", nchw).
		Attr("epsilon", "$eps").Results("%b")
	b.Op("pd_op.relu", "%b").Label("root").Results("%t")
	b.Where(rule.Bin("==", b.Uses("%c"), rule.Int(1)), rule.Bin("==", b.Uses("%b"), rule.Int(1)))
	rules = append(rules, b.MustBuild())

	b = rule.NewBuilder(ctx, "ConvBn").Benefit(2)
	b.File = "patterns.drr"
	conv(b)
	b.Op("pd_op.batch_norm", "%c", "%mean", "%var", "%scale", "%bias").Label("root").Attr("data_format", nchw).
		Attr("epsilon", "$eps").Results("%t")
	b.Where(rule.Bin("==", b.Uses("%c"), rule.Int(1)))
	rules = append(rules, b.MustBuild())

	b = rule.NewBuilder(ctx, "ConvRelu").Benefit(2)
	b.File = "patterns.drr"
	conv(b)
	b.Op("pd_op.relu", "%c").Label("root").Results("%t")
	b.Where(rule.Bin("==", b.Uses("%c"), rule.Int(1)))
	rules = append(rules, b.MustBuild())

	b = rule.NewBuilder(ctx, "FusedConvBnRelu").Benefit(2)
	b.File = "patterns.drr"
	b.Op("pd_op.fused_conv2d_bn", "%x", "%w", "%mean", "%var", "%scale", "%bias").Label("cb").
		Attr("data_format", "$df").Attr("strides", "$st").Attr("paddings", "$pa").Attr("dilations", "$di").
		Attr("groups", "$gr").Attr("epsilon", "$eps").Results("%c")
	b.Op("pd_op.relu", "%c").Label("root").Results("%t")
	b.Where(rule.Bin("==", b.Uses("%c"), rule.Int(1)))
	rules = append(rules, b.MustBuild())

	roundTrip := func(name, inner, outer string, benefit int, oneUse bool) *rule.Rule {
		b := rule.NewBuilder(ctx, name).Benefit(benefit)
		b.File = "patterns.drr"
		b.Op(inner, "%x").Label("inner").Results("%i")
		b.Op(outer, "%i").Label("root").Results("%o")
		if oneUse {
			b.Where(rule.Bin("==", b.Uses("%i"), rule.Int(1)))
		} else {
			b.Shared("%i")
		}
		return b.MustBuild()
	}
	rules = append(rules,
		roundTrip("ToTensorOfToVTensor", "pd_op.to_vtensor", "pd_op.to_tensor", 2, true),
		roundTrip("ToTensorOfSharedToVTensor", "pd_op.to_vtensor", "pd_op.to_tensor", 1, false),
		roundTrip("ToVTensorOfToTensor", "pd_op.to_tensor", "pd_op.to_vtensor", 2, true),
		roundTrip("ToVTensorOfSharedToTensor", "pd_op.to_tensor", "pd_op.to_vtensor", 1, false))

	inplace := func(name, op string, operands ...any) *rule.Rule {
		b := rule.NewBuilder(ctx, name)
		b.File = "patterns.drr"
		b.Op(op, operands...).Label("root").Results("%t")
		return b.MustBuild()
	}
	rules = append(rules, inplace("ReluInplace", "pd_op.relu_", "%x"), inplace("SigmoidInplace", "pd_op.sigmoid_", "%x"),
		inplace("AddInplace", "pd_op.add_", "%x", "%y"))
	b = rule.NewBuilder(ctx, "ScaleInplace")
	b.File = "patterns.drr"
	b.Op("pd_op.scale_", "%x").Label("root").Attr("scale", "$s").Attr("bias", "$b").Attr("bias_after_scale", "$a").
		Results("%t")
	rules = append(rules, b.MustBuild())
	return rules
}

// scalingRules returns n rules rooted at pd_op.relu, pd_op.batch_norm and pd_op.conv2d (in turn), each with a
// distinct literal attribute deep in its pattern; only the first rule of each shape uses the workload's actual
// value, so few rules apply.
func scalingRules(ctx *ir.Context, n int) []*rule.Rule {
	nchw := ctx.Str("NCHW")
	var rules []*rule.Rule
	for i := 0; i < n; i++ {
		groups := ctx.Int32(int32(1000 + i))
		if i < 3 {
			groups = ctx.Int32(1)
		}
		b := rule.NewBuilder(ctx, "scale"+itoa(i)).Benefit(1 + i%3)
		switch i % 3 {
		case 0: // relu(batch_norm(conv2d)) with a literal groups on the conv
			b.Op("pd_op.conv2d", "%x", "%w").Attr("data_format", nchw).Attr("groups", groups).Attr("strides", "$st").
				Results("%c")
			b.Op("pd_op.batch_norm", "%c", "%m", "%v", "%s", "%b").Attr("epsilon", "$eps").Results("%n")
			b.Op("pd_op.relu", "%n").Results("%t")
			b.Where(rule.Bin("==", b.Uses("%c"), rule.Int(1)))
		case 1: // batch_norm(conv2d) with a literal groups on the conv
			b.Op("pd_op.conv2d", "%x", "%w").Attr("groups", groups).Attr("paddings", "$pa").Results("%c")
			b.Op("pd_op.batch_norm", "%c", "%m", "%v", "%s", "%b").Attr("data_format", nchw).Results("%n")
		case 2: // conv2d with literal groups, reading a relu
			b.Op("pd_op.relu", "%x").Results("%r")
			b.Op("pd_op.conv2d", "%r", "%w").Attr("groups", groups).Results("%c")
			b.Shared("%r")
		}
		rules = append(rules, b.MustBuild())
	}
	return rules
}
