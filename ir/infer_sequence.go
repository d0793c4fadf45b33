package ir

import "fmt"

// Result-type rules of the sequence, graph, sampling, set and spectral ops: LoD-era sequence ops, graph message
// passing, unique and histograms, FFTs, after the InferMeta functions each rule names. Sizes that depend on the
// data (how many unique values, how many sampled neighbours) are -1, as Paddle leaves them.
// inferSequenceExpand (SequenceExpandInferMeta): one row per expanded sequence element, x's dims with the first
// unknown.
func inferSequenceExpand(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() == 0 {
		return nil, fmt.Errorf("x must have rank 1 or more")
	}
	d := dims(x.Dims...)
	d[0] = Dynamic
	return []Type{c.WithDims(x, d)}, nil
}

// inferSequencePool (SequencePoolInferMeta): x's dims for the pooled values and, with pooltype "MAX", for the
// positions; it sets no element type (float32) and leaves max_index unset for other pool types.
func inferSequencePool(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	out := with(c, x, x.Dims, DTypeFloat32)
	if in.strAttr("pooltype", "AVERAGE") == "MAX" {
		return []Type{out, out}, nil
	}
	return []Type{out, unsetMeta(c)}, nil
}

// inferSequenceConv (SequenceConvInferMeta): [T, filter width] rows of x's element type.
func inferSequenceConv(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 2)
	if err != nil {
		return nil, err
	}
	x, f := ts[0], ts[1]
	if x.Rank() != 2 || f.Rank() != 2 {
		return nil, fmt.Errorf("x and filter must be 2-D")
	}
	return []Type{c.WithDims(x, dims(x.Dims[0], f.Dims[1]))}, nil
}

// inferSequenceMask (SequenceMaskScalarInferMeta): x's dims and one more, max_len (operand 1; unknown when it
// comes from a tensor or is not positive), in out_dtype.
func inferSequenceMask(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	m, fromTensor, err := in.scalar(1)
	if err != nil {
		return nil, err
	}
	n := clampInt32(m)
	if fromTensor || n <= 0 {
		n = Dynamic
	}
	return []Type{with(c, x, append(dims(x.Dims...), n), in.dtypeOr("out_dtype", DTypeInt64))}, nil
}

// inferBeamSearchDecode (BeamSearchDecodeInferMeta): the decoded ids and scores, of unknown length.
func inferBeamSearchDecode(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	ids, scores := ts[0], ts[1]
	return []Type{c.WithDims(ids, dims(Dynamic)), c.WithDims(scores, dims(Dynamic))}, nil
}

// inferEditDistance (EditDistanceInferMeta): the distances in refs' dims and the number of sequences [1], both
// float32.
func inferEditDistance(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	h, r := ts[0], ts[1]
	return []Type{with(c, h, dims(1), DTypeFloat32), with(c, r, r.Dims, DTypeFloat32)}, nil
}

// inferViterbiDecode (ViterbiDecodeInferMeta): the best path's score per sequence [B] and the int64 path [B, T].
func inferViterbiDecode(c *Context, in *InferInput) ([]Type, error) {
	p, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if p.Rank() != 3 {
		return nil, fmt.Errorf("potentials must be [B, T, N], have rank %d", p.Rank())
	}
	return []Type{c.WithDims(p, dims(p.Dims[0])), with(c, p, dims(p.Dims[0], p.Dims[1]), DTypeInt64)}, nil
}

// inferHash (HashInferMeta, HashOutputSize): num_hash hashes of each row, [N, num_hash, 1], in x's element type.
func inferHash(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() != 2 {
		return nil, fmt.Errorf("x must be 2-D, has rank %d", x.Rank())
	}
	return []Type{c.WithDims(x, dims(x.Dims[0], in.intAttr("num_hash", 1), 1))}, nil
}

// inferShuffleBatch (ShuffleBatchInferMeta): the shuffled x, the int64 permutation [-1] and the next seed.
func inferShuffleBatch(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	seed := in.Operand(1)
	if seed == nil {
		return nil, fmt.Errorf("operand 1 (seed) is missing")
	}
	return []Type{x, with(c, x, dims(Dynamic), DTypeInt64), seed.Type()}, nil
}

