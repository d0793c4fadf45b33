package ir

import "fmt"

// The result-type rules of the builtin, pd_op and cf catalogs. Unknown sizes propagate as Dynamic.

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
		x, err := in.tensor(0)
		if err != nil {
			return nil, err
		}
		y, err := in.tensor(1)
		if err != nil {
			return nil, err
		}
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

// convGeometry reads the attributes shared by conv2d, depthwise_conv2d and fused_conv2d_add_act.
type convGeometry struct {
	strides, paddings, dilations []int64
	algorithm, format            string
	groups                       int64
}

func readConv(in *InferInput) (convGeometry, error) {
	g := convGeometry{strides: []int64{1, 1}, paddings: []int64{0, 0}, dilations: []int64{1, 1},
		algorithm: "EXPLICIT", format: "NCHW", groups: 1}
	if v, ok := AsInts(in.Attr("strides")); ok {
		g.strides = v
	}
	if v, ok := AsInts(in.Attr("paddings")); ok {
		g.paddings = v
	}
	if v, ok := AsInts(in.Attr("dilations")); ok {
		g.dilations = v
	}
	if v, ok := AsString(in.Attr("padding_algorithm")); ok {
		g.algorithm = v
	}
	if v, ok := AsString(in.Attr("data_format")); ok {
		g.format = v
	}
	if v, ok := AsInt(in.Attr("groups")); ok {
		g.groups = v
	}
	if len(g.strides) != 2 || len(g.dilations) != 2 || (len(g.paddings) != 2 && len(g.paddings) != 4) {
		return g, fmt.Errorf("strides, dilations need 2 values and paddings 2 or 4")
	}
	return g, nil
}

