package interp

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/pirdrr/drr/interp/tensor"
)

// Fused ops: each kernel is the composition of the unfused computations the fuse pass replaced (matmul, add,
// activation, norm, softmax, …), written with the same kernels, so that verify checks a fusion's conditions and
// rewrite instead of trusting the fused op. Where Paddle's fused kernel computes something else than the unfused
// ops would (cuBLASLt's tanh GELU in fused_gemm_epilogue, int8 weights in weight_only_linear), the kernel computes
// what Paddle's does, so that a fusion that changes the numbers is caught.

func registerFused[T tensor.Float](r registry[T]) {
	r["pd_op.fused_gemm_epilogue"] = kGemmEpilogue[T]
	r["pd_op.multihead_matmul"] = kMultiheadMatmul[T]
	r["pd_op.fused_rotary_position_embedding"] = kRope[T]
	r["pd_op.rms_norm"] = kRMSNorm[T]
	r["pd_op.fused_bias_residual_layernorm"] = kBiasResidualLayerNorm[T]
	r["pd_op.add_group_norm_silu"] = kAddGroupNormSilu[T]
	r["pd_op.fusion_transpose_flatten_concat"] = kTransposeFlattenConcat[T]
	r["pd_op.flash_attn"] = kFlashAttn[T]
	r["pd_op.weight_quantize"] = kWeightQuantize[T]
	r["pd_op.weight_dequantize"] = kWeightDequantize[T]
	r["pd_op.weight_only_linear"] = kWeightOnlyLinear[T]
	r["pd_op.fused_embedding_eltwise_layernorm"] = kEmbeddingEltwiseLayerNorm[T]
	r["pd_op.fused_fc_elementwise_layernorm"] = kFCElementwiseLayerNorm[T]
	r["pd_op.skip_layernorm"] = kSkipLayerNorm[T]
	r["pd_op.fused_dropout_add"] = kDropoutAdd[T]
	r["pd_op.fused_softmax_mask"] = kSoftmaxMask[T](false)
	r["pd_op.fused_softmax_mask_upper_triangle"] = kSoftmaxMask[T](true)
}

// gemm2D multiplies x (flattened to 2-D after its first k dims, or transposed when tx) by y ([K, N], or [N, K]
// when ty) and returns the product with x's leading dims and N.
func (c *call[T]) gemm2D(x, y *tensor.Tensor[T], k int, tx, ty bool) (*tensor.Tensor[T], error) {
	if k < 1 || k >= len(x.Shape) || len(y.Shape) != 2 {
		return nil, fmt.Errorf("x %v flattened at %d times y %v", x.Shape, k, y.Shape)
	}
	rows, cols := prod(x.Shape[:k]), prod(x.Shape[k:])
	xm := &tensor.Tensor[T]{Shape: []int{rows, cols}, Data: x.Data}
	if err := c.matmulWork(xm.Shape, y.Shape, tx, ty); err != nil {
		return nil, err
	}
	out, err := tensor.Matmul(xm, y, tx, ty)
	if err != nil {
		return nil, err
	}
	if !tx {
		out.Shape = append(append([]int{}, x.Shape[:k]...), out.Shape[1])
	}
	return out, nil
}

// geluTanh is GELU's tanh approximation (cuBLASLt's GELU epilogue).
func geluTanh(v float64) float64 {
	return 0.5 * v * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(v+0.044715*v*v*v)))
}

// kGemmEpilogue is act(x·y + bias): activation "none", "relu", or "gelu" (the tanh approximation, as cuBLASLt's
// epilogue computes it). reserve_space is not computed.
func kGemmEpilogue[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, y, err := c.pair()
	if err != nil {
		return nil, err
	}
	bias, err := c.in(2)
	if err != nil {
		return nil, err
	}
	tx, ty := c.attrBool("trans_x", false), c.attrBool("trans_y", false)
	k := len(x.Shape) - 1
	if tx {
		if len(x.Shape) != 2 {
			return nil, fmt.Errorf("trans_x needs a 2-D x, x is %v", x.Shape)
		}
		k = 1
	}
	out, err := c.gemm2D(x, y, k, tx, ty)
	if err != nil {
		return nil, err
	}
	n := out.Shape[len(out.Shape)-1]
	if len(bias.Data) != n {
		return nil, fmt.Errorf("bias %v must hold %d values", bias.Shape, n)
	}
	var act func(float64) float64
	switch a := c.attrString("activation", "none"); a {
	case "none", "":
	case "relu":
		act = func(v float64) float64 { return max(v, 0) }
	case "gelu":
		act = geluTanh
	default:
		return nil, unsupported("activation %q", a)
	}
	for i := range out.Data {
		v := float64(out.Data[i]) + float64(bias.Data[i%n])
		if act != nil {
			v = act(v)
		}
		out.Data[i] = T(v)
	}
	return c.one(out, nil)
}

