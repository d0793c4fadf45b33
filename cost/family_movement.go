package cost

// movementFamily holds the ops that move data without arithmetic, one kernel each: copies and re-layouts
// (transpose, concat, split, stack, tile, expand, pad, roll, flip, …) read their operands and write their results
// whole; gathers (slice, strided_slice, gather, gather_nd, index_select, embedding, take_along_axis, …) read only
// what they gather — as many elements of the data operand as they write — plus their indices; fills (full_like,
// arange, uniform, …) only write, with one operation per element for computed values (arange, linspace) and
// random draws; scatters (scatter, index_put, put_along_axis, set_value, …) copy their operand and write the
// updates, and their inplace forms only write the updated part. empty and empty_like allocate and run no kernel.
// pirdrr's pd_op.to_vtensor and pd_op.to_tensor (value semantics, seed 000 §2.5) are copies.
var movementFamily = family{
	name: "movement",
	doc:  "data movement: copies read and write everything, gathers read what they write, fills only write",
	ops: map[string]formula{
		"pd_op.transpose":                       copyAll,
		"pd_op.trans_layout":                    copyAll,
		"pd_op.concat":                          copyAll,
		"pd_op.split":                           copyAll,
		"pd_op.split_with_num":                  copyAll,
		"pd_op.stack":                           copyAll,
		"pd_op.unstack":                         copyAll,
		"pd_op.unbind":                          copyAll,
		"pd_op.meshgrid":                        copyAll,
		"pd_op.tile":                            copyAll,
		"pd_op.expand":                          copyAll,
		"pd_op.expand_as":                       copyAll,
		"pd_op.broadcast_tensors":               copyAll,
		"pd_op.pad":                             copyAll,
		"pd_op.pad3d":                           copyAll,
		"pd_op.roll":                            copyAll,
		"pd_op.flip":                            copyAll,
		"pd_op.reverse":                         copyAll,
		"pd_op.fusion_transpose_flatten_concat": copyAll,
		"pd_op.memcpy":                          copyAll,
		"pd_op.memcpy_h2d":                      copyAll,
		"pd_op.memcpy_d2h":                      copyAll,
		"pd_op.shadow_feed":                     copyAll,
		"pd_op.assign":                          copyAll,
		"pd_op.to_vtensor":                      copyAll,
		"pd_op.to_tensor":                       copyAll,
		"pd_op.assign_out_":                     assignOut,
		"pd_op.pixel_shuffle":                   copyAll,
		"pd_op.pixel_unshuffle":                 copyAll,
		"pd_op.channel_shuffle":                 copyAll,
		"pd_op.tril":                            copyAll,
		"pd_op.triu":                            copyAll,
		"pd_op.diag":                            copyAll,
		"pd_op.diagonal":                        copyAll,
		"pd_op.repeat_interleave":               copyAll,
		"pd_op.masked_select":                   copyAll,
		"pd_op.nonzero":                         copyAll,
		"pd_op.unique":                          copyAll,
		"pd_op.shard_index":                     copyAll,
		"pd_op.index_add":                       scatterLike,
		"pd_op.scatter":                         scatterLike,
		"pd_op.scatter_nd_add":                  scatterLike,
		"pd_op.put_along_axis":                  scatterLike,
		"pd_op.index_put":                       scatterLike,
		"pd_op.slice":                           gatherLike(0),
		"pd_op.strided_slice":                   gatherLike(0),
		"pd_op.crop":                            gatherLike(0),
		"pd_op.gather":                          gatherLike(0),
		"pd_op.gather_nd":                       gatherLike(0),
		"pd_op.index_select":                    gatherLike(0),
		"pd_op.index_sample":                    gatherLike(0),
		"pd_op.take_along_axis":                 gatherLike(0),
		"pd_op.embedding":                       gatherLike(1),
		"pd_op.c_embedding":                     gatherLike(0),
		"pd_op.one_hot":                         copyAll,
		"pd_op.full":                            fill(0),
		"pd_op.full_like":                       fill(0),
		"pd_op.full_with_tensor":                fill(0),
		"pd_op.full_batch_size_like":            fill(0),
		"pd_op.fill":                            fill(0),
		"pd_op.assign_value":                    fill(0),
		"pd_op.assign_value_":                   fill(0),
		"pd_op.eye":                             fill(0),
		"pd_op.arange":                          fill(1),
		"pd_op.linspace":                        fill(1),
		"pd_op.logspace":                        fill(2),
		"pd_op.uniform":                         fill(1),
		"pd_op.uniform_inplace":                 fill(1),
		"pd_op.gaussian":                        fill(1),
		"pd_op.gaussian_inplace":                fill(1),
		"pd_op.randint":                         fill(1),
		"pd_op.randperm":                        fill(1),
		"pd_op.bernoulli":                       fill(1),
		"pd_op.empty":                           view,
		"pd_op.empty_like":                      view,
		"pd_op.set_value":                       setValue(false),
		"pd_op.set_value_":                      setValue(true),
		"pd_op.set_value_with_tensor":           setValue(false),
		"pd_op.set_value_with_tensor_":          setValue(true),
	},
}

