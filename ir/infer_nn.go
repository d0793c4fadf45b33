package ir

import "fmt"

// Result-type rules of the neural-network ops that are neither convolutions nor normalizations: dropout,
// embeddings, gated units, recurrent layers and losses, after the InferMeta functions each rule names.

// inferDropout (DropoutInferMeta): out has x's type; the mask has x's dims in uint8.
func inferDropout(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	return []Type{x, with(c, x, x.Dims, DTypeUint8)}, nil
}

// inferEmbedding (EmbeddingInferMeta, CEmbeddingInferMeta): the ids' dims and the table's row size, in the table's
// element type. ids and weight are found by name.
func inferEmbedding(c *Context, in *InferInput) ([]Type, error) {
	s := in.Schema
	ids, err := in.tensor(s.OperandIndex("x"))
	if err != nil {
		return nil, err
	}
	w, err := in.tensor(s.OperandIndex("weight"))
	if err != nil {
		return nil, err
	}
	if w.Rank() != 2 {
		return nil, fmt.Errorf("weight must be [rows, width], has rank %d", w.Rank())
	}
	return []Type{with(c, w, append(dims(ids.Dims...), w.Dims[1]), w.DType())}, nil
}

// inferLookupTableDequant (LookupTableDequantInferMeta): the ids' dims (without a trailing 1) and (width-2)·4
// floats per row of the quantized table.
func inferLookupTableDequant(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	w, ids := ts[0], ts[1]
	if w.Rank() != 2 || ids.Rank() == 0 {
		return nil, fmt.Errorf("w must be 2-D and ids at least 1-D")
	}
	d := dims(ids.Dims...)
	if d[len(d)-1] == 1 {
		d = d[:len(d)-1]
	}
	width := Dynamic
	if w.Dims[1] >= 0 {
		width = (w.Dims[1] - 2) * 4
	}
	return []Type{c.WithDims(w, append(d, width))}, nil
}

// inferSwiGLU (SwiGLUInferMeta): x's type when y is given; otherwise x holds both halves and the last dim halves.
func inferSwiGLU(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if in.Operand(1) != nil {
		return []Type{x}, nil
	}
	if x.Rank() == 0 {
		return nil, fmt.Errorf("x must have rank 1 or more")
	}
	d := dims(x.Dims...)
	d[len(d)-1] = divDim(d[len(d)-1], 2)
	return []Type{c.WithDims(x, d)}, nil
}

// inferSoftmaxLoss (CrossEntropyWithSoftmaxInferMeta, CSoftmaxWithCrossEntropyInferMeta,
// MarginCrossEntropyInferMeta): the softmax has the logits' type, the loss the logits' dims with the class axis 1.
func inferSoftmaxLoss(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if _, err := in.tensor(1); err != nil {
		return nil, err
	}
	if x.Rank() == 0 {
		return nil, fmt.Errorf("the logits must have rank 1 or more")
	}
	a, err := normAxis(in.intAttr("axis", -1), x.Rank())
	if err != nil {
		return nil, err
	}
	d := dims(x.Dims...)
	d[a] = 1
	return []Type{x, c.WithDims(x, d)}, nil
}

// inferNLLLoss (NllLossRawInferMeta): with reduction "none" the loss per sample (input's dims without the class
// axis 1), otherwise a 0-D loss; total_weight is 0-D.
func inferNLLLoss(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() != 2 && x.Rank() != 4 && x.Rank() != 1 {
		return nil, fmt.Errorf("input must be [N, C] or [N, C, H, W], has rank %d", x.Rank())
	}
	total := c.WithDims(x, dims())
	if in.strAttr("reduction", "mean") != "none" || x.Rank() == 1 {
		return []Type{total, total}, nil
	}
	return []Type{c.WithDims(x, withoutAxis(x.Dims, 1, false)), total}, nil
}

// inferReducedLoss (KLDivInferMeta): the input's type with reduction "none", otherwise 0-D.
func inferReducedLoss(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if in.strAttr("reduction", "mean") == "none" {
		return []Type{x}, nil
	}
	return []Type{c.WithDims(x, dims())}, nil
}

