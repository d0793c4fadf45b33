package ir

import "fmt"

// Result-type rules of convolutions and pooling (2-D and 3-D, transposed, deformable, with indices), after
// Paddle's ConvInferMeta, ConvTransposeInferMeta, PoolInferMeta and their relatives. A spatial size that is
// unknown stays unknown.

// convGeometry holds the window attributes of a convolution or pooling over n spatial axes.
type convGeometry struct {
	strides, paddings, dilations []int64
	algorithm                    string
	channelLast                  bool
	groups                       int64
}

// readConv reads strides, paddings (n or 2n values), dilations, padding_algorithm, data_format and groups for n
// spatial axes, with Paddle's defaults for the ones the op lacks.
func readConv(in *InferInput, n int) (convGeometry, error) {
	g := convGeometry{strides: ones(n), paddings: make([]int64, n), dilations: ones(n), algorithm: "EXPLICIT",
		groups: 1}
	if v, ok := in.intsAttr("strides"); ok {
		g.strides = v
	}
	if v, ok := in.intsAttr("paddings"); ok {
		g.paddings = v
	}
	if v, ok := in.intsAttr("dilations"); ok && len(v) > 0 {
		g.dilations = v
	}
	g.algorithm = in.strAttr("padding_algorithm", "EXPLICIT")
	f := in.strAttr("data_format", "NCHW")
	g.channelLast = f == "NHWC" || f == "NDHWC"
	g.groups = in.intAttr("groups", 1)
	if len(g.strides) != n || len(g.dilations) != n || (len(g.paddings) != n && len(g.paddings) != 2*n) {
		return g, fmt.Errorf("strides and dilations need %d values and paddings %d or %d, have %v, %v and %v", n, n, 2*n,
			g.strides, g.dilations, g.paddings)
	}
	return g, nil
}

// pads returns [before, after] padding of spatial axis i.
func (g convGeometry) pads(i int) (int64, int64) {
	if len(g.paddings) == 2*len(g.strides) {
		return g.paddings[2*i], g.paddings[2*i+1]
	}
	return g.paddings[i], g.paddings[i]
}

// spatial splits x's dims into batch, channels and the spatial sizes for its layout.
func (g convGeometry) spatial(x *TensorType) (n, ch int64, sp []int64) {
	r := x.Rank()
	if g.channelLast {
		return x.Dims[0], x.Dims[r-1], x.Dims[1 : r-1]
	}
	return x.Dims[0], x.Dims[1], x.Dims[2:]
}

// assemble puts batch, channels and spatial sizes back in the layout's order.
func (g convGeometry) assemble(n, ch int64, sp []int64) []int64 {
	if g.channelLast {
		return append(append(dims(n), sp...), ch)
	}
	return append(dims(n, ch), sp...)
}

// ConvOutSize returns the output size of one spatial axis of a convolution or pooling window.
func ConvOutSize(in, kernel, stride, padBefore, padAfter, dilation int64, algorithm string, ceil bool) int64 {
	if in < 0 || kernel < 0 || stride <= 0 {
		return Dynamic
	}
	switch algorithm {
	case "SAME":
		return (in + stride - 1) / stride
	case "VALID":
		padBefore, padAfter = 0, 0
	}
	ext := dilation*(kernel-1) + 1
	num := in + padBefore + padAfter - ext
	if num < 0 {
		return 0
	}
	if ceil {
		return (num+stride-1)/stride + 1
	}
	return num/stride + 1
}

