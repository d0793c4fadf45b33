package interp

import (
	"fmt"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// Shape ops. reshape, flatten, squeeze and unsqueeze are views in Paddle: their result shares the operand's buffer
// (the kernels return a value over the same buffer), so an inplace write through either is seen through both.
// transpose, concat, split, slice and expand copy.

func registerShape[T tensor.Float](r registry[T]) {
	r["pd_op.reshape"] = viewKernel(func(c *call[T], x *tensor.Tensor[T]) ([]int, error) {
		if len(c.args) < 2 || c.args[1] == nil {
			shape, ok := c.attrInts("shape")
			if !ok {
				return nil, fmt.Errorf("no shape operand or attribute")
			}
			return tensor.ReshapeShape(x, shape)
		}
		shape, err := c.ints(1)
		if err != nil {
			return nil, err
		}
		return tensor.ReshapeShape(x, shape)
	})
	r["pd_op.flatten"] = viewKernel(func(c *call[T], x *tensor.Tensor[T]) ([]int, error) {
		return tensor.FlattenShape(x, c.attrInt("start_axis", 1), c.attrInt("stop_axis", 1))
	})
	r["pd_op.squeeze"] = viewKernel(func(c *call[T], x *tensor.Tensor[T]) ([]int, error) {
		axes, err := c.axes(1)
		if err != nil {
			return nil, err
		}
		return tensor.SqueezeShape(x, axes)
	})
	r["pd_op.unsqueeze"] = viewKernel(func(c *call[T], x *tensor.Tensor[T]) ([]int, error) {
		axes, err := c.axes(1)
		if err != nil {
			return nil, err
		}
		return tensor.UnsqueezeShape(x, axes)
	})
	r["pd_op.transpose"] = kTranspose[T]
	r["pd_op.concat"] = kConcat[T]
	r["pd_op.split"] = kSplit[T]
	r["pd_op.split_with_num"] = kSplit[T]
	r["pd_op.expand"] = kExpand[T]
	r["pd_op.slice"] = kSlice[T]
	r["builtin.combine"] = kCombine[T]
	r["builtin.split"] = kBuiltinSplit[T]
	r["builtin.slice"] = kBuiltinSlice[T]
}

// viewKernel turns a shape function into a view kernel: the result has the computed shape over the operand's
// buffer (the tensor functions keep the row-major element order, so only the shape changes; their shape forms
// copy nothing, where the tensor functions themselves return a copy: a sixth of Mask-RT-DETR-L/subgraph_14's
// copying went to unsqueeze copies thrown away at once).
func viewKernel[T tensor.Float](shapeOf func(c *call[T], x *tensor.Tensor[T]) ([]int, error)) kernel[T] {
	return func(c *call[T]) ([]*value[T], error) {
		x, err := c.arg(0)
		if err != nil {
			return nil, err
		}
		shape, err := shapeOf(c, x.tensor())
		if err != nil {
			return nil, err
		}
		return []*value[T]{x.view(shape, c.outDType(0))}, nil
	}
}

// axes reads an axis list from operand i (IntArray operand) or, for older programs, the axis attribute.
func (c *call[T]) axes(i int) ([]int, error) {
	if i < len(c.args) && c.args[i] != nil {
		return c.ints(i)
	}
	if a, ok := c.attrInts("axis"); ok {
		return a, nil
	}
	if a, ok := c.attrInts("axes"); ok {
		return a, nil
	}
	return nil, fmt.Errorf("no axis operand or attribute")
}

func kTranspose[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	perm, ok := c.attrInts("perm")
	if !ok {
		return nil, fmt.Errorf("no perm attribute")
	}
	return c.one(tensor.Transpose(x, perm))
}

// axisArg reads a Scalar axis from operand i or the axis attribute.
func (c *call[T]) axisArg(i int) (int, error) {
	if i < len(c.args) && c.args[i] != nil {
		return c.intScalar(i)
	}
	if v, ok := ir.AsInt(c.attr("axis")); ok {
		return int(v), nil
	}
	return 0, fmt.Errorf("no axis operand or attribute")
}

func kConcat[T tensor.Float](c *call[T]) ([]*value[T], error) {
	xs, err := c.vector(0)
	if err != nil {
		return nil, err
	}
	axis, err := c.axisArg(1)
	if err != nil {
		return nil, err
	}
	ts := make([]*tensor.Tensor[T], len(xs))
	for i, x := range xs {
		ts[i] = x.tensor()
	}
	return c.one(tensor.Concat(axis, ts...))
}

// kSplit evaluates split (sections operand 1, axis operand 2) and split_with_num (num attribute, axis operand 1);
// the result is a vector.
func kSplit[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	var parts []*tensor.Tensor[T]
	if c.op.Name() == "pd_op.split_with_num" {
		axis, err := c.axisArg(1)
		if err != nil {
			return nil, err
		}
		num := c.attrInt("num", 0)
		if parts, err = tensor.SplitNum(x, num, axis); err != nil {
			return nil, err
		}
	} else {
		sections, err := c.ints(1)
		if err != nil {
			return nil, err
		}
		axis, err := c.axisArg(2)
		if err != nil {
			return nil, err
		}
		if parts, err = tensor.Split(x, sections, axis); err != nil {
			return nil, err
		}
	}
	return []*value[T]{c.vecOut(parts, 0)}, nil
}

// kExpand broadcasts x to the shape operand (-1 keeps x's size, as in Paddle).
func kExpand[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	shape, err := c.ints(1)
	if err != nil {
		return nil, err
	}
	if len(shape) < len(x.Shape) {
		return nil, fmt.Errorf("expand: shape %v has fewer dims than x %v", shape, x.Shape)
	}
	off := len(shape) - len(x.Shape)
	target := make([]int, len(shape))
	for i, d := range shape {
		switch {
		case d == -1 && i >= off:
			target[i] = x.Shape[i-off]
		case d < 0:
			return nil, fmt.Errorf("expand: bad size %d in %v", d, shape)
		default:
			target[i] = d
		}
		if i >= off && x.Shape[i-off] != 1 && x.Shape[i-off] != target[i] {
			return nil, fmt.Errorf("expand: cannot expand %v to %v", x.Shape, shape)
		}
	}
	n, err := NumElements(target)
	if err != nil {
		return nil, err
	}
	zero := &tensor.Tensor[T]{Shape: target, Data: make([]T, n)}
	return c.one(mapBinary(x, zero, func(a, _ float64) float64 { return a }))
}

// kSlice is pd_op.slice with step 1: starts/ends (operands 1, 2) on axes, clamped to the dims as Paddle does
// (negative values count from the end), then decrease_axis dims removed.
func kSlice[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	starts, err := c.ints(1)
	if err != nil {
		return nil, err
	}
	ends, err := c.ints(2)
	if err != nil {
		return nil, err
	}
	axes, ok := c.attrInts("axes")
	if !ok || len(axes) != len(starts) || len(axes) != len(ends) {
		return nil, fmt.Errorf("slice: axes %v, starts %v and ends %v must have equal lengths", axes, starts, ends)
	}
	r := len(x.Shape)
	lo := make([]int, r)
	hi := append([]int{}, x.Shape...)
	for k, a := range axes {
		if a < 0 {
			a += r
		}
		if a < 0 || a >= r {
			return nil, fmt.Errorf("slice: axis %d out of range for rank %d", axes[k], r)
		}
		d := x.Shape[a]
		s, e := starts[k], ends[k]
		if s < 0 {
			s += d
		}
		if e < 0 {
			e += d
		}
		s = min(max(s, 0), d)
		e = min(max(e, 0), d)
		if e < s {
			e = s
		}
		lo[a], hi[a] = s, e
	}
	shape := make([]int, r)
	for i := range shape {
		shape[i] = hi[i] - lo[i]
	}
	n, err := NumElements(shape)
	if err != nil {
		return nil, err
	}
	out := &tensor.Tensor[T]{Shape: shape, Data: make([]T, 0, n)}
	if n > 0 {
		st := make([]int, r)
		s := 1
		for i := r - 1; i >= 0; i-- {
			st[i] = s
			s *= x.Shape[i]
		}
		var walk func(d, off int)
		walk = func(d, off int) {
			if d == r {
				out.Data = append(out.Data, x.Data[off])
				return
			}
			for i := lo[d]; i < hi[d]; i++ {
				walk(d+1, off+i*st[d])
			}
		}
		walk(0, 0)
	}
	if dec, ok := c.attrInts("decrease_axis"); ok && len(dec) > 0 {
		drop := map[int]bool{}
		for _, a := range dec {
			if a < 0 {
				a += r
			}
			drop[a] = true
		}
		kept := []int{}
		for i, d := range shape {
			if !drop[i] {
				kept = append(kept, d)
			}
		}
		out.Shape = kept
	}
	return c.one(out, nil)
}

// kCombine packs its operands into a vector (the elements share the operands' buffers).
func kCombine[T tensor.Float](c *call[T]) ([]*value[T], error) {
	v := &value[T]{vec: true, elems: make([]*value[T], len(c.args))}
	for i, a := range c.args {
		if a == nil {
			return nil, fmt.Errorf("operand %d is missing", i)
		}
		if a.vec {
			v.elems[i] = &value[T]{vec: true, elems: a.elems}
		} else {
			v.elems[i] = a.view(a.shape, a.dtype)
		}
	}
	return []*value[T]{v}, nil
}

// kBuiltinSplit unpacks a vector into its elements (sharing their buffers).
func kBuiltinSplit[T tensor.Float](c *call[T]) ([]*value[T], error) {
	xs, err := c.vector(0)
	if err != nil {
		return nil, err
	}
	if len(xs) != c.op.NumResults() {
		return nil, fmt.Errorf("the vector has %d elements for %d results", len(xs), c.op.NumResults())
	}
	out := make([]*value[T], len(xs))
	for i, x := range xs {
		out[i] = x.view(x.shape, x.dtype)
	}
	return out, nil
}

// kBuiltinSlice picks element index of a vector (sharing its buffer).
func kBuiltinSlice[T tensor.Float](c *call[T]) ([]*value[T], error) {
	xs, err := c.vector(0)
	if err != nil {
		return nil, err
	}
	i := c.attrInt("index", -1)
	if i < 0 || i >= len(xs) {
		return nil, fmt.Errorf("index %d out of range for a vector of %d", i, len(xs))
	}
	return []*value[T]{xs[i].view(xs[i].shape, xs[i].dtype)}, nil
}
