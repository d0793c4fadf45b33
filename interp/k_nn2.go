package interp

import (
	"fmt"
	"math"

	"github.com/pirdrr/drr/interp/tensor"
)

// Matrix products beyond matmul (bmm, addmm, einsum in k_einsum.go) and softmax cross-entropy.

func registerNN2[T tensor.Float](r registry[T]) {
	r["pd_op.bmm"] = kBmm[T]
	r["pd_op.addmm"] = kAddmm[T]
	r["pd_op.einsum"] = kEinsum[T]
	r["pd_op.cross_entropy_with_softmax"] = kCrossEntropyWithSoftmax[T]
}

// kBmm is the product of two batches of matrices [B, M, K] × [B, K, N].
func kBmm[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, y, err := c.pair()
	if err != nil {
		return nil, err
	}
	if len(x.Shape) != 3 || len(y.Shape) != 3 || x.Shape[0] != y.Shape[0] || x.Shape[2] != y.Shape[1] {
		return nil, fmt.Errorf("bmm needs [B, M, K] and [B, K, N], has %v and %v", x.Shape, y.Shape)
	}
	if err := c.matmulWork(x.Shape, y.Shape, false, false); err != nil {
		return nil, err
	}
	return c.one(tensor.Matmul(x, y, false, false))
}

// kAddmm is beta·input + alpha·(x·y) for matrices x, y (input broadcast).
func kAddmm[T tensor.Float](c *call[T]) ([]*value[T], error) {
	in, err := c.in(0)
	if err != nil {
		return nil, err
	}
	x, y, err := c.inPair(1, 2)
	if err != nil {
		return nil, err
	}
	if len(x.Shape) != 2 || len(y.Shape) != 2 {
		return nil, fmt.Errorf("addmm needs matrices, has %v and %v", x.Shape, y.Shape)
	}
	if err := c.matmulWork(x.Shape, y.Shape, false, false); err != nil {
		return nil, err
	}
	p, err := tensor.Matmul(x, y, false, false)
	if err != nil {
		return nil, err
	}
	alpha, beta := c.attrFloat("alpha", 1), c.attrFloat("beta", 1)
	return c.one(mapBinary(in, p, func(a, b float64) float64 { return beta*a + alpha*b }))
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
