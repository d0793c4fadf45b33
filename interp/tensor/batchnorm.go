package tensor

import (
	"fmt"
	"math"
)

// BatchNormInference computes Paddle's batch_norm in inference mode (running
// statistics):
//
//	y = (x - mean) / sqrt(variance + epsilon) * scale + bias
//
// per channel. x has rank 2 to 5; the channel axis is 1 for "NCHW" (also
// "NCDHW", "NCL", "AnyLayout", or empty) and the last axis for "NHWC" (also
// "NDHWC", "NLC"); a rank-2 input always uses axis 1, as Paddle does. mean,
// variance, and the optional scale and bias (nil means all ones and all
// zeros) must each hold exactly C elements. Like Paddle's CPU kernel the
// formula is evaluated in the folded form x*s + (bias - mean*s) with
// s = scale/sqrt(variance+epsilon); the folding is done in float64.
func BatchNormInference[T Float](x, mean, variance, scale, bias *Tensor[T], epsilon float64, dataFormat string) (*Tensor[T], error) {
	const op = "batch_norm"
	if err := x.validate(op + " x"); err != nil {
		return nil, err
	}
	r := len(x.Shape)
	if r < 2 || r > 5 {
		return nil, fmt.Errorf("tensor: %s: x must have rank 2 to 5, got shape %v", op, x.Shape)
	}
	var channelLast bool
	switch dataFormat {
	case "", "NCHW", "NCDHW", "NCL", "AnyLayout":
	case "NHWC", "NDHWC", "NLC":
		channelLast = true
	default:
		return nil, fmt.Errorf("tensor: %s: unsupported data_format %q", op, dataFormat)
	}
	if r == 2 {
		channelLast = true // [N, C]: channel is the last axis either way
	}
	c := x.Shape[1]
	if channelLast {
		c = x.Shape[r-1]
	}
	param := func(name string, t *Tensor[T], def float64) ([]float64, error) {
		v := make([]float64, c)
		if t == nil {
			if name == "mean" || name == "variance" {
				return nil, fmt.Errorf("tensor: %s: %s: %w", op, name, ErrNilTensor)
			}
			for i := range v {
				v[i] = def
			}
			return v, nil
		}
		if err := t.validate(op + " " + name); err != nil {
			return nil, err
		}
		if len(t.Data) != c {
			return nil, fmt.Errorf("tensor: %s: %s has shape %v, want %d elements (channels of x %v)", op, name, t.Shape, c, x.Shape)
		}
		for i, e := range t.Data {
			v[i] = float64(e)
		}
		return v, nil
	}
	mu, err := param("mean", mean, 0)
	if err != nil {
		return nil, err
	}
	va, err := param("variance", variance, 0)
	if err != nil {
		return nil, err
	}
	sc, err := param("scale", scale, 1)
	if err != nil {
		return nil, err
	}
	bi, err := param("bias", bias, 0)
	if err != nil {
		return nil, err
	}
	s := make([]float64, c)
	sb := make([]float64, c)
	for i := range c {
		s[i] = sc[i] / math.Sqrt(va[i]+epsilon)
		sb[i] = bi[i] - mu[i]*s[i]
	}
	out := newUnchecked[T](x.Shape)
	if len(out.Data) == 0 {
		return out, nil
	}
	if channelLast {
		ParallelFor(len(x.Data)/c, 2*c, func(lo, hi int) {
			for r := lo; r < hi; r++ {
				dst := out.Data[r*c : (r+1)*c]
				for ch, v := range x.Data[r*c : (r+1)*c] {
					dst[ch] = T(float64(v)*s[ch] + sb[ch])
				}
			}
		})
		return out, nil
	}
	inner := 1
	for _, d := range x.Shape[2:] {
		inner *= d
	}
	if inner == 0 {
		return out, nil
	}
	ParallelFor(len(x.Data)/inner, 2*inner, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			a, b := s[p%c], sb[p%c]
			dst := out.Data[p*inner : (p+1)*inner]
			for j, v := range x.Data[p*inner : (p+1)*inner] {
				dst[j] = T(float64(v)*a + b)
			}
		}
	})
	return out, nil
}
