package ir

import "fmt"

// Result-type rules of the fused ops (what Paddle's fuse passes create), following their InferMeta functions.
// Unknown sizes propagate as Dynamic.

// prodDims is the product of dims, Dynamic if one is unknown.
func prodDims(dims []int64) int64 {
	n := int64(1)
	for _, d := range dims {
		if d < 0 {
			return Dynamic
		}
		n *= d
	}
	return n
}

// inferFC: input flattened at in_num_col_dims times w [K, N] (w [K+4, N+4] with padding_weights): the input's
// leading dims and N.
func inferFC(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, w := ts[0], ts[1]
	k, _ := AsInt(in.Attr("in_num_col_dims"))
	if k < 1 || int(k) >= x.Rank() || w.Rank() != 2 {
		return nil, fmt.Errorf("in_num_col_dims %d with input rank %d and w rank %d", k, x.Rank(), w.Rank())
	}
	n := w.Dims[1]
	if pad, _ := AsBool(in.Attr("padding_weights")); pad && n >= 0 {
		n -= 4
	}
	dims := append(append([]int64(nil), x.Dims[:k]...), n)
	return fillResults(c, in.Schema, []Type{c.WithDims(x, dims)}), nil
}

// inferGemmEpilogue: x [..., K] (trans_x: [K, M]) times y [K, N] (trans_y: [N, K]): out [..., N] or [M, N];
// reserve_space is not declared (inference).
func inferGemmEpilogue(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, y := ts[0], ts[1]
	if x.Rank() < 2 || y.Rank() != 2 {
		return nil, fmt.Errorf("x must have rank >= 2 and y rank 2, have %d and %d", x.Rank(), y.Rank())
	}
	tx, _ := AsBool(in.Attr("trans_x"))
	ty, _ := AsBool(in.Attr("trans_y"))
	n := y.Dims[1]
	if ty {
		n = y.Dims[0]
	}
	var dims []int64
	if tx {
		if x.Rank() != 2 {
			return nil, fmt.Errorf("trans_x needs a 2-D x, x has rank %d", x.Rank())
		}
		dims = []int64{x.Dims[1], n}
	} else {
		dims = append(append([]int64(nil), x.Dims[:x.Rank()-1]...), n)
	}
	return fillResults(c, in.Schema, []Type{c.WithDims(x, dims)}), nil
}

// inferMultiheadMatmul: [B, S, all head sizes] from input [B, S, H] and w [H, 3, all] (or [H, 3·all]).
func inferMultiheadMatmul(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, w := ts[0], ts[1]
	if x.Rank() != 3 {
		return nil, fmt.Errorf("input must be [B, S, H], has rank %d", x.Rank())
	}
	all := Dynamic
	switch {
	case w.Rank() == 3:
		all = w.Dims[2]
	case w.Rank() == 2 && w.Dims[1] >= 0:
		all = w.Dims[1] / 3
	default:
		return nil, fmt.Errorf("w must be [H, 3, H] or [H, 3H], has rank %d", w.Rank())
	}
	return []Type{c.WithDims(x, []int64{x.Dims[0], x.Dims[1], all})}, nil
}

// inferRope: each output has the type of its input (absent inputs: absent outputs).
func inferRope(c *Context, in *InferInput) ([]Type, error) {
	out := make([]Type, len(in.Schema.Results))
	for i := range out {
		if v := in.Operand(i); v != nil {
			out[i] = v.Type()
		} else {
			out[i] = c.NullType()
		}
	}
	if out[0] == c.NullType() {
		return nil, fmt.Errorf("operand q is missing")
	}
	return out, nil
}

// inferNormWithStats is the rule of the fused norms with an optional residual (operand 2): out has x's type (int8
// when quant_scale is positive), residual_out x's type when the residual is given (else absent), and the
// statistics (inv_var for rms_norm, mean and variance for the layer norm) are float32 vectors of one value per row
// (the dims before begin_norm_axis).
func inferNormWithStats(rms bool) InferFunc {
	return func(c *Context, in *InferInput) ([]Type, error) {
		x, err := in.tensor(0)
		if err != nil {
			return nil, err
		}
		begin, _ := AsInt(in.Attr("begin_norm_axis"))
		if begin < 0 {
			begin += int64(x.Rank())
		}
		if begin < 0 || int(begin) > x.Rank() {
			return nil, fmt.Errorf("begin_norm_axis %d out of range for rank %d", begin, x.Rank())
		}
		rows := prodDims(x.Dims[:begin])
		stat := c.Tensor(x.Spelling, []int64{rows}, c.Scalar(DTypeFloat32))
		out := Type(x)
		if in.floatAttr("quant_scale", -1) > 0 {
			out = c.WithElem(x, c.Scalar(DTypeInt8))
		}
		res := Type(c.NullType())
		if in.Operand(2) != nil {
			res = x
		}
		if rms {
			return []Type{out, res, stat}, nil
		}
		return []Type{out, res, stat, stat}, nil
	}
}

