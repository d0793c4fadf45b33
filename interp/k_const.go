package interp

import (
	"fmt"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// Constants, copies and casts.

func registerConst[T tensor.Float](r registry[T]) {
	r["pd_op.full"] = kFull[T]
	r["pd_op.full_"] = kFull[T]
	r["pd_op.full_int_array"] = kFullIntArray[T]
	r["pd_op.full_like"] = kFullLike[T]
	r["pd_op.assign_value"] = kAssignValue[T]
	r["pd_op.assign_value_"] = kAssignValue[T]
	r["pd_op.assign"] = kCopy[T]
	r["pd_op.assign_out_"] = kCopy[T]
	r["pd_op.to_tensor"] = kCopy[T]
	r["pd_op.to_vtensor"] = kCopy[T]
	r["pd_op.cast"] = kCopy[T]
	r["pd_op.shape"] = kShape[T]
	r["pd_op.shape64"] = kShape[T]
}

// kFull fills the shape attribute with the value attribute (in the declared dtype).
func kFull[T tensor.Float](c *call[T]) ([]*value[T], error) {
	shape, ok := c.attrInts("shape")
	if !ok {
		return nil, fmt.Errorf("no shape attribute")
	}
	v, ok := ir.AsFloat(c.attr("value"))
	if !ok {
		return nil, fmt.Errorf("no numeric value attribute")
	}
	if _, err := NumElements(shape); err != nil {
		return nil, err
	}
	return c.one(tensor.Full(T(v), shape...))
}

// kFullIntArray is the 1-D tensor of the value attribute.
func kFullIntArray[T tensor.Float](c *call[T]) ([]*value[T], error) {
	vals, ok := c.attrInts("value")
	if !ok {
		return nil, fmt.Errorf("no integer-list value attribute")
	}
	data := make([]T, len(vals))
	for i, v := range vals {
		data[i] = T(v)
	}
	return c.one(tensor.FromSlice([]int{len(data)}, data))
}

// kFullLike fills x's shape with the scalar operand.
func kFullLike[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.arg(0)
	if err != nil {
		return nil, err
	}
	v, err := c.scalar(1)
	if err != nil {
		return nil, err
	}
	return c.one(tensor.Full(T(v), x.shape...))
}

// kAssignValue builds the constant given by the shape, dtype and values attributes.
func kAssignValue[T tensor.Float](c *call[T]) ([]*value[T], error) {
	shape, ok := c.attrInts("shape")
	if !ok {
		return nil, fmt.Errorf("no shape attribute")
	}
	arr, ok := c.attr("values").(*ir.ArrayAttr)
	if !ok {
		return nil, fmt.Errorf("no values attribute")
	}
	data := make([]T, len(arr.Elems))
	for i, e := range arr.Elems {
		if b, ok := ir.AsBool(e); ok {
			if b {
				data[i] = 1
			}
			continue
		}
		f, ok := ir.AsFloat(e)
		if !ok {
			return nil, unsupported("values element %s", e)
		}
		data[i] = T(f)
	}
	return c.one(tensor.FromSlice(shape, data))
}

// kCopy returns a copy of operand 0 in a new buffer (assign, to_tensor, to_vtensor, and cast: the declared
// dtype then truncates integers and makes booleans 0/1).
func kCopy[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.arg(0)
	if err != nil {
		return nil, err
	}
	return c.one(x.tensor().Clone(), nil)
}

// kShape is the 1-D tensor of x's dims.
func kShape[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.arg(0)
	if err != nil {
		return nil, err
	}
	data := make([]T, len(x.shape))
	for i, d := range x.shape {
		data[i] = T(d)
	}
	return c.one(tensor.FromSlice([]int{len(data)}, data))
}