// attention is softmax(alpha·q·kᵀ + mask)·v per batch and head, q [B, H, Sq, D], k and v [B, H, Sk, D]; mask
// (nil for none) broadcasts against [B, H, Sq, Sk]; causal hides keys after the query (aligned at the end, as
// flash attention does when Sq < Sk). It returns the output [B, H, Sq, D], the probabilities and the
// log-sum-exp [B, H, Sq] of the scores.
func attention[T tensor.Float](q, k, v, mask *tensor.Tensor[T], alpha float64, causal bool) (out, probs, lse *tensor.Tensor[T], err error) {
	scores, err := tensor.Matmul(q, k, false, true)
	if err != nil {
		return nil, nil, nil, err
	}
	sq, sk := scores.Shape[2], scores.Shape[3]
	if mask != nil {
		shape := scores.Shape
		if scores, err = tensor.Map2("attention mask", scores, mask, func(s, m T) T { return T(alpha*float64(s) + float64(m)) }); err != nil {
			return nil, nil, nil, err
		}
		if !sameInts(scores.Shape, shape) {
			// A mask with more heads (or batches) than the scores would make as many outputs: no fused attention
			// broadcasts its scores up.
			return nil, nil, nil, fmt.Errorf("mask %v grows the scores %v", mask.Shape, shape)
		}
	} else {
		for i := range scores.Data {
			scores.Data[i] = T(alpha * float64(scores.Data[i]))
		}
	}
	rows := len(scores.Data) / max(sk, 1)
	lseData := make([]T, rows)
	tensor.ParallelFor(rows, 4*sk, func(lo, hi int) {
		e := make([]float64, sk)
		for r := lo; r < hi; r++ {
			row := scores.Data[r*sk : (r+1)*sk]
			i := r % sq
			limit := sk
			if causal {
				limit = min(sk, i+1+sk-sq)
			}
			m := math.Inf(-1)
			for j := range limit {
				m = max(m, float64(row[j]))
			}
			s, zero := 0.0, limit
			if math.IsInf(m, -1) {
				zero = 0
			}
			ev := e[:zero]
			for j := range ev {
				ev[j] = float64(row[j]) - m
			}
			tensor.ExpInPlace(ev) // math.Exp's bits, eight at a time on the avx512 path
			for j, v := range ev {
				row[j] = T(v)
				s += v
			}
			clear(row[zero:])
			for j := range limit {
				if s > 0 {
					row[j] = T(float64(row[j]) / s)
				}
			}
			lseData[r] = T(m + math.Log(s))
		}
	})
	out, err = tensor.Matmul(scores, v, false, false)
	if err != nil {
		return nil, nil, nil, err
	}
	return out, scores, &tensor.Tensor[T]{Shape: scores.Shape[:3], Data: lseData}, nil
}

// kMultiheadMatmul is a BERT attention layer in one op: qkv = input·w + bias with w [H, 3, all] (or [H, 3·all])
// and bias [3, all]; Q, K, V [B, heads, S, all/heads]; softmax(alpha·Q·Kᵀ + bias_qk)·V merged back to
// [B, S, all]. Only the default transposes (Kᵀ) are evaluated.
func kMultiheadMatmul[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, w, err := c.pair()
	if err != nil {
		return nil, err
	}
	bias, err := c.in(2)
	if err != nil {
		return nil, err
	}
	biasQK, err := c.optIn(3)
	if err != nil {
		return nil, err
	}
	if c.attrBool("transpose_q", false) || !c.attrBool("transpose_k", true) || c.attrBool("transpose_v", false) {
		return nil, unsupported("transpose_q/k/v other than false/true/false")
	}
	heads := c.attrInt("head_number", 1)
	if len(x.Shape) != 3 || len(w.Shape) < 2 || w.Shape[0] != x.Shape[2] {
		return nil, fmt.Errorf("input %v and w %v must be [B, S, H] and [H, 3, all]", x.Shape, w.Shape)
	}
	b, s := x.Shape[0], x.Shape[1]
	all := prod(w.Shape[1:]) / 3
	if 3*all != prod(w.Shape[1:]) || heads <= 0 || all%heads != 0 || len(bias.Data) != 3*all {
		return nil, fmt.Errorf("w %v, bias %v and head_number %d do not fit", w.Shape, bias.Shape, heads)
	}
	hs := all / heads
	wm := &tensor.Tensor[T]{Shape: []int{w.Shape[0], 3 * all}, Data: w.Data}
	qkv, err := c.gemm2D(x, wm, 2, false, false)
	if err != nil {
		return nil, err
	}
	for i := range qkv.Data {
		qkv.Data[i] += bias.Data[i%(3*all)]
	}
	// [B, S, 3, heads, hs] → [3, B, heads, S, hs]
	qkv.Shape = []int{b, s, 3, heads, hs}
	t, err := tensor.Transpose(qkv, []int{2, 0, 3, 1, 4})
	if err != nil {
		return nil, err
	}
	part := b * heads * s * hs
	q := &tensor.Tensor[T]{Shape: []int{b, heads, s, hs}, Data: t.Data[:part]}
	k := &tensor.Tensor[T]{Shape: []int{b, heads, s, hs}, Data: t.Data[part : 2*part]}
	v := &tensor.Tensor[T]{Shape: []int{b, heads, s, hs}, Data: t.Data[2*part:]}
	o, _, _, err := attention(q, k, v, biasQK, c.attrFloat("alpha", 1), false)
	if err != nil {
		return nil, err
	}
	out, err := tensor.Transpose(o, []int{0, 2, 1, 3})
	if err != nil {
		return nil, err
	}
	out.Shape = []int{b, s, all}
	return c.one(out, nil)
}

