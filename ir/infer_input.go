package ir

import (
	"fmt"
	"math"
)

// What the result-type rules read of an op being built: its tensors, its attributes with their schema defaults,
// and the values of its mutable operands (IntArray and Scalar arguments PIR passes as operands), read as Paddle's
// generated op builders read them.

// IntArray is the value of an IntArray argument as a result-type rule sees it: the integers, with -1 where a value
// is only known at run time, and FromTensor when some of them come from a tensor (Paddle's IntArray::FromTensor,
// under which several InferMeta functions give up and answer -1).
type IntArray struct {
	Values     []int64
	FromTensor bool
}

// intArray reads the IntArray operand i as Paddle's op builders do (ParseValueShape in
// paddle/fluid/pir/dialect/operator/utils/utils.cc): the value of a full_int_array, the value of a full (one
// element), the elements of a stack or concat of such values, the dims of the input of shape/shape64 (from a
// tensor), and otherwise one unknown (-1) per element of a vector or of a tensor of known size (one for a tensor of
// unknown size). An op of the older form, whose argument is an attribute of the same name, gives the attribute.
func (in *InferInput) intArray(i int) (IntArray, error) { return in.intArrayMarking(i, Dynamic) }

// intArrayMarking is intArray with the elements that come from tensors other than shape/shape64 marked unknown
// instead of -1. pd_op.expand's builder marks them -2 ("a variable"), so that they stay apart from a constant -1
// ("keep x's size").
func (in *InferInput) intArrayMarking(i int, unknown int64) (IntArray, error) {
	if v := in.Operand(i); v != nil {
		var a IntArray
		if err := parseValueShape(v, &a, unknown, 0); err != nil {
			return a, err
		}
		return a, nil
	}
	if name := in.operandName(i); name != "" {
		if vals, ok := AsInts(in.Attr(name)); ok {
			return IntArray{Values: vals}, nil
		}
		return IntArray{}, fmt.Errorf("operand %d (%s) is missing", i, name)
	}
	return IntArray{}, fmt.Errorf("operand %d is missing", i)
}

// maxShapeDepth bounds the recursion of parseValueShape through stacks and concats of shapes.
const maxShapeDepth = 64

func parseValueShape(v *Value, a *IntArray, unknown int64, depth int) error {
	if depth > maxShapeDepth {
		return fmt.Errorf("shape operand nested more than %d deep", maxShapeDepth)
	}
	if def := v.def(); def != nil {
		switch def.Name() {
		case "pd_op.full_int_array":
			vals, ok := AsInts(def.Attr("value"))
			if !ok {
				return fmt.Errorf("full_int_array without an integer value")
			}
			a.Values = append(a.Values, vals...)
			return nil
		case "pd_op.full":
			f, ok := AsFloat(def.AttrOrDefault("value"))
			if !ok {
				return fmt.Errorf("full without a numeric value")
			}
			a.Values = append(a.Values, truncInt(f))
			return nil
		case "pd_op.stack", "pd_op.concat":
			if def.NumOperands() > 0 {
				if src := def.Operand(0); src != nil && src.def() != nil && src.def().Name() == "builtin.combine" {
					for _, e := range src.def().Operands() {
						if e == nil {
							return fmt.Errorf("%s of a shape with an absent element", def.Name())
						}
						if err := parseValueShape(e, a, unknown, depth+1); err != nil {
							return err
						}
					}
					return nil
				}
			}
		case "pd_op.shape", "pd_op.shape64":
			if TensorOf(v.Type()) != nil && def.NumOperands() > 0 && def.Operand(0) != nil {
				if x := TensorOf(def.Operand(0).Type()); x != nil {
					a.Values = append(a.Values, x.Dims...)
					a.FromTensor = true
					return nil
				}
			}
		}
	}
	switch t := v.Type().(type) {
	case *VectorType:
		for range t.Elems {
			a.Values = append(a.Values, unknown)
		}
	default:
		tt := TensorOf(t)
		if tt == nil {
			return fmt.Errorf("an IntArray operand of type %s", v.Type())
		}
		n := tt.NumElements()
		if n < 0 {
			n = 1
		}
		for range n {
			a.Values = append(a.Values, unknown)
		}
	}
	a.FromTensor = true
	return nil
}

// truncInt converts a float to an integer as C++'s static_cast<int64_t> does for the values that fit.
func truncInt(f float64) int64 {
	if math.IsNaN(f) || f > math.MaxInt64 || f < math.MinInt64 {
		return 0
	}
	return int64(f)
}

