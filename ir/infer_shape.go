package ir

import "fmt"

// Result-type rules of the ops that move, cut, join or repeat elements without computing on them (reshape,
// transpose, slice, concat, split, stack, expand, tile, gather, pad, …), after the InferMeta functions each rule
// names. IntArray and Scalar operands are read as Paddle's op builders read them (InferInput.intArray, scalar).

// ReshapeDims applies Paddle's reshape target (0 copies the input size at that index, one -1 is inferred) to
// input dims.
func ReshapeDims(in, target []int64) ([]int64, error) {
	out := make([]int64, len(target))
	infer := -1
	known := int64(1)
	for i, t := range target {
		switch {
		case t == 0:
			if i >= len(in) {
				return nil, fmt.Errorf("reshape: 0 at index %d but the input has rank %d", i, len(in))
			}
			out[i] = in[i]
		case t == -1:
			if infer >= 0 {
				return nil, fmt.Errorf("reshape: more than one -1 in %v", target)
			}
			infer = i
			out[i] = Dynamic
			continue
		case t < 0:
			return nil, fmt.Errorf("reshape: bad size %d", t)
		default:
			out[i] = t
		}
		if out[i] < 0 {
			known = -1
		} else if known >= 0 {
			known *= out[i]
		}
	}
	if infer >= 0 {
		total := int64(1)
		for _, d := range in {
			if d < 0 {
				total = -1
				break
			}
			total *= d
		}
		if total >= 0 && known > 0 {
			if total%known != 0 {
				return nil, fmt.Errorf("reshape: %v does not fit %d elements", target, total)
			}
			out[infer] = total / known
		}
	}
	return out, nil
}

func normAxis(a int64, rank int) (int, error) {
	if a < 0 {
		a += int64(rank)
	}
	if a < 0 || int(a) >= rank {
		return 0, fmt.Errorf("axis %d out of range for rank %d", a, rank)
	}
	return int(a), nil
}

func inferFlatten(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() == 0 {
		return fillResults(c, in.Schema, []Type{c.WithDims(x, []int64{1})}), nil
	}
	s, _ := AsInt(in.Attr("start_axis"))
	e, ok := AsInt(in.Attr("stop_axis"))
	if !ok {
		e = -1
	}
	start, err := normAxis(s, x.Rank())
	if err != nil {
		return nil, err
	}
	stop, err := normAxis(e, x.Rank())
	if err != nil {
		return nil, err
	}
	if start > stop {
		return nil, fmt.Errorf("flatten: start_axis %d after stop_axis %d", start, stop)
	}
	dims := append([]int64(nil), x.Dims[:start]...)
	prod := int64(1)
	for _, d := range x.Dims[start : stop+1] {
		if d < 0 || prod < 0 {
			prod = Dynamic
		} else {
			prod *= d
		}
	}
	dims = append(dims, prod)
	dims = append(dims, x.Dims[stop+1:]...)
	return fillResults(c, in.Schema, []Type{c.WithDims(x, dims)}), nil
}

func inferTranspose(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	perm, ok := AsInts(in.Attr("perm"))
	if !ok || len(perm) != x.Rank() {
		return nil, fmt.Errorf("transpose: perm must have one entry per dimension")
	}
	dims := make([]int64, len(perm))
	for i, p := range perm {
		a, err := normAxis(p, x.Rank())
		if err != nil {
			return nil, err
		}
		dims[i] = x.Dims[a]
	}
	return fillResults(c, in.Schema, []Type{c.WithDims(x, dims)}), nil
}

// inferShape (ShapeInferMeta, Shape64InferMeta): a 1-D tensor of x's rank, in int32 (shape) or int64 (shape64).
func inferShape(d DType) InferFunc {
	return func(c *Context, in *InferInput) ([]Type, error) {
		x, err := in.tensor(0)
		if err != nil {
			return nil, err
		}
		return fillResults(c, in.Schema, []Type{newTensor(c, dims(int64(x.Rank())), d)}), nil
	}
}

// inferReshape (ReshapeInferMeta): the target shape (operand 1) applied to x: 0 copies x's size, one -1 is what
// remains. A shape known only at run time is taken as it is (its unknown sizes -1), with 0 still copying x's size.
func inferReshape(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	shape, err := in.intArray(1)
	if err != nil {
		return nil, err
	}
	var d []int64
	if shape.FromTensor {
		d = dims(shape.Values...)
		for i, v := range d {
			switch {
			case v == 0 && i < x.Rank():
				d[i] = x.Dims[i]
			case v < 0:
				d[i] = Dynamic
			}
		}
	} else if d, err = ReshapeDims(x.Dims, shape.Values); err != nil {
		return nil, err
	}
	return fillResults(c, in.Schema, []Type{c.WithDims(x, d)}), nil
}