// kFlashAttn is attention over q [B, Sq, H, D], k and v [B, Sk, Hk, D] (H a multiple of Hk: grouped queries share
// a key head), scale 1/√D, with causal masking and an additive attn_mask; dropout in training draws from the op's
// random stream. Results: out [B, Sq, H, D], softmax (the probabilities, when return_softmax), softmax_lse
// [B, H, Sq] and seed_offset (zeros).
func kFlashAttn[T tensor.Float](c *call[T]) ([]*value[T], error) {
	q, k, err := c.pair()
	if err != nil {
		return nil, err
	}
	v, err := c.in(2)
	if err != nil {
		return nil, err
	}
	mask, err := c.optTensorArg("attn_mask", 4)
	if err != nil {
		return nil, err
	}
	if len(q.Shape) != 4 || len(k.Shape) != 4 || !sameInts(k.Shape, v.Shape) || q.Shape[0] != k.Shape[0] || q.Shape[3] != k.Shape[3] {
		return nil, fmt.Errorf("q %v, k %v and v %v must be [B, S, H, D]", q.Shape, k.Shape, v.Shape)
	}
	h, hk := q.Shape[2], k.Shape[2]
	if hk == 0 || h%hk != 0 {
		return nil, fmt.Errorf("%d query heads for %d key heads", h, hk)
	}
	bhsd := func(t *tensor.Tensor[T], repeat int) (*tensor.Tensor[T], error) {
		tt, err := tensor.Transpose(t, []int{0, 2, 1, 3})
		if err != nil || repeat == 1 {
			return tt, err
		}
		b, hh, s, d := tt.Shape[0], tt.Shape[1], tt.Shape[2], tt.Shape[3]
		out := make([]T, 0, b*hh*repeat*s*d)
		for bi := range b {
			for hi := range hh {
				src := tt.Data[(bi*hh+hi)*s*d : (bi*hh+hi+1)*s*d]
				for range repeat {
					out = append(out, src...)
				}
			}
		}
		return &tensor.Tensor[T]{Shape: []int{b, hh * repeat, s, d}, Data: out}, nil
	}
	qt, err := bhsd(q, 1)
	if err != nil {
		return nil, err
	}
	kt, err := bhsd(k, h/hk)
	if err != nil {
		return nil, err
	}
	vt, err := bhsd(v, h/hk)
	if err != nil {
		return nil, err
	}
	o, probs, lse, err := attention(qt, kt, vt, mask, 1/math.Sqrt(float64(q.Shape[3])), c.attrBool("causal", false))
	if err != nil {
		return nil, err
	}
	if p := c.attrFloat("dropout", 0); p > 0 && !c.attrBool("is_test", false) {
		keep := c.draw(len(probs.Data), func(r *rand.Rand) float64 { return b2f(r.Float64() >= p) })
		for i := range probs.Data {
			probs.Data[i] = T(float64(probs.Data[i]) * float64(keep[i]) / (1 - p))
		}
		if o, err = tensor.Matmul(probs, vt, false, false); err != nil {
			return nil, err
		}
	}
	out, err := tensor.Transpose(o, []int{0, 2, 1, 3})
	if err != nil {
		return nil, err
	}
	res := []*value[T]{c.out(out, 0), nil, c.out(lse, 2), c.out(&tensor.Tensor[T]{Shape: []int{2}, Data: make([]T, 2)}, 3)}
	if c.attrBool("return_softmax", false) {
		res[1] = c.out(probs, 1)
	}
	return res[:min(len(res), c.op.NumResults())], nil
}

// kRope is fused_rotary_position_embedding: q, k and v ([B, S, H, D], or [S, B, H, D] when time_major) are each
// rotated by angles taken from sin and cos (rows [S, D], selected per batch by position_ids) or computed as
// pos / rotary_emb_base^(2⌊i/2⌋/D) (in float32, as Paddle's kernel does). use_neox_rotary_style rotates adjacent
// pairs (x₂ᵢ, x₂ᵢ₊₁); otherwise the two halves of the head dim.
func kRope[T tensor.Float](c *call[T]) ([]*value[T], error) {
	sin, err := c.optTensorArg("sin", 3)
	if err != nil {
		return nil, err
	}
	cos, err := c.optTensorArg("cos", 4)
	if err != nil {
		return nil, err
	}
	pos, err := c.optTensorArg("position_ids", 5)
	if err != nil {
		return nil, err
	}
	if (sin == nil) != (cos == nil) {
		return nil, fmt.Errorf("sin and cos must be given together")
	}
	neox := c.attrBool("use_neox_rotary_style", true)
	timeMajor := c.attrBool("time_major", false)
	base := float32(c.attrFloat("rotary_emb_base", 10000))
	res := make([]*value[T], 3)
	for slot, name := range []string{"q", "k", "v"} {
		x, err := c.optTensorArg(name, slot)
		if err != nil {
			return nil, err
		}
		if x == nil {
			continue
		}
		if len(x.Shape) != 4 || x.Shape[3]%2 != 0 {
			return nil, fmt.Errorf("%s must be 4-D with an even head dim, is %v", name, x.Shape)
		}
		b, s, h, d := x.Shape[0], x.Shape[1], x.Shape[2], x.Shape[3]
		if timeMajor {
			b, s = s, b
		}
		if sin != nil && (len(sin.Data) < d || len(sin.Data)%d != 0 || len(cos.Data) != len(sin.Data)) {
			return nil, fmt.Errorf("sin %v and cos %v must hold rows of %d values", sin.Shape, cos.Shape, d)
		}
		if pos != nil && len(pos.Data) != b*s {
			return nil, fmt.Errorf("position_ids %v for batch %d and sequence %d", pos.Shape, b, s)
		}
		out := make([]T, len(x.Data))
		sv, cv := make([]float64, d), make([]float64, d)
		for bi := range b {
			for si := range s {
				p := si
				if pos != nil {
					p = int(pos.Data[bi*s+si])
				}
				for i := range d {
					if sin != nil {
						if (p+1)*d > len(sin.Data) || p < 0 {
							return nil, fmt.Errorf("position %d beyond the %d rows of sin", p, len(sin.Data)/d)
						}
						sv[i], cv[i] = float64(sin.Data[p*d+i]), float64(cos.Data[p*d+i])
						continue
					}
					inv := 1 / float32(math.Pow(float64(base), float64(float32((i/2)*2)/float32(d))))
					f := float32(p) * inv
					sv[i], cv[i] = float64(float32(math.Sin(float64(f)))), float64(float32(math.Cos(float64(f))))
				}
				for hi := range h {
					off := ((bi*s+si)*h + hi) * d
					if timeMajor {
						off = ((si*b+bi)*h + hi) * d
					}
					row := x.Data[off : off+d]
					for i := range d {
						var rot float64
						switch {
						case neox && i%2 == 0:
							rot = -float64(row[i+1])
						case neox:
							rot = float64(row[i-1])
						case i < d/2:
							rot = -float64(row[i+d/2])
						default:
							rot = float64(row[i-d/2])
						}
						out[off+i] = T(float64(row[i])*cv[i] + rot*sv[i])
					}
				}
			}
		}
		res[slot] = c.out(&tensor.Tensor[T]{Shape: append([]int{}, x.Shape...), Data: out}, slot)
	}
	return res[:min(3, c.op.NumResults())], nil
}