// inferAddGroupNorm: y (and residual_out, when residual is given) have x's type; mean and variance are [N, groups].
// groups is at least 1 and at most the channel count, as Paddle's GroupNormInferMeta enforces (the op's default,
// -1, is no group count).
func inferAddGroupNorm(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() < 2 {
		return nil, fmt.Errorf("x must have rank 2 at least, has %d", x.Rank())
	}
	g, _ := AsInt(in.Attr("groups"))
	ch := x.Dims[1]
	if f, _ := AsString(in.Attr("data_format")); f == "NHWC" || f == "NDHWC" {
		ch = x.Dims[x.Rank()-1]
	}
	if g < 1 || ch >= 0 && g > ch {
		return nil, fmt.Errorf("groups %d must be between 1 and the %d channels", g, ch)
	}
	for _, j := range []int{2, 3} { // scale and bias: one per channel
		if v := in.Operand(j); v != nil && ch >= 0 {
			if t := TensorOf(v.Type()); t != nil && t.Static() && t.NumElements() != ch {
				return nil, fmt.Errorf("%s must have %d elements (one per channel), has %d", in.Schema.Operands[j].Name, ch, t.NumElements())
			}
		}
	}
	stat := c.Tensor(x.Spelling, []int64{x.Dims[0], g}, c.Scalar(DTypeFloat32))
	res := Type(c.NullType())
	if in.Operand(1) != nil {
		res = x
	}
	return []Type{x, res, stat, stat}, nil
}

// inferTransposeFlattenConcat: every tensor transposed, flattened to 2-D at flatten_axis, concatenated along
// concat_axis (0 or 1).
func inferTransposeFlattenConcat(c *Context, in *InferInput) ([]Type, error) {
	v := in.Operand(0)
	if v == nil {
		return nil, fmt.Errorf("operand 0 is missing")
	}
	vec, ok := v.Type().(*VectorType)
	if !ok || len(vec.Elems) == 0 {
		return nil, fmt.Errorf("operand 0 must be a non-empty vector of tensors")
	}
	perm, _ := AsInts(in.Attr("trans_axis"))
	fa, _ := AsInt(in.Attr("flatten_axis"))
	ca, _ := AsInt(in.Attr("concat_axis"))
	if ca != 0 && ca != 1 {
		return nil, fmt.Errorf("concat_axis %d must be 0 or 1", ca)
	}
	var first *TensorType
	out := []int64{0, 0}
	for i, e := range vec.Elems {
		t := TensorOf(e)
		if t == nil || len(perm) != t.Rank() || fa < 0 || int(fa) > t.Rank() {
			return nil, fmt.Errorf("element %d does not fit trans_axis %v and flatten_axis %d", i, perm, fa)
		}
		if first == nil {
			first = t
		}
		td := make([]int64, t.Rank())
		for k, p := range perm {
			if p < 0 || int(p) >= t.Rank() {
				return nil, fmt.Errorf("trans_axis %v out of range", perm)
			}
			td[k] = t.Dims[p]
		}
		two := []int64{prodDims(td[:fa]), prodDims(td[fa:])}
		for d := range 2 {
			switch {
			case int64(d) == ca:
				if out[d] >= 0 && two[d] >= 0 {
					out[d] += two[d]
				} else {
					out[d] = Dynamic
				}
			case i == 0:
				out[d] = two[d]
			}
		}
	}
	return []Type{c.WithDims(first, out)}, nil
}