// inferSqueeze (SqueezeInferMeta, GetOutputSqueezeShape at compile time): x without the listed axes whose size is
// 1 or unknown, or without every axis of size 1 when none is listed. Axes known only at run time leave the sizes
// unknown (their number is known).
func inferSqueeze(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	axes, err := in.intArray(1)
	if err != nil {
		return nil, err
	}
	if axes.FromTensor {
		return fillResults(c, in.Schema, []Type{c.WithDims(x, unknowns(max(x.Rank()-len(axes.Values), 0)))}), nil
	}
	drop := make([]bool, x.Rank())
	for _, a := range axes.Values {
		if x.Rank() == 0 {
			continue
		}
		i, err := normAxis(a, x.Rank())
		if err != nil {
			return nil, err
		}
		drop[i] = x.Dims[i] == 1 || x.Dims[i] < 0
	}
	d := dims()
	for i, s := range x.Dims {
		if len(axes.Values) == 0 && s == 1 || drop[i] {
			continue
		}
		d = append(d, s)
	}
	return fillResults(c, in.Schema, []Type{c.WithDims(x, d)}), nil
}

// inferUnsqueeze (UnsqueezeInferMeta, GetUnsqueezeShape): x with a 1 inserted at each axis, in order (an axis
// counts in the rank grown so far). Axes known only at run time leave every size unknown.
func inferUnsqueeze(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	axes, err := in.intArray(1)
	if err != nil {
		return nil, err
	}
	if axes.FromTensor {
		return fillResults(c, in.Schema, []Type{c.WithDims(x, unknowns(x.Rank()+len(axes.Values)))}), nil
	}
	d := dims(x.Dims...)
	for _, a := range axes.Values {
		i, err := normAxis(a, len(d)+1)
		if err != nil {
			return nil, err
		}
		d = append(d[:i], append([]int64{1}, d[i:]...)...)
	}
	return fillResults(c, in.Schema, []Type{c.WithDims(x, d)}), nil
}

// mergeDim is a size two shapes agree on: the known one when one is unknown.
func mergeDim(a, b int64) int64 {
	if a < 0 {
		return b
	}
	return a
}

// inferConcat (ConcatInferMeta): the tensors of operand 0 joined along the axis (operand 1, a Scalar); the other
// sizes are the ones any input knows. An axis known only at run time leaves every size unknown.
func inferConcat(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensors(0)
	if err != nil {
		return nil, err
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("concat of no tensors")
	}
	first := ts[0]
	ax, fromTensor, err := in.scalar(1)
	if err != nil {
		return nil, err
	}
	if fromTensor {
		return fillResults(c, in.Schema, []Type{c.WithDims(first, unknowns(first.Rank()))}), nil
	}
	axis, err := normAxis(truncInt(ax), first.Rank())
	if err != nil {
		return nil, err
	}
	d := dims(first.Dims...)
	for k, t := range ts[1:] {
		if t.Rank() != first.Rank() {
			return nil, fmt.Errorf("tensor %d has rank %d, tensor 0 rank %d", k+1, t.Rank(), first.Rank())
		}
		for j := range d {
			if j == axis {
				d[j] = addDim(d[j], t.Dims[j])
			} else {
				d[j] = mergeDim(d[j], t.Dims[j])
			}
		}
	}
	return fillResults(c, in.Schema, []Type{c.WithDims(first, d)}), nil
}

// splitParts returns the types of x cut along axis into parts of the given sizes (-1: an unknown size).
func splitParts(c *Context, x *TensorType, axis int, sizes []int64) []Type {
	parts := make([]Type, len(sizes))
	for i, s := range sizes {
		d := dims(x.Dims...)
		d[axis] = s
		parts[i] = c.WithDims(x, d)
	}
	return parts
}

// inferSplit (SplitInferMeta): x cut along the axis (operand 2) into the sections of operand 1, one section of -1
// taking what the others leave; sections or an axis known only at run time, or an unknown size of x there, leave
// the parts' sizes unknown. The result is a vector of the parts.
func inferSplit(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	sections, err := in.intArray(1)
	if err != nil {
		return nil, err
	}
	ax, axFromTensor, err := in.scalar(2)
	if err != nil {
		return nil, err
	}
	if axFromTensor || sections.FromTensor {
		parts := make([]Type, len(sections.Values))
		for i := range parts {
			parts[i] = c.WithDims(x, unknowns(x.Rank()))
		}
		return fillResults(c, in.Schema, []Type{c.Vector(parts...)}), nil
	}
	axis, err := normAxis(truncInt(ax), x.Rank())
	if err != nil {
		return nil, err
	}
	sizes := dims(sections.Values...)
	total, rest, known := x.Dims[axis], -1, int64(0)
	if total < 0 {
		// Paddle's compile-time split leaves every part unknown when x's size there is.
		return fillResults(c, in.Schema, []Type{c.Vector(splitParts(c, x, axis, unknowns(len(sizes)))...)}), nil
	}
	for i, s := range sizes {
		if s < 0 {
			if rest >= 0 {
				return nil, fmt.Errorf("sections %v have more than one -1", sections.Values)
			}
			rest = i
		} else {
			known += s
		}
	}
	if rest >= 0 {
		sizes[rest] = Dynamic
		if total >= 0 {
			sizes[rest] = total - known
		}
	}
	return fillResults(c, in.Schema, []Type{c.Vector(splitParts(c, x, axis, sizes)...)}), nil
}