// normRows returns x's rows and columns at begin_norm_axis.
func (c *call[T]) normRows(x *tensor.Tensor[T]) (rows, cols int, err error) {
	begin := c.attrInt("begin_norm_axis", 1)
	if begin < 0 {
		begin += len(x.Shape)
	}
	if begin < 0 || begin > len(x.Shape) {
		return 0, 0, fmt.Errorf("begin_norm_axis %d out of range for %v", c.attrInt("begin_norm_axis", 1), x.Shape)
	}
	return prod(x.Shape[:begin]), prod(x.Shape[begin:]), nil
}

// preNorm is x, or x + bias + alpha·residual with residual (Paddle's fused norms add the bias only together with
// the residual); the second result is the sum when there is a residual (residual_out).
func preNorm[T tensor.Float](x, bias, residual *tensor.Tensor[T], alpha float64) (*tensor.Tensor[T], bool, error) {
	if residual == nil {
		return x, false, nil
	}
	if !sameInts(residual.Shape, x.Shape) {
		return nil, false, fmt.Errorf("residual %v must have x's shape %v", residual.Shape, x.Shape)
	}
	sum, err := tensor.Map2("residual", x, residual, func(a, r T) T { return T(float64(a) + alpha*float64(r)) })
	if err != nil {
		return nil, false, err
	}
	if bias != nil {
		if sum, err = tensor.Add(sum, bias); err != nil {
			return nil, false, err
		}
		if !sameInts(sum.Shape, x.Shape) {
			return nil, false, fmt.Errorf("bias %v grows x %v", bias.Shape, x.Shape)
		}
	}
	return sum, true, nil
}

// kRMSNorm is rms_norm: h = x (+ bias + residual, residual_out = h); out = h / √(mean(h²) + ε) · norm_weight
// (+ norm_bias) over the dims from begin_norm_axis; inv_var is 1/√(mean(h²) + ε) per row. Quantized output
// (quant_scale > 0) is not evaluated.
func kRMSNorm[T tensor.Float](c *call[T]) ([]*value[T], error) {
	if q := c.attrFloat("quant_scale", -1); q > 0 {
		return nil, unsupported("quant_scale %v (int8 output)", q)
	}
	x, err := c.tensorArg("x", 0)
	if err != nil {
		return nil, err
	}
	bias, err := c.optTensorArg("bias", 1)
	if err != nil {
		return nil, err
	}
	residual, err := c.optTensorArg("residual", 2)
	if err != nil {
		return nil, err
	}
	w, err := c.tensorArg("norm_weight", 3)
	if err != nil {
		return nil, err
	}
	nb, err := c.optTensorArg("norm_bias", 4)
	if err != nil {
		return nil, err
	}
	h, hasRes, err := preNorm(x, bias, residual, 1)
	if err != nil {
		return nil, err
	}
	rows, cols, err := c.normRows(h)
	if err != nil {
		return nil, err
	}
	if len(w.Data) != cols || nb != nil && len(nb.Data) != cols {
		return nil, fmt.Errorf("norm_weight %v and norm_bias must hold %d values", w.Shape, cols)
	}
	eps := c.attrFloat("epsilon", 1e-6)
	out := make([]T, len(h.Data))
	inv := make([]T, rows)
	tensor.ParallelFor(rows, 4*cols, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			row := h.Data[r*cols : (r+1)*cols]
			s := 0.0
			for _, v := range row {
				s += float64(v) * float64(v)
			}
			iv := 1 / math.Sqrt(s/float64(cols)+eps)
			inv[r] = T(iv)
			for j, v := range row {
				o := float64(v) * iv * float64(w.Data[j])
				if nb != nil {
					o += float64(nb.Data[j])
				}
				out[r*cols+j] = T(o)
			}
		}
	})
	res := []*value[T]{c.out(&tensor.Tensor[T]{Shape: append([]int{}, x.Shape...), Data: out}, 0), nil,
		c.out(&tensor.Tensor[T]{Shape: []int{rows}, Data: inv}, 2)}
	if hasRes {
		res[1] = c.out(h.Clone(), 1)
	}
	return res, nil
}

