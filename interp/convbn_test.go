package interp

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/progtest"
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

func convAttrs(b *progtest.Builder, format string) []ir.NamedAttr {
	return []ir.NamedAttr{progtest.Attr("strides", b.I32s(1, 1)), progtest.Attr("paddings", b.I32s(1, 1)),
		progtest.Attr("padding_algorithm", b.Ctx.Str("EXPLICIT")), progtest.Attr("dilations", b.I32s(1, 1)),
		progtest.Attr("groups", b.Ctx.Int32(1)), progtest.Attr("data_format", b.Ctx.Str(format))}
}

// convBN builds x → conv2d → batch_norm_ → relu → fetch.
func convBN(t *testing.T, format string, isTest bool) *ir.Program {
	b := progtest.New(t)
	x := b.Data("x", convBNInput(format)...)
	w := b.Param("conv.w", cout, 3, 3, 3)
	conv := b.VA("pd_op.conv2d", []*ir.Value{x, w}, convAttrs(b, format)...)
	mean, vr := b.Param("bn.mean", cout), b.Param("bn.var", cout)
	scale, bias := b.Param("bn.scale", cout), b.Param("bn.bias", cout)
	bn := b.Op("pd_op.batch_norm_", []*ir.Value{conv, mean, vr, scale, bias},
		progtest.Attr("is_test", b.Ctx.Bool(isTest)), progtest.Attr("momentum", b.Ctx.Float(0.9)), progtest.Attr("epsilon", b.Ctx.Float(1e-5)),
		progtest.Attr("data_format", b.Ctx.Str(format)), progtest.Attr("use_global_stats", b.Ctx.Bool(false)),
		progtest.Attr("trainable_statistics", b.Ctx.Bool(false)))
	b.Fetch(b.V("pd_op.relu", bn.Result(0)), "out", 0)
	return b.P
}

// convBNFolded builds the rewritten program: w' = w·s with s = scale/sqrt(var+ε) per output channel,
// b' = bias − mean·s, out = conv2d(x, w') + reshape(b'), as ops on the parameters.
func convBNFolded(t *testing.T, format string, v foldVariant) *ir.Program {
	b := progtest.New(t)
	x := b.Data("x", convBNInput(format)...)
	w := b.Param("conv.w", cout, 3, 3, 3)
	mean, vr := b.Param("bn.mean", cout), b.Param("bn.var", cout)
	scale, bias := b.Param("bn.scale", cout), b.Param("bn.bias", cout)
	eps := b.Full([]int64{1}, float64(float32(1e-5)))
	std := b.V("pd_op.sqrt", b.V("pd_op.add", vr, eps))
	if v == foldNoSqrt {
		std = vr
	}
	s := b.V("pd_op.divide", scale, std)
	w2 := b.V("pd_op.multiply", w, b.V("pd_op.reshape", s, b.Ints(cout, 1, 1, 1)))
	conv := b.VA("pd_op.conv2d", []*ir.Value{x, w2}, convAttrs(b, format)...)
	bias2 := b.V("pd_op.subtract", bias, b.V("pd_op.multiply", mean, s))
	shape := []int64{1, cout, 1, 1}
	if format == "NHWC" && v != foldBiasAxis1 {
		shape = []int64{1, 1, 1, cout}
	}
	out := b.V("pd_op.add", conv, b.V("pd_op.reshape", bias2, b.Ints(shape...)))
	b.Fetch(b.V("pd_op.relu", out), "out", 0)
	return b.P
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
