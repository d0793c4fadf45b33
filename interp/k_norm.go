package interp

import (
	"fmt"
	"math"

	"github.com/pirdrr/drr/interp/tensor"
)

// Normalisations other than batch norm (k_batchnorm.go): layer, group and instance norm, and affine_channel.
// Statistics are accumulated in float64; variances are biased (divided by the count), as Paddle's kernels compute
// them.

func registerNorm[T tensor.Float](r registry[T]) {
	r["pd_op.layer_norm"] = kLayerNorm[T]
	r["pd_op.group_norm"] = kGroupNorm[T]
	r["pd_op.instance_norm"] = kInstanceNorm[T]
	r["pd_op.affine_channel"] = kAffineChannel[T]
	r["pd_op.sync_batch_norm_"] = kBatchNorm[T]
}

// meanVar returns the mean and biased variance of xs (two passes, in float64).
func meanVar[T tensor.Float](xs []T) (float64, float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	m := 0.0
	for _, v := range xs {
		m += float64(v)
	}
	m /= float64(len(xs))
	s := 0.0
	for _, v := range xs {
		d := float64(v) - m
		s += d * d
	}
	return m, s / float64(len(xs))
}

// layerNorm normalises each row of x [rows, cols] and applies scale and bias (nil: 1 and 0, each of cols
// elements); it returns y and the rows' mean and variance.
func layerNorm[T tensor.Float](x []T, rows, cols int, scale, bias []T, eps float64) (y, mean, variance []T) {
	y, mean, variance = make([]T, len(x)), make([]T, rows), make([]T, rows)
	tensor.ParallelFor(rows, 4*cols, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			row := x[r*cols : (r+1)*cols]
			m, v := meanVar(row)
			mean[r], variance[r] = T(m), T(v)
			inv := 1 / math.Sqrt(v+eps)
			out := y[r*cols : (r+1)*cols]
			for j, xv := range row {
				o := (float64(xv) - m) * inv
				if scale != nil {
					o *= float64(scale[j])
				}
				if bias != nil {
					o += float64(bias[j])
				}
				out[j] = T(o)
			}
		}
	})
	return y, mean, variance
}

// kLayerNorm normalises x over the dims from begin_norm_axis on: (out, mean, variance), mean and variance of shape
// x.shape[:begin_norm_axis].
func kLayerNorm[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	scale, err := c.optIn(1)
	if err != nil {
		return nil, err
	}
	bias, err := c.optIn(2)
	if err != nil {
		return nil, err
	}
	begin := c.attrInt("begin_norm_axis", 1)
	if begin < 0 {
		begin += len(x.Shape)
	}
	if begin < 0 || begin > len(x.Shape) {
		return nil, fmt.Errorf("begin_norm_axis %d out of range for %v", c.attrInt("begin_norm_axis", 1), x.Shape)
	}
	rows, cols := prod(x.Shape[:begin]), prod(x.Shape[begin:])
	var sd, bd []T
	if scale != nil {
		if len(scale.Data) != cols {
			return nil, fmt.Errorf("scale %v must have %d elements", scale.Shape, cols)
		}
		sd = scale.Data
	}
	if bias != nil {
		if len(bias.Data) != cols {
			return nil, fmt.Errorf("bias %v must have %d elements", bias.Shape, cols)
		}
		bd = bias.Data
	}
	y, mean, variance := layerNorm(x.Data, rows, cols, sd, bd, c.attrFloat("epsilon", 1e-5))
	stat := append([]int{}, x.Shape[:begin]...)
	return []*value[T]{
		c.out(&tensor.Tensor[T]{Shape: append([]int{}, x.Shape...), Data: y}, 0),
		c.out(&tensor.Tensor[T]{Shape: stat, Data: mean}, 1),
		c.out(&tensor.Tensor[T]{Shape: append([]int{}, stat...), Data: variance}, 2),
	}, nil
}

// channelLayout returns, for a tensor of rank ≥ 2 in data_format, the batch size, channel count and spatial size,
// and whether channels come last.
func channelLayout(shape []int, format string) (n, ch, spatial int, last bool, err error) {
	if len(shape) < 2 {
		return 0, 0, 0, false, fmt.Errorf("need rank >= 2, have %v", shape)
	}
	last = format == "NHWC" || format == "NDHWC" || format == "NLC"
	n, ch = shape[0], shape[1]
	if last {
		ch = shape[len(shape)-1]
	}
	spatial = prod(shape) / max(n*ch, 1)
	return n, ch, spatial, last, nil
}

// kGroupNorm normalises each group of channels of each image: (y, mean, variance), the statistics of shape
// [N, groups].
func kGroupNorm[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	scale, err := c.optIn(1)
	if err != nil {
		return nil, err
	}
	bias, err := c.optIn(2)
	if err != nil {
		return nil, err
	}
	y, mean, variance, err := groupNorm(x, scale, bias, c.attrInt("groups", -1), c.attrFloat("epsilon", 1e-5),
		c.attrString("data_format", "NCHW"))
	if err != nil {
		return nil, err
	}
	return []*value[T]{c.out(y, 0), c.out(mean, 1), c.out(variance, 2)}, nil
}

