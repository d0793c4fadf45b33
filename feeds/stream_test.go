package feeds

import (
	"math"
	"slices"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// TestStreamNormalIsStandardNormal checks the ziggurat against the standard normal distribution: the
// Kolmogorov–Smirnov distance of a million draws from Φ (the 0.1 % critical value is 1.95/√n), the moments, and
// the mass beyond the ziggurat's base (|z| > 3.4426, where the tail method draws) and beyond 4.
func TestStreamNormalIsStandardNormal(t *testing.T) {
	const n = 1 << 20
	r := newStream(42)
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = r.normal()
	}
	m, sd := progtest.MeanStd(xs)
	assert.InDelta(t, 0, m, 5/math.Sqrt(n), "mean")
	assert.InDelta(t, 1, sd, 5/math.Sqrt(2*n), "standard deviation")
	tail, far := 0, 0
	for _, x := range xs {
		if math.Abs(x) > zigR {
			tail++
		}
		if math.Abs(x) > 4 {
			far++
		}
	}
	phi := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	wantTail := 2 * (1 - phi(zigR)) * n // ≈ 604
	assert.InDelta(t, wantTail, float64(tail), 5*math.Sqrt(wantTail), "draws beyond the base layer")
	wantFar := 2 * (1 - phi(4)) * n // ≈ 66
	assert.InDelta(t, wantFar, float64(far), 5*math.Sqrt(wantFar), "draws beyond 4")
	slices.Sort(xs)
	d := 0.0
	for i, x := range xs {
		f := phi(x)
		d = max(d, math.Abs(f-float64(i)/n), math.Abs(f-float64(i+1)/n))
	}
	assert.Less(t, d, 1.95/math.Sqrt(n), "Kolmogorov–Smirnov distance from the standard normal")
}

// TestStreamUniforms checks float64 and intN: the range, and a chi-square test of intN over a range that is not
// a power of two (the 0.1 % critical value of 6 degrees of freedom is 22.46).
func TestStreamUniforms(t *testing.T) {
	r := newStream(7)
	for range 100000 {
		u := r.float64()
		require.True(t, u >= 0 && u < 1, "float64 in [0, 1): %v", u)
		o := r.open()
		require.True(t, o > 0 && o <= 1, "open in (0, 1]: %v", o)
	}
	const n, k = 700000, 7
	var counts [k]int
	for range n {
		counts[r.intN(k)]++
	}
	chi := 0.0
	for _, c := range counts {
		e := float64(n) / k
		chi += (float64(c) - e) * (float64(c) - e) / e
	}
	assert.Less(t, chi, 22.46, "intN(7) counts %v", counts)
	assert.Equal(t, newStream(1), newStream(1), "a seed gives one stream")
	assert.NotEqual(t, newStream(1), newStream(2))
}

// TestDrawChunkFastPathsAreTheGeneralOne: the float32 and float16 normal loops and the float32 uniform loop give
// the numbers the general loop (sample, then roundDraw) gives.
func TestDrawChunkFastPathsAreTheGeneralOne(t *testing.T) {
	for _, dt := range []ir.DType{ir.DTypeFloat32, ir.DTypeFloat16} {
		for _, d := range []distribution{
			{kind: distNormal, lo: -0.3, hi: 0.4, mean: 0.05, std: 0.1},
			{kind: distNormal, lo: math.Inf(-1), hi: math.Inf(1), std: 1},
			{kind: distNormal, lo: -1, hi: 1, std: 1e-4}, // float16 subnormals
			{kind: distUniform, lo: -1, hi: 1},
			{kind: distUniform, lo: 0, hi: 1e-7},
		} {
			fast := make([]float32, 5000)
			r := newStream(3)
			drawChunkInto(fast, &r, dt, d)
			r = newStream(3)
			for i, got := range fast {
				v := roundDraw(dt, d.sample(&r))
				if d.kind == distUniform && v >= d.hi && d.hi > d.lo {
					v = uniformCeiling(dt, d)
				}
				require.Equal(t, float32(v), got, "%v %+v element %d", dt, d, i)
				lo, hi := interp.RoundTo(dt, d.lo), interp.RoundTo(dt, d.hi)
				require.True(t, float64(got) >= lo && float64(got) <= hi, "%v %+v element %d: %v", dt, d, i, got)
			}
		}
	}
}

// BenchmarkDrawNormalF32 measures the draws of a model's weights: float32 normal variates, clipped, on the
// portable loop (path=go) and on the assembly lanes when this machine has them (path=lanes).
func BenchmarkDrawNormalF32(b *testing.B) {
	paths := []struct {
		name  string
		lanes func(st *laneState, dst []float32, n int, mask uint64, par *laneParams) int
	}{{"go", nil}}
	if drawLanes != nil {
		paths = append(paths, struct {
			name  string
			lanes func(st *laneState, dst []float32, n int, mask uint64, par *laneParams) int
		}{"lanes", drawLanes})
	}
	defer func(l func(st *laneState, dst []float32, n int, mask uint64, par *laneParams) int) { drawLanes = l }(drawLanes)
	for _, p := range paths {
		b.Run("path="+p.name, func(b *testing.B) {
			drawLanes = p.lanes
			dst := make([]float32, 1<<22)
			d := distribution{kind: distNormal, lo: -1, hi: 1, std: 0.02}
			b.SetBytes(int64(4 * len(dst)))
			for i := 0; b.Loop(); i++ {
				drawInto(dst, uint64(i), ir.DTypeFloat32, d)
			}
		})
	}
}

// BenchmarkDrawNormalF32IntoF64 measures the draws of float32 weights for a float64 evaluation (the float32
// numbers, widened).
func BenchmarkDrawNormalF32IntoF64(b *testing.B) { benchDrawNormal[float64](b, ir.DTypeFloat32) }

// BenchmarkDrawNormalF16 measures the draws of float16 weights (LLaMA-7B's 6.7 billion), computed in float32: the
// normal variates rounded to float16 precision.
func BenchmarkDrawNormalF16(b *testing.B) { benchDrawNormal[float32](b, ir.DTypeFloat16) }

// benchDrawNormal draws 4M weights of type dt, N(0, 0.02) clipped to [-1, 1], into elements of type E.
func benchDrawNormal[E tensor.Float](b *testing.B, dt ir.DType) {
	dst := make([]E, 1<<22)
	d := distribution{kind: distNormal, lo: -1, hi: 1, std: 0.02}
	b.SetBytes(int64(unsafe.Sizeof(dst[0])) * int64(len(dst)))
	for i := 0; b.Loop(); i++ {
		drawInto(dst, uint64(i), dt, d)
	}
}