// inferSplitWithNum (SplitWithNumInferMeta): x cut along the axis (operand 1) into num equal parts (unknown when x's
// size there is); an axis known only at run time leaves every size unknown.
func inferSplitWithNum(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	num := in.intAttr("num", 0)
	if num <= 0 {
		return nil, fmt.Errorf("num must be positive, is %d", num)
	}
	ax, fromTensor, err := in.scalar(1)
	if err != nil {
		return nil, err
	}
	parts := make([]Type, num)
	if fromTensor {
		for i := range parts {
			parts[i] = c.WithDims(x, unknowns(x.Rank()))
		}
		return fillResults(c, in.Schema, []Type{c.Vector(parts...)}), nil
	}
	axis, err := normAxis(truncInt(ax), x.Rank())
	if err != nil {
		return nil, err
	}
	size := divDim(x.Dims[axis], num)
	sizes := make([]int64, num)
	for i := range sizes {
		sizes[i] = size
	}
	return fillResults(c, in.Schema, []Type{c.Vector(splitParts(c, x, axis, sizes)...)}), nil
}

// inferExpand (ExpandInferMeta): x broadcast to the shape of operand 1, aligned at the last dims: -1 keeps x's size,
// a size known only at run time (marked -2 by Paddle's ExpandOp builder) is unknown.
func inferExpand(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	shape, err := in.intArrayMarking(1, -2)
	if err != nil {
		return nil, err
	}
	target := shape.Values
	if len(target) == 0 {
		target = unknowns(x.Rank())
	}
	if len(target) < x.Rank() {
		return nil, fmt.Errorf("shape %v has fewer sizes than x's rank %d", target, x.Rank())
	}
	diff := len(target) - x.Rank()
	d := make([]int64, len(target))
	for i, t := range target {
		xd := int64(Dynamic)
		if i >= diff {
			xd = x.Dims[i-diff]
		}
		switch {
		case t == -1:
			d[i] = xd
		case t < 0:
			d[i] = Dynamic
		default:
			d[i] = t
		}
	}
	return []Type{c.WithDims(x, d)}, nil
}

// inferExpandAs (ExpandAsInferMeta): x broadcast to y's dims, or to target_shape when y is absent.
func inferExpandAs(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	y, err := in.optTensor(1)
	if err != nil {
		return nil, err
	}
	target, _ := in.intsAttr("target_shape")
	if y != nil && len(target) == 0 {
		target = y.Dims
	}
	if len(target) < x.Rank() {
		return nil, fmt.Errorf("the target shape %v has fewer sizes than x's rank %d", target, x.Rank())
	}
	return []Type{c.WithDims(x, dims(target...))}, nil
}

// inferTile (TileInferMeta): x and repeat_times (operand 1) aligned at their last dims (the shorter padded with 1s),
// each size times its repeat count; a count known only at run time gives an unknown size.
func inferTile(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	reps, err := in.intArray(1)
	if err != nil {
		return nil, err
	}
	r := reps.Values
	if len(r) == 0 {
		r = ones(x.Rank())
	}
	xd := dims(x.Dims...)
	for len(r) < len(xd) {
		r = append([]int64{1}, r...)
	}
	for len(xd) < len(r) {
		xd = append([]int64{1}, xd...)
	}
	d := make([]int64, len(r))
	for i := range d {
		d[i] = mulDim(xd[i], r[i])
	}
	return []Type{c.WithDims(x, d)}, nil
}

// inferStack (StackInferMeta): the tensors of operand 0, of one shape, along a new axis; sizes one input leaves
// unknown come from another.
func inferStack(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensors(0)
	if err != nil {
		return nil, err
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("stack of no tensors")
	}
	d := dims(ts[0].Dims...)
	for k, t := range ts[1:] {
		if t.Rank() != len(d) {
			return nil, fmt.Errorf("tensor %d has rank %d, tensor 0 rank %d", k+1, t.Rank(), len(d))
		}
		for j := range d {
			d[j] = mergeDim(d[j], t.Dims[j])
		}
	}
	axis, err := normAxis(in.intAttr("axis", 0), len(d)+1)
	if err != nil {
		return nil, err
	}
	d = append(d[:axis], append([]int64{int64(len(ts))}, d[axis:]...)...)
	return []Type{c.WithDims(ts[0], d)}, nil
}

// inferUnstack (UnStackInferMeta, UnbindInferMeta): a vector of x's slices along the axis (num of them, or x's size
// there), each without the axis.
func inferUnstack(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	axis, err := normAxis(in.intAttr("axis", 0), x.Rank())
	if err != nil {
		return nil, err
	}
	num := x.Dims[axis]
	if n := in.intAttr("num", 0); n > 0 {
		num = n
	}
	if num < 0 {
		return nil, fmt.Errorf("the number of slices is unknown: x's size at axis %d is", axis)
	}
	part := c.WithDims(x, withoutAxis(x.Dims, axis, false))
	parts := make([]Type, num)
	for i := range parts {
		parts[i] = part
	}
	return []Type{c.Vector(parts...)}, nil
}

// inferBroadcastTensors (BroadcastTensorsInferMeta): every tensor of the vector broadcast to their common shape,
// each keeping its element type.
func inferBroadcastTensors(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensors(0)
	if err != nil {
		return nil, err
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("no tensors to broadcast")
	}
	d, err := broadcastAll(ts...)
	if err != nil {
		return nil, err
	}
	out := make([]Type, len(ts))
	for i, t := range ts {
		out[i] = c.WithDims(t, d)
	}
	return []Type{c.Vector(out...)}, nil
}