// kBiasResidualLayerNorm is fused_bias_residual_layernorm: h = x (+ bias + residual_alpha·residual,
// residual_out = h), out = layer_norm(h) with norm_weight and norm_bias; mean and variance per row. Quantized
// output is not evaluated.
func kBiasResidualLayerNorm[T tensor.Float](c *call[T]) ([]*value[T], error) {
	if q := c.attrFloat("quant_scale", -1); q > 0 {
		return nil, unsupported("quant_scale %v (int8 output)", q)
	}
	x, err := c.tensorArg("x", 0)
	if err != nil {
		return nil, err
	}
	bias, err := c.optTensorArg("bias", 1)
	if err != nil {
		return nil, err
	}
	residual, err := c.optTensorArg("residual", 2)
	if err != nil {
		return nil, err
	}
	w, err := c.optTensorArg("norm_weight", 3)
	if err != nil {
		return nil, err
	}
	nb, err := c.optTensorArg("norm_bias", 4)
	if err != nil {
		return nil, err
	}
	h, hasRes, err := preNorm(x, bias, residual, c.attrFloat("residual_alpha", 1))
	if err != nil {
		return nil, err
	}
	rows, cols, err := c.normRows(h)
	if err != nil {
		return nil, err
	}
	var wd, bd []T
	if w != nil {
		wd = w.Data
	}
	if nb != nil {
		bd = nb.Data
	}
	if wd != nil && len(wd) != cols || bd != nil && len(bd) != cols {
		return nil, fmt.Errorf("norm_weight and norm_bias must hold %d values", cols)
	}
	y, mean, variance := layerNorm(h.Data, rows, cols, wd, bd, c.attrFloat("epsilon", 1e-5))
	res := []*value[T]{c.out(&tensor.Tensor[T]{Shape: append([]int{}, x.Shape...), Data: y}, 0), nil,
		c.out(&tensor.Tensor[T]{Shape: []int{rows}, Data: mean}, 2), c.out(&tensor.Tensor[T]{Shape: []int{rows}, Data: variance}, 3)}
	if hasRes {
		res[1] = c.out(h.Clone(), 1)
	}
	return res, nil
}

// kAddGroupNormSilu is group_norm(x + residual) followed by silu when activation is "silu": (y, residual_out,
// mean, variance).
func kAddGroupNormSilu[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.tensorArg("x", 0)
	if err != nil {
		return nil, err
	}
	residual, err := c.optTensorArg("residual", 1)
	if err != nil {
		return nil, err
	}
	scale, err := c.optTensorArg("scale", 2)
	if err != nil {
		return nil, err
	}
	bias, err := c.optTensorArg("bias", 3)
	if err != nil {
		return nil, err
	}
	format := c.attrString("data_format", "NCHW")
	if residual != nil && !sameInts(residual.Shape, x.Shape) {
		// Paddle's kernel (GroupNormNDHWCKernel) adds a residual that has not x's size per channel: one value per
		// channel, indexed by the channel alone. It is that, broadcast along the channel axis.
		if residual, err = perChannel(residual, x.Shape, format); err != nil {
			return nil, err
		}
	}
	h, hasRes, err := preNorm(x, nil, residual, 1)
	if err != nil {
		return nil, err
	}
	y, mean, variance, err := groupNorm(h, scale, bias, c.attrInt("groups", -1), c.attrFloat("epsilon", 1e-5), format)
	if err != nil {
		return nil, err
	}
	switch act := c.attrString("activation", ""); act {
	case "":
	case "silu":
		for i, v := range y.Data {
			f := float64(v)
			y.Data[i] = T(f / (1 + math.Exp(-f)))
		}
	default:
		return nil, unsupported("activation %q", act)
	}
	res := []*value[T]{c.out(y, 0), nil, c.out(mean, 2), c.out(variance, 3)}
	if hasRes {
		res[1] = c.out(h.Clone(), 1)
	}
	return res, nil
}

// perChannel broadcasts r, one value per channel of a tensor of shape dims in layout format (channels last for
// NHWC, NDHWC and NLC, else dim 1), to dims.
func perChannel[T tensor.Float](r *tensor.Tensor[T], dims []int, format string) (*tensor.Tensor[T], error) {
	if len(dims) < 2 {
		return nil, fmt.Errorf("residual %v for x %v: neither x's shape nor one value per channel", r.Shape, dims)
	}
	axis := 1
	switch format {
	case "NHWC", "NDHWC", "NLC":
		axis = len(dims) - 1
	}
	if len(r.Data) != dims[axis] {
		return nil, fmt.Errorf("residual %v for x %v: neither x's shape nor one value per channel (%d)", r.Shape, dims,
			dims[axis])
	}
	out, err := tensor.New[T](dims...)
	if err != nil {
		return nil, err
	}
	inner := 1
	for _, d := range dims[axis+1:] {
		inner *= d
	}
	for i := range out.Data {
		out.Data[i] = r.Data[(i/inner)%dims[axis]]
	}
	return out, nil
}

