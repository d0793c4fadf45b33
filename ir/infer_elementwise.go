package ir

import "fmt"

// Result-type rules of the element-wise ops: unary ops that keep or change the element type, broadcasting binary and
// ternary ops, and the predicates and comparisons that answer bools. Each names the Paddle InferMeta function it
// follows (paddle/phi/infermeta/{unary,binary,ternary,multiary}.cc).

func inferSame(c *Context, in *InferInput) ([]Type, error) {
	v := in.Operand(0)
	if v == nil {
		return nil, fmt.Errorf("operand 0 is missing")
	}
	out := make([]Type, len(in.Schema.Results))
	for i := range out {
		out[i] = v.Type()
	}
	return out, nil
}

// BroadcastDims returns the numpy broadcast of two shapes, with Dynamic for sizes unknown until run time.
func BroadcastDims(a, b []int64) ([]int64, error) {
	n := max(len(a), len(b))
	out := make([]int64, n)
	for i := 0; i < n; i++ {
		x, y := int64(1), int64(1)
		if j := len(a) - n + i; j >= 0 {
			x = a[j]
		}
		if j := len(b) - n + i; j >= 0 {
			y = b[j]
		}
		switch {
		case x == y:
			out[i] = x
		case x == 1:
			out[i] = y
		case y == 1:
			out[i] = x
		case x < 0 && y < 0:
			out[i] = Dynamic
		case x < 0:
			out[i] = y
		case y < 0:
			out[i] = x
		default:
			return nil, fmt.Errorf("shapes %v and %v do not broadcast", a, b)
		}
	}
	return out, nil
}

func inferBroadcast(boolResult bool) InferFunc {
	return func(c *Context, in *InferInput) ([]Type, error) {
		ts, err := in.tensorsAt(0, 1)
		if err != nil {
			return nil, err
		}
		x, y := ts[0], ts[1]
		dims, err := BroadcastDims(x.Dims, y.Dims)
		if err != nil {
			return nil, err
		}
		t := c.WithDims(x, dims)
		if boolResult {
			t = c.WithElem(t, c.Scalar(DTypeBool))
		}
		return fillResults(c, in.Schema, []Type{t}), nil
	}
}

func inferCast(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	a, ok := in.Attr("dtype").(*DataTypeAttr)
	if !ok {
		return nil, fmt.Errorf("cast: no dtype attribute")
	}
	return fillResults(c, in.Schema, []Type{c.WithElem(x, c.Scalar(a.DType))}), nil
}

func inferSpelling(spelling string) InferFunc {
	return func(c *Context, in *InferInput) ([]Type, error) {
		x, err := in.tensor(0)
		if err != nil {
			return nil, err
		}
		return fillResults(c, in.Schema, []Type{c.WithSpelling(x, spelling)}), nil
	}
}

// toReal is Paddle's dtype::ToReal: the real type of a complex type, other types unchanged.
func toReal(d DType) DType {
	switch d {
	case DTypeComplex64:
		return DTypeFloat32
	case DTypeComplex128:
		return DTypeFloat64
	}
	return d
}

// toComplex is Paddle's dtype::ToComplex: the complex type of a real float type, other types unchanged.
func toComplex(d DType) DType {
	switch d {
	case DTypeFloat32:
		return DTypeComplex64
	case DTypeFloat64:
		return DTypeComplex128
	}
	return d
}

// inferWithDType gives the single result operand 0's dims with the element type f returns
// (IsfiniteInferMeta: bool; RealAndImagInferMeta: the real type; …).
func inferWithDType(f func(DType) DType) InferFunc {
	return func(c *Context, in *InferInput) ([]Type, error) {
		x, err := in.tensor(0)
		if err != nil {
			return nil, err
		}
		return fillResults(c, in.Schema, []Type{with(c, x, x.Dims, f(x.DType()))}), nil
	}
}

func alwaysBool(DType) DType { return DTypeBool }

// alwaysFloat32 is the element type of a result whose InferMeta function sets dims only (SequenceSoftmaxInferMeta,
// OverlapAddInferMeta): an IrTensor's default, float32.
func alwaysFloat32(DType) DType { return DTypeFloat32 }

// inferAsComplex (AsComplexInferMeta): the last dim, 2, holds the real and imaginary parts.
func inferAsComplex(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() < 1 || (x.Dims[x.Rank()-1] != 2 && x.Dims[x.Rank()-1] >= 0) {
		return nil, fmt.Errorf("the last dimension of x must be 2, x is %s", x)
	}
	return []Type{with(c, x, x.Dims[:x.Rank()-1], toComplex(x.DType()))}, nil
}

