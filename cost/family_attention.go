package cost

import "fmt"

// attentionFamily holds the fused attention ops, one kernel each, whose intermediates (the S×S scores) never reach
// device memory: flash_attn does q·kᵀ (2·B·H·S·Sk·D), the softmax (5 per score, the mask 1) and the product with v
// (2·B·H·S·Sk·Dv), the causal form only the lower triangle (S·(S+1)/2 scores per head when S = Sk), and reads q, k,
// v and the mask and writes the output and its log-sum-exp (and the scores with return_softmax); multihead_matmul
// adds the q/k/v projection from [B, S, Hd] by its [Hd, 3·Hd] weight (2·B·S·3·Hd² with the bias) and the attention
// bias; fused_rotary_position_embedding does 3 operations (x·cos + rotate(x)·sin) per element of q, k and v.
var attentionFamily = family{
	name: "attention",
	doc:  "fused attention: the score products and softmax without writing the scores; rotary embedding",
	ops: map[string]formula{
		"pd_op.flash_attn":                        flashAttn,
		"pd_op.multihead_matmul":                  multiheadMatmul,
		"pd_op.calc_reduced_attn_scores":          reducedAttnScores,
		"pd_op.fused_rotary_position_embedding":   rotary,
		"pd_op.fused_softmax_mask":                reduce(6),
		"pd_op.fused_softmax_mask_upper_triangle": reduce(5),
	},
}

// scores returns the number of attention scores per (batch, head) pair: S·Sk, or S·(S+1)/2 when causal with S = Sk.
func scores(s, sk int64, causal bool) int64 {
	if causal && s == sk {
		return s * (s + 1) / 2
	}
	return s * sk
}

// flashAttn: q [B, S, H, D], k [B, Sk, Hk, D], v [B, Sk, Hk, Dv] (heads of k and v may be fewer: grouped-query).
func flashAttn(v *opView) (Work, error) {
	q, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	k, err := v.mustIn(1)
	if err != nil {
		return Work{}, err
	}
	val, err := v.mustIn(2)
	if err != nil {
		return Work{}, err
	}
	if q.rank() != 4 || k.rank() != 4 || val.rank() != 4 {
		return Work{}, fmt.Errorf("flash_attn wants rank-4 q, k and v")
	}
	b, s, h, d := q.dims[0], q.dims[1], q.dims[2], q.dims[3]
	sc := b * h * scores(s, k.dims[1], v.bool("causal"))
	flops := 2*sc*d + 2*sc*val.dims[3] + 5*sc
	if _, ok := v.in(4); ok {
		flops += sc // the mask
	}
	written := v.valueBytes(v.op.Result(0))
	if v.op.NumResults() > 2 {
		written += v.valueBytes(v.op.Result(2)) // softmax_lse
	}
	if v.bool("return_softmax") && v.op.NumResults() > 1 {
		written += v.valueBytes(v.op.Result(1))
	}
	return Work{FLOPs: flops, Read: v.readAll(), Written: written, Kernels: 1, Unit: Matrix, DType: q.dt}, nil
}

// multiheadMatmul: input [B, S, Hd], w [Hd, 3, Hd] (q, k and v weights), bias [3, Hd], bias_qk [B, heads, S, S]:
// the projection and its bias, then attention over head_number heads of Hd/heads.
func multiheadMatmul(v *opView) (Work, error) {
	in, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	w, err := v.mustIn(1)
	if err != nil {
		return Work{}, err
	}
	if in.rank() != 3 {
		return Work{}, fmt.Errorf("multihead_matmul wants a rank-3 input")
	}
	b, s, hd := in.dims[0], in.dims[1], in.dims[2]
	heads := max(v.int("head_number", 1), 1)
	tokens := b * s
	flops := 2*tokens*w.elems() + tokens*w.elems()/max(hd, 1) // projection and bias
	sc := b * heads * s * s
	flops += 2*sc*(hd/heads)*2 + 5*sc
	if _, ok := v.in(3); ok {
		flops += sc
	}
	return Work{FLOPs: flops, Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Matrix, DType: in.dt}, nil
}

// reducedAttnScores: q [B, S, H, D], k [B, Sk, H, D], softmax_lse: the scores and their softmax, summed over queries.
func reducedAttnScores(v *opView) (Work, error) {
	q, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	k, err := v.mustIn(1)
	if err != nil {
		return Work{}, err
	}
	if q.rank() != 4 || k.rank() != 4 {
		return Work{}, fmt.Errorf("calc_reduced_attn_scores wants rank-4 q and k")
	}
	sc := q.dims[0] * q.dims[2] * q.dims[1] * k.dims[1]
	return Work{FLOPs: 2*sc*q.dims[3] + 3*sc, Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Matrix, DType: q.dt}, nil
}

// rotary: 3 operations (x·cos + rotate(x)·sin) per element of each of q, k and v the op rotates.
func rotary(v *opView) (Work, error) {
	elems := int64(0)
	dt := computeType(v)
	for i := 0; i < v.op.NumResults(); i++ {
		for _, s := range v.typeList(v.op.Result(i).Type()) {
			elems += s.elems()
		}
	}
	return Work{FLOPs: 3 * elems, Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Vector, DType: dt}, nil
}
