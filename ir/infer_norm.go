package ir

import "fmt"

// Result-type rules of normalizations (batch, layer, group, instance norm, LRN) and their statistics, after the
// InferMeta functions each rule names.

// inferBatchNorm (BatchNormInferMeta; FusedBatchNormActInferMeta and FusedBatchNormAddActInferMeta call it with an
// NHWC layout): y has x's type; mean_out and variance_out are [C] in the running statistics' element types,
// saved_mean and saved_variance [C] in x's element type (float32 for the half types), reserve_space an unknown
// number of bytes. The statistics are the operands named mean and variance.
func inferBatchNorm(c *Context, in *InferInput) ([]Type, error) {
	s := in.Schema
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	mean, err := in.tensor(s.OperandIndex("mean"))
	if err != nil {
		return nil, err
	}
	variance, err := in.tensor(s.OperandIndex("variance"))
	if err != nil {
		return nil, err
	}
	if x.Rank() < 2 || x.Rank() > 5 {
		return nil, fmt.Errorf("x must have rank 2 to 5, has %d", x.Rank())
	}
	ch := x.Dims[1]
	if s.Attr("data_format") == nil || in.strAttr("data_format", "NCHW") == "NHWC" {
		ch = x.Dims[x.Rank()-1]
	}
	stat := x.DType()
	if stat == DTypeFloat16 || stat == DTypeBFloat16 || stat == DTypeUint16 {
		stat = DTypeFloat32
	}
	out := []Type{x, c.WithDims(mean, dims(ch)), c.WithDims(variance, dims(ch)), with(c, x, dims(ch), stat),
		with(c, x, dims(ch), stat)}
	if len(s.Results) > 5 {
		out = append(out, with(c, x, dims(Dynamic), DTypeUint8))
	}
	return out, nil
}

// statDType is the element type Paddle keeps normalization statistics in: float32 for the half types, x's
// otherwise.
func statDType(d DType) DType {
	if d == DTypeFloat16 || d == DTypeBFloat16 {
		return DTypeFloat32
	}
	return d
}

// inferLayerNorm (LayerNormInferMeta): out has x's type; mean and variance have x's dims before begin_norm_axis.
func inferLayerNorm(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	b := in.intAttr("begin_norm_axis", 1)
	if b < 0 {
		b += int64(x.Rank())
	}
	if b < 0 || int(b) >= max(x.Rank(), 1) {
		return nil, fmt.Errorf("begin_norm_axis %d out of range for rank %d", in.intAttr("begin_norm_axis", 1), x.Rank())
	}
	stat := with(c, x, dims(x.Dims[:b]...), statDType(x.DType()))
	return []Type{x, stat, stat}, nil
}

// inferGroupNorm (GroupNormInferMeta): y has x's type; mean and variance are [N, groups]. scale and bias, when
// given, have one value per channel (the last dim with NHWC).
func inferGroupNorm(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() < 2 {
		return nil, fmt.Errorf("x must have rank 2 or more, has %d", x.Rank())
	}
	g := in.intAttr("groups", -1)
	if g <= 0 {
		return nil, fmt.Errorf("groups must be positive, is %d", g)
	}
	ch := x.Dims[1]
	if in.strAttr("data_format", "NCHW") == "NHWC" {
		ch = x.Dims[x.Rank()-1]
	}
	// GroupNormInferMeta: groups may not exceed the channels.
	if ch >= 0 && g > ch {
		return nil, fmt.Errorf("groups %d must be between 1 and the %d channels", g, ch)
	}
	if err := perChannel(in, ch, 1, 2); err != nil {
		return nil, err
	}
	stat := with(c, x, dims(x.Dims[0], g), statDType(x.DType()))
	return []Type{x, stat, stat}, nil
}

// inferInstanceNorm (InstanceNormInferMeta): y has x's type; the saved mean and variance are [N·C].
func inferInstanceNorm(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() < 2 {
		return nil, fmt.Errorf("x must have rank 2 or more, has %d", x.Rank())
	}
	stat := with(c, x, dims(mulDim(x.Dims[0], x.Dims[1])), statDType(x.DType()))
	return []Type{x, stat, stat}, nil
}

// inferNorm (NormInferMeta): out has x's type; norm has x's dims with the axis 1, or is left unset (unsetMeta)
// with is_test.
func inferNorm(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	a, err := normAxis(in.intAttr("axis", -1), x.Rank())
	if err != nil {
		return nil, err
	}
	if in.boolAttr("is_test") {
		return []Type{x, unsetMeta(c)}, nil
	}
	d := dims(x.Dims...)
	d[a] = 1
	return []Type{x, c.WithDims(x, d)}, nil
}

// perChannel checks that the optional operands (scale, bias) are vectors of ch values when both sizes are known.
func perChannel(in *InferInput, ch int64, operands ...int) error {
	for _, i := range operands {
		t, err := in.optTensor(i)
		if err != nil {
			return err
		}
		if t == nil {
			continue
		}
		if t.Rank() != 1 {
			return fmt.Errorf("%s must be a vector, is %s", in.operandName(i), t)
		}
		if ch >= 0 && t.Dims[0] >= 0 && t.Dims[0] != ch {
			return fmt.Errorf("%s has %d values for %d channels", in.operandName(i), t.Dims[0], ch)
		}
	}
	return nil
}