// inferConvND (ConvInferMeta, DepthwiseConvInferMeta, Conv3DInferMeta, DeformableConvInferMeta): input [N, C,
// spatial…] (or channel-last) and filter [O, C/groups, kernel…] give [N, O, out…]. The filter is operand
// filterOperand.
func inferConvND(filterOperand int) InferFunc {
	return func(c *Context, in *InferInput) ([]Type, error) {
		x, err := in.tensor(0)
		if err != nil {
			return nil, err
		}
		w, err := in.tensor(filterOperand)
		if err != nil {
			return nil, err
		}
		if x.Rank() < 3 || w.Rank() != x.Rank() {
			return nil, fmt.Errorf("input and filter must have the same rank, 3 or more: have %d and %d", x.Rank(), w.Rank())
		}
		ns := x.Rank() - 2
		g, err := readConv(in, ns)
		if err != nil {
			return nil, err
		}
		n, ch, sp := g.spatial(x)
		kernel, wch := w.Dims[2:], w.Dims[1]
		if in.strAttr("force_backend", "") == "gpu" {
			// fused_conv2d_add_act on Paddle's cutlass kernel (NHWC only) reads the filter as [O, kernel…, C/groups].
			kernel, wch = w.Dims[1:w.Rank()-1], w.Dims[w.Rank()-1]
		}
		// ConvInferMeta: the input's channels are the filter's input channels times groups.
		if ch >= 0 && wch >= 0 && g.groups > 0 && ch != wch*g.groups {
			return nil, fmt.Errorf("input channels %d != filter channels %d * groups %d", ch, wch, g.groups)
		}
		out := make([]int64, ns)
		for i := range out {
			lo, hi := g.pads(i)
			out[i] = ConvOutSize(sp[i], kernel[i], g.strides[i], lo, hi, g.dilations[i], g.algorithm, false)
		}
		return fillResults(c, in.Schema, []Type{c.WithDims(x, g.assemble(n, w.Dims[0], out))}), nil
	}
}

// inferConvTranspose (ConvTransposeInferMeta, Conv2dTransposeInferMeta, Conv3DTransposeInferMeta): input [N, C,
// spatial…] and filter [C, O/groups, kernel…] give [N, O, (in-1)·stride - pads + dilation·(k-1) + 1 +
// output_padding…]; output_size (operand 2, or the attribute) replaces the computed sizes.
func inferConvTranspose(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, w := ts[0], ts[1]
	if x.Rank() < 3 || w.Rank() != x.Rank() {
		return nil, fmt.Errorf("input and filter must have the same rank, 3 or more: have %d and %d", x.Rank(), w.Rank())
	}
	ns := x.Rank() - 2
	g, err := readConv(in, ns)
	if err != nil {
		return nil, err
	}
	outPad, _ := in.intsAttr("output_padding")
	var outSize []int64
	if k := in.Schema.OperandIndex("output_size"); k >= 0 {
		a, err := in.intArray(k)
		if err != nil {
			return nil, err
		}
		outSize = a.Values
	} else {
		outSize, _ = in.intsAttr("output_size")
	}
	n, _, sp := g.spatial(x)
	out := make([]int64, ns)
	for i := range out {
		if i < len(outSize) && len(outSize) == ns {
			out[i] = outSize[i]
			continue
		}
		k := w.Dims[2+i]
		if sp[i] < 0 || k < 0 {
			out[i] = Dynamic
			continue
		}
		lo, hi := g.pads(i)
		switch g.algorithm {
		case "SAME":
			out[i] = sp[i] * g.strides[i]
			continue
		case "VALID":
			lo, hi = 0, 0
		}
		out[i] = (sp[i]-1)*g.strides[i] - lo - hi + g.dilations[i]*(k-1) + 1
		if i < len(outPad) {
			out[i] += outPad[i]
		}
	}
	oc := mulDim(w.Dims[1], g.groups)
	return fillResults(c, in.Schema, []Type{c.WithDims(x, g.assemble(n, oc, out))}), nil
}

// poolKernel returns the window of a pooling op: the kernel_size operand (pool2d) or attribute.
func poolKernel(in *InferInput) (IntArray, error) {
	if k := in.Schema.OperandIndex("kernel_size"); k >= 0 {
		return in.intArray(k)
	}
	v, ok := in.intsAttr("kernel_size")
	if !ok {
		return IntArray{}, fmt.Errorf("no kernel_size")
	}
	return IntArray{Values: v}, nil
}