// inferIdentityLoss (IdentityLossInferMeta): x's type with reduction 2 (none), otherwise 0-D.
func inferIdentityLoss(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if in.intAttr("reduction", 1) == 2 {
		return []Type{x}, nil
	}
	return []Type{c.WithDims(x, dims())}, nil
}

// inferWarpCTC (WarpctcInferMeta): with both lengths given (padded logits [T, B, C]) a loss per sequence [B, 1] and
// the gradient [T, B, C]; without them (packed sequences) [-1, 1] and [-1, -1, C'] with C' the elements per step.
func inferWarpCTC(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() == 0 {
		return nil, fmt.Errorf("the logits must have rank 1 or more")
	}
	if in.Operand(2) != nil && in.Operand(3) != nil {
		if x.Rank() != 3 {
			return nil, fmt.Errorf("padded logits must be [T, B, C], have rank %d", x.Rank())
		}
		return []Type{c.WithDims(x, dims(x.Dims[1], 1)), x}, nil
	}
	width := divDim(x.NumElements(), x.Dims[0])
	return []Type{c.WithDims(x, dims(Dynamic, 1)), c.WithDims(x, dims(Dynamic, Dynamic, width))}, nil
}

// inferWarpRNNT (WarprnntInferMeta): a loss per sequence, [B], and the gradient in the input's type.
func inferWarpRNNT(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() != 4 {
		return nil, fmt.Errorf("input must be [B, T, U, C], has rank %d", x.Rank())
	}
	return []Type{c.WithDims(x, dims(x.Dims[0])), x}, nil
}

// inferHSigmoidLoss (HSigmoidLossInferMeta): out [N, 1] in x's element type; Paddle leaves pre_out and w_out unset
// (unsetMeta).
func inferHSigmoidLoss(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() == 0 {
		return nil, fmt.Errorf("x must have rank 1 or more")
	}
	return []Type{c.WithDims(x, dims(x.Dims[0], 1)), unsetMeta(c), unsetMeta(c)}, nil
}

// inferRNN (RnnInferMeta): out [T, B, hidden (×2 bidirectional)] in x's type; the final states have the initial
// states' dims in x's element type; the dropout state and the reserve are left as Paddle leaves them (unsetMeta).
func inferRNN(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() != 3 {
		return nil, fmt.Errorf("x must be [T, B, input_size], has rank %d", x.Rank())
	}
	h := in.intAttr("hidden_size", 100)
	if in.boolAttr("is_bidirec") {
		h *= 2
	}
	ts, err := in.tensors(1)
	if err != nil {
		return nil, err
	}
	states := make([]Type, len(ts))
	for i, t := range ts {
		states[i] = with(c, t, t.Dims, x.DType())
	}
	return []Type{c.WithDims(x, dims(x.Dims[0], x.Dims[1], h)), unsetMeta(c), c.Vector(states...), unsetMeta(c)}, nil
}

// inferLSTM (LSTMInferMeta): over packed sequences [T, 4D]: hidden and cell [T, D] in the input's element type;
// outside is_test batch_gate [T, 4D] and batch_cell_pre_act [T, D], whose element type Paddle leaves unset
// (float32), otherwise both unset (unsetMeta). D comes from the weight [D, 4D].
func inferLSTM(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 3)
	if err != nil {
		return nil, err
	}
	x, w := ts[0], ts[1]
	if x.Rank() != 2 || w.Rank() != 2 {
		return nil, fmt.Errorf("input [T, 4D] and weight [D, 4D] must be 2-D")
	}
	hd := c.WithDims(x, dims(x.Dims[0], w.Dims[0]))
	if in.boolAttr("is_test") {
		return []Type{hd, hd, unsetMeta(c), unsetMeta(c)}, nil
	}
	return []Type{hd, hd, with(c, x, x.Dims, DTypeFloat32), with(c, x, hd.Dims, DTypeFloat32)}, nil
}

