package ir

import "fmt"

// Result-type rules of quantize_linear and dequantize_linear (and their inplace forms), after Paddle's
// QuantizeLinearInferMeta and the dtypes its phi kernels write: y has x's dims; quantize_linear's y has x's dtype
// (the fake-quantized values stay floats), dequantize_linear's the scale's (the kernel casts x to the scale's type,
// so an int8 weight dequantizes to a float tensor). The optional training results follow the operands they update
// (out_scale ← scale, out_accum ← in_accum, out_state ← in_state): absent when the operand is; out_scale has
// scale's dims per tensor (quant_axis -1) and x's dim quant_axis per channel.

func inferLinearQuant(dequant bool) InferFunc {
	return func(c *Context, in *InferInput) ([]Type, error) {
		x, err := in.tensor(0)
		if err != nil {
			return nil, err
		}
		axis, _ := AsInt(in.Attr("quant_axis"))
		if axis < -1 || axis > 1 {
			return nil, fmt.Errorf("quant_axis must be 0, 1 or -1, is %d", axis)
		}
		if axis >= 0 && int(axis) >= x.Rank() {
			return nil, fmt.Errorf("quant_axis %d of a rank-%d input", axis, x.Rank())
		}
		var scale *TensorType
		if in.Operand(1) != nil {
			if scale, err = in.tensor(1); err != nil {
				return nil, err
			}
		}
		y := x
		if dequant {
			if scale == nil {
				return nil, fmt.Errorf("dequantize_linear needs a scale")
			}
			y = c.WithElem(x, scale.Elem)
		}
		out := []Type{y, c.NullType(), c.NullType(), c.NullType()}
		if v := in.Operand(4); v != nil {
			out[1] = v.Type()
		}
		if v := in.Operand(3); v != nil {
			out[2] = v.Type()
		}
		if scale != nil {
			if axis < 0 {
				out[3] = scale
			} else {
				out[3] = c.WithDims(scale, []int64{x.Dims[axis]})
			}
		}
		return out[:len(in.Schema.Results)], nil
	}
}
