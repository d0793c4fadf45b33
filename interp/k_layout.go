package interp

import (
	"fmt"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// Ops that move, repeat or overwrite elements without arithmetic: strided slices and their assignments
// (set_value), flips, rolls, tiles, broadcasts, stacks, pads, diagonals and triangles.

func registerLayout[T tensor.Float](r registry[T]) {
	r["pd_op.strided_slice"] = kStridedSlice[T]
	r["pd_op.set_value"] = kSetValue[T]
	r["pd_op.set_value_with_tensor"] = kSetValue[T]
	r["pd_op.flip"] = kFlip[T]
	r["pd_op.roll"] = kRoll[T]
	r["pd_op.tile"] = kTile[T]
	r["pd_op.expand_as"] = kExpandAs[T]
	r["pd_op.broadcast_tensors"] = kBroadcastTensors[T]
	r["pd_op.stack"] = kStack[T]
	r["pd_op.meshgrid"] = kMeshgrid[T]
	r["pd_op.pad"] = kPad[T]
	r["pd_op.pad3d"] = kPad3D[T]
	r["pd_op.diag"] = kDiag[T]
	r["pd_op.tril"] = triangle[T](true)
	r["pd_op.triu"] = triangle[T](false)
	r["pd_op.repeat_interleave"] = kRepeatInterleave[T]
	r["pd_op.fill_diagonal"] = kFillDiagonal[T]
	r["pd_op.fill_diagonal_tensor"] = kFillDiagonalTensor[T]
}

// sliceRange resolves a Python-style slice start:end:step against a dimension of size d (negative bounds count
// from the end, out-of-range bounds clamp) and returns the first index and the count.
func sliceRange(start, end, step, d int) (first, count int, err error) {
	if step == 0 {
		return 0, 0, fmt.Errorf("slice step is 0")
	}
	if step > 0 {
		if start < 0 {
			start += d
		}
		if end < 0 {
			end += d
		}
		start, end = min(max(start, 0), d), min(max(end, 0), d)
		if end <= start {
			return start, 0, nil
		}
		return start, (end - start + step - 1) / step, nil
	}
	if start < 0 {
		start += d
	}
	if end < 0 {
		end += d
	}
	start, end = min(max(start, -1), d-1), min(max(end, -1), d-1)
	if start <= end {
		return start, 0, nil
	}
	return start, (start - end - step - 1) / -step, nil
}

// region is a strided box of a tensor: per dimension, the first index, the count and the step.
type region struct {
	first, count, step []int
}

// sliceRegion resolves starts/ends/steps on axes into a region of shape (every other dimension whole).
func sliceRegion(shape []int, axes, starts, ends, steps []int) (*region, error) {
	r := len(shape)
	if len(starts) != len(axes) || len(ends) != len(axes) || steps != nil && len(steps) != len(axes) {
		return nil, fmt.Errorf("axes %v, starts %v, ends %v and steps %v must have equal lengths", axes, starts, ends, steps)
	}
	g := &region{first: make([]int, r), count: append([]int{}, shape...), step: make([]int, r)}
	for i := range g.step {
		g.step[i] = 1
	}
	for k, ax := range axes {
		a, err := normAxis(ax, r)
		if err != nil {
			return nil, err
		}
		st := 1
		if steps != nil {
			st = steps[k]
		}
		f, n, err := sliceRange(starts[k], ends[k], st, shape[a])
		if err != nil {
			return nil, err
		}
		g.first[a], g.count[a], g.step[a] = f, n, st
	}
	return g, nil
}

// offsets lists the flat offsets of a region's elements in row-major order.
func (g *region) offsets(shape []int) []int {
	r := len(shape)
	st := make([]int, r)
	s := 1
	for d := r - 1; d >= 0; d-- {
		st[d] = s
		s *= shape[d]
	}
	n := prod(g.count)
	out := make([]int, 0, n)
	if n == 0 {
		return out
	}
	pos := make([]int, r)
	for {
		off := 0
		for d := range r {
			off += (g.first[d] + pos[d]*g.step[d]) * st[d]
		}
		out = append(out, off)
		d := r - 1
		for ; d >= 0; d-- {
			pos[d]++
			if pos[d] < g.count[d] {
				break
			}
			pos[d] = 0
		}
		if d < 0 {
			return out
		}
	}
}

// kStridedSlice is x[start:end:stride] on axes (Python slice semantics per axis).
func kStridedSlice[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	starts, err := c.requireInts("starts", 1)
	if err != nil {
		return nil, err
	}
	ends, err := c.requireInts("ends", 2)
	if err != nil {
		return nil, err
	}
	strides, err := c.requireInts("strides", 3)
	if err != nil {
		return nil, err
	}
	axes, _ := c.attrInts("axes")
	g, err := sliceRegion(x.Shape, axes, starts, ends, strides)
	if err != nil {
		return nil, err
	}
	offs := g.offsets(x.Shape)
	out := make([]T, len(offs))
	for i, o := range offs {
		out[i] = x.Data[o]
	}
	return c.one(&tensor.Tensor[T]{Shape: append([]int{}, g.count...), Data: out}, nil)
}

// kSetValue is set_value and set_value_with_tensor: a copy of x whose slice region (starts, ends, steps on axes)
// is overwritten by values — the values operand, or the constant of the shape and values attributes — broadcast
// to the region's shape with decrease_axes removed and none_axes inserted. The inplace forms (set_value_,
// set_value_with_tensor_) write the region into x's buffer.
func kSetValue[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.tensorArg("x", 0)
	if err != nil {
		return nil, err
	}
	pos := 1
	var vals *tensor.Tensor[T]
	if v := c.named("values", 1); v != nil && !v.vec {
		vals = v.tensor()
		pos = 2
	} else {
		shape, _ := c.attrInts("shape")
		arr, ok := c.attr("values").(*ir.ArrayAttr)
		if !ok {
			return nil, fmt.Errorf("no values operand or attribute")
		}
		data := make([]T, len(arr.Elems))
		for i, e := range arr.Elems {
			f, ok := ir.AsFloat(e)
			if b, isBool := ir.AsBool(e); isBool {
				f, ok = b2f(b), true
			}
			if !ok {
				return nil, unsupported("set_value value %s", e)
			}
			data[i] = T(f)
		}
		if prod(shape) != len(data) {
			return nil, fmt.Errorf("values attribute holds %d elements for shape %v", len(data), shape)
		}
		vals = &tensor.Tensor[T]{Shape: shape, Data: data}
	}
	starts, err := c.requireInts("starts", pos)
	if err != nil {
		return nil, err
	}
	ends, err := c.requireInts("ends", pos+1)
	if err != nil {
		return nil, err
	}
	steps, err := c.requireInts("steps", pos+2)
	if err != nil {
		return nil, err
	}
	axes, _ := c.attrInts("axes")
	g, err := sliceRegion(x.Shape, axes, starts, ends, steps)
	if err != nil {
		return nil, err
	}
	// The shape values broadcast to: the region without decreased axes, with none_axes inserted.
	dec, _ := c.attrInts("decrease_axes")
	none, _ := c.attrInts("none_axes")
	drop := map[int]bool{}
	for _, d := range dec {
		if d < 0 {
			d += len(x.Shape)
		}
		drop[d] = true
	}
	var target []int
	for d, n := range g.count {
		if !drop[d] {
			target = append(target, n)
		}
	}
	for _, a := range none {
		if a < 0 || a > len(target) {
			return nil, fmt.Errorf("none_axes %v out of range", none)
		}
		target = append(target[:a], append([]int{1}, target[a:]...)...)
	}
	if target == nil {
		target = []int{}
	}
	// Paddle matches the values' shape with the slice's after leading 1s (CheckIsDimsMatch): values [1] fill the
	// element x[0] of a decreased axis (TimesNet: shape [1] into a 0-d slice).
	vshape := vals.Shape
	for len(vshape) > len(target) && vshape[0] == 1 {
		vshape = vshape[1:]
	}
	vals = &tensor.Tensor[T]{Shape: vshape, Data: vals.Data}
	zero := &tensor.Tensor[T]{Shape: target, Data: make([]T, prod(target))}
	bv, err := tensor.Map2("set_value", zero, vals, func(_, v T) T { return v })
	if err != nil || !sameInts(bv.Shape, target) {
		return nil, fmt.Errorf("values %v cannot broadcast to the slice %v", vals.Shape, target)
	}
	if s := c.op.Schema(); s != nil && len(s.Inplace) > 0 && s.Inplace[0].Operand == 0 && s.Inplace[0].Result == 0 {
		// set_value_ writes the region in place rather than copy x whole to change a slice of it (Mask-RT-DETR
		// writes 201 slices of one mask in a row); bv is a fresh broadcast, so values aliasing x are read first.
		xv := c.named("x", 0)
		data := xv.buf.writable()
		for i, o := range g.offsets(x.Shape) {
			data[o] = bv.Data[i]
		}
		return []*value[T]{xv.view(xv.shape, xv.dtype)}, nil
	}
	out := x.Clone()
	for i, o := range g.offsets(x.Shape) {
		out.Data[o] = bv.Data[i]
	}
	return c.one(out, nil)
}

// kFlip reverses x along the axis list.
func kFlip[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	axes, err := c.requireInts("axis", 1)
	if err != nil {
		return nil, err
	}
	r := len(x.Shape)
	g := &region{first: make([]int, r), count: append([]int{}, x.Shape...), step: make([]int, r)}
	for i := range g.step {
		g.step[i] = 1
	}
	for _, ax := range axes {
		a, err := normAxis(ax, r)
		if err != nil {
			return nil, err
		}
		g.first[a], g.step[a] = x.Shape[a]-1, -1
	}
	offs := g.offsets(x.Shape)
	out := make([]T, len(offs))
	for i, o := range offs {
		out[i] = x.Data[o]
	}
	return c.one(&tensor.Tensor[T]{Shape: append([]int{}, x.Shape...), Data: out}, nil)
}

// kRoll shifts x circularly by shifts along axis (of the flattened tensor when axis is empty).
func kRoll[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	shifts, err := c.requireInts("shifts", 1)
	if err != nil {
		return nil, err
	}
	axes, _ := c.attrInts("axis")
	shape := x.Shape
	if len(axes) == 0 {
		shape = []int{len(x.Data)}
		axes = []int{0}
		if len(shifts) != 1 {
			return nil, fmt.Errorf("roll without axis takes one shift, has %v", shifts)
		}
	}
	if len(shifts) != len(axes) {
		return nil, fmt.Errorf("shifts %v and axis %v must have equal lengths", shifts, axes)
	}
	cur, moved := x.Data, false
	for k, ax := range axes {
		a, err := normAxis(ax, len(shape))
		if err != nil {
			return nil, err
		}
		outer, n, inner := splitAt(shape, a)
		if n == 0 {
			continue
		}
		s := ((shifts[k] % n) + n) % n
		next := make([]T, len(cur))
		for o := range outer {
			for i := range n {
				j := (i + s) % n
				copy(next[(o*n+j)*inner:(o*n+j+1)*inner], cur[(o*n+i)*inner:(o*n+i+1)*inner])
			}
		}
		cur, moved = next, true
	}
	if !moved {
		cur = append([]T{}, cur...)
	}
	return c.one(&tensor.Tensor[T]{Shape: append([]int{}, x.Shape...), Data: cur}, nil)
}

// broadcastTo copies x broadcast to shape (numpy rules; x's dims must be 1 or equal).
func broadcastTo[T tensor.Float](x *tensor.Tensor[T], shape []int) (*tensor.Tensor[T], error) {
	zero := &tensor.Tensor[T]{Shape: shape, Data: make([]T, prod(shape))}
	out, err := tensor.Map2("broadcast", zero, x, func(_, v T) T { return v })
	if err != nil {
		return nil, err
	}
	if !sameInts(out.Shape, shape) {
		return nil, fmt.Errorf("cannot broadcast %v to %v", x.Shape, shape)
	}
	return out, nil
}

// kTile repeats x repeat_times times per dimension (the shorter of the two padded with leading 1s).
func kTile[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	reps, err := c.requireInts("repeat_times", 1)
	if err != nil {
		return nil, err
	}
	r := max(len(reps), len(x.Shape))
	xs := append(make([]int, r-len(x.Shape)), x.Shape...)
	rs := append(make([]int, r-len(reps)), reps...)
	for i := range r - len(x.Shape) {
		xs[i] = 1
	}
	for i := range r - len(reps) {
		rs[i] = 1
	}
	// Tile as a broadcast: view x as [1, x0, 1, x1, …], broadcast to [r0, x0, r1, x1, …], then merge pairs.
	var inter, target, out []int
	for i := range r {
		if rs[i] < 0 {
			return nil, fmt.Errorf("repeat_times %v has a negative entry", reps)
		}
		inter = append(inter, 1, xs[i])
		target = append(target, rs[i], xs[i])
		out = append(out, rs[i]*xs[i])
	}
	b, err := broadcastTo(&tensor.Tensor[T]{Shape: inter, Data: x.Data}, target)
	if err != nil {
		return nil, err
	}
	b.Shape = out
	return c.one(b, nil)
}

// kExpandAs broadcasts x to y's shape, or to the target_shape attribute when y is absent.
func kExpandAs[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	y, err := c.optIn(1)
	if err != nil {
		return nil, err
	}
	var shape []int
	if y != nil {
		shape = y.Shape
	} else if s, ok := c.attrInts("target_shape"); ok && len(s) > 0 {
		shape = s
	} else {
		return nil, fmt.Errorf("no y operand or target_shape attribute")
	}
	return c.one(broadcastTo(x, shape))
}

// kBroadcastTensors broadcasts every tensor of its vector operand to their common shape.
func kBroadcastTensors[T tensor.Float](c *call[T]) ([]*value[T], error) {
	xs, err := c.vector(0)
	if err != nil {
		return nil, err
	}
	shape := []int{}
	for _, x := range xs {
		if shape, err = tensor.BroadcastShape(shape, x.shape); err != nil {
			return nil, err
		}
	}
	outs := make([]*tensor.Tensor[T], len(xs))
	for i, x := range xs {
		if outs[i], err = broadcastTo(x.tensor(), shape); err != nil {
			return nil, err
		}
	}
	return []*value[T]{c.vecOut(outs, 0)}, nil
}

// kStack joins equally shaped tensors along a new axis.
func kStack[T tensor.Float](c *call[T]) ([]*value[T], error) {
	xs, err := c.vector(0)
	if err != nil {
		return nil, err
	}
	if len(xs) == 0 {
		return nil, fmt.Errorf("stack of no tensors")
	}
	shape := xs[0].shape
	axis, err := normAxis(c.attrInt("axis", 0), len(shape)+1)
	if err != nil {
		return nil, err
	}
	outer, inner := 1, 1
	for _, d := range shape[:axis] {
		outer *= d
	}
	for _, d := range shape[axis:] {
		inner *= d
	}
	k := len(xs)
	out := make([]T, outer*k*inner)
	for j, x := range xs {
		if !sameInts(x.shape, shape) {
			return nil, fmt.Errorf("stack of tensors of shapes %v and %v", shape, x.shape)
		}
		for o := range outer {
			copy(out[(o*k+j)*inner:(o*k+j+1)*inner], x.buf.data[o*inner:(o+1)*inner])
		}
	}
	oshape := append(append(append([]int{}, shape[:axis]...), k), shape[axis:]...)
	return c.one(&tensor.Tensor[T]{Shape: oshape, Data: out}, nil)
}

// kMeshgrid turns 1-D (or 0-D) tensors of lengths n0, n1, … into grids of shape [n0, n1, …] ("ij" indexing).
func kMeshgrid[T tensor.Float](c *call[T]) ([]*value[T], error) {
	xs, err := c.vector(0)
	if err != nil {
		return nil, err
	}
	shape := make([]int, len(xs))
	for i, x := range xs {
		if len(x.shape) > 1 {
			return nil, fmt.Errorf("meshgrid input %d has shape %v, not 1-D", i, x.shape)
		}
		shape[i] = len(x.buf.data)
	}
	outs := make([]*tensor.Tensor[T], len(xs))
	for i, x := range xs {
		view := make([]int, len(xs))
		for k := range view {
			view[k] = 1
		}
		view[i] = shape[i]
		if outs[i], err = broadcastTo(&tensor.Tensor[T]{Shape: view, Data: x.buf.data}, shape); err != nil {
			return nil, err
		}
	}
	return []*value[T]{c.vecOut(outs, 0)}, nil
}

// padConstant pads (or, with negative amounts, crops) every dimension d of x by before[d], after[d] with v.
func padConstant[T tensor.Float](x *tensor.Tensor[T], before, after []int, v T) (*tensor.Tensor[T], error) {
	r := len(x.Shape)
	shape := make([]int, r)
	for d := range r {
		shape[d] = x.Shape[d] + before[d] + after[d]
		if shape[d] < 0 {
			return nil, fmt.Errorf("padding %v/%v makes dimension %d of %v negative", before, after, d, x.Shape)
		}
	}
	out := make([]T, prod(shape))
	for i := range out {
		out[i] = v
	}
	// Copy the overlap of x and the output.
	src := &region{first: make([]int, r), count: make([]int, r), step: make([]int, r)}
	dst := &region{first: make([]int, r), count: make([]int, r), step: make([]int, r)}
	for d := range r {
		lo := max(0, -before[d])
		hi := min(x.Shape[d], shape[d]-before[d])
		src.first[d], src.count[d], src.step[d] = lo, max(hi-lo, 0), 1
		dst.first[d], dst.count[d], dst.step[d] = lo+before[d], max(hi-lo, 0), 1
	}
	so, do := src.offsets(x.Shape), dst.offsets(shape)
	for i, o := range so {
		out[do[i]] = x.Data[o]
	}
	return &tensor.Tensor[T]{Shape: shape, Data: out}, nil
}

// kPad pads every dimension by paddings [before0, after0, before1, after1, …] with pad_value.
func kPad[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	p, ok := c.attrInts("paddings")
	if !ok || len(p) != 2*len(x.Shape) {
		return nil, fmt.Errorf("paddings %v must hold two values per dimension of %v", p, x.Shape)
	}
	v, ok, err := c.scalarArg("pad_value", 1)
	if err != nil {
		return nil, err
	}
	if !ok {
		v = 0
	}
	before, after := make([]int, len(x.Shape)), make([]int, len(x.Shape))
	for d := range x.Shape {
		before[d], after[d] = p[2*d], p[2*d+1]
	}
	return c.one(padConstant(x, before, after, T(v)))
}

// kPad3D pads the spatial dims of a 5-D NCDHW (NDHWC) tensor by paddings [left, right, top, bottom, front, back]
// in mode constant (pad_value), reflect, replicate or circular.
func kPad3D[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	p, err := c.requireInts("paddings", 1)
	if err != nil {
		return nil, err
	}
	if len(x.Shape) != 5 || len(p) != 6 {
		return nil, fmt.Errorf("pad3d needs a 5-D x and 6 paddings, has %v and %v", x.Shape, p)
	}
	dAxis, hAxis, wAxis := 2, 3, 4
	if c.attrString("data_format", "NCDHW") == "NDHWC" {
		dAxis, hAxis, wAxis = 1, 2, 3
	}
	before, after := make([]int, 5), make([]int, 5)
	before[wAxis], after[wAxis] = p[0], p[1]
	before[hAxis], after[hAxis] = p[2], p[3]
	before[dAxis], after[dAxis] = p[4], p[5]
	mode := c.attrString("mode", "constant")
	if mode == "constant" {
		return c.one(padConstant(x, before, after, T(c.attrFloat("pad_value", 0))))
	}
	// Other modes: each output coordinate maps to an input coordinate per axis.
	src := func(i, n int) (int, error) {
		switch mode {
		case "reflect":
			if n == 1 {
				return 0, nil
			}
			period := 2 * (n - 1)
			i = ((i % period) + period) % period
			if i >= n {
				i = period - i
			}
			return i, nil
		case "replicate":
			return min(max(i, 0), n-1), nil
		case "circular":
			return ((i % n) + n) % n, nil
		}
		return 0, unsupported("pad3d mode %q", mode)
	}
	shape := make([]int, 5)
	for d := range 5 {
		shape[d] = x.Shape[d] + before[d] + after[d]
		if shape[d] < 0 || x.Shape[d] == 0 && shape[d] > 0 {
			return nil, fmt.Errorf("cannot pad dimension %d of %v by %d/%d", d, x.Shape, before[d], after[d])
		}
	}
	st := []int{0, 0, 0, 0, 1}
	for d := 3; d >= 0; d-- {
		st[d] = st[d+1] * x.Shape[d+1]
	}
	out := make([]T, prod(shape))
	pos := make([]int, 5)
	for o := range out {
		off := 0
		for d := range 5 {
			s, err := src(pos[d]-before[d], x.Shape[d])
			if err != nil {
				return nil, err
			}
			off += s * st[d]
		}
		out[o] = x.Data[off]
		for d := 4; d >= 0; d-- {
			pos[d]++
			if pos[d] < shape[d] {
				break
			}
			pos[d] = 0
		}
	}
	return c.one(&tensor.Tensor[T]{Shape: shape, Data: out}, nil)
}

// kDiag builds a square matrix with a 1-D x on its offset diagonal (padding_value elsewhere), or takes the offset
// diagonal of a 2-D x.
func kDiag[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	off := c.attrInt("offset", 0)
	switch len(x.Shape) {
	case 0, 1:
		n := len(x.Data)
		m := n + absInt(off)
		out := make([]T, m*m)
		pad := T(c.attrFloat("padding_value", 0))
		for i := range out {
			out[i] = pad
		}
		for i, v := range x.Data {
			r, col := i, i+off
			if off < 0 {
				r, col = i-off, i
			}
			out[r*m+col] = v
		}
		return c.one(&tensor.Tensor[T]{Shape: []int{m, m}, Data: out}, nil)
	case 2:
		rows, cols := x.Shape[0], x.Shape[1]
		var out []T
		for i := range rows {
			j := i + off
			if j >= 0 && j < cols {
				out = append(out, x.Data[i*cols+j])
			}
		}
		if out == nil {
			out = []T{}
		}
		return c.one(&tensor.Tensor[T]{Shape: []int{len(out)}, Data: out}, nil)
	}
	return nil, fmt.Errorf("diag of a tensor of rank %d", len(x.Shape))
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// triangle is tril (keep col − row ≤ diagonal) or triu (keep col − row ≥ diagonal) on the last two dims.
func triangle[T tensor.Float](lower bool) kernel[T] {
	return func(c *call[T]) ([]*value[T], error) {
		x, err := c.in(0)
		if err != nil {
			return nil, err
		}
		r := len(x.Shape)
		if r < 2 {
			return nil, fmt.Errorf("tril/triu need rank >= 2, x is %v", x.Shape)
		}
		diag := c.attrInt("diagonal", 0)
		rows, cols := x.Shape[r-2], x.Shape[r-1]
		out := x.Clone()
		for i := range out.Data {
			row, col := (i/cols)%rows, i%cols
			if lower && col-row > diag || !lower && col-row < diag {
				out.Data[i] = 0
			}
		}
		return c.one(out, nil)
	}
}

// kRepeatInterleave repeats each slice of x along axis repeats times.
func kRepeatInterleave[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	reps := c.attrInt("repeats", 1)
	shape := x.Shape
	axis := c.attrInt("axis", 0)
	if len(shape) == 0 {
		shape = []int{1}
	}
	if axis, err = normAxis(axis, len(shape)); err != nil {
		return nil, err
	}
	if reps < 0 {
		return nil, fmt.Errorf("repeats %d is negative", reps)
	}
	outer, n, inner := splitAt(shape, axis)
	out := make([]T, 0, outer*n*reps*inner)
	for o := range outer {
		for i := range n {
			for range reps {
				out = append(out, x.Data[(o*n+i)*inner:(o*n+i+1)*inner]...)
			}
		}
	}
	oshape := append([]int{}, shape...)
	oshape[axis] = n * reps
	return c.one(&tensor.Tensor[T]{Shape: oshape, Data: out}, nil)
}

// kFillDiagonal writes value on the offset diagonal of x (a matrix, or a tensor whose dims are all equal); with
// wrap, a tall matrix's diagonal restarts every cols+1 rows, as in Paddle's kernel.
func kFillDiagonal[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	if len(x.Shape) < 2 {
		return nil, fmt.Errorf("fill_diagonal needs rank >= 2, x is %v", x.Shape)
	}
	stride, s := 0, 1
	for d := len(x.Shape) - 1; d >= 0; d-- {
		stride += s
		s *= x.Shape[d]
	}
	size := len(x.Data)
	cols := x.Shape[1]
	if !c.attrBool("wrap", false) {
		size = min(size, cols*cols)
	}
	off := c.attrInt("offset", 0)
	v := T(c.attrFloat("value", 0))
	out := x.Clone()
	for i := 0; i < size; i += stride {
		if col := i%cols + off; col >= 0 && col < cols {
			out.Data[i+off] = v
		}
	}
	return c.one(out, nil)
}

// kFillDiagonalTensor writes y along the offset diagonal of dims dim1 and dim2 of x: y has x's shape without
// those dims plus the diagonal's length.
func kFillDiagonalTensor[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, y, err := c.pair()
	if err != nil {
		return nil, err
	}
	r := len(x.Shape)
	d1, err := normAxis(c.attrInt("dim1", 0), r)
	if err != nil {
		return nil, err
	}
	d2, err := normAxis(c.attrInt("dim2", 1), r)
	if err != nil {
		return nil, err
	}
	if d1 == d2 {
		return nil, fmt.Errorf("dim1 and dim2 are both %d", d1)
	}
	off := c.attrInt("offset", 0)
	n1, n2 := x.Shape[d1], x.Shape[d2]
	start1, start2 := 0, off
	if off < 0 {
		start1, start2 = -off, 0
	}
	length := max(0, min(n1-start1, n2-start2))
	var rest []int
	for d, n := range x.Shape {
		if d != d1 && d != d2 {
			rest = append(rest, n)
		}
	}
	want := append(append([]int{}, rest...), length)
	if !sameInts(y.Shape, want) {
		return nil, fmt.Errorf("y %v must be %v", y.Shape, want)
	}
	st := make([]int, r)
	s := 1
	for d := r - 1; d >= 0; d-- {
		st[d] = s
		s *= x.Shape[d]
	}
	out := x.Clone()
	pos := make([]int, len(rest))
	for yi := 0; yi < len(y.Data); yi += length {
		for k := range length {
			off, p := 0, 0
			for d := range r {
				switch d {
				case d1:
					off += (start1 + k) * st[d]
				case d2:
					off += (start2 + k) * st[d]
				default:
					off += pos[p] * st[d]
					p++
				}
			}
			out.Data[off] = y.Data[yi+k]
		}
		for d := len(rest) - 1; d >= 0; d-- {
			pos[d]++
			if pos[d] < rest[d] {
				break
			}
			pos[d] = 0
		}
	}
	return c.one(out, nil)
}