// inferGraphKhopSampler (GraphKhopSamplerInferMeta): sampled edges [-1, 1] (source and destination) in row's element
// type, the int32 sampled node index [-1], the reindexed x, and with return_eids the edge ids [-1] (unset without).
func inferGraphKhopSampler(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 2)
	if err != nil {
		return nil, err
	}
	row, x := ts[0], ts[1]
	e := c.WithDims(row, dims(Dynamic, 1))
	eids := Type(unsetMeta(c))
	if in.boolAttr("return_eids") {
		eids = c.WithDims(row, dims(Dynamic))
	}
	return []Type{e, e, with(c, row, dims(Dynamic), DTypeInt32), x, eids}, nil
}

// inferGraphSampleNeighbors (GraphSampleNeighborsInferMeta): the sampled neighbours [-1] in row's element type, the
// int32 count per node [-1], and with return_eids the edge ids [-1] (unset without).
func inferGraphSampleNeighbors(c *Context, in *InferInput) ([]Type, error) {
	row, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	u := c.WithDims(row, dims(Dynamic))
	eids := Type(unsetMeta(c))
	if in.boolAttr("return_eids") {
		eids = u
	}
	return []Type{u, with(c, row, dims(Dynamic), DTypeInt32), eids}, nil
}

// inferSendRecv (SendURecvInferMeta, SendUERecvInferMeta): messages gathered along the edges and reduced at their
// destinations: x's dims (broadcast with y's for send_ue_recv) with an unknown number of rows (out_size is read at
// run time only); with reduce_op "MEAN" the int32 count of messages per destination, otherwise that result is left
// unset (unsetMeta).
func inferSendRecv(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() == 0 {
		return nil, fmt.Errorf("x must have rank 1 or more")
	}
	d := dims(x.Dims...)
	sizeOp := 3
	if in.Schema.OperandIndex("y") >= 0 {
		sizeOp = 4
		y, err := in.tensor(1)
		if err != nil {
			return nil, err
		}
		if y.Rank() > 0 {
			rest, err := BroadcastDims(x.Dims[1:], y.Dims[1:])
			if err != nil {
				return nil, err
			}
			d = append(dims(d[0]), rest...)
		}
	}
	if _, err := in.intArray(sizeOp); err != nil {
		return nil, err
	}
	d[0] = Dynamic
	count := Type(unsetMeta(c))
	if in.strAttr("reduce_op", "SUM") == "MEAN" {
		count = with(c, x, dims(Dynamic), DTypeInt32)
	}
	return []Type{c.WithDims(x, d), count}, nil
}

// inferSendUV (SendUVInferMeta): one message per edge: [edges, x and y's trailing dims broadcast].
func inferSendUV(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1, 2)
	if err != nil {
		return nil, err
	}
	x, y, src := ts[0], ts[1], ts[2]
	if x.Rank() == 0 || y.Rank() == 0 || src.Rank() == 0 {
		return nil, fmt.Errorf("x, y and src_index must have rank 1 or more")
	}
	rest, err := BroadcastDims(x.Dims[1:], y.Dims[1:])
	if err != nil {
		return nil, err
	}
	return []Type{c.WithDims(x, append(dims(src.Dims[0]), rest...))}, nil
}

// inferSegmentPool (SegmentPoolInferMeta): one row per segment (unknown number) and the [-1, 1] summed ids, in x's
// element type.
func inferSegmentPool(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() == 0 {
		return nil, fmt.Errorf("x must have rank 1 or more")
	}
	d := dims(x.Dims...)
	d[0] = Dynamic
	return []Type{c.WithDims(x, d), c.WithDims(x, dims(Dynamic, 1))}, nil
}

