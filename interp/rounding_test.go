package interp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// TestQuantizationVariance checks weight_quantize's error model against what the quantization does: the relative
// variance of the rounding to the int8 (int4) grid, Σ s²/12 / Σ w², is 1/(4·127²) (1/(4·7²)) for weights spread
// evenly over [-m, m], and the error the kernel makes on such weights is of that size.
func TestQuantizationVariance(t *testing.T) {
	const k, n = 256, 4
	w := &tensor.Tensor[float64]{Shape: []int{k, n}, Data: make([]float64, k*n)}
	for i := range k {
		for j := range n {
			// Evenly spread over [-(j+1), j+1]: each column its own scale; no grid point on purpose.
			w.Data[i*n+j] = float64(j+1) * (2*(float64(i)+0.37)/k - 1)
		}
	}
	for _, tc := range []struct {
		algo  string
		bound float64
	}{{"weight_only_int8", 127}, {"weight_only_int4", 7}} {
		b := progtest.New(t)
		x := b.ParamT("w", ir.DTypeFloat16, k, n)
		op := b.Op("pd_op.weight_quantize", []*ir.Value{x}, progtest.Attr("algo", b.Ctx.Str(tc.algo)))
		got := quantizationVariance(w, op)
		want := 1 / (4 * tc.bound * tc.bound)
		assert.InEpsilon(t, want, got, 0.05, tc.algo)
		// The kernel's actual error: quantize, dequantize, compare.
		var errSum, sum float64
		for j := range n {
			m := float64(j + 1)
			s := m / tc.bound
			for i := range k {
				v := w.Data[i*n+j]
				d := v - s*math.Round(v/s)
				errSum += d * d
				sum += v * v
			}
		}
		assert.InEpsilon(t, got, errSum/sum, 0.25, "%s: the model's variance is the kernel's", tc.algo)
	}
}

// TestWeightQuantizeBudget checks that the cost of weight_quantize in units of u² is its relative variance over u²
// in both precisions, so that a Compare of a weight-only linear accepts the quantization.
func TestWeightQuantizeBudget(t *testing.T) {
	b := progtest.New(t)
	x := b.ParamT("w", ir.DTypeFloat16, 64, 16)
	op := b.Op("pd_op.weight_quantize", []*ir.Value{x})
	w := &tensor.Tensor[float32]{Shape: []int{64, 16}, Data: make([]float32, 64*16)}
	for i := range w.Data {
		w.Data[i] = float32(i%17) - 8
	}
	args := []*value[float32]{newValue(w, ir.DTypeFloat16)}
	cost := roundingCost(op, args, nil)
	u := Float32.UnitRoundoff()
	assert.InEpsilon(t, quantizationVariance(w, op), cost*u*u, 1e-9)
	assert.Greater(t, math.Sqrt(cost)*u, 1e-3, "the budget is far above float32's rounding")
}
