package interp

import (
	"fmt"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// Gathering and scattering by index tensors. Indices are integers held exactly; an index outside its dimension is
// an error (Paddle's kernels enforce the same), except where Paddle counts negative indices from the end (noted per
// kernel).

func registerIndex[T tensor.Float](r registry[T]) {
	r["pd_op.gather"] = kGather[T]
	r["pd_op.index_select"] = kIndexSelect[T]
	r["pd_op.gather_nd"] = kGatherND[T]
	r["pd_op.index_sample"] = kIndexSample[T]
	r["pd_op.take_along_axis"] = kTakeAlongAxis[T]
	r["pd_op.put_along_axis"] = kPutAlongAxis[T]
	r["pd_op.scatter"] = kScatter[T]
	r["pd_op.index_put"] = kIndexPut[T]
	r["pd_op.index_add"] = kIndexAdd[T]
	r["pd_op.embedding"] = kEmbedding[T]
	r["pd_op.one_hot"] = kOneHot[T]
	r["pd_op.masked_select"] = kMaskedSelect[T]
	r["pd_op.nonzero"] = kNonzero[T]
}

// index converts an index element, counting negative values from the end when wrap is set, and checks it.
func index[T tensor.Float](v T, n int, wrap bool) (int, error) {
	i := int(v)
	if wrap && i < 0 {
		i += n
	}
	if i < 0 || i >= n {
		return 0, fmt.Errorf("index %v out of range for a dimension of %d", float64(v), n)
	}
	return i, nil
}

// splitAt returns the sizes before, at and after axis.
func splitAt(shape []int, axis int) (outer, n, inner int) {
	outer, inner = 1, 1
	for _, d := range shape[:axis] {
		outer *= d
	}
	for _, d := range shape[axis+1:] {
		inner *= d
	}
	return outer, shape[axis], inner
}

// selectAlong gathers the slices index[k] of x along axis; a 0-D index removes the axis, and an [N, 1] index is
// read as [N] (Paddle's GatherInferMeta and IndexSelectInferMeta).
func selectAlong[T tensor.Float](x, idx *tensor.Tensor[T], axis int, wrap bool) (*tensor.Tensor[T], error) {
	if len(x.Shape) == 0 {
		return nil, fmt.Errorf("cannot gather from a 0-D tensor")
	}
	axis, err := normAxis(axis, len(x.Shape))
	if err != nil {
		return nil, err
	}
	if len(idx.Shape) == 2 && idx.Shape[1] == 1 {
		idx = &tensor.Tensor[T]{Shape: idx.Shape[:1], Data: idx.Data} // Paddle reads an [N, 1] index as [N]
	}
	if len(idx.Shape) > 1 {
		return nil, fmt.Errorf("index must be 0-D, 1-D or [N, 1], is %v", idx.Shape)
	}
	outer, n, inner := splitAt(x.Shape, axis)
	k := len(idx.Data)
	rows := make([]int, k)
	for j, v := range idx.Data {
		if rows[j], err = index(v, n, wrap); err != nil {
			return nil, err
		}
	}
	shape := append([]int{}, x.Shape...)
	shape[axis] = k
	if len(idx.Shape) == 0 {
		shape = append(shape[:axis:axis], x.Shape[axis+1:]...)
	}
	out := make([]T, outer*k*inner)
	for o := range outer {
		for j, row := range rows {
			copy(out[(o*k+j)*inner:(o*k+j+1)*inner], x.Data[(o*n+row)*inner:(o*n+row+1)*inner])
		}
	}
	return &tensor.Tensor[T]{Shape: shape, Data: out}, nil
}

// kGather is x's slices along axis (operand or attribute, default 0) at index.
func kGather[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, idx, err := c.pair()
	if err != nil {
		return nil, err
	}
	axis, ok, err := c.intScalarArg("axis", 2)
	if err != nil {
		return nil, err
	}
	if !ok {
		axis = 0
	}
	return c.one(selectAlong(x, idx, axis, false))
}

// kIndexSelect is gather with the axis attribute; negative indices count from the end.
func kIndexSelect[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, idx, err := c.pair()
	if err != nil {
		return nil, err
	}
	return c.one(selectAlong(x, idx, c.attrInt("axis", 0), true))
}

// kGatherND gathers x at the index tuples of index's last dimension: out has shape index.shape[:-1] +
// x.shape[k:] for tuples of length k (negative entries count from the end).
func kGatherND[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, idx, err := c.pair()
	if err != nil {
		return nil, err
	}
	if len(idx.Shape) == 0 {
		return nil, fmt.Errorf("gather_nd index must have rank >= 1")
	}
	k := idx.Shape[len(idx.Shape)-1]
	if k > len(x.Shape) {
		return nil, fmt.Errorf("index tuples of length %d for x of rank %d", k, len(x.Shape))
	}
	inner := 1
	for _, d := range x.Shape[k:] {
		inner *= d
	}
	st := make([]int, k)
	s := inner
	for i := k - 1; i >= 0; i-- {
		st[i] = s
		s *= x.Shape[i]
	}
	tuples := 1
	for _, d := range idx.Shape[:len(idx.Shape)-1] {
		tuples *= d
	}
	out := make([]T, tuples*inner)
	for t := range tuples {
		off := 0
		for i := range k {
			p, err := index(idx.Data[t*k+i], x.Shape[i], true)
			if err != nil {
				return nil, err
			}
			off += p * st[i]
		}
		copy(out[t*inner:(t+1)*inner], x.Data[off:off+inner])
	}
	shape := append(append([]int{}, idx.Shape[:len(idx.Shape)-1]...), x.Shape[k:]...)
	return c.one(&tensor.Tensor[T]{Shape: shape, Data: out}, nil)
}

// kIndexSample picks, for each row i of x [N, D], the elements index[i, j] (index [N, K]).
func kIndexSample[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, idx, err := c.pair()
	if err != nil {
		return nil, err
	}
	if len(x.Shape) != 2 || len(idx.Shape) != 2 || x.Shape[0] != idx.Shape[0] {
		return nil, fmt.Errorf("index_sample needs x [N, D] and index [N, K], has %v and %v", x.Shape, idx.Shape)
	}
	n, d, k := x.Shape[0], x.Shape[1], idx.Shape[1]
	out := make([]T, n*k)
	for i := range n {
		for j := range k {
			p, err := index(idx.Data[i*k+j], d, false)
			if err != nil {
				return nil, err
			}
			out[i*k+j] = x.Data[i*d+p]
		}
	}
	return c.one(&tensor.Tensor[T]{Shape: []int{n, k}, Data: out}, nil)
}

// alongAxis walks the positions of indices (same rank as arr; its other dims no larger than arr's) and calls
// visit with the flat offset into indices and the flat offset into arr of the element it addresses along axis
// (negative indices count from the end).
func alongAxis[T tensor.Float](arr, indices *tensor.Tensor[T], axis int, visit func(at, target int)) error {
	r := len(arr.Shape)
	if len(indices.Shape) != r {
		return fmt.Errorf("indices %v and arr %v must have the same rank", indices.Shape, arr.Shape)
	}
	for d := range r {
		if d != axis && indices.Shape[d] > arr.Shape[d] {
			return fmt.Errorf("indices %v exceed arr %v in dimension %d", indices.Shape, arr.Shape, d)
		}
	}
	ast := make([]int, r)
	s := 1
	for d := r - 1; d >= 0; d-- {
		ast[d] = s
		s *= arr.Shape[d]
	}
	pos := make([]int, r)
	for at, v := range indices.Data {
		p, err := index(v, arr.Shape[axis], true)
		if err != nil {
			return err
		}
		off := 0
		for d := range r {
			q := pos[d]
			if d == axis {
				q = p
			}
			off += q * ast[d]
		}
		visit(at, off)
		for d := r - 1; d >= 0; d-- {
			pos[d]++
			if pos[d] < indices.Shape[d] {
				break
			}
			pos[d] = 0
		}
	}
	return nil
}

// kTakeAlongAxis is out[…] = arr[… with axis replaced by indices[…]]; out has indices' shape.
func kTakeAlongAxis[T tensor.Float](c *call[T]) ([]*value[T], error) {
	arr, idx, err := c.pair()
	if err != nil {
		return nil, err
	}
	axis, err := normAxis(c.attrInt("axis", 0), max(len(arr.Shape), 1))
	if err != nil {
		return nil, err
	}
	out := make([]T, len(idx.Data))
	if err := alongAxis(arr, idx, axis, func(at, target int) { out[at] = arr.Data[target] }); err != nil {
		return nil, err
	}
	return c.one(&tensor.Tensor[T]{Shape: append([]int{}, idx.Shape...), Data: out}, nil)
}

// kPutAlongAxis writes values (broadcast to indices' shape) into a copy of arr at the positions indices address
// along axis, combined by reduce: assign (later writes win), add, mul/multiply, mean, amin, amax; without
// include_self the addressed elements start from the first value written instead of arr's.
func kPutAlongAxis[T tensor.Float](c *call[T]) ([]*value[T], error) {
	arr, err := c.in(0)
	if err != nil {
		return nil, err
	}
	idx, vals, err := c.inPair(1, 2)
	if err != nil {
		return nil, err
	}
	axis, err := normAxis(c.attrInt("axis", 0), max(len(arr.Shape), 1))
	if err != nil {
		return nil, err
	}
	if len(vals.Data) != len(idx.Data) {
		zero := &tensor.Tensor[T]{Shape: idx.Shape, Data: make([]T, len(idx.Data))}
		if vals, err = tensor.Map2("put_along_axis values", zero, vals, func(_, v T) T { return v }); err != nil {
			return nil, err
		}
		if !sameInts(vals.Shape, idx.Shape) {
			return nil, fmt.Errorf("values cannot broadcast to indices %v", idx.Shape)
		}
	}
	reduce := c.attrString("reduce", "assign")
	self := c.attrBool("include_self", true)
	out := arr.Clone()
	count := map[int]int{}
	err = alongAxis(arr, idx, axis, func(at, target int) {
		v := float64(vals.Data[at])
		first := count[target] == 0
		count[target]++
		cur := float64(out.Data[target])
		if first && !self && reduce != "assign" {
			out.Data[target] = T(v)
			return
		}
		switch reduce {
		case "add", "mean":
			cur += v
		case "mul", "multiply":
			cur *= v
		case "amin":
			cur = min(cur, v)
		case "amax":
			cur = max(cur, v)
		default:
			cur = v
		}
		out.Data[target] = T(cur)
	})
	if err != nil {
		return nil, err
	}
	switch reduce {
	case "assign", "add", "mul", "multiply", "amin", "amax":
	case "mean":
		for target, n := range count {
			if self {
				n++
			}
			out.Data[target] = T(float64(out.Data[target]) / float64(n))
		}
	default:
		return nil, unsupported("put_along_axis reduce %q", reduce)
	}
	return c.one(out, nil)
}

// kScatter writes the rows of updates into a copy of x at the rows index names (1-D or 0-D); with overwrite
// later rows win, otherwise the addressed rows are zeroed first and the updates added.
func kScatter[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	idx, upd, err := c.inPair(1, 2)
	if err != nil {
		return nil, err
	}
	if len(x.Shape) == 0 || len(idx.Shape) > 1 {
		return nil, fmt.Errorf("scatter needs x of rank >= 1 and a 1-D index, has %v and %v", x.Shape, idx.Shape)
	}
	inner := len(x.Data) / max(x.Shape[0], 1)
	if len(upd.Data) != len(idx.Data)*inner {
		return nil, fmt.Errorf("updates %v do not hold %d rows of x %v", upd.Shape, len(idx.Data), x.Shape)
	}
	rows := make([]int, len(idx.Data))
	for j, v := range idx.Data {
		if rows[j], err = index(v, x.Shape[0], false); err != nil {
			return nil, err
		}
	}
	out := x.Clone()
	overwrite := c.attrBool("overwrite", true)
	if !overwrite {
		for _, r := range rows {
			clear(out.Data[r*inner : (r+1)*inner])
		}
	}
	for j, r := range rows {
		dst, src := out.Data[r*inner:(r+1)*inner], upd.Data[j*inner:(j+1)*inner]
		if overwrite {
			copy(dst, src)
			continue
		}
		for k, v := range src {
			dst[k] += v
		}
	}
	return c.one(out, nil)
}

// kIndexPut writes value (broadcast) into a copy of x at the positions the index tensors address (a vector of
// integer tensors broadcast together, one per leading dim of x, or boolean masks, which stand for their non-zero
// positions), adding instead with accumulate.
func kIndexPut[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	parts, err := c.vector(1)
	if err != nil {
		return nil, err
	}
	val, err := c.in(2)
	if err != nil {
		return nil, err
	}
	// Boolean masks stand for their non-zero coordinates, one index tensor per mask dimension.
	var idxs []*tensor.Tensor[T]
	for _, p := range parts {
		t := p.tensor()
		if p.dtype != ir.DTypeBool {
			idxs = append(idxs, t)
			continue
		}
		coords := nonzeroCoords(t)
		for d := range t.Shape {
			col := make([]T, len(coords))
			for k, cc := range coords {
				col[k] = T(cc[d])
			}
			idxs = append(idxs, &tensor.Tensor[T]{Shape: []int{len(coords)}, Data: col})
		}
	}
	if len(idxs) > len(x.Shape) {
		return nil, fmt.Errorf("%d index tensors for x of rank %d", len(idxs), len(x.Shape))
	}
	bshape := []int{}
	for _, t := range idxs {
		if bshape, err = tensor.BroadcastShape(bshape, t.Shape); err != nil {
			return nil, err
		}
	}
	zero := &tensor.Tensor[T]{Shape: bshape, Data: make([]T, prod(bshape))}
	bidx := make([]*tensor.Tensor[T], len(idxs))
	for i, t := range idxs {
		if bidx[i], err = tensor.Map2("index_put", zero, t, func(_, v T) T { return v }); err != nil {
			return nil, err
		}
	}
	k := len(idxs)
	inner := 1
	for _, d := range x.Shape[k:] {
		inner *= d
	}
	target := append(append([]int{}, bshape...), x.Shape[k:]...)
	zeroT := &tensor.Tensor[T]{Shape: target, Data: make([]T, prod(target))}
	vals, err := tensor.Map2("index_put value", zeroT, val, func(_, v T) T { return v })
	if err != nil || !sameInts(vals.Shape, target) {
		return nil, fmt.Errorf("value %v cannot broadcast to %v", val.Shape, target)
	}
	st := make([]int, k)
	s := inner
	for i := k - 1; i >= 0; i-- {
		st[i] = s
		s *= x.Shape[i]
	}
	out := x.Clone()
	acc := c.attrBool("accumulate", false)
	for p := range prod(bshape) {
		off := 0
		for i := range k {
			q, err := index(bidx[i].Data[p], x.Shape[i], true)
			if err != nil {
				return nil, err
			}
			off += q * st[i]
		}
		dst, src := out.Data[off:off+inner], vals.Data[p*inner:(p+1)*inner]
		for j, v := range src {
			if acc {
				dst[j] += v
			} else {
				dst[j] = v
			}
		}
	}
	return c.one(out, nil)
}

func prod(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// kIndexAdd adds the slices of add_value along axis into a copy of x at the positions index names.
func kIndexAdd[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	idx, add, err := c.inPair(1, 2)
	if err != nil {
		return nil, err
	}
	if len(x.Shape) == 0 {
		return nil, fmt.Errorf("index_add of a 0-D tensor")
	}
	axis, err := normAxis(c.attrInt("axis", 0), len(x.Shape))
	if err != nil {
		return nil, err
	}
	outer, n, inner := splitAt(x.Shape, axis)
	k := len(idx.Data)
	want := append([]int{}, x.Shape...)
	want[axis] = k
	if !sameInts(add.Shape, want) {
		return nil, fmt.Errorf("add_value %v must be %v", add.Shape, want)
	}
	out := x.Clone()
	for j, v := range idx.Data {
		row, err := index(v, n, true)
		if err != nil {
			return nil, err
		}
		for o := range outer {
			dst := out.Data[(o*n+row)*inner : (o*n+row+1)*inner]
			src := add.Data[(o*k+j)*inner : (o*k+j+1)*inner]
			for i, a := range src {
				dst[i] += a
			}
		}
	}
	return c.one(out, nil)
}

// kEmbedding looks up the rows of weight [V, D] at the ids of x: out has shape x.shape + [D]; rows whose id is
// padding_idx (negative: counted from V) are zero.
func kEmbedding[T tensor.Float](c *call[T]) ([]*value[T], error) {
	ids, w, err := c.pair()
	if err != nil {
		return nil, err
	}
	if len(w.Shape) != 2 {
		return nil, fmt.Errorf("embedding weight must be [V, D], is %v", w.Shape)
	}
	v, d := w.Shape[0], w.Shape[1]
	pad := c.attrInt("padding_idx", -1)
	if pad < 0 {
		pad += v
	}
	if c.attrInt("padding_idx", -1) == -1 {
		pad = -1 // -1 means none
	}
	out := make([]T, len(ids.Data)*d)
	for i, id := range ids.Data {
		row, err := index(id, v, false)
		if err != nil {
			return nil, fmt.Errorf("embedding: %w", err)
		}
		if row == pad {
			continue
		}
		copy(out[i*d:(i+1)*d], w.Data[row*d:(row+1)*d])
	}
	return c.one(&tensor.Tensor[T]{Shape: append(append([]int{}, ids.Shape...), d), Data: out}, nil)
}

// kOneHot is the one-hot encoding of x's ids over num_classes (operand or attribute): shape x.shape +
// [num_classes].
func kOneHot[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	n, ok, err := c.intScalarArg("num_classes", 1, "num_classes", "depth")
	if err != nil {
		return nil, err
	}
	if !ok || n < 0 {
		return nil, fmt.Errorf("no valid num_classes")
	}
	out := make([]T, len(x.Data)*n)
	for i, v := range x.Data {
		k, err := index(v, n, false)
		if err != nil {
			return nil, fmt.Errorf("one_hot: %w", err)
		}
		out[i*n+k] = 1
	}
	return c.one(&tensor.Tensor[T]{Shape: append(append([]int{}, x.Shape...), n), Data: out}, nil)
}

// kMaskedSelect is the 1-D tensor of x's elements where mask (broadcast with x) is set, in row-major order.
func kMaskedSelect[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, mask, err := c.pair()
	if err != nil {
		return nil, err
	}
	shape, err := tensor.BroadcastShape(x.Shape, mask.Shape)
	if err != nil {
		return nil, err
	}
	zero := &tensor.Tensor[T]{Shape: shape, Data: make([]T, prod(shape))}
	bx, err := tensor.Map2("masked_select", zero, x, func(_, v T) T { return v })
	if err != nil {
		return nil, err
	}
	bm, err := tensor.Map2("masked_select", zero, mask, func(_, v T) T { return v })
	if err != nil {
		return nil, err
	}
	out := []T{}
	for i, m := range bm.Data {
		if m != 0 {
			out = append(out, bx.Data[i])
		}
	}
	return c.one(&tensor.Tensor[T]{Shape: []int{len(out)}, Data: out}, nil)
}

// nonzeroCoords lists the coordinates of x's non-zero elements in row-major order.
func nonzeroCoords[T tensor.Float](x *tensor.Tensor[T]) [][]int {
	var out [][]int
	r := len(x.Shape)
	pos := make([]int, r)
	for _, v := range x.Data {
		if v != 0 {
			out = append(out, append([]int{}, pos...))
		}
		for d := r - 1; d >= 0; d-- {
			pos[d]++
			if pos[d] < x.Shape[d] {
				break
			}
			pos[d] = 0
		}
	}
	return out
}

// kNonzero is the [count, rank] int64 tensor of the coordinates of condition's non-zero elements (its shape
// depends on the data).
func kNonzero[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	coords := nonzeroCoords(x)
	r := len(x.Shape)
	out := make([]T, 0, len(coords)*r)
	for _, cc := range coords {
		for _, v := range cc {
			out = append(out, T(v))
		}
	}
	return c.one(&tensor.Tensor[T]{Shape: []int{len(coords), r}, Data: out}, nil)
}