// inferAsReal (AsRealInferMeta): a complex tensor as its real and imaginary parts in a last dim of 2.
func inferAsReal(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	return []Type{with(c, x, append(dims(x.Dims...), 2), toReal(x.DType()))}, nil
}

// inferComplex (ComplexInferMeta): real and imag broadcast to one complex tensor.
func inferComplex(c *Context, in *InferInput) ([]Type, error) {
	ts, err := inferBroadcast(false)(c, in)
	if err != nil {
		return nil, err
	}
	t := ts[0].(*TensorType)
	return []Type{with(c, t, t.Dims, toComplex(t.DType()))}, nil
}

// broadcastAll broadcasts the dims of the given tensors.
func broadcastAll(ts ...*TensorType) ([]int64, error) {
	out := dims(ts[0].Dims...)
	for _, t := range ts[1:] {
		var err error
		if out, err = BroadcastDims(out, t.Dims); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// inferLerp (LerpInferMeta): x, y and weight broadcast; x's element type.
func inferLerp(c *Context, in *InferInput) ([]Type, error) {
	var ts []*TensorType
	for i := range 3 {
		t, err := in.tensor(i)
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
	}
	d, err := broadcastAll(ts...)
	if err != nil {
		return nil, err
	}
	return []Type{c.WithDims(ts[0], d)}, nil
}

// inferWhere (WhereInferMeta): the result shares x's type; condition, x and y broadcast (Python's paddle.where
// expands them to one shape before it calls the op).
func inferWhere(c *Context, in *InferInput) ([]Type, error) {
	var ts []*TensorType
	for i := range 3 {
		t, err := in.tensor(i)
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
	}
	if _, err := broadcastAll(ts...); err != nil {
		return nil, err
	}
	return []Type{ts[1]}, nil
}

// inferMaskedFill (MaskedFillInferMeta): x broadcast with mask; x's element type.
func inferMaskedFill(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, mask := ts[0], ts[1]
	d, err := BroadcastDims(x.Dims, mask.Dims)
	if err != nil {
		return nil, err
	}
	return []Type{c.WithDims(x, d)}, nil
}

// inferAllValueCompare (AllValueCompareInferMeta: equal_all, allclose): one 0-D bool.
func inferAllValueCompare(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if _, err := in.tensor(1); err != nil {
		return nil, err
	}
	return []Type{with(c, x, dims(), DTypeBool)}, nil
}

// inferIsClose (ValueCompareInferMeta): x's dims, bool.
func inferIsClose(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, y := ts[0], ts[1]
	d, err := BroadcastDims(x.Dims, y.Dims)
	if err != nil {
		return nil, err
	}
	return []Type{with(c, x, d, DTypeBool)}, nil
}

// inferLike (CreateLikeInferMeta: full_like, empty_like): x's dims, the dtype attribute's type or x's when it is
// undefined.
func inferLike(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	d, ok := in.dtypeAttr("dtype")
	if !ok {
		d = x.DType()
	}
	return []Type{with(c, x, x.Dims, d)}, nil
}

// inferSameAsOperand returns a rule giving every result the type of operand i (RandomRoutingInferMeta: the
// topk_idx, operand 2).
func inferSameAsOperand(i int) InferFunc {
	return func(c *Context, in *InferInput) ([]Type, error) {
		v := in.Operand(i)
		if v == nil {
			return nil, fmt.Errorf("operand %d is missing", i)
		}
		out := make([]Type, len(in.Schema.Results))
		for k := range out {
			out[k] = v.Type()
		}
		return out, nil
	}
}

// inferDense (GetTensorFromSelectedRowsInferMeta): a dense tensor of the selected rows' dims and element type.
func inferDense(c *Context, in *InferInput) ([]Type, error) {
	v := in.Operand(0)
	if v == nil {
		return nil, fmt.Errorf("operand 0 is missing")
	}
	switch t := v.Type().(type) {
	case *SelectedRowsType:
		return []Type{c.TensorFull(DenseTensor, t.Dims, t.Elem, t.Layout, t.LoD, t.Offset)}, nil
	case *TensorType:
		return []Type{t}, nil
	}
	return nil, fmt.Errorf("operand 0 has type %s, not selected rows", v.Type())
}