// inferPool (Pool2DInferMeta, PoolInferMeta): [N, C, out…]: the kernel's size with adaptive, 1 with
// global_pooling, otherwise the window's output size (ceil_mode rounds up). A kernel known only at run time leaves
// the spatial sizes unknown.
func inferPool(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() != 4 && x.Rank() != 5 {
		return nil, fmt.Errorf("input must have rank 4 or 5, has %d", x.Rank())
	}
	ns := x.Rank() - 2
	g, err := readConv(in, ns)
	if err != nil {
		return nil, err
	}
	k, err := poolKernel(in)
	if err != nil {
		return nil, err
	}
	n, ch, sp := g.spatial(x)
	out := unknowns(ns)
	switch {
	case in.boolAttr("global_pooling"):
		out = ones(ns)
	case k.FromTensor:
	case len(k.Values) != ns:
		return nil, fmt.Errorf("kernel_size %v for %d spatial axes", k.Values, ns)
	case in.boolAttr("adaptive"):
		copy(out, k.Values)
	default:
		for i := range out {
			lo, hi := g.pads(i)
			out[i] = ConvOutSize(sp[i], k.Values[i], g.strides[i], lo, hi, 1, g.algorithm, in.boolAttr("ceil_mode"))
		}
	}
	return fillResults(c, in.Schema, []Type{c.WithDims(x, g.assemble(n, ch, out))}), nil
}

// inferPoolWithIndex (MaxPoolWithIndexInferMeta): the pooled values [N, C, out…] and the int32 positions of the
// maxima in the same dims (NCHW or NCDHW only).
func inferPoolWithIndex(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() != 4 && x.Rank() != 5 {
		return nil, fmt.Errorf("input must have rank 4 or 5, has %d", x.Rank())
	}
	ns := x.Rank() - 2
	g, err := readConv(in, ns)
	if err != nil {
		return nil, err
	}
	k, _ := in.intsAttr("kernel_size")
	out := make([]int64, ns)
	switch {
	case in.boolAttr("global_pooling"):
		out = ones(ns)
	case len(k) != ns:
		return nil, fmt.Errorf("kernel_size %v for %d spatial axes", k, ns)
	case in.boolAttr("adaptive"):
		copy(out, k)
	default:
		for i := range out {
			lo, hi := g.pads(i)
			out[i] = ConvOutSize(x.Dims[2+i], k[i], g.strides[i], lo, hi, 1, "EXPLICIT", in.boolAttr("ceil_mode"))
		}
	}
	d := append(dims(x.Dims[0], x.Dims[1]), out...)
	return []Type{c.WithDims(x, d), with(c, x, d, DTypeInt32)}, nil
}

// inferFractionalPool (FractionalMaxPoolInferMeta): [N, C, output_size…] values and their int32 positions.
func inferFractionalPool(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	size, _ := in.intsAttr("output_size")
	if x.Rank() != len(size)+2 {
		return nil, fmt.Errorf("output_size %v for a rank-%d input", size, x.Rank())
	}
	d := append(dims(x.Dims[0], x.Dims[1]), size...)
	return []Type{c.WithDims(x, d), with(c, x, d, DTypeInt32)}, nil
}

// inferUnpool (UnpoolInferMeta, Unpool3dInferMeta): the values put back at their positions: [N, C, output_size…]
// (operand 2 or the attribute).
func inferUnpool(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if _, err := in.tensor(1); err != nil {
		return nil, err
	}
	var size []int64
	if k := in.Schema.OperandIndex("output_size"); k >= 0 {
		a, err := in.intArray(k)
		if err != nil {
			return nil, err
		}
		size = a.Values
		if a.FromTensor {
			size = unknowns(len(size))
		}
	} else {
		size, _ = in.intsAttr("output_size")
	}
	if x.Rank() != len(size)+2 {
		return nil, fmt.Errorf("output_size %v for a rank-%d input", size, x.Rank())
	}
	return []Type{c.WithDims(x, append(dims(x.Dims[0], x.Dims[1]), size...))}, nil
}