// inferGRU (GRUInferMeta): over packed sequences [T, 3D]: hidden [T, D]; outside is_test batch_gate [T, 3D] and the
// batch reset-hidden and hidden states [T, D], otherwise those unset (unsetMeta). D comes from the weight [D, 3D].
func inferGRU(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 2)
	if err != nil {
		return nil, err
	}
	x, w := ts[0], ts[1]
	if x.Rank() != 2 || w.Rank() != 2 {
		return nil, fmt.Errorf("input [T, 3D] and weight [D, 3D] must be 2-D")
	}
	hd := c.WithDims(x, dims(x.Dims[0], w.Dims[0]))
	if in.boolAttr("is_test") {
		return []Type{unsetMeta(c), unsetMeta(c), unsetMeta(c), hd}, nil
	}
	return []Type{x, hd, hd, hd}, nil
}

// inferGRUUnit (GRUUnitInferMeta): one step: gate [B, 3D], reset_hidden_prev and hidden [B, D] from hidden_prev.
func inferGRUUnit(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, h := ts[0], ts[1]
	return []Type{x, h, h}, nil
}

// inferLLMInt8Linear (LLMInt8LinearInferMeta, WeightOnlyLinear's shape): x's dims with the last the weight's rows.
func inferLLMInt8Linear(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, w := ts[0], ts[1]
	if x.Rank() == 0 || w.Rank() != 2 {
		return nil, fmt.Errorf("x must have rank 1 or more and weight rank 2")
	}
	d := dims(x.Dims...)
	d[len(d)-1] = w.Dims[0]
	return []Type{c.WithDims(x, d)}, nil
}

// inferWeightDequantize (WeightDequantizeInferMeta): a quantized [N, K] weight ([N/2, K] for int4) back to [K, N]
// in out_dtype.
func inferWeightDequantize(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() != 2 {
		return nil, fmt.Errorf("x must be 2-D, has rank %d", x.Rank())
	}
	n := x.Dims[0]
	if in.strAttr("algo", "weight_only_int8") == "weight_only_int4" {
		n = mulDim(n, 2)
	}
	return []Type{with(c, x, dims(x.Dims[1], n), in.dtypeOr("out_dtype", DTypeFloat16))}, nil
}

// inferCalcReducedAttnScores (CalcReducedAttnScoresInferMeta): [B, H, 1, Sk] float32 from q [B, Sq, H, D] and k
// [B, Sk, H, D].
func inferCalcReducedAttnScores(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	q, k := ts[0], ts[1]
	if q.Rank() != 4 || k.Rank() != 4 {
		return nil, fmt.Errorf("q and k must be [B, S, H, D]")
	}
	return []Type{with(c, q, dims(q.Dims[0], q.Dims[2], 1, k.Dims[1]), DTypeFloat32)}, nil
}

// inferSparseAttention (SparseAttentionInferMeta): out has q's type; the sampled scores and their softmax are [B, H,
// nnz] (the columns' last size), in the element type Paddle leaves unset (float32).
func inferSparseAttention(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 4)
	if err != nil {
		return nil, err
	}
	q, cols := ts[0], ts[1]
	if q.Rank() != 4 || cols.Rank() != 3 {
		return nil, fmt.Errorf("q must be 4-D and columns 3-D")
	}
	s := with(c, q, dims(q.Dims[0], q.Dims[1], cols.Dims[2]), DTypeFloat32)
	return []Type{q, s, s}, nil
}

// inferClassCenterSample (ClassCenterSampleInferMeta): the remapped labels in label's type and [-1] sampled
// centers.
func inferClassCenterSample(c *Context, in *InferInput) ([]Type, error) {
	l, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if l.Rank() != 1 {
		return nil, fmt.Errorf("label must be 1-D, has rank %d", l.Rank())
	}
	return []Type{l, c.WithDims(l, dims(Dynamic))}, nil
}

