package ir

import (
	"fmt"
	"math"
)

// Result-type rules of reductions and of the ops that select along an axis (arg-min/max, sort, top-k, scans),
// after Paddle's ReduceInferDim, ReduceIntArrayAxisInferMetaBase and the InferMeta functions each rule names.
// Reducing every axis gives a 0-D tensor (Paddle 2.5 and later).

// reduceDims is ReduceInferDim: x's dims without the axes (kept as 1 with keep), every axis when all is set or the
// axes cover the whole rank.
func reduceDims(x *TensorType, axes []int64, keep, all bool) ([]int64, error) {
	drop := make([]bool, x.Rank())
	for _, a := range axes {
		if x.Rank() == 0 {
			if a != 0 && a != -1 {
				return nil, fmt.Errorf("axis %d of a 0-D tensor (0, -1 or none)", a)
			}
			continue
		}
		i, err := normAxis(a, x.Rank())
		if err != nil {
			return nil, err
		}
		drop[i] = true
	}
	full := true
	for _, d := range drop {
		full = full && d
	}
	all = all || full
	out := dims()
	for i, d := range x.Dims {
		switch {
		case !all && !drop[i]:
			out = append(out, d)
		case keep:
			out = append(out, 1)
		}
	}
	return out, nil
}

// reduceIntArrayDims is ReduceIntArrayAxisInferMetaBase for an axis given as an IntArray: with axes known only at
// run time (fromTensor) the kept dims are unknown and only their number is.
func reduceIntArrayDims(x *TensorType, axes IntArray, keep, all bool) ([]int64, error) {
	if !axes.FromTensor {
		return reduceDims(x, axes.Values, keep, all)
	}
	switch {
	case all && keep:
		return ones(x.Rank()), nil
	case all:
		return dims(), nil
	case keep:
		return unknowns(x.Rank()), nil
	case len(axes.Values) > x.Rank():
		return dims(Dynamic), nil
	}
	return unknowns(x.Rank() - len(axes.Values)), nil
}

func ones(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = 1
	}
	return out
}

func unknowns(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = Dynamic
	}
	return out
}

// inferReduce (ReduceIntArrayAxisInferMeta: mean, max, min, amax, amin): operand 1 holds the axes (none: every
// axis), keepdim keeps them as 1; x's element type.
func inferReduce(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	axes, err := in.intArray(1)
	if err != nil {
		return nil, err
	}
	d, err := reduceIntArrayDims(x, axes, in.boolAttr("keepdim"), len(axes.Values) == 0)
	if err != nil {
		return nil, err
	}
	return fillResults(c, in.Schema, []Type{c.WithDims(x, d)}), nil
}

// inferReduceAll (ReduceIntArrayAxisInferMetaBase with reduce_all: prod, frobenius_norm): as inferReduce, and the
// reduce_all attribute reduces every axis.
func inferReduceAll(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	axes, err := in.intArray(1)
	if err != nil {
		return nil, err
	}
	keep := in.boolAttr("keepdim") || in.boolAttr("keep_dim")
	d, err := reduceIntArrayDims(x, axes, keep, in.boolAttr("reduce_all") || len(axes.Values) == 0)
	if err != nil {
		return nil, err
	}
	return []Type{c.WithDims(x, d)}, nil
}

// inferSum (SumInferMeta): a reduction whose dtype attribute, when defined, is the result's element type; bool and
// int32 sums are int64.
func inferSum(c *Context, in *InferInput) ([]Type, error) {
	ts, err := inferReduce(c, in)
	if err != nil {
		return nil, err
	}
	t := ts[0].(*TensorType)
	d, ok := in.dtypeAttr("dtype")
	if !ok {
		d = t.DType()
		if d == DTypeBool || d == DTypeInt32 {
			d = DTypeInt64
		}
	}
	ts[0] = with(c, t, t.Dims, d)
	return ts, nil
}