// scalar reads the Scalar operand i as Paddle's op builders do: the value of a pd_op.full, otherwise unknown
// (fromTensor, value -1). An op of the older form gives the attribute of the operand's name.
func (in *InferInput) scalar(i int) (val float64, fromTensor bool, err error) {
	if v := in.Operand(i); v != nil {
		if v.def() != nil && v.def().Name() == "pd_op.full" {
			if f, ok := AsFloat(v.def().AttrOrDefault("value")); ok {
				return f, false, nil
			}
		}
		return -1, true, nil
	}
	if name := in.operandName(i); name != "" {
		if f, ok := AsFloat(in.Attr(name)); ok {
			return f, false, nil
		}
		return 0, false, fmt.Errorf("operand %d (%s) is missing", i, name)
	}
	return 0, false, fmt.Errorf("operand %d is missing", i)
}

// operandName is the schema's name of operand i, or "".
func (in *InferInput) operandName(i int) string {
	if in.Schema != nil && i < len(in.Schema.Operands) && !in.Schema.Operands[i].Variadic {
		return in.Schema.Operands[i].Name
	}
	return ""
}

// optTensor returns operand i's tensor type, nil if the (optional) operand is absent, or an error if it is not a
// tensor.
func (in *InferInput) optTensor(i int) (*TensorType, error) {
	if in.Operand(i) == nil {
		return nil, nil
	}
	return in.tensor(i)
}

// tensors returns the tensor types of a vector operand (a builtin.combine result).
func (in *InferInput) tensors(i int) ([]*TensorType, error) {
	v := in.Operand(i)
	if v == nil {
		return nil, fmt.Errorf("operand %d is missing", i)
	}
	vec, ok := v.Type().(*VectorType)
	if !ok {
		if t := TensorOf(v.Type()); t != nil {
			return []*TensorType{t}, nil
		}
		return nil, fmt.Errorf("operand %d has type %s, not a vector of tensors", i, v.Type())
	}
	out := make([]*TensorType, len(vec.Elems))
	for k, e := range vec.Elems {
		t := TensorOf(e)
		if t == nil {
			return nil, fmt.Errorf("element %d of operand %d has type %s, not a tensor", k, i, e)
		}
		out[k] = t
	}
	return out, nil
}

// intAttr returns an integer attribute (or its schema default), and def when the op has neither.
func (in *InferInput) intAttr(name string, def int64) int64 {
	if v, ok := AsInt(in.Attr(name)); ok {
		return v
	}
	return def
}

// boolAttr returns a bool attribute (or its default), false when absent.
func (in *InferInput) boolAttr(name string) bool {
	v, _ := AsBool(in.Attr(name))
	return v
}

// floatAttr returns a numeric attribute (or its default), def when absent.
func (in *InferInput) floatAttr(name string, def float64) float64 {
	if v, ok := AsFloat(in.Attr(name)); ok {
		return v
	}
	return def
}

// strAttr returns a string attribute (or its default), def when absent.
func (in *InferInput) strAttr(name, def string) string {
	if v, ok := AsString(in.Attr(name)); ok {
		return v
	}
	return def
}

// intsAttr returns an integer-list attribute (or its default).
func (in *InferInput) intsAttr(name string) ([]int64, bool) { return AsInts(in.Attr(name)) }

// dtypeAttr returns a DataType attribute (or its default) and whether there is one that is not undefined.
func (in *InferInput) dtypeAttr(name string) (DType, bool) {
	if a, ok := in.Attr(name).(*DataTypeAttr); ok && a.DType != DTypeUndefined {
		return a.DType, true
	}
	return DTypeUndefined, false
}

// with returns t with other dims and element type.
func with(c *Context, t *TensorType, dims []int64, d DType) *TensorType {
	return c.TensorFull(t.Spelling, dims, c.Scalar(d), t.Layout, t.LoD, t.Offset)
}

// newTensor returns a tensor type of the default spelling, for results that take no input's type.
func newTensor(c *Context, dims []int64, d DType) *TensorType {
	return c.Tensor(DenseTensor, dims, c.Scalar(d))
}

// dims returns a fresh slice of the given sizes (never nil: a 0-D tensor has the empty dims).
func dims(ds ...int64) []int64 { return append(make([]int64, 0, len(ds)), ds...) }

// mulDim multiplies two sizes, unknown when either is.
func mulDim(a, b int64) int64 {
	if a < 0 || b < 0 {
		return Dynamic
	}
	return a * b
}

// divDim divides a size, unknown when it is.
func divDim(a, b int64) int64 {
	if a < 0 || b == 0 {
		return Dynamic
	}
	return a / b
}

// addDim adds two sizes, unknown when either is.
func addDim(a, b int64) int64 {
	if a < 0 || b < 0 {
		return Dynamic
	}
	return a + b
}