// kTransposeFlattenConcat transposes each tensor of its vector operand by trans_axis, flattens it to 2-D at
// flatten_axis and concatenates the results along concat_axis.
func kTransposeFlattenConcat[T tensor.Float](c *call[T]) ([]*value[T], error) {
	xs, err := c.vector(0)
	if err != nil {
		return nil, err
	}
	perm, _ := c.attrInts("trans_axis")
	fa := c.attrInt("flatten_axis", 1)
	parts := make([]*tensor.Tensor[T], len(xs))
	for i, x := range xs {
		t, err := tensor.Transpose(x.tensor(), perm)
		if err != nil {
			return nil, err
		}
		if fa < 0 || fa > len(t.Shape) {
			return nil, fmt.Errorf("flatten_axis %d out of range for rank %d", fa, len(t.Shape))
		}
		t.Shape = []int{prod(t.Shape[:fa]), prod(t.Shape[fa:])}
		parts[i] = t
	}
	return c.one(tensor.Concat(c.attrInt("concat_axis", 1), parts...))
}

// quantBound is the largest magnitude of a quantized weight: 127 for int8, 7 for int4.
func quantBound(algo string) (float64, error) {
	switch algo {
	case "weight_only_int8", "int8":
		return 127, nil
	case "weight_only_int4", "int4":
		return 7, nil
	}
	return 0, unsupported("weight quantization %q", algo)
}

// kWeightQuantize quantizes a weight x [K, N] per output channel (per group of group_size rows of K when
// group_size > 0): scale = max|x| / bound (127 for int8, 7 for int4), out = round(x / scale), transposed to [N, K].
// int4 values are packed two per byte along N (even n in the low nibble): out [N/2, K]. The layout is plain
// row-major: Paddle permutes the bytes for its GPU kernels (arch), which the interpreter, evaluating
// weight_quantize and weight_only_linear together, does not need.
func kWeightQuantize[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	algo := c.attrString("algo", "weight_only_int8")
	bound, err := quantBound(algo)
	if err != nil {
		return nil, err
	}
	if len(x.Shape) != 2 {
		return nil, fmt.Errorf("weight_quantize needs a [K, N] weight, has %v", x.Shape)
	}
	k, n := x.Shape[0], x.Shape[1]
	gs := c.attrInt("group_size", -1)
	groups, rowsPer := 1, k
	if gs > 0 {
		if k%gs != 0 {
			return nil, fmt.Errorf("group_size %d does not divide K = %d", gs, k)
		}
		groups, rowsPer = k/gs, gs
	}
	scale := make([]T, groups*n)
	q := make([]float64, n*k)
	for g := range groups {
		for j := range n {
			m := 0.0
			for i := g * rowsPer; i < (g+1)*rowsPer; i++ {
				m = max(m, math.Abs(float64(x.Data[i*n+j])))
			}
			s := float64(float32(m / bound))
			scale[g*n+j] = T(s)
			for i := g * rowsPer; i < (g+1)*rowsPer; i++ {
				v := 0.0
				if s > 0 {
					v = math.Round(float64(x.Data[i*n+j]) / s)
				}
				q[j*k+i] = min(max(v, -bound), bound)
			}
		}
	}
	scaleShape := []int{n}
	if gs > 0 {
		scaleShape = []int{groups, n}
	}
	if bound == 127 {
		out := make([]T, len(q))
		for i, v := range q {
			out[i] = T(v)
		}
		return []*value[T]{c.out(&tensor.Tensor[T]{Shape: []int{n, k}, Data: out}, 0),
			c.out(&tensor.Tensor[T]{Shape: scaleShape, Data: scale}, 1)}, nil
	}
	if n%2 != 0 {
		return nil, fmt.Errorf("int4 weights need an even N, have %d", n)
	}
	out := make([]T, n/2*k)
	for j := 0; j < n; j += 2 {
		for i := range k {
			lo, hi := int8(q[j*k+i]), int8(q[(j+1)*k+i])
			out[(j/2)*k+i] = T(int8(uint8(lo)&0x0f | uint8(hi)<<4))
		}
	}
	return []*value[T]{c.out(&tensor.Tensor[T]{Shape: []int{n / 2, k}, Data: out}, 0),
		c.out(&tensor.Tensor[T]{Shape: scaleShape, Data: scale}, 1)}, nil
}

// dequantize returns the float weight [N, K] of a quantized weight (weight_quantize's layout) and its scales.
func dequantize[T tensor.Float](w, scale *tensor.Tensor[T], int4 bool, groupSize int) (*tensor.Tensor[T], error) {
	if len(w.Shape) != 2 {
		return nil, fmt.Errorf("quantized weight must be 2-D, is %v", w.Shape)
	}
	n, k := w.Shape[0], w.Shape[1]
	if int4 {
		n *= 2
	}
	groups := 1
	if groupSize > 0 {
		if k%groupSize != 0 {
			return nil, fmt.Errorf("group_size %d does not divide K = %d", groupSize, k)
		}
		groups = k / groupSize
	}
	if len(scale.Data) != groups*n {
		return nil, fmt.Errorf("weight scale %v for %d groups of %d channels", scale.Shape, groups, n)
	}
	out := make([]T, n*k)
	for j := range n {
		for i := range k {
			var q int8
			if int4 {
				b := uint8(int8(w.Data[(j/2)*k+i]))
				if j%2 == 0 {
					q = int8(b<<4) >> 4
				} else {
					q = int8(b) >> 4
				}
			} else {
				q = int8(w.Data[j*k+i])
			}
			g := 0
			if groupSize > 0 {
				g = i / groupSize
			}
			out[j*k+i] = T(float64(q) * float64(scale.Data[g*n+j]))
		}
	}
	return &tensor.Tensor[T]{Shape: []int{n, k}, Data: out}, nil
}