// inferReduceAttr (ReduceInferMeta with the axes an attribute, as all, any and logsumexp have them): an empty axis
// list (or reduce_all) reduces every axis. boolResult gives bools (all, any).
func inferReduceAttr(boolResult bool) InferFunc {
	return func(c *Context, in *InferInput) ([]Type, error) {
		x, err := in.tensor(0)
		if err != nil {
			return nil, err
		}
		axes, _ := in.intsAttr("axis")
		d, err := reduceDims(x, axes, in.boolAttr("keepdim"), in.boolAttr("reduce_all") || len(axes) == 0)
		if err != nil {
			return nil, err
		}
		dt := x.DType()
		if boolResult {
			dt = DTypeBool
		}
		return []Type{with(c, x, d, dt)}, nil
	}
}

// inferScalarOf gives one 0-D tensor of x's element type, or of d when d is defined (MeanAllInferMeta, dist,
// squared_l2_norm, l1_norm; NumelInferMeta: int64).
func inferScalarOf(d DType) InferFunc {
	return func(c *Context, in *InferInput) ([]Type, error) {
		x, err := in.tensor(0)
		if err != nil {
			return nil, err
		}
		dt := d
		if dt == DTypeUndefined {
			dt = x.DType()
		}
		return []Type{with(c, x, dims(), dt)}, nil
	}
}

// inferOneOf gives a [1] tensor of x's element type, or of d when defined (SquaredL2NormInferMeta,
// IsEmptyInferMeta: bool).
func inferOneOf(d DType) InferFunc {
	return func(c *Context, in *InferInput) ([]Type, error) {
		x, err := in.tensor(0)
		if err != nil {
			return nil, err
		}
		dt := d
		if dt == DTypeUndefined {
			dt = x.DType()
		}
		return []Type{with(c, x, dims(1), dt)}, nil
	}
}

// withoutAxis returns dims without axis a, or with a 1 there when keep is set.
func withoutAxis(ds []int64, a int, keep bool) []int64 {
	out := dims(ds[:a]...)
	if keep {
		out = append(out, 1)
	}
	return append(out, ds[a+1:]...)
}

// inferArgMinMax (ArgMinMaxInferMeta): x without the axis (operand 1, a Scalar), or every axis with flatten; an
// axis known only at run time leaves the sizes unknown. dtype is int32 or int64.
func inferArgMinMax(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	axis, fromTensor, err := in.scalar(1)
	if err != nil {
		return nil, err
	}
	keep, flatten := in.boolAttr("keepdims"), in.boolAttr("flatten")
	dt, ok := in.dtypeAttr("dtype")
	if !ok {
		dt = DTypeInt64
	}
	if dt != DTypeInt32 && dt != DTypeInt64 {
		return nil, fmt.Errorf("dtype must be int32 or int64, is %s", dt.DataTypeName())
	}
	var d []int64
	switch {
	case flatten && keep:
		d = ones(x.Rank())
		if fromTensor {
			d = unknowns(x.Rank())
		}
	case flatten:
		d = dims()
	case fromTensor && keep:
		d = unknowns(x.Rank())
	case fromTensor:
		d = unknowns(max(x.Rank()-1, 0))
	case x.Rank() == 0:
		d = dims()
	default:
		a, err := normAxis(truncInt(axis), x.Rank())
		if err != nil {
			return nil, err
		}
		d = withoutAxis(x.Dims, a, keep)
	}
	return []Type{with(c, x, d, dt)}, nil
}

// inferSort (ArgsortInferMeta): the sorted values in x's type and int64 indices of x's dims.
func inferSort(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() > 0 {
		if _, err := normAxis(in.intAttr("axis", -1), x.Rank()); err != nil {
			return nil, err
		}
	}
	return []Type{x, with(c, x, x.Dims, DTypeInt64)}, nil
}

// inferTopK (TopKInferMeta): x with the axis cut to k (operand 1, a Scalar; unknown when it comes from a tensor),
// and int64 indices of the same dims.
func inferTopK(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	k, fromTensor, err := in.scalar(1)
	if err != nil {
		return nil, err
	}
	d := dims(x.Dims...)
	if x.Rank() > 0 {
		a, err := normAxis(in.intAttr("axis", -1), x.Rank())
		if err != nil {
			return nil, err
		}
		d[a] = truncInt(k)
		if fromTensor {
			d[a] = Dynamic
		}
	}
	return []Type{c.WithDims(x, d), with(c, x, d, DTypeInt64)}, nil
}