// inferFlashAttn: out has q's type; softmax [B, H, Sq, Sk] (probabilities, when return_softmax), softmax_lse
// [B, H, Sq] float32 and seed_offset [2] int64.
func inferFlashAttn(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	q, k := ts[0], ts[1]
	if q.Rank() != 4 || k.Rank() != 4 {
		return nil, fmt.Errorf("q and k must be [B, S, H, D], have ranks %d and %d", q.Rank(), k.Rank())
	}
	b, sq, h, sk := q.Dims[0], q.Dims[1], q.Dims[2], k.Dims[1]
	f32 := c.Scalar(DTypeFloat32)
	return []Type{q, c.Tensor(q.Spelling, []int64{b, h, sq, sk}, q.Elem),
		c.Tensor(q.Spelling, []int64{b, h, sq}, f32), c.Tensor(q.Spelling, []int64{2}, c.Scalar(DTypeInt64))}, nil
}

// inferWeightOnlyLinear: x [..., K] times the quantized weight [N, K] (int4: [N/2, K]): out [..., N] in x's type.
func inferWeightOnlyLinear(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, w := ts[0], ts[1]
	if x.Rank() < 1 || w.Rank() != 2 {
		return nil, fmt.Errorf("x must have rank >= 1 and weight rank 2")
	}
	n := w.Dims[0]
	if dt, _ := AsString(in.Attr("weight_dtype")); dt == "int4" && n >= 0 {
		n *= 2
	}
	dims := append(append([]int64(nil), x.Dims[:x.Rank()-1]...), n)
	return []Type{c.WithDims(x, dims)}, nil
}

// inferWeightQuantize (Paddle's WeightQuantizeInferMeta): a weight x [K, N] quantizes to int8 [N, K] (int4: two per
// byte, [N/2, K]) and its scales, [N] per channel or [⌈K/group_size⌉, N] per group, in x's element type.
func inferWeightQuantize(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() != 2 {
		return nil, fmt.Errorf("x must be a [K, N] weight")
	}
	k, n := x.Dims[0], x.Dims[1]
	rows := n
	if algo, _ := AsString(in.Attr("algo")); algo == "weight_only_int4" && n >= 0 {
		rows = n / 2
	}
	scale := []int64{n}
	if gs, _ := AsInt(in.Attr("group_size")); gs > 0 {
		groups := Dynamic
		if k >= 0 {
			groups = (k + gs - 1) / gs
		}
		scale = []int64{groups, n}
	}
	return []Type{c.Tensor(x.Spelling, []int64{rows, k}, c.Scalar(DTypeInt8)), c.Tensor(x.Spelling, scale, x.Elem)}, nil
}

// inferEmbeddingEltwiseLayerNorm: the ids' shape plus the embedding width, in the tables' element type.
func inferEmbeddingEltwiseLayerNorm(c *Context, in *InferInput) ([]Type, error) {
	if in.Operand(0) == nil || in.Operand(1) == nil {
		return nil, fmt.Errorf("ids and embs are required")
	}
	ids, ok1 := in.Operand(0).Type().(*VectorType)
	embs, ok2 := in.Operand(1).Type().(*VectorType)
	if !ok1 || !ok2 || len(ids.Elems) == 0 || len(embs.Elems) == 0 {
		return nil, fmt.Errorf("ids and embs must be non-empty vectors")
	}
	id, emb := TensorOf(ids.Elems[0]), TensorOf(embs.Elems[0])
	if id == nil || emb == nil || emb.Rank() != 2 {
		return nil, fmt.Errorf("ids must hold tensors and embs [V, D] tables")
	}
	dims := append(append([]int64(nil), id.Dims...), emb.Dims[1])
	return []Type{c.Tensor(emb.Spelling, dims, emb.Elem)}, nil
}

// inferFCElementwiseLayerNorm: out has y's type (the fc output's shape); mean and variance one float32 per row.
func inferFCElementwiseLayerNorm(c *Context, in *InferInput) ([]Type, error) {
	y, err := in.tensor(2)
	if err != nil {
		return nil, err
	}
	begin, _ := AsInt(in.Attr("begin_norm_axis"))
	if begin < 0 || int(begin) > y.Rank() {
		return nil, fmt.Errorf("begin_norm_axis %d out of range for rank %d", begin, y.Rank())
	}
	stat := c.Tensor(y.Spelling, []int64{prodDims(y.Dims[:begin])}, c.Scalar(DTypeFloat32))
	return []Type{y, stat, stat}, nil
}

// inferDropoutAdd: out has x's type; seed_offset is [2] int64.
func inferDropoutAdd(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	return []Type{x, c.Tensor(x.Spelling, []int64{2}, c.Scalar(DTypeInt64))}, nil
}