// inferAccuracy (AccuracyInferMeta): a 0-D float32 accuracy and 0-D int32 counts of correct and total samples.
func inferAccuracy(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	i32 := with(c, x, dims(), DTypeInt32)
	return []Type{with(c, x, dims(), DTypeFloat32), i32, i32}, nil
}

// inferAUC (AucInferMeta): a 0-D int64 AUC; the statistics, int64, [(1+slide_steps)·(num_thresholds+1)+1] with
// slide_steps, [1, num_thresholds+1] without.
func inferAUC(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	buckets := in.intAttr("num_thresholds", 8191) + 1
	stat := dims(1, buckets)
	if s := in.intAttr("slide_steps", 1); s != 0 {
		stat = dims((1+s)*buckets + 1)
	}
	st := with(c, x, stat, DTypeInt64)
	return []Type{with(c, x, dims(), DTypeInt64), st, st}, nil
}

// inferCheckNumerics (CheckNumericsInferMeta): [3] int64 counts (NaN, Inf, zero) and [3] float32 values (max, min,
// mean).
func inferCheckNumerics(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	return []Type{with(c, x, dims(3), DTypeInt64), with(c, x, dims(3), DTypeFloat32)}, nil
}

// unsetMeta is the type Paddle gives a result its InferMeta function leaves alone: an IrTensor's defaults, dims [0]
// (phi::DDim's default) and float32 (the rnn's dropout state and reserve, einsum's inner cache).
func unsetMeta(c *Context) *TensorType { return newTensor(c, dims(0), DTypeFloat32) }

// inferUnset gives every result the unset type (BarrierInferMeta sets nothing).
func inferUnset(c *Context, in *InferInput) ([]Type, error) {
	out := make([]Type, len(in.Schema.Results))
	for i := range out {
		out[i] = unsetMeta(c)
	}
	return out, nil
}

// inferMaxout (MaxOutInferMeta): the channel axis (1 or 3) divided by groups.
func inferMaxout(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() != 4 {
		return nil, fmt.Errorf("x must have rank 4, has %d", x.Rank())
	}
	a, err := normAxis(in.intAttr("axis", 1), 4)
	if err != nil {
		return nil, err
	}
	g := in.intAttr("groups", 0)
	if a != 1 && a != 3 || g <= 1 {
		return nil, fmt.Errorf("axis must be 1 or 3 and groups above 1")
	}
	d := dims(x.Dims...)
	d[a] = divDim(d[a], g)
	return []Type{c.WithDims(x, d)}, nil
}

// inferAddN (AddNInferMeta): the sum of tensors of one shape: the dims of the first input that is neither 0-D nor
// empty (0-D when there is none), sizes it leaves unknown taken from the others; the first input's element type.
func inferAddN(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensors(0)
	if err != nil {
		return nil, err
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("no tensors to add")
	}
	var d []int64
	for _, t := range ts {
		if t.Rank() == 0 || t.NumElements() == 0 {
			continue
		}
		if d == nil {
			d = dims(t.Dims...)
			continue
		}
		if t.Rank() == len(d) {
			for j := range d {
				d[j] = mergeDim(d[j], t.Dims[j])
			}
		}
	}
	if d == nil {
		d = dims()
	}
	return []Type{c.WithDims(ts[0], d)}, nil
}

// inferNMSIndices (NMSInferMeta): the int64 indices of the kept boxes, [-1].
func inferNMSIndices(c *Context, in *InferInput) ([]Type, error) {
	b, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if b.Rank() != 2 {
		return nil, fmt.Errorf("the boxes must be [N, 4], have rank %d", b.Rank())
	}
	return []Type{with(c, b, dims(Dynamic), DTypeInt64)}, nil
}

// inferAccuracyCheck (AccuracyCheckInferMeta): whether x and y agree within the tolerances: x's dims, bool.
func inferAccuracyCheck(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if _, err := in.tensor(1); err != nil {
		return nil, err
	}
	return []Type{with(c, x, x.Dims, DTypeBool)}, nil
}
