package interp_test

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
)

// The error budget of quantization, seen from a comparison: removing a quantize/dequantize pair passes, losing the
// scale fails.

// quantPair builds x → quantize_linear → dequantize_linear (per tensor, scale parameter s of value sv) with the
// given end: the dequantized value, or what a rewrite replaces it with.
func quantPair(t *testing.T, sv float64, end func(b *progtest.Builder, x, q, y, s *ir.Value) *ir.Value) *ir.Program {
	b := progtest.New(t)
	x := b.Data("x", 4, 16)
	s := b.Param("s", 1)
	interp.SetData(t, b.P, "s", interp.Host(interp.Sh(1), sv))
	z := b.Full([]int64{1}, 0)
	axis := progtest.Attr("quant_axis", b.Ctx.Int32(-1))
	q := b.Op("pd_op.quantize_linear", []*ir.Value{x, s, z, nil, nil}, axis).Result(0)
	y := b.Op("pd_op.dequantize_linear", []*ir.Value{q, s, z, nil, nil}, axis).Result(0)
	w := b.Param("w", 16, 8)
	interp.SetData(t, b.P, "w", interp.Host(interp.Sh(16, 8), interp.Ramp(128, 1.0/64, -1)...))
	b.Fetch(b.V("pd_op.matmul", end(b, x, q, y, s), w), "out", 0)
	return b.P
}

// TestQuantizationBudget: the rounding variance of quantize_linear is that of a rounding to its grid, (Δ/max|x|)²/12
// in units of u² (Δ = s/qmax), so that removing a quantize/dequantize pair (an error of up to Δ/2) passes Compare in
// either precision, and removing it wrongly (dropping the dequantization's scale: an error of ~qmax/s) fails.
func TestQuantizationBudget(t *testing.T) {
	x := interp.Host(interp.Sh(4, 16), interp.Ramp(64, 1.0/32, -1)...) // [-1, 1): max|x| = 1
	for _, prec := range []interp.Precision{interp.Float64, interp.Float32} {
		t.Run(prec.String(), func(t *testing.T) {
			before := quantPair(t, 1.5, func(_ *progtest.Builder, _, _, y, _ *ir.Value) *ir.Value { return y })
			res, err := interp.Evaluate(before, &interp.Feed{Inputs: map[string]*interp.Tensor{"x": x}}, interp.Options{Precision: prec})
			require.NoError(t, err)
			u := prec.UnitRoundoff()
			step := 1.5 / 127
			quant := step * step / 12 / (u * u)
			// quantize adds 1 + quant, dequantize 2, the matmul 16 + 1.
			assert.InEpsilon(t, 1+quant+2+17, res.Outputs[0].Rounding, 1e-6)

			opts := compare.Options{Runs: 2, Options: feeds.Options{Options: interp.Options{Precision: prec}}}
			removed := quantPair(t, 1.5, func(_ *progtest.Builder, x, _, _, _ *ir.Value) *ir.Value { return x })
			rep, err := compare.Programs(before, removed, opts)
			require.NoError(t, err, "%v", rep)
			assert.Greater(t, rep.Outputs[0].MaxRel, 1e-4, "the pair does change the values")
			assert.Less(t, rep.Outputs[0].MaxRel, rep.Outputs[0].Tol)
			t.Logf("removed: max rel %.3g, tolerance %.3g", rep.Outputs[0].MaxRel, rep.Outputs[0].Tol)

			noScale := quantPair(t, 1.5, func(b *progtest.Builder, _, q, _, s *ir.Value) *ir.Value { return b.V("pd_op.multiply", q, s) })
			rep, err = compare.Programs(before, noScale, opts)
			require.True(t, errors.Is(err, compare.ErrMismatch), "%v", err)
			assert.Greater(t, rep.Outputs[0].MaxRel, 10.0)
		})
	}
}

// TestQuantizationBudgetCap: when the grid is coarser than the values (everything rounds to 0), the variance is
// capped at an error of the order of the values, not more.
func TestQuantizationBudgetCap(t *testing.T) {
	p := quantPair(t, 1e4, func(_ *progtest.Builder, _, _, y, _ *ir.Value) *ir.Value { return y })
	res, err := interp.Evaluate(p, &interp.Feed{Inputs: map[string]*interp.Tensor{"x": interp.Host(interp.Sh(4, 16), interp.Ramp(64, 1.0/32, -1)...)}}, interp.Options{})
	require.NoError(t, err)
	u := interp.Float64.UnitRoundoff()
	assert.InEpsilon(t, 1+1/(u*u)+2+17, res.Outputs[0].Rounding, 1e-9)
	for _, v := range res.Outputs[0].Value.Data {
		assert.Zero(t, math.Abs(v), "every x rounds to 0")
	}
}
