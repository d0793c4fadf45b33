package interp_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/ir"
)

func compareOpts() compare.Options {
	return compare.Options{Runs: 3, Seed: 7, Options: feeds.Options{Batch: 2}}
}

func TestConvBNFoldCaughtOrAccepted(t *testing.T) {
	tests := []struct {
		name    string
		format  string
		isTest  bool
		variant progtest.FoldVariant
		ok      bool
	}{
		{"NCHW correct fold", "NCHW", true, progtest.FoldCorrect, true},
		{"NCHW fold with var instead of sqrt(var+eps)", "NCHW", true, progtest.FoldNoSqrt, false},
		{"NHWC correct fold (bias along the last axis)", "NHWC", true, progtest.FoldCorrect, true},
		{"NHWC fold with Paddle's bias along axis 1", "NHWC", true, progtest.FoldBiasAxis1, false},
		{"NHWC fold with var instead of sqrt(var+eps)", "NHWC", true, progtest.FoldNoSqrt, false},
		{"fold of a training-mode batch norm (no is_test check)", "NCHW", false, progtest.FoldCorrect, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before, after := progtest.ConvBN(t, tc.format, tc.isTest), progtest.ConvBNFolded(t, tc.format, tc.variant)
			require.Empty(t, ir.Verify(before).Errors())
			require.Empty(t, ir.Verify(after).Errors())
			rep, err := compare.Programs(before, after, compareOpts())
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
			require.ErrorIs(t, err, compare.ErrMismatch)
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
	_, err := compare.Programs(progtest.ConvBN(t, "NCHW", true), progtest.ConvBNFolded(t, "NCHW", progtest.FoldCorrect), compareOpts())
	require.NoError(t, err)
	t.Logf("conv-bn compare, 3 runs: %v", time.Since(start))
}