// kWeightDequantize returns the float weight of a quantized one, [K, N] again (weight_quantize's input layout).
func kWeightDequantize[T tensor.Float](c *call[T]) ([]*value[T], error) {
	w, scale, err := c.pair()
	if err != nil {
		return nil, err
	}
	algo := c.attrString("algo", "weight_only_int8")
	if _, err := quantBound(algo); err != nil {
		return nil, err
	}
	d, err := dequantize(w, scale, algo == "weight_only_int4", c.attrInt("group_size", -1))
	if err != nil {
		return nil, err
	}
	return c.one(tensor.Transpose(d, []int{1, 0}))
}

// kWeightOnlyLinear is x·dequantize(weight)ᵀ + bias with weight [N, K] int8 (int4: [N/2, K], two per byte) and
// weight_scale [N] (or [K/group_size, N]) as weight_quantize makes them.
func kWeightOnlyLinear[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.tensorArg("x", 0)
	if err != nil {
		return nil, err
	}
	w, err := c.tensorArg("weight", 1)
	if err != nil {
		return nil, err
	}
	bias, err := c.optTensorArg("bias", 2)
	if err != nil {
		return nil, err
	}
	scale, err := c.tensorArg("weight_scale", 3)
	if err != nil {
		return nil, err
	}
	dt := c.attrString("weight_dtype", "int8")
	if dt != "int8" && dt != "int4" {
		return nil, unsupported("weight_dtype %q", dt)
	}
	d, err := dequantize(w, scale, dt == "int4", c.attrInt("group_size", -1))
	if err != nil {
		return nil, err
	}
	if len(x.Shape) < 2 {
		return nil, fmt.Errorf("x must have rank >= 2, is %v", x.Shape)
	}
	out, err := c.gemm2D(x, d, len(x.Shape)-1, false, true)
	if err != nil {
		return nil, err
	}
	if bias != nil {
		n := out.Shape[len(out.Shape)-1]
		if len(bias.Data) != n {
			return nil, fmt.Errorf("bias %v must hold %d values", bias.Shape, n)
		}
		for i := range out.Data {
			out.Data[i] += bias.Data[i%n]
		}
	}
	return c.one(out, nil)
}

// kEmbeddingEltwiseLayerNorm is layer_norm(Σᵢ embedding(ids[i], embs[i])) over the last dim, with scale and bias.
func kEmbeddingEltwiseLayerNorm[T tensor.Float](c *call[T]) ([]*value[T], error) {
	ids, err := c.vector(0)
	if err != nil {
		return nil, err
	}
	embs, err := c.vector(1)
	if err != nil {
		return nil, err
	}
	bias, scale, err := c.inPair(2, 3)
	if err != nil {
		return nil, err
	}
	if len(ids) != len(embs) || len(ids) == 0 {
		return nil, fmt.Errorf("%d id tensors for %d tables", len(ids), len(embs))
	}
	var sum *tensor.Tensor[T]
	for i := range ids {
		e := embs[i].tensor()
		if len(e.Shape) != 2 {
			return nil, fmt.Errorf("table %d must be [V, D], is %v", i, e.Shape)
		}
		d := e.Shape[1]
		part := make([]T, len(ids[i].buf.data)*d)
		for j, id := range ids[i].buf.data {
			row, err := index(id, e.Shape[0], false)
			if err != nil {
				return nil, fmt.Errorf("table %d: %w", i, err)
			}
			copy(part[j*d:(j+1)*d], e.Data[row*d:(row+1)*d])
		}
		t := &tensor.Tensor[T]{Shape: append(append([]int{}, ids[i].shape...), d), Data: part}
		if sum == nil {
			sum = t
		} else if sum, err = tensor.Add(sum, t); err != nil {
			return nil, err
		}
	}
	cols := sum.Shape[len(sum.Shape)-1]
	if len(scale.Data) != cols || len(bias.Data) != cols {
		return nil, fmt.Errorf("scale %v and bias %v must hold %d values", scale.Shape, bias.Shape, cols)
	}
	y, _, _ := layerNorm(sum.Data, len(sum.Data)/cols, cols, scale.Data, bias.Data, c.attrFloat("epsilon", 1e-5))
	return c.one(&tensor.Tensor[T]{Shape: sum.Shape, Data: y}, nil)
}

