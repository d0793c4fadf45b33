package tensor

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestExpInPlaceIsMathExp: ExpInPlace gives math.Exp's bits for ordinary arguments, for the ranges where the
// result is denormal, zero or infinite, and for NaN and the infinities, at every offset of a vector.
func TestExpInPlaceIsMathExp(t *testing.T) {
	if expVec == nil {
		t.Log("no vector exponential on this machine or kernel path: ExpInPlace calls math.Exp")
	}
	r := rand.New(rand.NewPCG(1, 2))
	var xs []float64
	for range 200000 {
		xs = append(xs, (r.Float64()-0.5)*40)
	}
	for range 20000 {
		xs = append(xs, (r.Float64()-0.5)*1500, -745+r.Float64()*40, 700+r.Float64()*12, r.NormFloat64()*1e-10)
	}
	xs = append(xs, 0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 709.782712893384,
		math.Nextafter(709.782712893384, 1000), -708.39641853226408, -745.1332191019411, -1e300, 1e300, 1e-320)
	for i := range 64 {
		xs = append(xs, float64(i)-32, math.Ldexp(1, i-40))
	}
	for _, off := range []int{0, 1, 7} {
		got := append([]float64{}, xs[off:]...)
		ExpInPlace(got)
		for i, x := range xs[off:] {
			want := math.Exp(x)
			if math.Float64bits(got[i]) != math.Float64bits(want) && !(math.IsNaN(want) && math.IsNaN(got[i])) {
				require.Failf(t, "exp differs", "exp(%v) = %v, want %v (offset %d)", x, got[i], want, off)
			}
		}
	}
}

// BenchmarkExpInPlace measures ExpInPlace on softmax-like arguments (x − max of a row, ≤ 0), calling math.Exp
// (path=go) and on the assembly when this machine has it (path=vec).
func BenchmarkExpInPlace(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	src := make([]float64, 4096)
	for i := range src {
		src[i] = -r.Float64() * 20
	}
	paths := map[string]func(x []float64) int{"go": nil}
	if expVec != nil {
		paths["vec"] = expVec
	}
	defer func(v func(x []float64) int) { expVec = v }(expVec)
	for _, name := range []string{"go", "vec"} {
		vec, ok := paths[name]
		if !ok {
			continue
		}
		b.Run("path="+name, func(b *testing.B) {
			expVec = vec
			x := make([]float64, len(src))
			b.SetBytes(int64(8 * len(x)))
			for b.Loop() {
				copy(x, src)
				ExpInPlace(x)
			}
		})
	}
}
