package cost

import (
	"fmt"

	"github.com/pirdrr/drr/ir"
)

// convFamily holds the convolutions and the fused ops built around one. A convolution with filter
// [Co, Ci/groups, k…] does 2·Ci/groups·Πk operations (multiply and add) per output element, so
// 2·N·Co·ΠHo·(Ci/groups)·Πk in all; strides, dilations and padding enter through the output size, which the result
// type gives or, for dynamic dims, the attributes (ir.ConvOutSize, NCHW or NHWC). A transposed convolution does the
// same per input element: 2·N·Ci·ΠH·(Co/groups)·Πk. Input and filter are read once, the output written once; grouped
// convolutions run on the matrix units, depthwise ones (one input channel per group) on the vector units, as
// Paddle's depthwise kernels do. fused_conv2d_add_act adds per output element the bias (1), the residual (1) and its
// activation; deformable_conv adds the bilinear sampling of every tap (8 operations, the mask 1).
var convFamily = family{
	name: "conv",
	doc:  "convolutions: 2·(Ci/groups)·Πkernel per output element, plus the fused epilogue",
	ops: map[string]formula{
		"pd_op.conv2d":                     conv(false),
		"pd_op.depthwise_conv2d":           conv(false),
		"pd_op.conv3d":                     conv(false),
		"pd_op.fused_conv2d_add_act":       conv(true),
		"pd_op.conv2d_transpose":           convTranspose,
		"pd_op.conv2d_transpose_bias":      convTranspose,
		"pd_op.depthwise_conv2d_transpose": convTranspose,
		"pd_op.conv3d_transpose":           convTranspose,
		"pd_op.deformable_conv":            deformableConv,
	},
}

// channelsLast reports whether the op's data_format puts channels last (NHWC, NDHWC).
func channelsLast(v *opView) bool {
	f := v.str("data_format")
	return f == "NHWC" || f == "NDHWC"
}

// convOutElems returns the number of elements of a convolution's output: the result type's, or computed from the
// input, the filter and the attributes when the type has dynamic dims.
func convOutElems(v *opView, in, filter shape) (int64, error) {
	if t := ir.TensorOf(v.op.Result(0).Type()); t != nil && t.Static() {
		return t.NumElements(), nil
	}
	sp := filter.rank() - 2
	if sp < 1 || in.rank() != sp+2 {
		return 0, fmt.Errorf("input rank %d and filter rank %d do not make a convolution", in.rank(), filter.rank())
	}
	strides, _ := v.ints("strides")
	dilations, _ := v.ints("dilations")
	pads, _ := v.ints("paddings")
	alg := v.str("padding_algorithm")
	n, first := in.dims[0], 2
	if channelsLast(v) {
		first = 1
	}
	elems := n * filter.dims[0]
	for i := 0; i < sp; i++ {
		stride, dil := at(strides, i, 1), at(dilations, i, 1)
		before, after := at(pads, i, 0), at(pads, i, 0)
		if len(pads) == 2*sp {
			before, after = pads[2*i], pads[2*i+1]
		}
		o := ir.ConvOutSize(in.dims[first+i], filter.dims[2+i], stride, before, after, dil, alg, false)
		if o <= 0 {
			if !dynamicDim(v.op.Operand(0), first+i) {
				return 0, fmt.Errorf("output size %d along spatial dim %d", o, i)
			}
			// The input's size there is dynamic, counted as Model.DynamicDim, which the kernel does not fit: the
			// real image is larger; count one output position.
			o = 1
		}
		elems *= o
	}
	return elems, nil
}

// at returns xs[i], or def when xs is shorter.
func at(xs []int64, i int, def int64) int64 {
	if i < len(xs) {
		return xs[i]
	}
	return def
}

// taps returns the product of a filter's spatial dims.
func taps(filter shape) int64 {
	n := int64(1)
	for _, d := range filter.dims[2:] {
		n *= d
	}
	return n
}

// conv is a convolution (input 0, filter 1), with fused the bias (operand 2), residual (operand 3) and activation
// of fused_conv2d_add_act.
func conv(fused bool) formula {
	return func(v *opView) (Work, error) {
		in, err := v.mustIn(0)
		if err != nil {
			return Work{}, err
		}
		filter, err := v.mustIn(1)
		if err != nil {
			return Work{}, err
		}
		if filter.rank() < 3 {
			return Work{}, fmt.Errorf("filter of rank %d", filter.rank())
		}
		outElems, err := convOutElems(v, in, filter)
		if err != nil {
			return Work{}, err
		}
		outType := in.dt
		if out, ok := v.out(0); ok {
			outType = out.dt
		}
		w := Work{FLOPs: 2 * outElems * filter.dims[1] * taps(filter), Read: v.readAll(),
			Written: outElems * int64(elemSize(outType)), Kernels: 1, Unit: Matrix, DType: in.dt}
		if filter.dims[1] == 1 && v.int("groups", 1) > 1 {
			w.Unit = Vector // depthwise
		}
		if fused {
			for i := 2; i <= 3; i++ {
				if _, ok := v.in(i); ok {
					w.FLOPs += outElems
				}
			}
			act, err := activationOps(v.str("activation"))
			if err != nil {
				return w, err
			}
			w.FLOPs += act * outElems
		}
		return w, nil
	}
}

// convTranspose is a transposed convolution: x [N, Ci, H…] (or channels last), filter [Ci, Co/groups, k…].
func convTranspose(v *opView) (Work, error) {
	in, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	filter, err := v.mustIn(1)
	if err != nil {
		return Work{}, err
	}
	if filter.rank() < 3 {
		return Work{}, fmt.Errorf("filter of rank %d", filter.rank())
	}
	w := Work{FLOPs: 2 * in.elems() * filter.dims[1] * taps(filter), Read: v.readAll(), Written: v.writeAll(),
		Kernels: 1, Unit: Matrix, DType: in.dt}
	if filter.dims[1] == 1 && v.int("groups", 1) > 1 {
		w.Unit = Vector
	}
	return w, nil
}

// deformableConv is a convolution whose taps sample x bilinearly at learned offsets (x 0, offset 1, filter 2,
// mask 3): the product, and per tap of every output position and input channel 8 operations of interpolation and
// 1 for the mask.
func deformableConv(v *opView) (Work, error) {
	in, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	filter, err := v.mustIn(2)
	if err != nil {
		return Work{}, err
	}
	out, err := v.mustOut(0)
	if err != nil {
		return Work{}, err
	}
	if filter.rank() != 4 || in.rank() != 4 || out.rank() != 4 {
		return Work{}, fmt.Errorf("deformable_conv wants rank-4 input, filter and output")
	}
	positions := out.elems() / max(out.dims[1], 1)
	samples := positions * in.dims[1] * taps(filter)
	return Work{FLOPs: 2*out.elems()*filter.dims[1]*taps(filter) + 9*samples, Read: v.readAll(), Written: v.writeAll(),
		Kernels: 1, Unit: Matrix, DType: in.dt}, nil
}

// dynamicDim reports whether dim i of a tensor value's type is dynamic.
func dynamicDim(val *ir.Value, i int) bool {
	if val == nil {
		return false
	}
	t := ir.TensorOf(val.Type())
	return t != nil && i < len(t.Dims) && t.Dims[i] < 0
}