// groupNorm normalises each group of channels of each image of x (scale and bias per channel, nil for 1 and 0)
// and returns y and the [N, groups] mean and biased variance.
func groupNorm[T tensor.Float](x, scale, bias *tensor.Tensor[T], g int, eps float64, format string) (y, mean, variance *tensor.Tensor[T], err error) {
	n, ch, sp, last, err := channelLayout(x.Shape, format)
	if err != nil {
		return nil, nil, nil, err
	}
	if g <= 0 || ch%g != 0 {
		return nil, nil, nil, fmt.Errorf("groups %d must divide the %d channels", g, ch)
	}
	if scale != nil && len(scale.Data) != ch || bias != nil && len(bias.Data) != ch {
		return nil, nil, nil, fmt.Errorf("scale and bias must have %d elements", ch)
	}
	cg := ch / g
	at := func(b, cc, s int) int {
		if last {
			return (b*sp+s)*ch + cc
		}
		return (b*ch+cc)*sp + s
	}
	yd := make([]T, len(x.Data))
	md, vd := make([]T, n*g), make([]T, n*g)
	tensor.ParallelFor(n*g, 4*cg*sp, func(lo, hi int) {
		vals := make([]T, cg*sp)
		for k := lo; k < hi; k++ {
			b, gr := k/g, k%g
			i := 0
			for cc := gr * cg; cc < (gr+1)*cg; cc++ {
				for s := range sp {
					vals[i] = x.Data[at(b, cc, s)]
					i++
				}
			}
			m, v := meanVar(vals)
			md[k], vd[k] = T(m), T(v)
			inv := 1 / math.Sqrt(v+eps)
			for cc := gr * cg; cc < (gr+1)*cg; cc++ {
				sc, bi := 1.0, 0.0
				if scale != nil {
					sc = float64(scale.Data[cc])
				}
				if bias != nil {
					bi = float64(bias.Data[cc])
				}
				for s := range sp {
					p := at(b, cc, s)
					yd[p] = T((float64(x.Data[p])-m)*inv*sc + bi)
				}
			}
		}
	})
	return &tensor.Tensor[T]{Shape: append([]int{}, x.Shape...), Data: yd},
		&tensor.Tensor[T]{Shape: []int{n, g}, Data: md}, &tensor.Tensor[T]{Shape: []int{n, g}, Data: vd}, nil
}

// kInstanceNorm normalises each channel of each image (NCHW) over its spatial dims: (y, saved_mean,
// saved_variance) with the statistics of shape [N·C]; saved_variance is 1/sqrt(var + ε), as in Paddle.
func kInstanceNorm[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	scale, err := c.optIn(1)
	if err != nil {
		return nil, err
	}
	bias, err := c.optIn(2)
	if err != nil {
		return nil, err
	}
	n, ch, sp, _, err := channelLayout(x.Shape, "NCHW")
	if err != nil {
		return nil, err
	}
	if scale != nil && len(scale.Data) != ch || bias != nil && len(bias.Data) != ch {
		return nil, fmt.Errorf("scale and bias must have %d elements", ch)
	}
	eps := c.attrFloat("epsilon", 1e-5)
	var sd, bd []T
	y := make([]T, len(x.Data))
	mean, inv := make([]T, n*ch), make([]T, n*ch)
	for k := range n * ch {
		cc := k % ch
		sd, bd = nil, nil
		if scale != nil {
			sd = []T{scale.Data[cc]}
		}
		if bias != nil {
			bd = []T{bias.Data[cc]}
		}
		row := x.Data[k*sp : (k+1)*sp]
		m, v := meanVar(row)
		mean[k], inv[k] = T(m), T(1/math.Sqrt(v+eps))
		for j, xv := range row {
			o := (float64(xv) - m) / math.Sqrt(v+eps)
			if sd != nil {
				o *= float64(sd[0])
			}
			if bd != nil {
				o += float64(bd[0])
			}
			y[k*sp+j] = T(o)
		}
	}
	return []*value[T]{
		c.out(&tensor.Tensor[T]{Shape: append([]int{}, x.Shape...), Data: y}, 0),
		c.out(&tensor.Tensor[T]{Shape: []int{n * ch}, Data: mean}, 1),
		c.out(&tensor.Tensor[T]{Shape: []int{n * ch}, Data: inv}, 2),
	}, nil
}

// kAffineChannel is x·scale[c] + bias[c] on the channel axis (last for NHWC, else axis 1).
func kAffineChannel[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	scale, bias, err := c.inPair(1, 2)
	if err != nil {
		return nil, err
	}
	_, ch, sp, last, err := channelLayout(x.Shape, c.attrString("data_layout", "AnyLayout"))
	if err != nil {
		return nil, err
	}
	if len(scale.Data) != ch || len(bias.Data) != ch {
		return nil, fmt.Errorf("scale %v and bias %v must have %d elements", scale.Shape, bias.Shape, ch)
	}
	out := make([]T, len(x.Data))
	for i, v := range x.Data {
		cc := (i / sp) % ch
		if last {
			cc = i % ch
		}
		out[i] = T(float64(v)*float64(scale.Data[cc]) + float64(bias.Data[cc]))
	}
	return c.one(&tensor.Tensor[T]{Shape: append([]int{}, x.Shape...), Data: out}, nil)
}
