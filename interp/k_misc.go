package interp

import (
	"fmt"
	"math"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// Sequences and fills (arange, linspace, full_with_tensor, fill, numel), complex parts, and the ops of distributed
// and stream-scheduled programs evaluated as one process: the interpreter is a world of one rank, where every
// collective (all-reduce, broadcast, reduce, all-gather of one part) returns its operand and stream
// synchronisations do nothing.

func registerMisc[T tensor.Float](r registry[T]) {
	r["pd_op.arange"] = kArange[T]
	r["pd_op.linspace"] = kLinspace[T]
	r["pd_op.full_with_tensor"] = kFullWithTensor[T]
	r["pd_op.fill"] = kFill[T]
	r["pd_op.numel"] = kNumel[T]
	r["pd_op.real"] = complexPart[T](0)
	r["pd_op.imag"] = complexPart[T](1)
	r["pd_op.share_data"] = kCopy[T]
	r["pd_op.random_routing"] = kRandomRouting[T]
	for _, name := range []string{"c_allreduce_sum", "c_allreduce_max", "c_allreduce_min", "c_allreduce_prod",
		"c_allreduce_avg", "all_reduce", "c_broadcast", "c_identity", "c_reduce_sum", "c_reduce_max", "c_reduce_min",
		"c_reduce_prod", "c_reduce_avg", "c_sync_calc_stream", "c_sync_comm_stream", "sync_calc_stream", "nop"} {
		r["pd_op."+name] = kCopy[T]
	}
	r["pd_op.partial_allgather"] = kPartialAllgather[T]
	r["pd_op.c_reducescatter"] = kPartialAllgather[T]
	r["pd_op.c_allgather"] = kPartialAllgather[T]
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
	if _, err := numel(shape); err != nil {
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
	return c.one(c.declaredScalar(tensor.Scalar(T(x.numel())), 0), nil)
}

// complexPart returns the real (0) or imaginary (1) part of a complex tensor (a real tensor's imaginary part is
// zero).
func complexPart[T tensor.Float](part int) kernel[T] {
	return func(c *call[T]) ([]*value[T], error) {
		x, err := c.arg(0)
		if err != nil {
			return nil, err
		}
		n := x.numel()
		out := make([]T, n)
		if isComplex(x.dtype) {
			for i := range out {
				out[i] = x.buf.data[2*i+part]
			}
		} else if part == 0 {
			copy(out, x.buf.data)
		}
		return c.one(&tensor.Tensor[T]{Shape: append([]int{}, x.shape...), Data: out}, nil)
	}
}

// isComplex reports whether dt is a complex type (whose tensors hold real and imaginary parts interleaved).
func isComplex(dt ir.DType) bool { return dt == ir.DTypeComplex64 || dt == ir.DTypeComplex128 }

// kPartialAllgather gathers (c_reducescatter: reduces and scatters) the parts of nranks ranks: with one rank, its
// operand.
func kPartialAllgather[T tensor.Float](c *call[T]) ([]*value[T], error) {
	if n := c.attrInt("nranks", 1); n != 1 {
		return nil, unsupported("%s over %d ranks (the interpreter is one rank)", c.op.Name(), n)
	}
	return kCopy(c)
}

// kRandomRouting is the routing step of mixture-of-experts gating: a copy of topk_idx [tokens, k] whose second
// choice is dropped (-1) where twice its gate value is below the token's prob.
func kRandomRouting[T tensor.Float](c *call[T]) ([]*value[T], error) {
	prob, err := c.in(0)
	if err != nil {
		return nil, err
	}
	val, idx, err := c.inPair(1, 2)
	if err != nil {
		return nil, err
	}
	if len(idx.Shape) != 2 || !sameInts(val.Shape, idx.Shape) || len(prob.Data) != idx.Shape[0] {
		return nil, fmt.Errorf("random_routing needs prob [N], topk_value and topk_idx [N, k], has %v, %v, %v",
			prob.Shape, val.Shape, idx.Shape)
	}
	k := idx.Shape[1]
	out := idx.Clone()
	if k >= 2 {
		for i, p := range prob.Data {
			if 2*float64(val.Data[i*k+1]) < float64(p) {
				out.Data[i*k+1] = -1
			}
		}
	}
	return c.one(out, nil)
}
