package interp

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// The conv2d → batch_norm_ fold of Paddle's conv2d_bn_fuse_pass, written by hand as the ops a rule builds, and
// deliberately wrong versions of it.

const cout = 8

type foldVariant int

const (
	foldCorrect   foldVariant = iota
	foldNoSqrt                // scale / var instead of scale / sqrt(var + ε)
	foldBiasAxis1             // Paddle's NHWC flaw: the bias reshaped to [1, C, 1, 1] whatever the layout
)

// convBNInput returns the input dims of the test programs: NCHW [-1, 3, 10, 10]; NHWC [-1, 8, 8, 3] (H = C_out, so
// that the misplaced bias of Paddle's NHWC flaw still broadcasts and the error shows in the numbers).
func convBNInput(format string) []int64 {
	if format == "NHWC" {
		return []int64{-1, cout, cout, 3}
	}
	return []int64{-1, 3, 10, 10}
}

func convAttrs(b *builder, format string) []ir.NamedAttr {
	return []ir.NamedAttr{attr("strides", b.i32s(1, 1)), attr("paddings", b.i32s(1, 1)),
		attr("padding_algorithm", b.ctx.Str("EXPLICIT")), attr("dilations", b.i32s(1, 1)),
		attr("groups", b.ctx.Int32(1)), attr("data_format", b.ctx.Str(format))}
}

// convBN builds x → conv2d → batch_norm_ → relu → fetch.
func convBN(t *testing.T, format string, isTest bool) *ir.Program {
	b := newBuilder(t)
	x := b.data("x", convBNInput(format)...)
	w := b.param("conv.w", cout, 3, 3, 3)
	conv := b.va("pd_op.conv2d", []*ir.Value{x, w}, convAttrs(b, format)...)
	mean, vr := b.param("bn.mean", cout), b.param("bn.var", cout)
	scale, bias := b.param("bn.scale", cout), b.param("bn.bias", cout)
	bn := b.op("pd_op.batch_norm_", []*ir.Value{conv, mean, vr, scale, bias},
		attr("is_test", b.ctx.Bool(isTest)), attr("momentum", b.ctx.Float(0.9)), attr("epsilon", b.ctx.Float(1e-5)),
		attr("data_format", b.ctx.Str(format)), attr("use_global_stats", b.ctx.Bool(false)),
		attr("trainable_statistics", b.ctx.Bool(false)))
	b.fetch(b.v("pd_op.relu", bn.Result(0)), "out", 0)
	return b.p
}

// convBNFolded builds the rewritten program: w' = w·s with s = scale/sqrt(var+ε) per output channel,
// b' = bias − mean·s, out = conv2d(x, w') + reshape(b'), as ops on the parameters.
func convBNFolded(t *testing.T, format string, v foldVariant) *ir.Program {
	b := newBuilder(t)
	x := b.data("x", convBNInput(format)...)
	w := b.param("conv.w", cout, 3, 3, 3)
	mean, vr := b.param("bn.mean", cout), b.param("bn.var", cout)
	scale, bias := b.param("bn.scale", cout), b.param("bn.bias", cout)
	eps := b.full([]int64{1}, float64(float32(1e-5)))
	std := b.v("pd_op.sqrt", b.v("pd_op.add", vr, eps))
	if v == foldNoSqrt {
		std = vr
	}
	s := b.v("pd_op.divide", scale, std)
	w2 := b.v("pd_op.multiply", w, b.v("pd_op.reshape", s, b.ints(cout, 1, 1, 1)))
	conv := b.va("pd_op.conv2d", []*ir.Value{x, w2}, convAttrs(b, format)...)
	bias2 := b.v("pd_op.subtract", bias, b.v("pd_op.multiply", mean, s))
	shape := []int64{1, cout, 1, 1}
	if format == "NHWC" && v != foldBiasAxis1 {
		shape = []int64{1, 1, 1, cout}
	}
	out := b.v("pd_op.add", conv, b.v("pd_op.reshape", bias2, b.ints(shape...)))
	b.fetch(b.v("pd_op.relu", out), "out", 0)
	return b.p
}

func compareOpts() CompareOptions {
	return CompareOptions{Runs: 3, Seed: 7, Options: Options{Batch: 2}}
}

func TestConvBNFoldCaughtOrAccepted(t *testing.T) {
	tests := []struct {
		name    string
		format  string
		isTest  bool
		variant foldVariant
		ok      bool
	}{
		{"NCHW correct fold", "NCHW", true, foldCorrect, true},
		{"NCHW fold with var instead of sqrt(var+eps)", "NCHW", true, foldNoSqrt, false},
		{"NHWC correct fold (bias along the last axis)", "NHWC", true, foldCorrect, true},
		{"NHWC fold with Paddle's bias along axis 1", "NHWC", true, foldBiasAxis1, false},
		{"NHWC fold with var instead of sqrt(var+eps)", "NHWC", true, foldNoSqrt, false},
		{"fold of a training-mode batch norm (no is_test check)", "NCHW", false, foldCorrect, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before, after := convBN(t, tc.format, tc.isTest), convBNFolded(t, tc.format, tc.variant)
			require.Empty(t, ir.Verify(before).Errors())
			require.Empty(t, ir.Verify(after).Errors())
			rep, err := Compare(before, after, compareOpts())
			require.NotNil(t, rep, "%v", err)
			require.Len(t, rep.Outputs, 1)
			o := rep.Outputs[0]
			assert.Equal(t, "out", o.Name)
			assert.Equal(t, "out", o.AfterName)
			t.Logf("%s", rep)
			if tc.ok {
				require.NoError(t, err)
				assert.True(t, rep.OK())
				assert.Less(t, o.MaxRel, 1e-12, "float64 evaluation agrees far below the tolerance")
				return
			}
			require.ErrorIs(t, err, ErrMismatch)
			assert.False(t, rep.OK())
			assert.False(t, o.OK)
			assert.Greater(t, o.MaxRel, 1e-3, "the error is far above the tolerance")
			assert.Greater(t, o.MaxAbs, 0.0)
			assert.GreaterOrEqual(t, o.Index, 0)
			assert.Contains(t, err.Error(), "out (max rel")
			assert.Contains(t, rep.String(), "FAIL")
		})
	}
}

func TestCompareTimesConvBN(t *testing.T) {
	start := time.Now()
	_, err := Compare(convBN(t, "NCHW", true), convBNFolded(t, "NCHW", foldCorrect), compareOpts())
	require.NoError(t, err)
	t.Logf("conv-bn compare, 3 runs: %v", time.Since(start))
}
