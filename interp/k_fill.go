package interp

import (
	"fmt"
	"math"
	"slices"

	"github.com/pirdrr/drr/interp/tensor"
)

// Sequences and fills: arange, linspace, full_with_tensor, fill, numel, eye and sequence_mask.
func registerFill[T tensor.Float](r registry[T]) {
	r["pd_op.arange"] = kArange[T]
	r["pd_op.linspace"] = kLinspace[T]
	r["pd_op.full_with_tensor"] = kFullWithTensor[T]
	r["pd_op.fill"] = kFill[T]
	r["pd_op.numel"] = kNumel[T]
	r["pd_op.eye"] = kEye[T]
	r["pd_op.sequence_mask"] = kSequenceMask[T]
}

// kSequenceMask is y[…, j] = j < x[…] for j < max_len (max(x) when max_len is negative): x's shape plus one axis.
func kSequenceMask[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	ml, ok, err := c.scalarArg("max_len", 1, "maxlen", "max_len")
	if err != nil {
		return nil, err
	}
	maxLen := -1
	if ok {
		maxLen = int(ml)
	}
	if maxLen < 0 {
		maxLen = 0
		for _, v := range x.Data {
			maxLen = max(maxLen, int(v))
		}
	}
	if err := c.m.opts.CheckSize("sequence_mask result", append(slices.Clone(x.Shape), maxLen)); err != nil {
		return nil, err
	}
	out := make([]T, len(x.Data)*maxLen)
	for i, v := range x.Data {
		for j := range maxLen {
			if float64(j) < float64(v) {
				out[i*maxLen+j] = 1
			}
		}
	}
	return c.one(&tensor.Tensor[T]{Shape: append(slices.Clone(x.Shape), maxLen), Data: out}, nil)
}

// kEye is the num_rows × num_columns identity (num_columns −1 means square).
func kEye[T tensor.Float](c *call[T]) ([]*value[T], error) {
	rows, err := c.requireScalar("num_rows", 0)
	if err != nil {
		return nil, err
	}
	cols, err := c.requireScalar("num_columns", 1)
	if err != nil {
		return nil, err
	}
	if cols < 0 {
		cols = rows
	}
	r, k := int(rows), int(cols)
	if r < 0 {
		return nil, fmt.Errorf("num_rows %d", r)
	}
	if err := c.m.opts.CheckSize("eye result", []int{r, k}); err != nil {
		return nil, err
	}
	out := make([]T, r*k)
	for i := range min(r, k) {
		out[i*k+i] = 1
	}
	return c.one(&tensor.Tensor[T]{Shape: []int{r, k}, Data: out}, nil)
}

// kArange is start, start+step, … below end (above it for a negative step): ceil((end−start)/step) values.
func kArange[T tensor.Float](c *call[T]) ([]*value[T], error) {
	start, err := c.requireScalar("start", 0)
	if err != nil {
		return nil, err
	}
	end, err := c.requireScalar("end", 1)
	if err != nil {
		return nil, err
	}
	step, err := c.requireScalar("step", 2)
	if err != nil {
		return nil, err
	}
	if step == 0 {
		return nil, fmt.Errorf("arange step is 0")
	}
	if c.intResult() {
		start, end, step = math.Trunc(start), math.Trunc(end), math.Trunc(step)
		if step == 0 {
			return nil, fmt.Errorf("arange step truncates to 0")
		}
	}
	n := math.Ceil((end - start) / step)
	if n < 0 || math.IsNaN(n) {
		n = 0
	}
	if n > float64(c.m.opts.maxElements()) {
		return nil, fmt.Errorf("arange of %v elements", n)
	}
	out := make([]T, int(n))
	for i := range out {
		out[i] = T(start + float64(i)*step)
	}
	return c.one(&tensor.Tensor[T]{Shape: []int{len(out)}, Data: out}, nil)
}

// kLinspace is number values from start to stop, computed from both ends as Paddle's kernel does (the first half
// from start, the second from stop).
func kLinspace[T tensor.Float](c *call[T]) ([]*value[T], error) {
	start, err := c.requireScalar("start", 0)
	if err != nil {
		return nil, err
	}
	stop, err := c.requireScalar("stop", 1)
	if err != nil {
		return nil, err
	}
	num, ok, err := c.intScalarArg("number", 2)
	if err != nil {
		return nil, err
	}
	if !ok || num < 0 {
		return nil, fmt.Errorf("linspace needs a non-negative number")
	}
	out := make([]T, num)
	if num == 1 {
		out[0] = T(start)
	} else if num > 1 {
		step := (stop - start) / float64(num-1)
		half := num / 2
		for i := range num {
			if i < half {
				out[i] = T(start + step*float64(i))
			} else {
				out[i] = T(stop - step*float64(num-i-1))
			}
		}
	}
	return c.one(&tensor.Tensor[T]{Shape: []int{num}, Data: out}, nil)
}

// kFullWithTensor fills the shape argument with the one-element value operand.
func kFullWithTensor[T tensor.Float](c *call[T]) ([]*value[T], error) {
	v, err := c.tensorArg("value", 0)
	if err != nil {
		return nil, err
	}
	if len(v.Data) != 1 {
		return nil, fmt.Errorf("value must hold one element, has shape %v", v.Shape)
	}
	shape, err := c.requireInts("shape", 1)
	if err != nil {
		return nil, err
	}
	if _, err := NumElements(shape); err != nil {
		return nil, err
	}
	return c.one(tensor.Full(v.Data[0], shape...))
}

// kFill is x's shape filled with the value argument.
func kFill[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.arg(0)
	if err != nil {
		return nil, err
	}
	v, err := c.requireScalar("value", 1)
	if err != nil {
		return nil, err
	}
	return c.one(tensor.Full(T(v), x.shape...))
}

// kNumel is x's element count, a 0-D (or, as older Paddle declares it, [1]) int64.
func kNumel[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.arg(0)
	if err != nil {
		return nil, err
	}
	return c.one(c.declaredScalar(tensor.Scalar(T(x.NumElements())), 0), nil)
}
