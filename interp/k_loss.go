package interp

import (
	"fmt"
	"math"

	"github.com/pirdrr/drr/interp/tensor"
)

// Losses: softmax cross-entropy, binary cross-entropy, Huber, sigmoid cross-entropy with logits, identity_loss,
// and label_smooth (the smoothing of a loss's targets).
func registerLoss[T tensor.Float](r registry[T]) {
	r["pd_op.cross_entropy_with_softmax"] = kCrossEntropyWithSoftmax[T]
	r["pd_op.bce_loss"] = kBCELoss[T]
	r["pd_op.huber_loss"] = kHuberLoss[T]
	r["pd_op.sigmoid_cross_entropy_with_logits"] = kSigmoidCE[T]
	r["pd_op.identity_loss"] = kIdentityLoss[T]
	r["pd_op.label_smooth"] = kLabelSmooth[T]
}

// kCrossEntropyWithSoftmax returns (softmax, loss) along axis: the softmax of input (input itself when
// use_softmax is off), and −log softmax[label] for hard labels (an integer label per position, the axis dim 1;
// 0 where label is ignore_index) or −Σ label·log softmax for soft labels.
func kCrossEntropyWithSoftmax[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, label, err := c.pair()
	if err != nil {
		return nil, err
	}
	if len(x.Shape) == 0 {
		return nil, fmt.Errorf("cross_entropy_with_softmax of a 0-D input")
	}
	axis, err := normAxis(c.attrInt("axis", -1), len(x.Shape))
	if err != nil {
		return nil, err
	}
	outer, n, inner := splitAt(x.Shape, axis)
	soft := c.attrBool("soft_label", false)
	ignore := c.attrInt("ignore_index", -100)
	lossShape := append([]int{}, x.Shape...)
	lossShape[axis] = 1
	if soft && !sameInts(label.Shape, x.Shape) || !soft && len(label.Data) != prod(lossShape) {
		return nil, fmt.Errorf("label %v does not fit input %v (soft_label %v)", label.Shape, x.Shape, soft)
	}
	sm := make([]T, len(x.Data))
	loss := make([]T, prod(lossShape))
	useSoftmax := c.attrBool("use_softmax", true)
	e := make([]float64, n)
	for o := range outer {
		for in := range inner {
			base := o*n*inner + in
			if useSoftmax {
				m := math.Inf(-1)
				for k := range n {
					m = max(m, float64(x.Data[base+k*inner]))
				}
				s := 0.0
				for k := range n {
					e[k] = math.Exp(float64(x.Data[base+k*inner]) - m)
					s += e[k]
				}
				for k := range n {
					e[k] /= s
				}
			} else {
				for k := range n {
					e[k] = float64(x.Data[base+k*inner])
				}
			}
			for k := range n {
				sm[base+k*inner] = T(e[k])
			}
			li := o*inner + in
			if soft {
				s := 0.0
				for k := range n {
					s -= float64(label.Data[base+k*inner]) * math.Log(e[k])
				}
				loss[li] = T(s)
				continue
			}
			lab := int(label.Data[li])
			if lab == ignore {
				continue
			}
			if lab < 0 || lab >= n {
				return nil, fmt.Errorf("label %d out of range for %d classes", lab, n)
			}
			loss[li] = T(-math.Log(e[lab]))
		}
	}
	return []*value[T]{c.out(&tensor.Tensor[T]{Shape: append([]int{}, x.Shape...), Data: sm}, 0),
		c.out(&tensor.Tensor[T]{Shape: lossShape, Data: loss}, 1)}, nil
}

// kBCELoss is −(label·log(x) + (1−label)·log(1−x)), each log clamped at −100 as Paddle does.
func kBCELoss[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, label, err := c.pair()
	if err != nil {
		return nil, err
	}
	return c.one(mapBinary(x, label, func(p, l float64) float64 {
		return -(l*max(math.Log(p), -100) + (1-l)*max(math.Log(1-p), -100))
	}))
}