// copyAll reads every operand and writes every result.
func copyAll(v *opView) (Work, error) {
	return Work{Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Vector, DType: computeType(v)}, nil
}

// assignOut copies x into output's buffer: output is written, not read.
func assignOut(v *opView) (Work, error) {
	return Work{Read: v.valueBytes(v.op.Operand(0)), Written: v.writeAll(), Kernels: 1, Unit: Vector, DType: computeType(v)}, nil
}

// gatherLike returns the formula of an op that reads from operand data only the elements it writes (result 0's
// count, in data's element type), plus its other operands (indices, bounds) whole.
func gatherLike(data int) formula {
	return func(v *opView) (Work, error) {
		src, err := v.mustIn(data)
		if err != nil {
			return Work{}, err
		}
		out, err := v.mustOut(0)
		if err != nil {
			return Work{}, err
		}
		read := v.readAll(data) + min(out.elems()*int64(elemSize(src.dt)), src.bytes())
		return Work{Read: read, Written: v.writeAll(), Kernels: 1, Unit: Vector, DType: src.dt}, nil
	}
}

// scatterLike copies operand 0 into the result and writes the updates there: it reads everything and writes the
// result, plus the updates a second time (one operation each when they accumulate).
func scatterLike(v *opView) (Work, error) {
	upd := int64(0)
	flops := int64(0)
	if n := v.op.NumOperands(); n > 0 {
		for _, s := range v.inList(n - 1) {
			upd += s.bytes()
			flops += s.elems()
		}
	}
	return Work{FLOPs: flops, Read: v.readAll(), Written: v.writeAll() + upd, Kernels: 1, Unit: Vector, DType: computeType(v)}, nil
}

// fill returns the formula of an op that writes its results from its attributes (or a scalar operand), with k
// operations per element written.
func fill(k int64) formula {
	return func(v *opView) (Work, error) {
		out, err := v.firstTensor()
		if err != nil {
			return Work{}, err
		}
		// Scalar and shape operands (value, start, stop) are read; a like-operand only for its dims, which the host
		// knows.
		read := int64(0)
		for i := 0; i < v.op.NumOperands(); i++ {
			if s, ok := v.in(i); ok && s.elems() <= 16 {
				read += s.bytes()
			}
		}
		return Work{FLOPs: k * out.elems(), Read: read, Written: v.writeAll(), Kernels: 1, Unit: Vector, DType: out.dt}, nil
	}
}

// setValue writes values into a slice of x (starts, ends, steps over axes): the inplace forms write the slice only;
// the others copy x into the result first.
func setValue(inplace bool) formula {
	return func(v *opView) (Work, error) {
		x, err := v.mustIn(0)
		if err != nil {
			return Work{}, err
		}
		region := sliceElems(v, x)
		size := int64(elemSize(x.dt))
		w := Work{Kernels: 1, Unit: Vector, DType: x.dt, Written: region * size}
		if v.op.Name() == "pd_op.set_value_with_tensor" || v.op.Name() == "pd_op.set_value_with_tensor_" {
			w.Read = v.valueBytes(v.op.Operand(1))
		}
		if !inplace {
			w.Read += x.bytes()
			w.Written += x.bytes()
		}
		return w, nil
	}
}

// sliceElems returns the number of elements of x set_value writes: the slice its constant starts, ends and steps
// operands (1, 2, 3 after the values operand of the with_tensor forms) select along axes, or all of x when they are
// not constants.
func sliceElems(v *opView, x shape) int64 {
	first := 1
	if v.op.Name() == "pd_op.set_value_with_tensor" || v.op.Name() == "pd_op.set_value_with_tensor_" {
		first = 2
	}
	axes, _ := v.ints("axes")
	starts, ok1 := v.constInts(first)
	ends, ok2 := v.constInts(first + 1)
	steps, ok3 := v.constInts(first + 2)
	if !ok1 || !ok2 || !ok3 || len(starts) != len(axes) || len(ends) != len(axes) || len(steps) != len(axes) {
		return x.elems()
	}
	dims := append([]int64(nil), x.dims...)
	for i, ax := range axes {
		if ax < 0 {
			ax += int64(len(dims))
		}
		if ax < 0 || int(ax) >= len(dims) {
			return x.elems()
		}
		dims[ax] = sliceLen(dims[ax], starts[i], ends[i], steps[i])
	}
	n := int64(1)
	for _, d := range dims {
		n *= d
	}
	return n
}

// sliceLen returns the length of the slice start:end:step of a dim of size n, with Python's clamping.
func sliceLen(n, start, end, step int64) int64 {
	if step == 0 {
		return n
	}
	clamp := func(i, lo, hi int64) int64 {
		if i < 0 {
			i += n
		}
		return min(max(i, lo), hi)
	}
	if step > 0 {
		s, e := clamp(start, 0, n), clamp(end, 0, n)
		if e <= s {
			return 0
		}
		return (e - s + step - 1) / step
	}
	s, e := clamp(start, -1, n-1), clamp(end, -1, n-1)
	if s <= e {
		return 0
	}
	return (s - e - step - 1) / -step
}