// inferMeshgrid (MeshgridInferMeta): for n 1-D inputs, n tensors of dims [len0, …, lenN-1] (a 0-D input counts 1),
// all in the first input's element type.
func inferMeshgrid(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensors(0)
	if err != nil {
		return nil, err
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("no inputs")
	}
	d := make([]int64, len(ts))
	for i, t := range ts {
		switch t.Rank() {
		case 0:
			d[i] = 1
		case 1:
			d[i] = t.Dims[0]
		default:
			return nil, fmt.Errorf("input %d has rank %d; meshgrid takes vectors", i, t.Rank())
		}
	}
	out := make([]Type, len(ts))
	for i := range ts {
		out[i] = c.WithDims(ts[0], d)
	}
	return []Type{c.Vector(out...)}, nil
}

// sliceDims is GetSliceDims after CheckAndUpdateSliceAttrs (paddle/phi/kernels/funcs/slice_utils.h): each axis cut
// to [start, end) by step, starts and ends clamped into the axis; an axis of unknown size, or whose bounds are known
// only at run time (unknown), stays unknown.
func sliceDims(x *TensorType, axes, starts, ends, steps []int64, unknown []bool) ([]int64, error) {
	d := dims(x.Dims...)
	for i, a := range axes {
		axis, err := normAxis(a, x.Rank())
		if err != nil {
			return nil, err
		}
		if unknown[i] {
			d[axis] = Dynamic
			continue
		}
		size := x.Dims[axis]
		if size < 0 {
			continue
		}
		step := int64(1)
		if steps != nil {
			step = steps[i]
		}
		if step == 0 {
			return nil, fmt.Errorf("step of axis %d is 0", a)
		}
		start, end := starts[i], ends[i]
		if size == 0 {
			d[axis] = 0
			continue
		}
		if start < 0 {
			start += size
		}
		start = max(start, 0)
		if step > 0 && end < 0 {
			end += size
		}
		end = min(end, size)
		if step > 0 {
			start = min(start, size)
			end = max(end, 0)
			d[axis] = max((end-start+step-1)/step, 0)
		} else {
			start = min(start, size-1)
			if end < -1 {
				end += size
			}
			end = max(end, -1)
			d[axis] = max((end-start+step+1)/step, 0)
		}
	}
	return d, nil
}

// decreaseDims drops the decreased axes (GetDecreasedDims).
func decreaseDims(d []int64, decrease []int64) ([]int64, error) {
	if len(decrease) == 0 {
		return d, nil
	}
	drop := make([]bool, len(d))
	for _, a := range decrease {
		i, err := normAxis(a, len(d))
		if err != nil {
			return nil, err
		}
		drop[i] = true
	}
	out := dims()
	for i, s := range d {
		if !drop[i] {
			out = append(out, s)
		}
	}
	return out, nil
}

// sliceBounds reads the starts and ends operands of a slice for len(axes) axes. An axis is unknown when its
// infer_flags entry is -1 (Python sets it for bounds that come from tensors); with strict, also when a bound comes
// from a tensor at all (strided_slice).
func sliceBounds(in *InferInput, startOp, endOp int, axes []int64, strict bool) (starts, ends []int64, unknown []bool, err error) {
	s, err := in.intArray(startOp)
	if err != nil {
		return nil, nil, nil, err
	}
	e, err := in.intArray(endOp)
	if err != nil {
		return nil, nil, nil, err
	}
	unknown = make([]bool, len(axes))
	flags, _ := in.intsAttr("infer_flags")
	for i := range axes {
		unknown[i] = strict && (s.FromTensor || e.FromTensor) || i < len(flags) && flags[i] == -1
	}
	if !s.FromTensor && len(s.Values) != len(axes) || !e.FromTensor && len(e.Values) != len(axes) {
		return nil, nil, nil, fmt.Errorf("%d axes with %d starts and %d ends", len(axes), len(s.Values), len(e.Values))
	}
	starts, ends = padBounds(s.Values, len(axes)), padBounds(e.Values, len(axes))
	return starts, ends, unknown, nil
}

// padBounds gives n bounds (unknown ones as -1) from vals.
func padBounds(vals []int64, n int) []int64 {
	out := unknowns(n)
	copy(out, vals)
	return out
}

// inferSliceOp (SliceRawInferMeta): input cut along axes to [starts, ends) (operands 1 and 2), then the
// decrease_axis axes dropped.
func inferSliceOp(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	axes, _ := in.intsAttr("axes")
	starts, ends, unknown, err := sliceBounds(in, 1, 2, axes, false)
	if err != nil {
		return nil, err
	}
	d, err := sliceDims(x, axes, starts, ends, nil, unknown)
	if err != nil {
		return nil, err
	}
	decrease, _ := in.intsAttr("decrease_axis")
	if d, err = decreaseDims(d, decrease); err != nil {
		return nil, err
	}
	return []Type{c.WithDims(x, d)}, nil
}

