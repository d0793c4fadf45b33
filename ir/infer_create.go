package ir

import (
	"fmt"
	"math"
)

// Result-type rules of the ops that create tensors from attributes (full, data, arange, the random ops, …), after
// Paddle's nullary InferMeta functions (paddle/phi/infermeta/nullary.cc) and the ones each rule names.

func inferFull(c *Context, in *InferInput) ([]Type, error) {
	shape, ok := AsInts(in.Attr("shape"))
	if !ok {
		return nil, fmt.Errorf("full: no shape attribute")
	}
	d := DTypeFloat32
	if a, ok := in.Attr("dtype").(*DataTypeAttr); ok {
		d = a.DType
	}
	return fillResults(c, in.Schema, []Type{c.Tensor(DenseTensor, shape, c.Scalar(d))}), nil
}

func inferFullIntArray(c *Context, in *InferInput) ([]Type, error) {
	v, ok := AsInts(in.Attr("value"))
	if !ok {
		return nil, fmt.Errorf("full_int_array: no value attribute")
	}
	d := DTypeInt64
	if a, ok := in.Attr("dtype").(*DataTypeAttr); ok {
		d = a.DType
	}
	return fillResults(c, in.Schema, []Type{c.Tensor(DenseTensor, []int64{int64(len(v))}, c.Scalar(d))}), nil
}

func inferData(c *Context, in *InferInput) ([]Type, error) { return inferFull(c, in) }

// dtypeOr returns the dtype attribute's type, or def when the op has none.
func (in *InferInput) dtypeOr(name string, def DType) DType {
	if d, ok := in.dtypeAttr(name); ok {
		return d
	}
	return def
}

// inferShaped gives one tensor of the IntArray operand i's shape (Paddle's CreateInferMeta, GaussianInferMeta,
// UniformRandomInferMeta, RandintInferMeta, FullWithTensorInferMeta) in the dtype attribute's type.
func inferShaped(i int) InferFunc {
	return func(c *Context, in *InferInput) ([]Type, error) {
		shape, err := in.intArray(i)
		if err != nil {
			return nil, err
		}
		d := dims(shape.Values...)
		for k, s := range d {
			if s < 0 {
				d[k] = Dynamic
			}
		}
		return []Type{newTensor(c, d, in.dtypeOr("dtype", DTypeFloat32))}, nil
	}
}

// inferShapeAttr gives one tensor of the shape attribute (AssignValueInferMeta, TruncatedGaussianRandomInferMeta;
// out_shape for PartialRecvInferMeta and RecvV2InferMeta) in the dtype attribute's type.
func inferShapeAttr(attr string) InferFunc {
	return func(c *Context, in *InferInput) ([]Type, error) {
		shape, ok := in.intsAttr(attr)
		if !ok {
			return nil, fmt.Errorf("no %s attribute", attr)
		}
		return []Type{newTensor(c, dims(shape...), in.dtypeOr("dtype", DTypeFloat32))}, nil
	}
}

// inferArange (ArangeInferMeta): ceil((end - start) / step) elements when start, end and step (operands 0–2) are
// constants, otherwise an unknown number; the dtype attribute's type.
func inferArange(c *Context, in *InferInput) ([]Type, error) {
	var v [3]float64
	known := true
	for i := range v {
		f, fromTensor, err := in.scalar(i)
		if err != nil {
			return nil, err
		}
		v[i], known = f, known && !fromTensor
	}
	n := int64(Dynamic)
	if known {
		if v[2] == 0 {
			return nil, fmt.Errorf("step is 0")
		}
		n = int64(int32(math.Ceil((v[1] - v[0]) / v[2])))
	}
	return []Type{newTensor(c, dims(n), in.dtypeOr("dtype", DTypeInt64))}, nil
}

// inferEye (EyeInferMeta): [num_rows, num_columns] (operands 0 and 1; a -1 column count is the row count), the
// dtype attribute's type. Paddle's builder reads a count that comes from a tensor as -1.
func inferEye(c *Context, in *InferInput) ([]Type, error) {
	rows, _, err := in.scalar(0)
	if err != nil {
		return nil, err
	}
	cols, _, err := in.scalar(1)
	if err != nil {
		return nil, err
	}
	r, k := truncInt(rows), truncInt(cols)
	if k == -1 {
		k = r
	}
	return []Type{newTensor(c, dims(max(r, Dynamic), max(k, Dynamic)), in.dtypeOr("dtype", DTypeFloat32))}, nil
}

// inferBatchSizeLike (BatchSizeLikeInferMeta: full_batch_size_like, uniform_random_batch_size_like): the shape
// attribute with the output_dim_idx size taken from input's input_dim_idx size; the dtype attribute's type.
func inferBatchSizeLike(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	shape, _ := in.intsAttr("shape")
	xi, oi := in.intAttr("input_dim_idx", 0), in.intAttr("output_dim_idx", 0)
	if len(shape) == 0 || xi < 0 || int(xi) >= x.Rank() || oi < 0 || int(oi) >= len(shape) {
		return nil, fmt.Errorf("shape %v, input_dim_idx %d and output_dim_idx %d do not fit a rank-%d input", shape, xi, oi, x.Rank())
	}
	d := dims(shape...)
	d[oi] = x.Dims[xi]
	return []Type{newTensor(c, d, in.dtypeOr("dtype", DTypeFloat32))}, nil
}

// inferUnknownLength gives a 1-D tensor of unknown length (LinspaceInferMeta, LogspaceInferMeta:
// the dtype attribute's type; ReadFileInferMeta: uint8).
func inferUnknownLength(c *Context, in *InferInput) ([]Type, error) {
	return []Type{newTensor(c, dims(Dynamic), in.dtypeOr("dtype", DTypeUint8))}, nil
}

// inferRandperm (RandpermInferMeta): [n] of the dtype attribute's type.
func inferRandperm(c *Context, in *InferInput) ([]Type, error) {
	return []Type{newTensor(c, dims(in.intAttr("n", 0)), in.dtypeOr("dtype", DTypeInt64))}, nil
}

// inferSeed (SeedInferMeta): one int32.
func inferSeed(c *Context, in *InferInput) ([]Type, error) {
	return []Type{newTensor(c, dims(1), DTypeInt32)}, nil
}

// inferTriIndices (TrilIndicesInferMeta, TriuIndicesInferMeta): [2, count], the coordinates of the lower
// (upper) triangle of a rows×cols matrix from the offset diagonal.
func inferTriIndices(upper bool) InferFunc {
	return func(c *Context, in *InferInput) ([]Type, error) {
		rowsAttr, colsAttr := "rows", "cols"
		if upper {
			rowsAttr, colsAttr = "row", "col"
		}
		rows, cols, off := in.intAttr(rowsAttr, 0), in.intAttr(colsAttr, 0), in.intAttr("offset", 0)
		var n int64
		if upper {
			n = rows*cols - trilSize(rows, cols, off-1)
		} else {
			n = trilSize(rows, cols, off)
		}
		return []Type{newTensor(c, dims(2, n), in.dtypeOr("dtype", DTypeInt64))}, nil
	}
}

// trilSize is the number of elements of a rows×cols matrix on or below diagonal offset.
func trilSize(rows, cols, offset int64) int64 {
	var first int64
	switch {
	case offset > 0:
		first = min(cols, 1+offset)
	case rows+offset > 0:
		first = 1
	}
	last := max(0, min(cols, rows+offset))
	all := max(0, min(rows, rows+offset))
	trapezoid := last - first + 1
	size := (first + last) * trapezoid >> 1
	if diff := all - trapezoid; diff > 0 {
		size += diff * cols
	}
	return size
}
