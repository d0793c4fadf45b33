package cost

import (
	"fmt"

	"github.com/pirdrr/drr/ir"
)

// elementwiseFamily holds the element-wise ops: one kernel that reads every operand once (a broadcast operand at its
// own size) and writes every result once, with a fixed number of operations per output element: 1 for an
// arithmetic, comparison, logical or bitwise operation and for a transcendental function (exp, log, sin, tanh, erf,
// …: XLA counts these apart; here each is one), and for activations the operations of their definition (sigmoid
// 1/(1+exp(-x)): 4; silu x·sigmoid(x): 5; hardswish x·relu6(x+3)/6: 5; gelu 0.5·x·(1+erf(x/√2)): 5, with the tanh
// approximation 9; …). A conversion (cast) does no arithmetic. Quantizing (scale, round, clip) is 3 operations per
// element of the input, dequantizing (subtract the zero point, scale) 2.
var elementwiseFamily = family{
	name: "elementwise",
	doc:  "element-wise ops: operands read once, results written once, a fixed count of operations per output element",
	ops:  elementwiseOps(),
}

func elementwiseOps() map[string]formula {
	ops := map[string]formula{}
	for k, names := range map[int64][]string{
		0: {"cast"},
		1: {"abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "digamma", "erf", "erfinv",
			"exp", "expm1", "floor", "lgamma", "log", "log10", "log1p", "log2", "reciprocal", "relu", "round", "sign",
			"sin", "sinh", "sqrt", "square", "tan", "tanh", "trunc", "logical_not", "bitwise_not", "isnan", "isinf",
			"isfinite", "real", "imag", "conj", "angle", "increment", "i0", "i0e", "i1", "i1e", "gammaln",
			"add", "subtract", "multiply", "divide", "maximum", "minimum", "fmax", "fmin", "atan2", "copysign",
			"heaviside", "nextafter", "equal", "not_equal", "less_than", "less_equal", "greater_than",
			"greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
			"bitwise_left_shift", "bitwise_right_shift", "where", "masked_fill", "pow", "complex", "as_complex",
			"as_real"},
		2: {"rsqrt", "floor_divide", "relu6", "leaky_relu", "hardtanh", "hardshrink", "tanh_shrink",
			"thresholded_relu", "prelu", "rrelu", "clip", "scale", "fused_dropout_add", "label_smooth", "logit"},
		3: {"remainder", "elementwise_pow", "elu", "softshrink", "softsign", "softplus", "stanh", "lerp", "isclose"},
		4: {"sigmoid", "hardsigmoid", "celu", "selu", "logsigmoid", "soft_relu"},
		5: {"silu", "swish", "hardswish"},
		6: {"mish", "swiglu"},
	} {
		for _, n := range names {
			ops["pd_op."+n] = elementwise(k)
		}
	}
	for _, n := range []string{"quantize_linear", "weight_quantize", "fake_quantize_abs_max",
		"fake_channel_wise_quantize_abs_max", "fake_quantize_moving_average_abs_max", "fake_quantize_range_abs_max",
		"fake_quantize_dequantize_abs_max", "fake_channel_wise_quantize_dequantize_abs_max",
		"fake_quantize_dequantize_moving_average_abs_max", "moving_average_abs_max_scale"} {
		ops["pd_op."+n] = elementwiseOf(0, 3)
	}
	for _, n := range []string{"dequantize_linear", "weight_dequantize", "dequantize_abs_max", "dequantize_log",
		"fake_dequantize_max_abs", "fake_channel_wise_dequantize_max_abs", "apply_per_channel_scale"} {
		ops["pd_op."+n] = elementwiseOf(0, 2)
	}
	ops["pd_op.gelu"] = gelu
	ops["pd_op.add_n"] = addN
	ops["pd_op.dropout"] = dropout
	return ops
}

// elementwise returns the formula of an element-wise op doing k operations per output element.
func elementwise(k int64) formula {
	return func(v *opView) (Work, error) {
		out, err := v.firstTensor()
		if err != nil {
			return Work{}, err
		}
		return Work{FLOPs: k * out.elems(), Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Vector,
			DType: computeType(v)}, nil
	}
}

// computeType returns the element type arithmetic runs in: the first floating-point operand's, else the first
// tensor operand's, else the first result's.
func computeType(v *opView) ir.DType {
	first := ir.DTypeUndefined
	for i := 0; i < v.op.NumOperands(); i++ {
		val := v.op.Operand(i)
		if val == nil {
			continue
		}
		if dt, ok := firstDType(val.Type()); ok {
			if dt.IsFloat() {
				return dt
			}
			if first == ir.DTypeUndefined {
				first = dt
			}
		}
	}
	if first == ir.DTypeUndefined && v.op.NumResults() > 0 {
		first, _ = firstDType(v.op.Result(0).Type())
	}
	return first
}

// firstDType returns the element type of a tensor type, or of a vector's first floating-point tensor (else its
// first tensor).
func firstDType(t ir.Type) (ir.DType, bool) {
	switch t := t.(type) {
	case *ir.TensorType:
		return t.DType(), true
	case *ir.SelectedRowsType:
		return ir.ElemDType(t), true
	case *ir.VectorType:
		first, found := ir.DTypeUndefined, false
		for _, e := range t.Elems {
			if dt, ok := firstDType(e); ok {
				if dt.IsFloat() {
					return dt, true
				}
				if !found {
					first, found = dt, true
				}
			}
		}
		return first, found
	}
	return ir.DTypeUndefined, false
}

// gelu: 0.5·x·(1+erf(x/√2)) is 5 operations; the tanh approximation 0.5·x·(1+tanh(√(2/π)·(x+0.044715·x³))) 9.
func gelu(v *opView) (Work, error) {
	if v.bool("approximate") {
		return elementwise(9)(v)
	}
	return elementwise(5)(v)
}

// addN sums n tensors: n-1 additions per element.
func addN(v *opView) (Work, error) {
	n := int64(len(v.inList(0)))
	return elementwise(max(n-1, 0))(v)
}

// dropout: in inference (is_test) the output is x, or x·(1-p) with mode downgrade_in_infer: one operation, the mask
// is not written; in training a random draw, a comparison and a scale per element, and the mask written.
func dropout(v *opView) (Work, error) {
	x, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	w := Work{Read: v.readAll(), Kernels: 1, Unit: Vector, DType: x.dt}
	if v.bool("is_test") {
		w.FLOPs = x.elems()
		w.Written = x.bytes()
		return w, nil
	}
	w.FLOPs = 3 * x.elems()
	w.Written = v.writeAll()
	return w, nil
}

// activationOps returns the operations per element of the activation a fused op applies (its activation,
// activation_type or act attribute: "" and "identity" are none), as the element-wise op of that name counts them.
func activationOps(name string) (int64, error) {
	switch name {
	case "", "identity", "linear", "none":
		return 0, nil
	case "relu", "tanh":
		return 1, nil
	case "relu6", "leaky_relu":
		return 2, nil
	case "elu":
		return 3, nil
	case "sigmoid", "hard_sigmoid", "hardsigmoid":
		return 4, nil
	case "gelu", "silu", "swish", "hard_swish", "hardswish":
		return 5, nil
	case "mish":
		return 6, nil
	}
	return 0, fmt.Errorf("unknown activation %q", name)
}