// inferStridedSlice (StridedSliceInferMeta, StridedSliceRawInferMeta at compile time): x cut along axes to [starts,
// ends) by strides (operands 1–3); bounds or strides from a tensor leave every size unknown.
func inferStridedSlice(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	axes, _ := in.intsAttr("axes")
	starts, ends, unknown, err := sliceBounds(in, 1, 2, axes, true)
	if err != nil {
		return nil, err
	}
	st, err := in.intArray(3)
	if err != nil {
		return nil, err
	}
	if !st.FromTensor && len(st.Values) != len(axes) {
		return nil, fmt.Errorf("%d axes with %d strides", len(axes), len(st.Values))
	}
	steps := padBounds(st.Values, len(axes))
	for _, u := range unknown {
		if u || st.FromTensor {
			return []Type{c.WithDims(x, unknowns(x.Rank()))}, nil
		}
	}
	d, err := sliceDims(x, axes, starts, ends, steps, unknown)
	if err != nil {
		return nil, err
	}
	return []Type{c.WithDims(x, d)}, nil
}

// inferCrop (CropInferMeta): the shape of operand 1 where it is not negative (an empty axis of x stays empty), -1
// elsewhere; the offsets (operand 2) must have one value per axis.
func inferCrop(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	shape, err := in.intArray(1)
	if err != nil {
		return nil, err
	}
	offsets, err := in.intArray(2)
	if err != nil {
		return nil, err
	}
	if len(shape.Values) != x.Rank() || len(offsets.Values) != x.Rank() {
		return nil, fmt.Errorf("shape %v and offsets %v need one value per dimension of x (%d)", shape.Values,
			offsets.Values, x.Rank())
	}
	d := unknowns(x.Rank())
	for i, s := range shape.Values {
		switch {
		case x.Dims[i] == 0:
			d[i] = 0
		case s >= 0:
			d[i] = s
		}
	}
	return []Type{c.WithDims(x, d)}, nil
}

// inferPad (PadInferMeta): each size grown by its two paddings (paddings: before and after, per axis).
func inferPad(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	p, _ := in.intsAttr("paddings")
	if len(p) != 2*x.Rank() {
		return nil, fmt.Errorf("paddings %v must have two values per dimension of x (%d)", p, x.Rank())
	}
	d := make([]int64, x.Rank())
	for i, s := range x.Dims {
		d[i] = addDim(s, p[2*i]+p[2*i+1])
	}
	return []Type{c.WithDims(x, d)}, nil
}

// inferPad3D (Pad3dInferMeta): a 5-D x padded in its three spatial dims by paddings (operand 1: left, right, top,
// bottom, front, back); paddings known only at run time leave them unknown.
func inferPad3D(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() != 5 {
		return nil, fmt.Errorf("x must have rank 5, has %d", x.Rank())
	}
	p, err := in.intArray(1)
	if err != nil {
		return nil, err
	}
	d := unknowns(5)
	d[0] = x.Dims[0]
	spatial := []int{2, 3, 4}
	if in.strAttr("data_format", "NCDHW") == "NCDHW" {
		d[1] = x.Dims[1]
	} else {
		d[4] = x.Dims[4]
		spatial = []int{1, 2, 3}
	}
	if p.FromTensor {
		return []Type{c.WithDims(x, d)}, nil
	}
	if len(p.Values) != 6 {
		return nil, fmt.Errorf("paddings %v must have 6 values", p.Values)
	}
	// depth takes paddings 4 and 5, height 2 and 3, width 0 and 1.
	for k, axis := range spatial {
		lo := 4 - 2*k
		d[axis] = addDim(x.Dims[axis], p.Values[lo]+p.Values[lo+1])
	}
	return []Type{c.WithDims(x, d)}, nil
}

// inferGather (GatherInferMeta): x with the axis (operand 2, a Scalar) replaced by the index's length (an [N, 1]
// index counts N; a 0-D index drops the axis); an axis known only at run time leaves every size unknown.
func inferGather(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, idx := ts[0], ts[1]
	if idx.Rank() > 2 || idx.Rank() == 2 && idx.Dims[1] != 1 && idx.Dims[1] >= 0 {
		return nil, fmt.Errorf("index must be 0-D, 1-D or [N, 1], is %s", idx)
	}
	ax, fromTensor, err := in.scalar(2)
	if err != nil {
		return nil, err
	}
	if fromTensor {
		r := x.Rank()
		if idx.Rank() == 0 {
			r--
		}
		return []Type{c.WithDims(x, unknowns(r))}, nil
	}
	axis, err := normAxis(truncInt(ax), x.Rank())
	if err != nil {
		return nil, err
	}
	var d []int64
	if idx.Rank() == 0 {
		d = withoutAxis(x.Dims, axis, false)
	} else {
		d = dims(x.Dims...)
		d[axis] = idx.Dims[0]
	}
	return []Type{c.WithDims(x, d)}, nil
}

// inferGatherND (GatherNdInferMeta): index's dims but the last, then x's dims past the index's last size.
func inferGatherND(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, idx := ts[0], ts[1]
	if idx.Rank() == 0 {
		return nil, fmt.Errorf("index must have rank 1 or more")
	}
	k := idx.Dims[idx.Rank()-1]
	if k < 0 || int(k) > x.Rank() {
		return nil, fmt.Errorf("the last size of index (%d) must be known and at most x's rank %d", k, x.Rank())
	}
	d := append(dims(idx.Dims[:idx.Rank()-1]...), x.Dims[k:]...)
	return []Type{c.WithDims(x, d)}, nil
}

