package interp_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
)

// resnet18 builds a ResNet-18-like inference program with ir.Builder: a 7×7/2 stem conv, batch_norm_, relu and a
// 3×3/2 max pool, four stages of two basic blocks (conv-bn-relu-conv-bn, plus a 1×1/2 conv-bn shortcut when the
// stage downsamples, residual add, relu), adaptive average pooling, flatten and a linear layer.
func resnet18(t testing.TB, spatial int64) *ir.Program {
	b := progtest.New(t)
	x := b.Data("x", -1, 3, spatial, spatial)
	n := 0
	convBNAct := func(in *ir.Value, cin, cout, k, stride int64, relu bool) *ir.Value {
		n++
		w := b.Param(fmt.Sprintf("conv%d.w", n), cout, cin, k, k)
		conv := b.VA("pd_op.conv2d", []*ir.Value{in, w}, progtest.Attr("strides", b.I32s(stride, stride)),
			progtest.Attr("paddings", b.I32s(k/2, k/2)), progtest.Attr("padding_algorithm", b.Ctx.Str("EXPLICIT")),
			progtest.Attr("dilations", b.I32s(1, 1)), progtest.Attr("groups", b.Ctx.Int32(1)), progtest.Attr("data_format", b.Ctx.Str("NCHW")))
		p := func(s string) *ir.Value { return b.Param(fmt.Sprintf("bn%d.%s", n, s), cout) }
		bn := b.Op("pd_op.batch_norm_", []*ir.Value{conv, p("mean"), p("var"), p("scale"), p("bias")},
			progtest.Attr("is_test", b.Ctx.Bool(true)), progtest.Attr("momentum", b.Ctx.Float(0.9)), progtest.Attr("epsilon", b.Ctx.Float(1e-5)),
			progtest.Attr("data_format", b.Ctx.Str("NCHW")), progtest.Attr("use_global_stats", b.Ctx.Bool(false)),
			progtest.Attr("trainable_statistics", b.Ctx.Bool(false)))
		out := bn.Result(0)
		if relu {
			out = b.V("pd_op.relu", out)
		}
		return out
	}
	pool := func(in *ir.Value, k []int64, typ string, stride, pad int64, adaptive bool) *ir.Value {
		return b.VA("pd_op.pool2d", []*ir.Value{in, b.Ints(k...)}, progtest.Attr("strides", b.I32s(stride, stride)),
			progtest.Attr("paddings", b.I32s(pad, pad)), progtest.Attr("ceil_mode", b.Ctx.Bool(false)), progtest.Attr("exclusive", b.Ctx.Bool(true)),
			progtest.Attr("data_format", b.Ctx.Str("NCHW")), progtest.Attr("pooling_type", b.Ctx.Str(typ)),
			progtest.Attr("global_pooling", b.Ctx.Bool(false)), progtest.Attr("adaptive", b.Ctx.Bool(adaptive)),
			progtest.Attr("padding_algorithm", b.Ctx.Str("EXPLICIT")))
	}
	h := convBNAct(x, 3, 64, 7, 2, true)
	h = pool(h, []int64{3, 3}, "max", 2, 1, false)
	cin := int64(64)
	for stage, cout := range []int64{64, 128, 256, 512} {
		for blk := range 2 {
			stride := int64(1)
			if stage > 0 && blk == 0 {
				stride = 2
			}
			short := h
			if stride != 1 || cin != cout {
				short = convBNAct(h, cin, cout, 1, stride, false)
			}
			y := convBNAct(h, cin, cout, 3, stride, true)
			y = convBNAct(y, cout, cout, 3, 1, false)
			h = b.V("pd_op.relu", b.V("pd_op.add", y, short))
			cin = cout
		}
	}
	h = pool(h, []int64{1, 1}, "avg", 1, 0, true)
	h = b.VA("pd_op.flatten", []*ir.Value{h}, progtest.Attr("start_axis", b.Ctx.Int32(1)), progtest.Attr("stop_axis", b.Ctx.Int32(3)))
	h = b.V("pd_op.matmul", h, b.Param("fc.w", 512, 10))
	b.Fetch(b.V("pd_op.add", h, b.Param("fc.b", 10)), "logits", 0)
	require.Empty(t, ir.Verify(b.P).Errors())
	return b.P
}