// inferSelectAxis (KthvalueInferMeta, ModeInferMeta): x without the axis (a 1 with keepdim) for the values and
// the int64 indices.
func inferSelectAxis(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	d := dims()
	if x.Rank() > 0 {
		a, err := normAxis(in.intAttr("axis", -1), x.Rank())
		if err != nil {
			return nil, err
		}
		d = withoutAxis(x.Dims, a, in.boolAttr("keepdim"))
	}
	return []Type{c.WithDims(x, d), with(c, x, d, DTypeInt64)}, nil
}

// inferCum (CumInferMeta, CumScalarAxisInferMeta: cumsum, logcumsumexp): x's type, or its elements in one dim with
// flatten.
func inferCum(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if in.boolAttr("flatten") {
		return []Type{c.WithDims(x, dims(x.NumElements()))}, nil
	}
	return []Type{x}, nil
}

// inferCumExtreme (CumWithIndicesInferMeta: cummax, cummin): the running values in x's type and their indices in the
// dtype attribute's type (int32 or int64).
func inferCumExtreme(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	dt, ok := in.dtypeAttr("dtype")
	if !ok {
		dt = DTypeInt64
	}
	return []Type{x, with(c, x, x.Dims, dt)}, nil
}

// inferPNorm (PNormInferMeta): the norm over axis (or over all elements with asvector), the axis kept as 1 with
// keepdim.
func inferPNorm(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	keep := in.boolAttr("keepdim")
	if in.boolAttr("asvector") {
		if keep {
			return []Type{c.WithDims(x, ones(x.Rank()))}, nil
		}
		return []Type{c.WithDims(x, dims())}, nil
	}
	if x.Rank() == 0 {
		return []Type{x}, nil
	}
	a, err := normAxis(in.intAttr("axis", -1), x.Rank())
	if err != nil {
		return nil, err
	}
	return []Type{c.WithDims(x, withoutAxis(x.Dims, a, keep))}, nil
}

// inferNanmedian (NanmedianInferMeta): the median over the axes (none: every axis), the axes kept as 1 with keepdim;
// the int64 indices of the medians in the same dims, with a last dim of 2 in mode "avg" (the two middle elements).
func inferNanmedian(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	axes, _ := in.intsAttr("axis")
	d, err := reduceDims(x, axes, in.boolAttr("keepdim"), len(axes) == 0)
	if err != nil {
		return nil, err
	}
	idx := dims(d...)
	if in.strAttr("mode", "avg") == "avg" {
		idx = append(idx, 2)
	}
	return []Type{c.WithDims(x, d), with(c, x, idx, DTypeInt64)}, nil
}

// inferReduceAs (ReduceAsInferMeta): x summed to target's dims; x's element type.
func inferReduceAs(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, t := ts[0], ts[1]
	return []Type{c.WithDims(x, t.Dims)}, nil
}

// inferTrace (TraceInferMeta): x without axis1 and axis2, the sum of each diagonal.
func inferTrace(c *Context, in *InferInput) ([]Type, error) {
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
	d := dims()
	for i, s := range x.Dims {
		if i != a1 && i != a2 {
			d = append(d, s)
		}
	}
	return []Type{c.WithDims(x, d)}, nil
}

// inferDot (DotInferMeta): the batch of inner products, x without its last dim.
func inferDot(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if _, err := in.tensor(1); err != nil {
		return nil, err
	}
	if x.Rank() < 1 || x.Rank() > 2 {
		return nil, fmt.Errorf("x must be a vector or a batch of vectors, has rank %d", x.Rank())
	}
	return []Type{c.WithDims(x, dims(x.Dims[:x.Rank()-1]...))}, nil
}

// clampInt32 converts a scalar to the int32 Paddle's Scalar::to<int> gives.
func clampInt32(f float64) int64 {
	if f > math.MaxInt32 || f < math.MinInt32 {
		return 0
	}
	return int64(int32(f))
}