// inferIndexSelect (IndexSelectInferMeta): x with the axis's size the index's length.
func inferIndexSelect(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, idx := ts[0], ts[1]
	axis, err := normAxis(in.intAttr("axis", 0), x.Rank())
	if err != nil {
		return nil, err
	}
	if idx.Rank() != 1 && !(idx.Rank() == 2 && idx.Dims[1] == 1) {
		return nil, fmt.Errorf("index must be 1-D, is %s", idx)
	}
	d := dims(x.Dims...)
	d[axis] = idx.Dims[0]
	return []Type{c.WithDims(x, d)}, nil
}

// inferIndexSelectStrided (IndexSelectStridedInferMeta): x without the axis.
func inferIndexSelectStrided(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	axis, err := normAxis(in.intAttr("axis", 0), x.Rank())
	if err != nil {
		return nil, err
	}
	return []Type{c.WithDims(x, withoutAxis(x.Dims, axis, false))}, nil
}

// inferLikeIndex (IndexSampleInferMeta, TakeAlongAxisInferMeta): the index's dims in x's element type.
func inferLikeIndex(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, idx := ts[0], ts[1]
	return []Type{c.WithDims(x, dims(idx.Dims...))}, nil
}

// inferMaskedSelect (MaskedSelectInferMeta): the selected elements, as many as the mask holds (unknown).
func inferMaskedSelect(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if _, err := in.tensor(1); err != nil {
		return nil, err
	}
	return []Type{c.WithDims(x, dims(Dynamic))}, nil
}

// inferNonzero (NonZeroInferMeta): the int64 coordinates of the nonzero elements, [unknown, rank] ([0, rank] for an
// empty condition).
func inferNonzero(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() == 0 {
		return nil, fmt.Errorf("condition must have rank 1 or more")
	}
	n := int64(Dynamic)
	if x.NumElements() == 0 {
		n = 0
	}
	return []Type{with(c, x, dims(n, int64(x.Rank())), DTypeInt64)}, nil
}

// inferDiag (DiagInferMeta): a vector becomes a square matrix of size len+|offset|; a matrix gives its offset
// diagonal.
func inferDiag(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	off := in.intAttr("offset", 0)
	switch x.Rank() {
	case 0, 1:
		n := int64(1)
		if x.Rank() == 1 {
			n = x.Dims[0]
		}
		s := addDim(n, absInt(off))
		return []Type{c.WithDims(x, dims(s, s))}, nil
	case 2:
		r, k := x.Dims[0], x.Dims[1]
		if r < 0 || k < 0 {
			return []Type{c.WithDims(x, dims(Dynamic))}, nil
		}
		var n int64
		if off >= 0 {
			n = min(r, k-off)
		} else {
			n = min(r+off, k)
		}
		return []Type{c.WithDims(x, dims(max(n, 0)))}, nil
	}
	return nil, fmt.Errorf("x must have rank 1 or 2, has %d", x.Rank())
}