// inferUnique (UniqueRawInferMeta, UniqueConsecutiveInferMeta): the unique values, [-1] or x's dims with the axis
// unknown, in the element type Paddle leaves unset for unique (float32) and x's for unique_consecutive; then, as
// the flags ask, the first indices [-1] (dtype), the inverse (x's element count, or the axis's size; dtype with an
// axis, unset float32 without) and the counts [-1] (dtype for unique, float32 for unique_consecutive). A result the
// flags do not ask for is left unset (unsetMeta).
func inferUnique(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	consecutive := in.Schema.ResultIndex("indices") < 0
	axes, _ := in.intsAttr("axis")
	dt := in.dtypeOr("dtype", DTypeInt64)
	out := dims(Dynamic)
	inverse := with(c, x, dims(x.NumElements()), DTypeFloat32)
	if len(axes) > 0 {
		a, err := normAxis(axes[0], x.Rank())
		if err != nil {
			return nil, err
		}
		out = dims(x.Dims...)
		out[a] = Dynamic
		inverse = with(c, x, dims(x.Dims[a]), dt)
		if consecutive {
			inverse = with(c, x, dims(x.Dims[a]), DTypeFloat32)
		}
	}
	unset := Type(unsetMeta(c))
	pick := func(on bool, t Type) Type {
		if on {
			return t
		}
		return unset
	}
	if consecutive {
		return []Type{c.WithDims(x, out), pick(in.boolAttr("return_inverse"), inverse),
			pick(in.boolAttr("return_counts"), with(c, x, dims(Dynamic), DTypeFloat32))}, nil
	}
	return []Type{with(c, x, out, DTypeFloat32), pick(in.boolAttr("return_index"), with(c, x, dims(Dynamic), dt)),
		pick(in.boolAttr("return_inverse"), inverse), pick(in.boolAttr("return_counts"), with(c, x, dims(Dynamic), dt))}, nil
}

// inferSearchSorted (SearchsortedInferMeta): one position per value: values' dims, int32 with out_int32, else
// int64.
func inferSearchSorted(c *Context, in *InferInput) ([]Type, error) {
	v, err := in.tensor(1)
	if err != nil {
		return nil, err
	}
	dt := DTypeInt64
	if in.boolAttr("out_int32") {
		dt = DTypeInt32
	}
	return []Type{with(c, v, v.Dims, dt)}, nil
}

// inferBincount (BincountInferMeta): [-1] counts, in the weights' element type when given, else int64.
func inferBincount(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	w, err := in.optTensor(1)
	if err != nil {
		return nil, err
	}
	dt := DTypeInt64
	if w != nil {
		dt = w.DType()
	}
	return []Type{with(c, x, dims(Dynamic), dt)}, nil
}

// inferHistogram (HistogramInferMeta): [bins] int64 counts.
func inferHistogram(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	bins := in.intAttr("bins", 100)
	if bins < 1 {
		return nil, fmt.Errorf("bins must be 1 or more, is %d", bins)
	}
	return []Type{with(c, x, dims(bins), DTypeInt64)}, nil
}

// inferFFTC2R (FFTC2RInferMeta): the real signal: the last FFT axis becomes last_dim_size, or 2·(n-1).
func inferFFTC2R(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	axes, _ := in.intsAttr("axes")
	if len(axes) == 0 {
		return nil, fmt.Errorf("no axes")
	}
	a, err := normAxis(axes[len(axes)-1], x.Rank())
	if err != nil {
		return nil, err
	}
	d := dims(x.Dims...)
	if n := in.intAttr("last_dim_size", 0); n > 0 {
		d[a] = n
	} else if d[a] >= 0 {
		d[a] = (d[a] - 1) * 2
	}
	return []Type{with(c, x, d, toReal(x.DType()))}, nil
}

// inferFFTR2C (FFTR2CInferMeta): the complex spectrum: x's dims, the last FFT axis n/2+1 when onesided.
func inferFFTR2C(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	d := dims(x.Dims...)
	if in.boolAttr("onesided") {
		axes, _ := in.intsAttr("axes")
		if len(axes) == 0 {
			return nil, fmt.Errorf("no axes")
		}
		a, err := normAxis(axes[len(axes)-1], x.Rank())
		if err != nil {
			return nil, err
		}
		d[a] = d[a]/2 + 1 // as C++ computes it, also for an unknown size (-1/2 + 1 = 1)
	}
	return []Type{with(c, x, d, toComplex(x.DType()))}, nil
}