// kHuberLoss returns (loss, residual): residual = label − input; loss = r²/2 when |r| ≤ delta, else
// delta·(|r| − delta/2).
func kHuberLoss[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, label, err := c.pair()
	if err != nil {
		return nil, err
	}
	delta := c.attrFloat("delta", 1)
	res, err := mapBinary(label, x, func(l, p float64) float64 { return l - p })
	if err != nil {
		return nil, err
	}
	loss := mapUnary(res, func(r float64) float64 {
		if a := math.Abs(r); a > delta {
			return delta * (a - delta/2)
		}
		return r * r / 2
	})
	return []*value[T]{c.out(loss, 0), c.out(res, 1)}, nil
}

// kSigmoidCE is Paddle's sigmoid_cross_entropy_with_logits: max(x, 0) − x·label + pos_weight·log(1 + e^−|x|),
// 0 where label equals ignore_index, divided by the number of other labels when normalize is set.
func kSigmoidCE[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, label, err := c.pair()
	if err != nil {
		return nil, err
	}
	pw, err := c.optIn(2)
	if err != nil {
		return nil, err
	}
	if !sameInts(x.Shape, label.Shape) || pw != nil && !sameInts(x.Shape, pw.Shape) {
		return nil, fmt.Errorf("x %v, label %v and pos_weight must have one shape", x.Shape, label.Shape)
	}
	ignore := c.attrInt("ignore_index", -100)
	out := make([]T, len(x.Data))
	norm := 0
	for i, xv := range x.Data {
		a, l := float64(xv), float64(label.Data[i])
		if int(l) == ignore {
			continue
		}
		w := 1.0
		if pw != nil {
			w = float64(pw.Data[i])
		}
		out[i] = T(max(a, 0) - a*l + math.Log(1+math.Exp(-math.Abs(a)))*w)
	}
	if c.attrBool("normalize", false) {
		for _, l := range label.Data {
			if d := float64(l) - float64(ignore); d < -1e-6 || d > 1e-6 {
				norm++
			}
		}
		for i := range out {
			out[i] = T(float64(out[i]) / float64(norm))
		}
	}
	return c.one(&tensor.Tensor[T]{Shape: append([]int{}, x.Shape...), Data: out}, nil)
}

// kIdentityLoss reduces x by reduction: 0 sum, 1 mean, 2 none (a copy).
func kIdentityLoss[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	red := c.attrInt("reduction", 1)
	if red == 2 {
		return c.one(x.Clone(), nil)
	}
	if red != 0 && red != 1 {
		return nil, fmt.Errorf("identity_loss reduction %d (want 0 sum, 1 mean or 2 none)", red)
	}
	out, err := reduceAxes(x, nil, false, func(run []T) float64 {
		s := 0.0
		for _, v := range run {
			s += float64(v)
		}
		if red == 1 {
			s /= float64(len(run))
		}
		return s
	})
	if err != nil {
		return nil, err
	}
	return c.one(c.declaredScalar(out, 0), nil)
}

// kLabelSmooth is (1 − ε)·label + ε·prior_dist, or + ε/C (C the last dim) without a prior.
func kLabelSmooth[T tensor.Float](c *call[T]) ([]*value[T], error) {
	label, err := c.in(0)
	if err != nil {
		return nil, err
	}
	prior, err := c.optIn(1)
	if err != nil {
		return nil, err
	}
	eps := c.attrFloat("epsilon", 0)
	if prior != nil {
		return c.one(mapBinary(label, prior, func(l, p float64) float64 { return (1-eps)*l + eps*p }))
	}
	if len(label.Shape) == 0 || label.Shape[len(label.Shape)-1] == 0 {
		return nil, fmt.Errorf("label of shape %v has no classes", label.Shape)
	}
	k := float64(label.Shape[len(label.Shape)-1])
	return c.one(mapUnary(label, func(l float64) float64 { return (1-eps)*l + eps/k }), nil)
}