func absInt(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// inferDiagEmbed (DiagEmbedInferMeta): the last dim of x becomes a square of size len+|offset| at dim1 and dim2.
func inferDiagEmbed(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() == 0 {
		return nil, fmt.Errorf("input must have rank 1 or more")
	}
	d1, err := normAxis(in.intAttr("dim1", -2), x.Rank()+1)
	if err != nil {
		return nil, err
	}
	d2, err := normAxis(in.intAttr("dim2", -1), x.Rank()+1)
	if err != nil {
		return nil, err
	}
	if d1 == d2 {
		return nil, fmt.Errorf("dim1 and dim2 are both %d", d1)
	}
	n := addDim(x.Dims[x.Rank()-1], absInt(in.intAttr("offset", 0)))
	d := dims(x.Dims[:x.Rank()-1]...)
	lo, hi := min(d1, d2), max(d1, d2)
	d = append(d[:lo], append([]int64{n}, d[lo:]...)...)
	d = append(d[:hi], append([]int64{n}, d[hi:]...)...)
	return []Type{c.WithDims(x, d)}, nil
}

// inferDiagonal (DiagonalInferMeta): x without axis1 and axis2, then the diagonal's length.
func inferDiagonal(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() < 2 {
		return nil, fmt.Errorf("x must have rank 2 or more, has %d", x.Rank())
	}
	a1, err := normAxis(in.intAttr("axis1", 0), x.Rank())
	if err != nil {
		return nil, err
	}
	a2, err := normAxis(in.intAttr("axis2", 1), x.Rank())
	if err != nil {
		return nil, err
	}
	if a1 == a2 {
		return nil, fmt.Errorf("axis1 and axis2 are both %d", a1)
	}
	s1, s2 := x.Dims[a1], x.Dims[a2]
	off := in.intAttr("offset", 0)
	d := dims()
	for i, s := range x.Dims {
		if i != a1 && i != a2 {
			d = append(d, s)
		}
	}
	var n int64
	switch {
	case s1 < 0 || s2 < 0:
		n = Dynamic
	case off >= 0:
		n = max(min(s1, s2-off), 0)
	default:
		n = max(min(s1+off, s2), 0)
	}
	return []Type{c.WithDims(x, append(d, n))}, nil
}

// inferRepeatInterleave (RepeatInterleaveInferMeta): the axis's size times repeats; with repeats a tensor
// (RepeatInterleaveWithTensorIndexInferMeta) the size is output_size, unknown when that is -1.
func inferRepeatInterleave(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	axis, err := normAxis(in.intAttr("axis", 0), x.Rank())
	if err != nil {
		return nil, err
	}
	d := dims(x.Dims...)
	if in.Schema.OperandIndex("repeats") >= 0 {
		if _, err := in.tensor(1); err != nil {
			return nil, err
		}
		d[axis] = Dynamic
		if n := in.intAttr("output_size", -1); n >= 0 {
			d[axis] = n
		}
	} else {
		d[axis] = mulDim(d[axis], in.intAttr("repeats", 1))
	}
	return []Type{c.WithDims(x, d)}, nil
}

// inferViewShape (ViewShapeInferMeta): x viewed with the dims attribute (reshape's rules for 0 and -1).
func inferViewShape(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	target, _ := in.intsAttr("dims")
	d, err := ReshapeDims(x.Dims, target)
	if err != nil {
		return nil, err
	}
	return []Type{c.WithDims(x, d)}, nil
}

// inferAsStrided (AsStridedInferMeta): a view of the dims attribute.
func inferAsStrided(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	d, _ := in.intsAttr("dims")
	return []Type{c.WithDims(x, dims(d...))}, nil
}

// inferViewDtype (ViewDtypeInferMeta): x's bytes as the dtype attribute's elements; the last size scales by the
// ratio of the element sizes.
func inferViewDtype(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	dt, ok := in.dtypeAttr("dtype")
	if !ok {
		return nil, fmt.Errorf("no dtype")
	}
	from, to := dtypeSize(x.DType()), dtypeSize(dt)
	if from == 0 || to == 0 {
		return nil, fmt.Errorf("cannot view %s as %s", x.DType().DataTypeName(), dt.DataTypeName())
	}
	d := dims(x.Dims...)
	if from != to {
		if len(d) == 0 {
			return nil, fmt.Errorf("a 0-D tensor cannot change its element size")
		}
		last := d[len(d)-1]
		switch {
		case last < 0:
		case (last*from)%to != 0:
			return nil, fmt.Errorf("the last size %d of %s does not fit %s", last, x.DType().DataTypeName(), dt.DataTypeName())
		default:
			d[len(d)-1] = last * from / to
		}
	}
	return []Type{with(c, x, d, dt)}, nil
}

// dtypeSize is the size in bytes of one element, 0 for the types without one.
func dtypeSize(d DType) int64 {
	switch d {
	case DTypeBool, DTypeUint8, DTypeInt8, DTypeFloat8E4M3FN, DTypeFloat8E5M2:
		return 1
	case DTypeUint16, DTypeInt16, DTypeFloat16, DTypeBFloat16:
		return 2
	case DTypeUint32, DTypeInt32, DTypeFloat32:
		return 4
	case DTypeUint64, DTypeInt64, DTypeFloat64, DTypeComplex64:
		return 8
	case DTypeComplex128:
		return 16
	}
	return 0
}

// inferTensorUnfold (TensorUnfoldInferMeta): windows of size along axis every step: the axis becomes the number of
// windows and a last dim of size is added.
func inferTensorUnfold(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	size, step := in.intAttr("size", 0), in.intAttr("step", 1)
	if step <= 0 || size < 0 {
		return nil, fmt.Errorf("size %d and step %d must be positive", size, step)
	}
	d := dims(x.Dims...)
	if x.Rank() > 0 {
		axis, err := normAxis(in.intAttr("axis", 0), x.Rank())
		if err != nil {
			return nil, err
		}
		if d[axis] >= 0 {
			if d[axis] < size {
				return nil, fmt.Errorf("size %d exceeds the axis size %d", size, d[axis])
			}
			d[axis] = (d[axis]-size)/step + 1
		}
	}
	return []Type{c.WithDims(x, append(d, size))}, nil
}

// inferPixelShuffle (PixelShuffleInferMeta, PixelUnshuffleInferMeta with down): channels traded for a spatial
// factor r (upscale_factor, downscale_factor) in NCHW or NHWC.
func inferPixelShuffle(down bool) InferFunc {
	return func(c *Context, in *InferInput) ([]Type, error) {
		x, err := in.tensor(0)
		if err != nil {
			return nil, err
		}
		if x.Rank() != 4 {
			return nil, fmt.Errorf("x must have rank 4, has %d", x.Rank())
		}
		r := in.intAttr("upscale_factor", 1)
		if down {
			r = in.intAttr("downscale_factor", 1)
		}
		if r <= 0 {
			return nil, fmt.Errorf("the factor %d must be positive", r)
		}
		ch, h, w := 1, 2, 3
		if in.strAttr("data_format", "NCHW") == "NHWC" {
			ch, h, w = 3, 1, 2
		}
		d := dims(x.Dims...)
		if down {
			d[ch], d[h], d[w] = mulDim(d[ch], r*r), divDim(d[h], r), divDim(d[w], r)
		} else {
			d[ch], d[h], d[w] = divDim(d[ch], r*r), mulDim(d[h], r), mulDim(d[w], r)
		}
		return []Type{c.WithDims(x, d)}, nil
	}
}

// inferFold (FoldInferMeta): [N, C/(kh·kw), output_sizes…] from the columns [N, C·kh·kw, L].
func inferFold(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	out, _ := in.intsAttr("output_sizes")
	k, _ := in.intsAttr("kernel_sizes")
	if x.Rank() != 3 || len(out) != 2 || len(k) != 2 || k[0] <= 0 || k[1] <= 0 {
		return nil, fmt.Errorf("x must be [N, C, L] with 2 output_sizes and 2 kernel_sizes")
	}
	return []Type{c.WithDims(x, dims(x.Dims[0], divDim(x.Dims[1], k[0]*k[1]), out[0], out[1]))}, nil
}

// inferUnfold (UnfoldInferMeta): the sliding blocks of a [N, C, H, W] x as [N, C·kh·kw, L].
func inferUnfold(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	k, _ := in.intsAttr("kernel_sizes")
	s, _ := in.intsAttr("strides")
	p, _ := in.intsAttr("paddings")
	dl, _ := in.intsAttr("dilations")
	if x.Rank() != 4 || len(k) != 2 || len(s) != 2 || len(p) != 4 || len(dl) != 2 {
		return nil, fmt.Errorf("x must be 4-D with 2 kernel_sizes, strides, dilations and 4 paddings")
	}
	oh := ConvOutSize(x.Dims[2], k[0], s[0], p[0], p[2], dl[0], "EXPLICIT", false)
	ow := ConvOutSize(x.Dims[3], k[1], s[1], p[1], p[3], dl[1], "EXPLICIT", false)
	return []Type{c.WithDims(x, dims(x.Dims[0], mulDim(x.Dims[1], k[0]*k[1]), mulDim(oh, ow)))}, nil
}

// inferFrame (FrameInferMeta): a signal cut into frames of frame_length every hop_length, along the first (axis 0:
// [n_frames, frame_length, …]) or last axis ([…, frame_length, n_frames]).
func inferFrame(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	fl, hop, axis := in.intAttr("frame_length", 0), in.intAttr("hop_length", 1), in.intAttr("axis", -1)
	if x.Rank() < 1 || hop <= 0 || (axis != 0 && axis != -1) {
		return nil, fmt.Errorf("frame needs x of rank 1 or more, hop_length > 0 and axis 0 or -1")
	}
	var seq int64
	var rest []int64
	if axis == 0 {
		seq, rest = x.Dims[0], x.Dims[1:]
	} else {
		seq, rest = x.Dims[x.Rank()-1], x.Dims[:x.Rank()-1]
	}
	n := int64(Dynamic)
	if seq >= 0 {
		n = 1 + (seq-fl)/hop
	}
	if axis == 0 {
		return []Type{c.WithDims(x, append(dims(n, fl), rest...))}, nil
	}
	return []Type{c.WithDims(x, append(dims(rest...), fl, n))}, nil
}

// inferOverlapAdd (OverlapAddInferMeta): frames [frame_length, n_frames] (axis -1) or [n_frames, frame_length]
// (axis 0) added back into a signal of (n_frames-1)·hop_length + frame_length, in float32 (the function sets no
// element type).
func inferOverlapAdd(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	hop, axis := in.intAttr("hop_length", 1), in.intAttr("axis", -1)
	if x.Rank() < 2 || hop <= 0 || (axis != 0 && axis != -1) {
		return nil, fmt.Errorf("overlap_add needs x of rank 2 or more, hop_length > 0 and axis 0 or -1")
	}
	r := x.Rank()
	var nf, fl int64
	var rest []int64
	if axis == 0 {
		nf, fl, rest = x.Dims[0], x.Dims[1], x.Dims[2:]
	} else {
		nf, fl, rest = x.Dims[r-1], x.Dims[r-2], x.Dims[:r-2]
	}
	seq := int64(Dynamic)
	if nf != -1 {
		seq = (nf-1)*hop + fl
	}
	// OverlapAddInferMeta sets no element type: float32.
	if axis == 0 {
		return []Type{with(c, x, append(dims(seq), rest...), DTypeFloat32)}, nil
	}
	return []Type{with(c, x, append(dims(rest...), seq), DTypeFloat32)}, nil
}

// inferMultiplex (MultiplexInferMeta): one of the candidate tensors per row of the [B, 1] index: the candidates'
// dims with B rows.
func inferMultiplex(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensors(0)
	if err != nil {
		return nil, err
	}
	ids, err := in.tensor(1)
	if err != nil {
		return nil, err
	}
	if len(ts) == 0 || ts[0].Rank() < 2 || ids.Rank() != 2 {
		return nil, fmt.Errorf("the candidates must have rank 2 or more and the index be [B, 1]")
	}
	d := dims(ts[0].Dims...)
	d[0] = ids.Dims[0]
	return []Type{c.WithDims(ts[0], d)}, nil
}

// inferOneHot (OneHotInferMeta): x with a last dim of num_classes (operand 1, a Scalar; unknown when it comes from
// a tensor), float32.
func inferOneHot(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	n, fromTensor, err := in.scalar(1)
	if err != nil {
		return nil, err
	}
	depth := truncInt(n)
	if fromTensor {
		depth = Dynamic
	}
	return []Type{with(c, x, append(dims(x.Dims...), depth), DTypeFloat32)}, nil
}