// inferSTFT (StftInferMeta): for x [B, T]: [B, n_fft/2+1 (onesided) or n_fft, 1 + (T - n_fft)/hop_length] complex
// frames.
func inferSTFT(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() != 2 {
		return nil, fmt.Errorf("x must be [B, T], has rank %d", x.Rank())
	}
	n, hop := in.intAttr("n_fft", 0), in.intAttr("hop_length", 1)
	if n <= 0 || hop <= 0 {
		return nil, fmt.Errorf("n_fft and hop_length must be positive")
	}
	bins := n
	if in.boolAttr("onesided") {
		bins = n/2 + 1
	}
	frames := int64(Dynamic)
	if x.Dims[1] >= 0 {
		frames = 1 + (x.Dims[1]-n)/hop
	}
	return []Type{with(c, x, dims(x.Dims[0], bins, frames), toComplex(x.DType()))}, nil
}

// inferBinomial (BinomialInferMeta): one int64 draw per element of count.
func inferBinomial(c *Context, in *InferInput) ([]Type, error) {
	n, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	return []Type{with(c, n, n.Dims, DTypeInt64)}, nil
}

// inferMultinomial (MultinomialInferMeta): num_samples (operand 1; unknown when it comes from a tensor) int64 draws
// per distribution: x's dims with the last num_samples.
func inferMultinomial(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() < 1 || x.Rank() > 2 {
		return nil, fmt.Errorf("x must have rank 1 or 2, has %d", x.Rank())
	}
	n, fromTensor, err := in.scalar(1)
	if err != nil {
		return nil, err
	}
	d := dims(x.Dims...)
	d[len(d)-1] = clampInt32(n)
	if fromTensor {
		d[len(d)-1] = Dynamic
	}
	return []Type{with(c, x, d, DTypeInt64)}, nil
}

// inferTopPSampling (TopPSamplingInferMeta): one sampled token per row, its score [B, 1] and int64 id [B, 1]; with
// k > 0 the top-k scores and ids [B, k], otherwise those unset (unsetMeta).
func inferTopPSampling(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() != 2 {
		return nil, fmt.Errorf("x must be [B, V], has rank %d", x.Rank())
	}
	b := x.Dims[0]
	out := []Type{c.WithDims(x, dims(b, 1)), with(c, x, dims(b, 1), DTypeInt64), unsetMeta(c), unsetMeta(c)}
	if k := in.intAttr("k", 0); k > 0 {
		out[2], out[3] = c.WithDims(x, dims(b, k)), with(c, x, dims(b, k), DTypeInt64)
	}
	return out, nil
}

// inferCoalesceTensor (CoalesceTensorInferMeta as Paddle's builder runs it, at compile time): the inputs keep their
// types (they become views of the fused buffer); with use_align and a positive align_size the fused buffer holds
// all their elements in dtype, each padded to align_size bytes, and is otherwise left unset (unsetMeta).
func inferCoalesceTensor(c *Context, in *InferInput) ([]Type, error) {
	v := in.Operand(0)
	ts, err := in.tensors(0)
	if err != nil {
		return nil, err
	}
	dt, ok := in.dtypeAttr("dtype")
	if !ok {
		return nil, fmt.Errorf("no dtype")
	}
	size := in.intAttr("size_of_dtype", -1)
	if size <= 0 {
		size = dtypeSize(dt)
	}
	align := in.intAttr("align_size", -1)
	if !in.boolAttr("use_align") || align <= 0 || size <= 0 {
		return []Type{v.Type(), unsetMeta(c)}, nil
	}
	total := int64(0)
	for _, t := range ts {
		n := t.NumElements()
		if n < 0 {
			total = Dynamic
			break
		}
		total += (n*size + align - 1) / align * align / size
	}
	return []Type{v.Type(), newTensor(c, dims(total), dt)}, nil
}
