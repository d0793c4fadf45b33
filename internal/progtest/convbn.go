package progtest

import (
	"testing"

	"github.com/pirdrr/drr/ir"
)

// The conv2d → batch_norm_ fold of Paddle's conv2d_bn_fuse_pass, written by hand as the ops a rule builds, and
// deliberately wrong versions of it: programs whose comparison must pass or fail.

// ConvBNChannels is the output channel count of the conv+batch-norm programs.
const ConvBNChannels = 8

// FoldVariant chooses a correct or a deliberately wrong conv+batch-norm fold (ConvBNFolded).
type FoldVariant int

const (
	// FoldCorrect is the correct fold.
	FoldCorrect FoldVariant = iota
	// FoldNoSqrt divides by var instead of sqrt(var + ε).
	FoldNoSqrt
	// FoldBiasAxis1 is Paddle's NHWC flaw: the bias reshaped to [1, C, 1, 1] whatever the layout.
	FoldBiasAxis1
)

// ConvBNInput returns the input dims of the test programs: NCHW [-1, 3, 10, 10]; NHWC [-1, 8, 8, 3] (H = C_out, so
// that the misplaced bias of Paddle's NHWC flaw still broadcasts and the error shows in the numbers).
func ConvBNInput(format string) []int64 {
	if format == "NHWC" {
		return []int64{-1, ConvBNChannels, ConvBNChannels, 3}
	}
	return []int64{-1, 3, 10, 10}
}

// ConvAttrs are the attributes of the programs' 3×3 convolution (stride 1, padding 1) in the given layout.
func ConvAttrs(b *Builder, format string) []ir.NamedAttr {
	return []ir.NamedAttr{Attr("strides", b.I32s(1, 1)), Attr("paddings", b.I32s(1, 1)),
		Attr("padding_algorithm", b.Ctx.Str("EXPLICIT")), Attr("dilations", b.I32s(1, 1)),
		Attr("groups", b.Ctx.Int32(1)), Attr("data_format", b.Ctx.Str(format))}
}

// ConvBN builds x → conv2d → batch_norm_ → relu → fetch.
func ConvBN(t testing.TB, format string, isTest bool) *ir.Program {
	b := New(t)
	x := b.Data("x", ConvBNInput(format)...)
	w := b.Param("conv.w", ConvBNChannels, 3, 3, 3)
	conv := b.VA("pd_op.conv2d", []*ir.Value{x, w}, ConvAttrs(b, format)...)
	mean, vr := b.Param("bn.mean", ConvBNChannels), b.Param("bn.var", ConvBNChannels)
	scale, bias := b.Param("bn.scale", ConvBNChannels), b.Param("bn.bias", ConvBNChannels)
	bn := b.Op("pd_op.batch_norm_", []*ir.Value{conv, mean, vr, scale, bias},
		Attr("is_test", b.Ctx.Bool(isTest)), Attr("momentum", b.Ctx.Float(0.9)), Attr("epsilon", b.Ctx.Float(1e-5)),
		Attr("data_format", b.Ctx.Str(format)), Attr("use_global_stats", b.Ctx.Bool(false)),
		Attr("trainable_statistics", b.Ctx.Bool(false)))
	b.Fetch(b.V("pd_op.relu", bn.Result(0)), "out", 0)
	return b.P
}

// ConvBNFolded builds the rewritten program: w' = w·s with s = scale/sqrt(var+ε) per output channel,
// b' = bias − mean·s, out = conv2d(x, w') + reshape(b'), as ops on the parameters.
func ConvBNFolded(t testing.TB, format string, v FoldVariant) *ir.Program {
	b := New(t)
	x := b.Data("x", ConvBNInput(format)...)
	w := b.Param("conv.w", ConvBNChannels, 3, 3, 3)
	mean, vr := b.Param("bn.mean", ConvBNChannels), b.Param("bn.var", ConvBNChannels)
	scale, bias := b.Param("bn.scale", ConvBNChannels), b.Param("bn.bias", ConvBNChannels)
	eps := b.Full([]int64{1}, float64(float32(1e-5)))
	std := b.V("pd_op.sqrt", b.V("pd_op.add", vr, eps))
	if v == FoldNoSqrt {
		std = vr
	}
	s := b.V("pd_op.divide", scale, std)
	w2 := b.V("pd_op.multiply", w, b.V("pd_op.reshape", s, b.Ints(ConvBNChannels, 1, 1, 1)))
	conv := b.VA("pd_op.conv2d", []*ir.Value{x, w2}, ConvAttrs(b, format)...)
	bias2 := b.V("pd_op.subtract", bias, b.V("pd_op.multiply", mean, s))
	shape := []int64{1, ConvBNChannels, 1, 1}
	if format == "NHWC" && v != FoldBiasAxis1 {
		shape = []int64{1, 1, 1, ConvBNChannels}
	}
	out := b.V("pd_op.add", conv, b.V("pd_op.reshape", bias2, b.Ints(shape...)))
	b.Fetch(b.V("pd_op.relu", out), "out", 0)
	return b.P
}