// foldAllConvBN rewrites every conv2d → batch_norm_ pair of p with the math of Paddle's conv2d_bn_fuse_pass, as a
// rule would: weight ops on the parameters, all changes through rw.
func foldAllConvBN(t testing.TB, p *ir.Program, rw *ir.Rewriter) int {
	var bns []*ir.Op
	for op := range p.Walk() {
		if op.Name() != "pd_op.batch_norm_" || op.Operand(0).DefiningOp() == nil {
			continue
		}
		if n := op.Operand(0).DefiningOp().Name(); n == "pd_op.conv2d" || n == "pd_op.depthwise_conv2d" {
			bns = append(bns, op)
		}
	}
	c := p.Ctx
	for _, bn := range bns {
		conv := bn.Operand(0).DefiningOp()
		rb := &progtest.Builder{T: t, Ctx: c, P: p, B: &rw.Builder}
		rw.SetInsertionPointBefore(bn)
		w := conv.Operand(1)
		cout := ir.TensorOf(w.Type()).Dims[0]
		eps, _ := ir.AsFloat(bn.Attr("epsilon"))
		s := rb.V("pd_op.divide", bn.Operand(3), rb.V("pd_op.sqrt", rb.V("pd_op.add", bn.Operand(2), rb.Full([]int64{1}, eps))))
		w2 := rb.V("pd_op.multiply", w, rb.V("pd_op.reshape", s, rb.Ints(cout, 1, 1, 1)))
		conv2 := rb.VA(conv.Name(), []*ir.Value{conv.Operand(0), w2}, conv.Attrs()...)
		b2 := rb.V("pd_op.subtract", bn.Operand(4), rb.V("pd_op.multiply", bn.Operand(1), s))
		out := rb.V("pd_op.add", conv2, rb.V("pd_op.reshape", b2, rb.Ints(1, cout, 1, 1)))
		rw.ReplaceAllUsesWith(bn.Result(0), out)
		require.NoError(t, rw.Erase(bn))
		require.NoError(t, rw.Erase(conv))
	}
	return len(bns)
}

func TestResNet18Performance(t *testing.T) {
	p := resnet18(t, 64)
	feed, err := feeds.Random(1, feeds.Options{}, p)
	require.NoError(t, err)
	for _, prec := range []interp.Precision{interp.Float64, interp.Float32} {
		// The best of three runs (wall time): the machine may be shared.
		d := time.Duration(1 << 62)
		var w progtest.Stopwatch
		runs := 3
		if progtest.RaceEnabled {
			runs = 1
		}
		for range runs {
			w = progtest.StartWatch()
			start := time.Now()
			res, err := interp.Evaluate(p, feed, interp.Options{Precision: prec})
			d = min(d, time.Since(start))
			require.NoError(t, err)
			require.Len(t, res.Outputs, 1)
			assert.Equal(t, []int{1, 10}, res.Outputs[0].Value.Shape)
		}
		t.Logf("ResNet-18-like, 1×3×64×64, %s: best %v wall (last run %v; %d ops)", prec, d, w, p.NumOps())
		if !progtest.RaceEnabled && !testing.Short() {
			assert.Less(t, d, 5*time.Second, "evaluation must take a few seconds at most")
		}
	}
}

func TestResNet18ConvBNFoldEndToEnd(t *testing.T) {
	progtest.Heavy(t)
	before := resnet18(t, 32)
	_, err := feeds.FillRandomWeights(before, 11, feeds.Options{})
	require.NoError(t, err)
	after := before.Clone()
	rw := ir.NewRewriter(after.Ctx, nil)
	assert.Equal(t, 20, foldAllConvBN(t, after, rw), "17 convs of the blocks and stem plus 3 shortcuts")
	require.Empty(t, ir.Verify(after).Errors())

	w := progtest.StartWatch()
	rep, err := compare.Programs(before, after, compare.Options{Runs: 2, Seed: 3})
	require.NoError(t, err, "%s", rep)
	t.Logf("rule-style fold: %s(compare: %v)", rep, w)
	assert.Less(t, rep.Outputs[0].MaxRel, 1e-10)

	// The same fold on a training-mode network changes its numbers.
	train := resnet18(t, 32)
	for op := range train.Walk() {
		if op.Name() == "pd_op.batch_norm_" {
			ir.NewRewriter(train.Ctx, nil).SetAttr(op, "is_test", train.Ctx.Bool(false))
		}
	}
	trainFolded := train.Clone()
	foldAllConvBN(t, trainFolded, ir.NewRewriter(trainFolded.Ctx, nil))
	_, err = compare.Programs(train, trainFolded, compare.Options{Runs: 1, Options: feeds.Options{Batch: 2}})
	require.ErrorIs(t, err, compare.ErrMismatch)
}

func BenchmarkResNet18x64(b *testing.B) {
	p := resnet18(b, 64)
	feed, err := feeds.Random(1, feeds.Options{}, p)
	require.NoError(b, err)
	for _, prec := range []interp.Precision{interp.Float64, interp.Float32} {
		b.Run(prec.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := interp.Evaluate(p, feed, interp.Options{Precision: prec}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
