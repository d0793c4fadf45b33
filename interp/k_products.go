package interp

import (
	"fmt"
	"slices"

	"github.com/pirdrr/drr/interp/tensor"
)

// Matrix products beyond matmul and fc (k_nn.go): bmm, addmm, einsum (its parser and contraction in
// k_einsum.go), dot, mv and kron.
func registerProducts[T tensor.Float](r registry[T]) {
	r["pd_op.bmm"] = kBmm[T]
	r["pd_op.addmm"] = kAddmm[T]
	r["pd_op.einsum"] = kEinsum[T]
	r["pd_op.dot"] = kDot[T]
	r["pd_op.mv"] = kMv[T]
	r["pd_op.kron"] = kKron[T]
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

// kDot is the inner product of 1-D x and y (a 0-D result), or of the rows of 2-D x and y (a [N] result).
func kDot[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, y, err := c.inPair(0, 1)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(x.Shape, y.Shape) || len(x.Shape) < 1 || len(x.Shape) > 2 {
		return nil, fmt.Errorf("dot of shapes %v and %v (want equal 1-D or 2-D shapes)", x.Shape, y.Shape)
	}
	d := x.Shape[len(x.Shape)-1]
	rows := 1
	shape := []int{}
	if len(x.Shape) == 2 {
		rows = x.Shape[0]
		shape = []int{rows}
	}
	out := make([]T, rows)
	for i := range rows {
		acc := T(0)
		for k := range d {
			acc += x.Data[i*d+k] * y.Data[i*d+k]
		}
		out[i] = acc
	}
	return c.one(c.declaredScalar(&tensor.Tensor[T]{Shape: shape, Data: out}, 0), nil)
}

// kMv is the product of an [M, N] matrix and an [N] vector.
func kMv[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, v, err := c.inPair(0, 1)
	if err != nil {
		return nil, err
	}
	if len(x.Shape) != 2 || len(v.Shape) != 1 || x.Shape[1] != v.Shape[0] {
		return nil, fmt.Errorf("mv of shapes %v and %v (want [M, N] and [N])", x.Shape, v.Shape)
	}
	m, n := x.Shape[0], x.Shape[1]
	out := make([]T, m)
	for i := range m {
		acc := T(0)
		for k := range n {
			acc += x.Data[i*n+k] * v.Data[k]
		}
		out[i] = acc
	}
	return c.one(&tensor.Tensor[T]{Shape: []int{m}, Data: out}, nil)
}

// kKron is the Kronecker product: the shapes are aligned on the right (padded with leading 1s) and
// out[i·ny + j] = x[i]·y[j] along every axis.
func kKron[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, y, err := c.inPair(0, 1)
	if err != nil {
		return nil, err
	}
	r := max(len(x.Shape), len(y.Shape))
	pad := func(s []int) []int {
		out := make([]int, r)
		for i := range out {
			out[i] = 1
		}
		copy(out[r-len(s):], s)
		return out
	}
	xs, ys := pad(x.Shape), pad(y.Shape)
	shape := make([]int, r)
	for i := range shape {
		shape[i] = xs[i] * ys[i]
	}
	n, err := NumElements(shape)
	if err != nil {
		return nil, err
	}
	out := make([]T, n)
	idx := make([]int, r)
	for k := range n {
		xo, yo := 0, 0
		for d := range r {
			xo = xo*xs[d] + idx[d]/ys[d]
			yo = yo*ys[d] + idx[d]%ys[d]
		}
		out[k] = x.Data[xo] * y.Data[yo]
		for d := r - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return c.one(&tensor.Tensor[T]{Shape: shape, Data: out}, nil)
}