// inferCorrelation (CorrelationInferMeta): [N, (2·(max_displacement/stride2)+1)², H', W'] with H' =
// (H + 2·pad - 2·(max_displacement + kernel_size/2)... the FlowNet correlation's output size.
func inferCorrelation(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if _, err := in.tensor(1); err != nil {
		return nil, err
	}
	if x.Rank() != 4 {
		return nil, fmt.Errorf("input1 must be NCHW, has rank %d", x.Rank())
	}
	pad, k, md := in.intAttr("pad_size", 0), in.intAttr("kernel_size", 1), in.intAttr("max_displacement", 0)
	s1, s2 := in.intAttr("stride1", 1), in.intAttr("stride2", 1)
	if s1 <= 0 || s2 <= 0 {
		return nil, fmt.Errorf("strides must be positive")
	}
	border := md + (k-1)/2
	rad := md / s2
	ch := (2*rad + 1) * (2*rad + 1)
	size := func(s int64) int64 {
		if s < 0 {
			return Dynamic
		}
		return (s+2*pad-2*border-1)/s1 + 1
	}
	return []Type{c.WithDims(x, dims(x.Dims[0], ch, size(x.Dims[2]), size(x.Dims[3])))}, nil
}

// inferInterp (InterpolateInferMeta, as Paddle's builder runs it before any data exists): x resized in its spatial
// dims to out_d/out_h/out_w, or scaled by the scale attribute (a size x leaves unknown stays unknown); with a
// scale_tensor the sizes are unknown. The out_size and size_tensor operands are read at run time only, so the
// attributes decide (Python sets them to -1 for sizes it passes as tensors).
func inferInterp(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() < 3 || x.Rank() > 5 {
		return nil, fmt.Errorf("x must have rank 3, 4 or 5, has %d", x.Rank())
	}
	ns := x.Rank() - 2
	f := in.strAttr("data_format", "NCHW")
	g := convGeometry{channelLast: f == "NHWC" || f == "NDHWC" || f == "NWC"}
	n, ch, sp := g.spatial(x)
	attrs := []string{"out_d", "out_h", "out_w"}[3-ns:]
	scale, _ := AsFloats(in.Attr("scale"))
	out := make([]int64, ns)
	for i, a := range attrs {
		switch {
		case in.Operand(3) != nil: // scale_tensor
			out[i] = Dynamic
		case len(scale) > 0 && scale[min(i, len(scale)-1)] > 0:
			s := float32(scale[min(i, len(scale)-1)])
			out[i] = Dynamic
			if v := int64(int32(float32(sp[i]) * s)); v > 0 {
				out[i] = v
			}
		default:
			out[i] = max(in.intAttr(a, -1), Dynamic)
		}
	}
	return []Type{c.WithDims(x, g.assemble(n, ch, out))}, nil
}

// inferGridSample (GridSampleBaseInferMeta): x sampled at grid's points: [N, C, grid's spatial sizes…].
func inferGridSample(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, grid := ts[0], ts[1]
	if x.Rank() != 4 && x.Rank() != 5 || grid.Rank() != x.Rank() {
		return nil, fmt.Errorf("x and grid must both have rank 4 or 5, have %d and %d", x.Rank(), grid.Rank())
	}
	d := append(dims(x.Dims[0], x.Dims[1]), grid.Dims[1:grid.Rank()-1]...)
	return []Type{c.WithDims(x, d)}, nil
}

// inferAffineGrid (AffineGridInferMeta): the sampling grid of theta [N, 2, 3] ([N, 3, 4]): [N, H, W, 2] for a
// 4-value output_shape, [N, D, H, W, 3] for 5; the spatial sizes are left unknown as Paddle leaves them.
func inferAffineGrid(c *Context, in *InferInput) ([]Type, error) {
	theta, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if theta.Rank() != 3 {
		return nil, fmt.Errorf("theta must be [N, 2, 3] or [N, 3, 4], has rank %d", theta.Rank())
	}
	shape, err := in.intArray(1)
	if err != nil {
		return nil, err
	}
	if len(shape.Values) == 4 && !shape.FromTensor {
		return []Type{c.WithDims(theta, dims(theta.Dims[0], Dynamic, Dynamic, 2))}, nil
	}
	return []Type{c.WithDims(theta, dims(theta.Dims[0], Dynamic, Dynamic, Dynamic, 3))}, nil
}