// kFCElementwiseLayerNorm is layer_norm(act(x·w + bias0) + y) (x flattened at x_num_col_dims; activation_type
// "" or "relu") with scale and bias1: (out, mean, variance).
func kFCElementwiseLayerNorm[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, w, err := c.pair()
	if err != nil {
		return nil, err
	}
	y, err := c.in(2)
	if err != nil {
		return nil, err
	}
	b0, err := c.optIn(3)
	if err != nil {
		return nil, err
	}
	scale, err := c.optIn(4)
	if err != nil {
		return nil, err
	}
	b1, err := c.optIn(5)
	if err != nil {
		return nil, err
	}
	fc, err := c.gemm2D(x, w, c.attrInt("x_num_col_dims", 1), false, false)
	if err != nil {
		return nil, err
	}
	n := fc.Shape[len(fc.Shape)-1]
	act := c.attrString("activation_type", "")
	if act != "" && act != "relu" {
		return nil, unsupported("activation_type %q", act)
	}
	if b0 != nil && len(b0.Data) != n {
		return nil, fmt.Errorf("bias0 %v must hold %d values", b0.Shape, n)
	}
	for i := range fc.Data {
		v := float64(fc.Data[i])
		if b0 != nil {
			v += float64(b0.Data[i%n])
		}
		if act == "relu" {
			v = max(v, 0)
		}
		fc.Data[i] = T(v)
	}
	sum, err := tensor.Add(fc, y)
	if err != nil {
		return nil, err
	}
	if !sameInts(sum.Shape, y.Shape) {
		return nil, fmt.Errorf("fc output %v and y %v differ", fc.Shape, y.Shape)
	}
	rows, cols, err := c.normRows(sum)
	if err != nil {
		return nil, err
	}
	var sd, bd []T
	if scale != nil {
		sd = scale.Data
	}
	if b1 != nil {
		bd = b1.Data
	}
	if sd != nil && len(sd) != cols || bd != nil && len(bd) != cols {
		return nil, fmt.Errorf("scale and bias1 must hold %d values", cols)
	}
	out, mean, variance := layerNorm(sum.Data, rows, cols, sd, bd, c.attrFloat("epsilon", 1e-5))
	res := []*value[T]{c.out(&tensor.Tensor[T]{Shape: sum.Shape, Data: out}, 0),
		c.out(&tensor.Tensor[T]{Shape: []int{rows}, Data: mean}, 1), c.out(&tensor.Tensor[T]{Shape: []int{rows}, Data: variance}, 2)}
	return res[:min(3, c.op.NumResults())], nil
}

// kSkipLayerNorm is layer_norm(x + y) with scale and bias.
func kSkipLayerNorm[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, y, err := c.pair()
	if err != nil {
		return nil, err
	}
	scale, bias, err := c.inPair(2, 3)
	if err != nil {
		return nil, err
	}
	sum, err := tensor.Add(x, y)
	if err != nil {
		return nil, err
	}
	rows, cols, err := c.normRows(sum)
	if err != nil {
		return nil, err
	}
	if len(scale.Data) != cols || len(bias.Data) != cols {
		return nil, fmt.Errorf("scale and bias must hold %d values", cols)
	}
	out, _, _ := layerNorm(sum.Data, rows, cols, scale.Data, bias.Data, c.attrFloat("epsilon", 1e-5))
	return c.one(&tensor.Tensor[T]{Shape: sum.Shape, Data: out}, nil)
}

// kDropoutAdd is dropout(x) + y; in training it draws from the stream of dropout ops (it replaces one), so a
// fusion of dropout and add draws the numbers the dropout drew.
func kDropoutAdd[T tensor.Float](c *call[T]) ([]*value[T], error) {
	res, err := kDropout(c)
	if err != nil {
		return nil, err
	}
	y, err := c.in(1)
	if err != nil {
		return nil, err
	}
	sum, err := tensor.Add(res[0].tensor(), y)
	if err != nil {
		return nil, err
	}
	return []*value[T]{c.out(sum, 0), c.out(&tensor.Tensor[T]{Shape: []int{2}, Data: make([]T, 2)}, 1)}, nil
}

// kSoftmaxMask is softmax(x + mask) along the last dim, or (upper triangle) softmax of x with the keys after each
// query masked out.
func kSoftmaxMask[T tensor.Float](causal bool) kernel[T] {
	return func(c *call[T]) ([]*value[T], error) {
		x, err := c.in(0)
		if err != nil {
			return nil, err
		}
		if len(x.Shape) < 2 {
			return nil, fmt.Errorf("input must have rank >= 2, is %v", x.Shape)
		}
		var mask *tensor.Tensor[T]
		if !causal {
			if mask, err = c.in(1); err != nil {
				return nil, err
			}
		}
		r := len(x.Shape)
		x4 := &tensor.Tensor[T]{Shape: []int{1, prod(x.Shape[:r-2]), x.Shape[r-2], x.Shape[r-1]}, Data: x.Data}
		if mask != nil {
			if x4, err = tensor.Map2("softmax mask", x, mask, func(a, m T) T { return a + m }); err != nil {
				return nil, err
			}
			if !sameInts(x4.Shape, x.Shape) {
				return nil, fmt.Errorf("mask %v grows x %v", mask.Shape, x.Shape)
			}
			x4.Shape = []int{1, prod(x.Shape[:r-2]), x.Shape[r-2], x.Shape[r-1]}
		} else {
			x4 = x4.Clone()
		}
		sq, sk := x4.Shape[2], x4.Shape[3]
		e := make([]float64, sk)
		for row := 0; row < len(x4.Data)/sk; row++ {
			vals := x4.Data[row*sk : (row+1)*sk]
			limit := sk
			if causal {
				limit = min(sk, row%sq+1)
			}
			m := math.Inf(-1)
			for j := range limit {
				m = max(m, float64(vals[j]))
			}
			ev := e[:limit]
			for j := range ev {
				ev[j] = float64(vals[j]) - m
			}
			tensor.ExpInPlace(ev) // math.Exp's bits, eight at a time on the avx512 path
			s := 0.0
			for j, v := range ev {
				vals[j] = T(v)
				s += v
			}
			clear(vals[limit:])
			for j := range limit {
				vals[j] = T(float64(vals[j]) / s)
			}
		}
		x4.Shape = append([]int{}, x.Shape...)
		return c.one(x4, nil)
	}
}
