package interp

import (
	"fmt"
	"math"

	"github.com/pirdrr/drr/interp/tensor"
)

// kBatchNorm evaluates batch_norm and batch_norm_ as Paddle's CPU kernel does. With global statistics —
// is_test && !trainable_statistics, or use_global_stats — it normalises with the running mean and variance
// operands and leaves them alone. Otherwise (training) it normalises with the batch's own mean and biased variance
// and updates the running statistics, mean_out = momentum·mean + (1−momentum)·batch_mean (likewise the variance);
// mean_out and variance_out share the buffers of mean and variance (inplace in batch_norm_, views in batch_norm),
// so the update is written into those operands. saved_mean and saved_variance are the batch mean and
// 1/sqrt(batch_var + ε) in training, zeros otherwise; reserve_space is not computed.
func kBatchNorm[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	mean, err := c.in(1)
	if err != nil {
		return nil, err
	}
	variance, err := c.in(2)
	if err != nil {
		return nil, err
	}
	scale, err := c.optIn(3)
	if err != nil {
		return nil, err
	}
	bias, err := c.optIn(4)
	if err != nil {
		return nil, err
	}
	isTest, err := c.requireBool("is_test")
	if err != nil {
		return nil, err
	}
	eps := c.attrFloat("epsilon", 1e-5)
	momentum := c.attrFloat("momentum", 0.9)
	format := c.attrString("data_format", "NCHW")
	global := isTest && !c.attrBool("trainable_statistics", false) || c.attrBool("use_global_stats", false)
	ch, axisLast, err := bnChannels(x.Shape, format)
	if err != nil {
		return nil, err
	}
	zeros := func() *tensor.Tensor[T] { return &tensor.Tensor[T]{Shape: []int{ch}, Data: make([]T, ch)} }
	if global {
		y, err := tensor.BatchNormInference(x, mean, variance, scale, bias, eps, format)
		if err != nil {
			return nil, err
		}
		return []*value[T]{c.out(y, 0), c.out(mean.Clone(), 1), c.out(variance.Clone(), 2),
			c.out(zeros(), 3), c.out(zeros(), 4)}, nil
	}
	if len(mean.Data) != ch || len(variance.Data) != ch {
		return nil, fmt.Errorf("batch_norm: mean %v and variance %v must have %d elements", mean.Shape, variance.Shape, ch)
	}
	bm, bv, count := batchStats(x, ch, axisLast)
	if count == 1 {
		// Paddle: with one element per channel the output is x and nothing is updated.
		return []*value[T]{c.out(x.Clone(), 0), c.out(mean.Clone(), 1), c.out(variance.Clone(), 2),
			c.out(zeros(), 3), c.out(zeros(), 4)}, nil
	}
	bmT := &tensor.Tensor[T]{Shape: []int{ch}, Data: make([]T, ch)}
	bvT := &tensor.Tensor[T]{Shape: []int{ch}, Data: make([]T, ch)}
	for i := range ch {
		bmT.Data[i], bvT.Data[i] = T(bm[i]), T(bv[i])
	}
	y, err := tensor.BatchNormInference(x, bmT, bvT, scale, bias, eps, format)
	if err != nil {
		return nil, err
	}
	meanOut, varOut, savedVar := zeros(), zeros(), zeros()
	for i := range ch {
		meanOut.Data[i] = T(float64(mean.Data[i])*momentum + bm[i]*(1-momentum))
		varOut.Data[i] = T(float64(variance.Data[i])*momentum + bv[i]*(1-momentum))
		savedVar.Data[i] = T(1 / math.Sqrt(bv[i]+eps))
	}
	return []*value[T]{c.out(y, 0), c.out(meanOut, 1), c.out(varOut, 2), c.out(bmT.Clone(), 3), c.out(savedVar, 4)}, nil
}

// bnChannels returns the channel count and whether channels are the last axis, as Paddle's batch norm reads the
// layout (a rank-2 input is [N, C] either way).
func bnChannels(shape []int, format string) (int, bool, error) {
	r := len(shape)
	if r < 2 || r > 5 {
		return 0, false, fmt.Errorf("batch_norm: x must have rank 2 to 5, has shape %v", shape)
	}
	switch format {
	case "", "NCHW", "NCDHW", "NCL", "AnyLayout":
		if r == 2 {
			return shape[1], true, nil
		}
		return shape[1], false, nil
	case "NHWC", "NDHWC", "NLC":
		return shape[r-1], true, nil
	}
	return 0, false, unsupported("data_format %q", format)
}

// batchStats returns the per-channel mean and biased variance of x (computed in float64, two passes) and the
// number of elements per channel.
func batchStats[T tensor.Float](x *tensor.Tensor[T], ch int, last bool) ([]float64, []float64, int) {
	mean := make([]float64, ch)
	vr := make([]float64, ch)
	if ch == 0 {
		return mean, vr, 0
	}
	inner := 1
	if !last {
		for _, d := range x.Shape[2:] {
			inner *= d
		}
	}
	count := len(x.Data) / ch
	// Channels are independent: each is summed over its elements in the order they are stored (whatever the
	// split across goroutines), the mean first, then the squared deviations.
	if last {
		rows := count
		tensor.ParallelFor(ch, 4*rows, func(lo, hi int) {
			for r := range rows {
				row := x.Data[r*ch+lo : r*ch+hi]
				for k, v := range row {
					mean[lo+k] += float64(v)
				}
			}
			for k := lo; k < hi; k++ {
				mean[k] /= float64(count)
			}
			for r := range rows {
				row := x.Data[r*ch+lo : r*ch+hi]
				for k, v := range row {
					d := float64(v) - mean[lo+k]
					vr[lo+k] += d * d
				}
			}
			for k := lo; k < hi; k++ {
				vr[k] /= float64(count)
			}
		})
		return mean, vr, count
	}
	batches := count / max(inner, 1)
	tensor.ParallelFor(ch, 4*count, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			s := 0.0
			for b := range batches {
				for _, v := range x.Data[(b*ch+k)*inner : (b*ch+k+1)*inner] {
					s += float64(v)
				}
			}
			m := s / float64(count)
			s = 0
			for b := range batches {
				for _, v := range x.Data[(b*ch+k)*inner : (b*ch+k+1)*inner] {
					d := float64(v) - m
					s += d * d
				}
			}
			mean[k], vr[k] = m, s/float64(count)
		}
	})
	return mean, vr, count
}