// pads returns [before, after] padding of spatial axis i.
func (g convGeometry) pads(i int) (int64, int64) {
	if len(g.paddings) == 4 {
		return g.paddings[2*i], g.paddings[2*i+1]
	}
	return g.paddings[i], g.paddings[i]
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

func inferConvLike(c *Context, in *InferInput) (Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	w, err := in.tensor(1)
	if err != nil {
		return nil, err
	}
	if x.Rank() != 4 || w.Rank() != 4 {
		return nil, fmt.Errorf("input and filter must have rank 4, have %d and %d", x.Rank(), w.Rank())
	}
	g, err := readConv(in)
	if err != nil {
		return nil, err
	}
	n, ch, h, wd := x.Dims[0], x.Dims[1], x.Dims[2], x.Dims[3]
	if g.format == "NHWC" {
		ch, h, wd = x.Dims[3], x.Dims[1], x.Dims[2]
	}
	// Paddle's ConvInferMeta: the input's channels are the filter's input channels times groups.
	if ch >= 0 && w.Dims[1] >= 0 && g.groups > 0 && ch != w.Dims[1]*g.groups {
		return nil, fmt.Errorf("input channels %d != filter channels %d * groups %d", ch, w.Dims[1], g.groups)
	}
	oc := w.Dims[0]
	pt, pb := g.pads(0)
	pl, pr := g.pads(1)
	oh := ConvOutSize(h, w.Dims[2], g.strides[0], pt, pb, g.dilations[0], g.algorithm, false)
	ow := ConvOutSize(wd, w.Dims[3], g.strides[1], pl, pr, g.dilations[1], g.algorithm, false)
	dims := []int64{n, oc, oh, ow}
	if g.format == "NHWC" {
		dims = []int64{n, oh, ow, oc}
	}
	return c.WithDims(x, dims), nil
}

func inferConv2D(c *Context, in *InferInput) ([]Type, error) {
	t, err := inferConvLike(c, in)
	if err != nil {
		return nil, err
	}
	return fillResults(c, in.Schema, []Type{t}), nil
}

// inferFusedConv is conv2d's rule, except that with force_backend "gpu" (Paddle's cutlass kernel, NHWC only) the
// filter is [C_out, kh, kw, C_in/groups], as that kernel reads it.
func inferFusedConv(c *Context, in *InferInput) ([]Type, error) {
	if b, _ := AsString(in.Attr("force_backend")); b == "gpu" {
		w, err := in.tensor(1)
		if err != nil {
			return nil, err
		}
		if w.Rank() != 4 {
			return nil, fmt.Errorf("filter must have rank 4, has %d", w.Rank())
		}
		oihw := c.WithDims(w, []int64{w.Dims[0], w.Dims[3], w.Dims[1], w.Dims[2]})
		operands := append([]*Value(nil), in.Operands...)
		operands[1] = &Value{typ: headOf(oihw)}
		return inferConv2D(c, &InferInput{Schema: in.Schema, Operands: operands, Attrs: in.Attrs})
	}
	return inferConv2D(c, in)
}

func inferConv2DTranspose(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	w, err := in.tensor(1)
	if err != nil {
		return nil, err
	}
	if x.Rank() != 4 || w.Rank() != 4 {
		return nil, fmt.Errorf("input and filter must have rank 4")
	}
	g, err := readConv(in)
	if err != nil {
		return nil, err
	}
	outPad := []int64{0, 0}
	if v, ok := AsInts(in.Attr("output_padding")); ok && len(v) == 2 {
		outPad = v
	}
	n, h, wd := x.Dims[0], x.Dims[2], x.Dims[3]
	if g.format == "NHWC" {
		h, wd = x.Dims[1], x.Dims[2]
	}
	oc := Dynamic
	if w.Dims[1] >= 0 {
		oc = w.Dims[1] * g.groups
	}
	size := func(in, k, s, pb, pa, d, op int64) int64 {
		if in < 0 || k < 0 {
			return Dynamic
		}
		if g.algorithm == "SAME" {
			return in * s
		}
		if g.algorithm == "VALID" {
			pb, pa = 0, 0
		}
		return (in-1)*s - pb - pa + d*(k-1) + 1 + op
	}
	pt, pb := g.pads(0)
	pl, pr := g.pads(1)
	oh := size(h, w.Dims[2], g.strides[0], pt, pb, g.dilations[0], outPad[0])
	ow := size(wd, w.Dims[3], g.strides[1], pl, pr, g.dilations[1], outPad[1])
	if sz, ok := constInts(in.Operand(2)); ok && len(sz) == 2 {
		oh, ow = sz[0], sz[1]
	}
	dims := []int64{n, oc, oh, ow}
	if g.format == "NHWC" {
		dims = []int64{n, oh, ow, oc}
	}
	return fillResults(c, in.Schema, []Type{c.WithDims(x, dims)}), nil
}

func inferPool2D(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() != 4 {
		return nil, fmt.Errorf("input must have rank 4")
	}
	g, err := readConv(in)
	if err != nil {
		return nil, err
	}
	format := g.format
	n, ch, h, wd := x.Dims[0], x.Dims[1], x.Dims[2], x.Dims[3]
	if format == "NHWC" {
		ch, h, wd = x.Dims[3], x.Dims[1], x.Dims[2]
	}
	ceil, _ := AsBool(in.Attr("ceil_mode"))
	global, _ := AsBool(in.Attr("global_pooling"))
	adaptive, _ := AsBool(in.Attr("adaptive"))
	k, known := constInts(in.Operand(1))
	oh, ow := Dynamic, Dynamic
	switch {
	case global:
		oh, ow = 1, 1
	case !known || len(k) != 2:
	case adaptive:
		oh, ow = k[0], k[1]
	default:
		pt, pb := g.pads(0)
		pl, pr := g.pads(1)
		oh = ConvOutSize(h, k[0], g.strides[0], pt, pb, 1, g.algorithm, ceil)
		ow = ConvOutSize(wd, k[1], g.strides[1], pl, pr, 1, g.algorithm, ceil)
	}
	dims := []int64{n, ch, oh, ow}
	if format == "NHWC" {
		dims = []int64{n, oh, ow, ch}
	}
	return fillResults(c, in.Schema, []Type{c.WithDims(x, dims)}), nil
}

func inferMatmul(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	y, err := in.tensor(1)
	if err != nil {
		return nil, err
	}
	tx, _ := AsBool(in.Attr("transpose_x"))
	ty, _ := AsBool(in.Attr("transpose_y"))
	xd, yd := append([]int64(nil), x.Dims...), append([]int64(nil), y.Dims...)
	if len(xd) == 0 || len(yd) == 0 {
		return nil, fmt.Errorf("matmul operands must have rank >= 1")
	}
	xVec, yVec := len(xd) == 1, len(yd) == 1
	if xVec {
		xd = []int64{1, xd[0]}
		tx = false
	}
	if yVec {
		yd = []int64{yd[0], 1}
		ty = false
	}
	if tx {
		xd[len(xd)-1], xd[len(xd)-2] = xd[len(xd)-2], xd[len(xd)-1]
	}
	if ty {
		yd[len(yd)-1], yd[len(yd)-2] = yd[len(yd)-2], yd[len(yd)-1]
	}
	m, k1 := xd[len(xd)-2], xd[len(xd)-1]
	k2, n := yd[len(yd)-2], yd[len(yd)-1]
	if k1 >= 0 && k2 >= 0 && k1 != k2 {
		return nil, fmt.Errorf("matmul inner dimensions %d and %d differ", k1, k2)
	}
	batch, err := BroadcastDims(xd[:len(xd)-2], yd[:len(yd)-2])
	if err != nil {
		return nil, err
	}
	dims := batch
	if !xVec {
		dims = append(dims, m)
	}
	if !yVec {
		dims = append(dims, n)
	}
	return fillResults(c, in.Schema, []Type{c.WithDims(x, dims)}), nil
}

// ReshapeDims applies Paddle's reshape target (0 copies the input size at that index, one -1 is inferred) to
// input dims.
func ReshapeDims(in, target []int64) ([]int64, error) {
	out := make([]int64, len(target))
	infer := -1
	known := int64(1)
	for i, t := range target {
		switch {
		case t == 0:
			if i >= len(in) {
				return nil, fmt.Errorf("reshape: 0 at index %d but the input has rank %d", i, len(in))
			}
			out[i] = in[i]
		case t == -1:
			if infer >= 0 {
				return nil, fmt.Errorf("reshape: more than one -1 in %v", target)
			}
			infer = i
			out[i] = Dynamic
			continue
		case t < 0:
			return nil, fmt.Errorf("reshape: bad size %d", t)
		default:
			out[i] = t
		}
		if out[i] < 0 {
			known = -1
		} else if known >= 0 {
			known *= out[i]
		}
	}
	if infer >= 0 {
		total := int64(1)
		for _, d := range in {
			if d < 0 {
				total = -1
				break
			}
			total *= d
		}
		if total >= 0 && known > 0 {
			if total%known != 0 {
				return nil, fmt.Errorf("reshape: %v does not fit %d elements", target, total)
			}
			out[infer] = total / known
		}
	}
	return out, nil
}

func inferReshape(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	target, ok := constInts(in.Operand(1))
	if !ok {
		if a, ok2 := AsInts(in.Attr("shape")); ok2 {
			target, ok = a, true
		}
	}
	var dims []int64
	if ok {
		if dims, err = ReshapeDims(x.Dims, target); err != nil {
			return nil, err
		}
	} else {
		st, err := in.tensor(1)
		if err != nil || st.Rank() != 1 || st.Dims[0] < 0 {
			return nil, fmt.Errorf("reshape: the target shape is not a constant")
		}
		dims = make([]int64, st.Dims[0])
		for i := range dims {
			dims[i] = Dynamic
		}
	}
	return fillResults(c, in.Schema, []Type{c.WithDims(x, dims)}), nil
}

func normAxis(a int64, rank int) (int, error) {
	if a < 0 {
		a += int64(rank)
	}
	if a < 0 || int(a) >= rank {
		return 0, fmt.Errorf("axis %d out of range for rank %d", a, rank)
	}
	return int(a), nil
}

func inferFlatten(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() == 0 {
		return fillResults(c, in.Schema, []Type{c.WithDims(x, []int64{1})}), nil
	}
	s, _ := AsInt(in.Attr("start_axis"))
	e, ok := AsInt(in.Attr("stop_axis"))
	if !ok {
		e = -1
	}
	start, err := normAxis(s, x.Rank())
	if err != nil {
		return nil, err
	}
	stop, err := normAxis(e, x.Rank())
	if err != nil {
		return nil, err
	}
	if start > stop {
		return nil, fmt.Errorf("flatten: start_axis %d after stop_axis %d", start, stop)
	}
	dims := append([]int64(nil), x.Dims[:start]...)
	prod := int64(1)
	for _, d := range x.Dims[start : stop+1] {
		if d < 0 || prod < 0 {
			prod = Dynamic
		} else {
			prod *= d
		}
	}
	dims = append(dims, prod)
	dims = append(dims, x.Dims[stop+1:]...)
	return fillResults(c, in.Schema, []Type{c.WithDims(x, dims)}), nil
}

func inferTranspose(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	perm, ok := AsInts(in.Attr("perm"))
	if !ok || len(perm) != x.Rank() {
		return nil, fmt.Errorf("transpose: perm must have one entry per dimension")
	}
	dims := make([]int64, len(perm))
	for i, p := range perm {
		a, err := normAxis(p, x.Rank())
		if err != nil {
			return nil, err
		}
		dims[i] = x.Dims[a]
	}
	return fillResults(c, in.Schema, []Type{c.WithDims(x, dims)}), nil
}

func axesOf(in *InferInput, operand int) ([]int64, bool) {
	if v, ok := constInts(in.Operand(operand)); ok {
		return v, true
	}
	if v, ok := AsInts(in.Attr("axis")); ok {
		return v, true
	}
	return nil, false
}

func inferSqueeze(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	axes, ok := axesOf(in, 1)
	if !ok {
		return nil, fmt.Errorf("squeeze: the axes are not constant")
	}
	drop := map[int]bool{}
	for _, a := range axes {
		i, err := normAxis(a, x.Rank())
		if err != nil {
			return nil, err
		}
		drop[i] = true
	}
	var dims []int64
	for i, d := range x.Dims {
		if len(axes) == 0 && d == 1 || drop[i] && d == 1 {
			continue
		}
		dims = append(dims, d)
	}
	return fillResults(c, in.Schema, []Type{c.WithDims(x, dims)}), nil
}

func inferUnsqueeze(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	axes, ok := axesOf(in, 1)
	if !ok {
		return nil, fmt.Errorf("unsqueeze: the axes are not constant")
	}
	dims := append([]int64(nil), x.Dims...)
	for _, a := range axes {
		r := len(dims) + 1
		i, err := normAxis(a, r)
		if err != nil {
			return nil, err
		}
		dims = append(dims[:i], append([]int64{1}, dims[i:]...)...)
	}
	return fillResults(c, in.Schema, []Type{c.WithDims(x, dims)}), nil
}

func inferConcat(c *Context, in *InferInput) ([]Type, error) {
	v := in.Operand(0)
	if v == nil {
		return nil, fmt.Errorf("operand 0 is missing")
	}
	vec, ok := v.Type().(*VectorType)
	if !ok || len(vec.Elems) == 0 {
		return nil, fmt.Errorf("concat: operand 0 must be a non-empty vector of tensors")
	}
	first := TensorOf(vec.Elems[0])
	if first == nil {
		return nil, fmt.Errorf("concat: operand 0 must hold tensors")
	}
	ax, ok := constInts(in.Operand(1))
	if !ok || len(ax) != 1 {
		if a, ok2 := AsInt(in.Attr("axis")); ok2 {
			ax, ok = []int64{a}, true
		}
	}
	if !ok || len(ax) != 1 {
		return nil, fmt.Errorf("concat: the axis is not constant")
	}
	axis, err := normAxis(ax[0], first.Rank())
	if err != nil {
		return nil, err
	}
	dims := append([]int64(nil), first.Dims...)
	for _, e := range vec.Elems[1:] {
		t := TensorOf(e)
		if t == nil || t.Rank() != first.Rank() {
			return nil, fmt.Errorf("concat: operands must be tensors of equal rank")
		}
		if dims[axis] < 0 || t.Dims[axis] < 0 {
			dims[axis] = Dynamic
		} else {
			dims[axis] += t.Dims[axis]
		}
	}
	return fillResults(c, in.Schema, []Type{c.WithDims(first, dims)}), nil
}

func inferSplit(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	var sections []int64
	axisOperand := 2
	if num, ok := AsInt(in.Attr("num")); ok {
		axisOperand = 1
		sections = make([]int64, num)
		for i := range sections {
			sections[i] = -1
		}
	} else if s, ok := constInts(in.Operand(1)); ok {
		sections = s
	} else {
		return nil, fmt.Errorf("split: the sections are not constant")
	}
	ax, ok := constInts(in.Operand(axisOperand))
	if !ok || len(ax) != 1 {
		return nil, fmt.Errorf("split: the axis is not constant")
	}
	axis, err := normAxis(ax[0], x.Rank())
	if err != nil {
		return nil, err
	}
	total := x.Dims[axis]
	parts := make([]Type, len(sections))
	known, unknown := int64(0), 0
	for _, s := range sections {
		if s < 0 {
			unknown++
		} else {
			known += s
		}
	}
	for i, s := range sections {
		d := s
		if s < 0 {
			d = Dynamic
			if total >= 0 && unknown > 0 && (total-known)%int64(unknown) == 0 {
				d = (total - known) / int64(unknown)
			}
		}
		dims := append([]int64(nil), x.Dims...)
		dims[axis] = d
		parts[i] = c.WithDims(x, dims)
	}
	return fillResults(c, in.Schema, []Type{c.Vector(parts...)}), nil
}

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

func inferBatchNorm(c *Context, in *InferInput) ([]Type, error) {
	x := in.Operand(0)
	mean := in.Operand(1)
	variance := in.Operand(2)
	if x == nil || mean == nil || variance == nil {
		return nil, fmt.Errorf("batch_norm needs x, mean and variance")
	}
	out := []Type{x.Type(), mean.Type(), variance.Type(), mean.Type(), variance.Type()}
	if len(in.Schema.Results) > 5 {
		reserve := Type(c.NullType())
		if xt := TensorOf(x.Type()); xt != nil {
			reserve = c.Tensor(xt.Spelling, []int64{Dynamic}, c.Scalar(DTypeUint8))
		}
		out = append(out, reserve)
	}
	return out, nil
}

func inferCombine(c *Context, in *InferInput) ([]Type, error) {
	ts := make([]Type, len(in.Operands))
	for i, v := range in.Operands {
		if v == nil {
			return nil, fmt.Errorf("combine: operand %d is missing", i)
		}
		ts[i] = v.Type()
	}
	return []Type{c.Vector(ts...)}, nil
}

func inferBuiltinSplit(c *Context, in *InferInput) ([]Type, error) {
	v := in.Operand(0)
	if v == nil {
		return nil, fmt.Errorf("split: operand 0 is missing")
	}
	vec, ok := v.Type().(*VectorType)
	if !ok {
		return nil, fmt.Errorf("split: operand 0 is not a vector")
	}
	return append([]Type(nil), vec.Elems...), nil
}

func inferSlice(c *Context, in *InferInput) ([]Type, error) {
	v := in.Operand(0)
	if v == nil {
		return nil, fmt.Errorf("slice: operand 0 is missing")
	}
	vec, ok := v.Type().(*VectorType)
	if !ok {
		return nil, fmt.Errorf("slice: operand 0 is not a vector")
	}
	i, ok := AsInt(in.Attr("index"))
	if !ok || i < 0 || int(i) >= len(vec.Elems) {
		return nil, fmt.Errorf("slice: bad index")
	}
	return []Type{vec.Elems[i]}, nil
}

func inferReduce(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	axes, ok := axesOf(in, 1)
	if !ok {
		return nil, fmt.Errorf("reduce: the axes are not constant")
	}
	keep, _ := AsBool(in.Attr("keepdim"))
	drop := map[int]bool{}
	for _, a := range axes {
		i, err := normAxis(a, x.Rank())
		if err != nil {
			return nil, err
		}
		drop[i] = true
	}
	all := len(axes) == 0
	var dims []int64
	for i, d := range x.Dims {
		if all || drop[i] {
			if keep {
				dims = append(dims, 1)
			}
			continue
		}
		dims = append(dims, d)
	}
	if dims == nil {
		dims = []int64{}
	}
	return fillResults(c, in.Schema, []Type{c.WithDims(x, dims)}), nil
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

func inferShape(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	return fillResults(c, in.Schema, []Type{c.Tensor(DenseTensor, []int64{int64(x.Rank())}, c.Scalar(DTypeInt64))}), nil
}
