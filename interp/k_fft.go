package interp

import (
	"fmt"
	"math"
	"math/cmplx"

	"github.com/pirdrr/drr/interp/tensor"
)

// Complex tensors. A value of a complex element type (c64, c128) holds its real and imaginary parts interleaved:
// 2·numel values. Only the kernels listed in complexAware read complex operands; any other op given one is refused
// (it would misread the layout).

// complexAware are the ops that accept complex operands.
var complexAware = map[string]bool{
	"pd_op.real": true, "pd_op.imag": true, "pd_op.abs": true, "pd_op.assign": true, "pd_op.fetch": true,
	"builtin.shadow_output": true, "builtin.combine": true, "builtin.split": true, "builtin.slice": true,
	"pd_op.share_data": true, "pd_op.share_data_": true,
}

func registerFFT[T tensor.Float](r registry[T]) {
	r["pd_op.fft_r2c"] = kFFTR2C[T]
}

// kFFTR2C is the discrete Fourier transform of a real tensor over axes: forward (e^−2πi·jk/n) or inverse
// (e^+2πi·jk/n); with onesided, only the n/2+1 non-redundant outputs of the last transformed axis are kept;
// normalization "backward" scales forward transforms by 1 and inverse ones by 1/n, "forward" the other way round,
// "ortho" both by 1/√n. The result is complex.
func kFFTR2C[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	axes, ok := c.attrInts("axes")
	if !ok || len(axes) == 0 {
		return nil, fmt.Errorf("no axes attribute")
	}
	forward := c.attrBool("forward", true)
	onesided := c.attrBool("onesided", true)
	norm := c.attrString("normalization", "backward")
	r := len(x.Shape)
	shape := append([]int{}, x.Shape...)
	data := make([]complex128, len(x.Data))
	for i, v := range x.Data {
		data[i] = complex(float64(v), 0)
	}
	seen := map[int]bool{}
	scale := 1.0
	for _, ax := range axes {
		a, err := normAxis(ax, r)
		if err != nil {
			return nil, err
		}
		if seen[a] {
			return nil, fmt.Errorf("axes %v repeat axis %d", axes, a)
		}
		seen[a] = true
		n := shape[a]
		switch {
		case norm == "ortho":
			scale /= math.Sqrt(float64(n))
		case norm == "forward" && forward || norm == "backward" && !forward:
			scale /= float64(n)
		case norm != "forward" && norm != "backward":
			return nil, unsupported("normalization %q", norm)
		}
		data = dftAxis(data, shape, a, forward)
	}
	if onesided {
		last, _ := normAxis(axes[len(axes)-1], r)
		keep := shape[last]/2 + 1
		outer, n, inner := splitAt(shape, last)
		cut := make([]complex128, outer*keep*inner)
		for o := range outer {
			copy(cut[o*keep*inner:(o+1)*keep*inner], data[o*n*inner:(o*n+keep)*inner])
		}
		data, shape[last] = cut, keep
	}
	out := make([]T, 2*len(data))
	for i, v := range data {
		out[2*i], out[2*i+1] = T(real(v)*scale), T(imag(v)*scale)
	}
	return []*value[T]{{buf: &buffer[T]{data: out}, shape: shape, dtype: c.outDType(0)}}, nil
}

// dftAxis transforms every line of data along axis (a direct O(n²) transform with exact twiddles, in float64).
func dftAxis(data []complex128, shape []int, axis int, forward bool) []complex128 {
	outer, n, inner := splitAt(shape, axis)
	out := make([]complex128, len(data))
	sign := -1.0
	if !forward {
		sign = 1
	}
	tw := make([]complex128, n)
	for k := range n {
		tw[k] = cmplx.Rect(1, sign*2*math.Pi*float64(k)/float64(n))
	}
	tensor.ParallelFor(outer*inner, 8*n*n, func(lo, hi int) {
		for line := lo; line < hi; line++ {
			o, in := line/inner, line%inner
			base := o*n*inner + in
			for k := range n {
				var s complex128
				for j := range n {
					s += data[base+j*inner] * tw[(j*k)%n]
				}
				out[base+k*inner] = s
			}
		}
	})
	return out
}
