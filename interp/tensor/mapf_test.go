package tensor

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMapMathMatchesClosures checks that the loops of mapMath and Scale give the bits of the
// closures through Map they replace (any NaN for NaN), on values that cross every branch (negative, zero,
// large, NaN, ±Inf).
func TestMapMathMatchesClosures(t *testing.T) {
	x := randT[float64](t, 7, 3, 1000)
	copy(x.Data, []float64{0, math.Copysign(0, -1), 1e30, -1e30, 88, -104, math.NaN(),
		math.Inf(1), math.Inf(-1)})
	for i := range x.Data {
		x.Data[i] *= 8
	}
	ref := func(f func(float64) float64) *Tensor[float64] {
		return Map(x, func(v float64) float64 { return f(v) })
	}
	tests := []struct {
		name string
		got  func() (*Tensor[float64], error)
		want *Tensor[float64]
	}{
		{"exp", func() (*Tensor[float64], error) { return Exp(x) }, ref(math.Exp)},
		{"sigmoid", func() (*Tensor[float64], error) { return Sigmoid(x) }, ref(sigmoid)},
		{"swish", func() (*Tensor[float64], error) { return Swish(x) }, ref(swish)},
		{"erf", func() (*Tensor[float64], error) { return Erf(x) }, ref(math.Erf)},
		{"gelu", func() (*Tensor[float64], error) { return Gelu(x) },
			ref(func(v float64) float64 { return 0.5 * v * (1 + math.Erf(v/math.Sqrt2)) })},
		{"scale, bias after", func() (*Tensor[float64], error) { return Scale(x, 0.3, 3.7, true) },
			ref(func(v float64) float64 { return 0.3*v + 3.7 })},
		{"scale, bias before", func() (*Tensor[float64], error) { return Scale(x, 0.3, 3.7, false) },
			ref(func(v float64) float64 { return 0.3 * (v + 3.7) })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.got()
			require.NoError(t, err)
			require.Equal(t, tc.want.Shape, got.Shape)
			for i := range got.Data {
				if math.IsNaN(tc.want.Data[i]) {
					// NaN's payload and sign depend on operand order, which inlining may change.
					require.True(t, math.IsNaN(got.Data[i]), "element %d (x = %v): want NaN, got %v", i, x.Data[i], got.Data[i])
					continue
				}
				require.Equal(t, math.Float64bits(tc.want.Data[i]), math.Float64bits(got.Data[i]),
					"element %d (x = %v): want %v, got %v", i, x.Data[i], tc.want.Data[i], got.Data[i])
			}
		})
	}
	_, err := Sigmoid[float64](nil)
	require.Error(t, err)
}

// BenchmarkUnaryF32 compares the element-wise loops (path=direct) with the closure through Map they replaced
// (path=closure), on 2^20 float32 elements: benchstat -col /path.
func BenchmarkUnaryF32(b *testing.B) {
	x := randT[float32](b, 1, 1<<20)
	for _, fn := range []struct {
		name   string
		direct func(*Tensor[float32]) (*Tensor[float32], error)
		f      func(float64) float64
	}{
		{"exp", Exp[float32], math.Exp},
		{"sigmoid", Sigmoid[float32], sigmoid},
		{"swish", Swish[float32], swish},
		{"erf", Erf[float32], math.Erf},
		{"gelu", Gelu[float32], func(v float64) float64 { return 0.5 * v * (1 + math.Erf(v/math.Sqrt2)) }},
		{"scale", func(x *Tensor[float32]) (*Tensor[float32], error) { return Scale(x, 0.125, 0, true) },
			func(v float64) float64 { return 0.125*v + 0 }},
	} {
		b.Run("fn="+fn.name+"/path=closure", func(b *testing.B) {
			b.SetBytes(4 << 20)
			for b.Loop() {
				Map(x, func(v float32) float32 { return float32(fn.f(float64(v))) })
			}
		})
		b.Run("fn="+fn.name+"/path=direct", func(b *testing.B) {
			b.SetBytes(4 << 20)
			for b.Loop() {
				if _, err := fn.direct(x); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGeluF32 compares Gelu (path=direct, the erf eight at a time on the avx512 path) with the closure
// through Map it replaced (path=closure), on 2^20 float32 activations drawn from N(0, 2²), whose erf arguments
// fall in every range of math.Erf (a third beyond 1.25): benchstat -col /path.
func BenchmarkGeluF32(b *testing.B) {
	x, err := RandNormal[float32](5, 1, 1<<20)
	require.NoError(b, err)
	for i := range x.Data {
		x.Data[i] *= 2
	}
	gelu := func(v float64) float64 { return 0.5 * v * (1 + math.Erf(v/math.Sqrt2)) }
	b.Run("path=closure", func(b *testing.B) {
		b.SetBytes(4 << 20)
		for b.Loop() {
			Map(x, func(v float32) float32 { return float32(gelu(float64(v))) })
		}
	})
	b.Run("path=direct", func(b *testing.B) {
		b.SetBytes(4 << 20)
		for b.Loop() {
			if _, err := Gelu(x); err != nil {
				b.Fatal(err)
			}
		}
	})
}
