package interp

import (
	"math"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// The error budget of an evaluation. Every value carries an estimate of how many roundings its computation went
// through, as a variance in units of the precision's unit roundoff u (2⁻²⁴ in float32, 2⁻⁵³ in float64):
// rounding errors are modeled as independent, so variances add along a computation (Higham and Mary's
// probabilistic error analysis: a sum of n terms carries an error of about √n·u, not n·u). An op adds to the
// largest variance of its operands: n for a reduction of n terms (the contraction length of a matrix product or a
// convolution, the normalized length of a softmax or a norm, the terms of a sum), 1 for an element-wise op, 0 for
// ops that only move data. An output whose variance is V may then differ from its exact value by about √V·u
// relative to its scale, and two evaluations (before and after a rewrite) by √2 times that; package compare
// accepts up to BudgetFactor times √(2V)·u (compare.Options.BudgetFactor), and never less than RelTol.

// dataMovement are the ops whose results are (copies of) operand elements: no rounding.
var dataMovement = map[string]bool{
	"pd_op.reshape": true, "pd_op.flatten": true, "pd_op.squeeze": true, "pd_op.unsqueeze": true,
	"pd_op.transpose": true, "pd_op.concat": true, "pd_op.split": true, "pd_op.split_with_num": true,
	"pd_op.slice": true, "pd_op.strided_slice": true, "pd_op.gather": true, "pd_op.gather_nd": true,
	"pd_op.index_select": true, "pd_op.index_sample": true, "pd_op.take_along_axis": true, "pd_op.embedding": true,
	"pd_op.expand": true, "pd_op.expand_as": true, "pd_op.tile": true, "pd_op.broadcast_tensors": true,
	"pd_op.assign": true, "pd_op.share_data": true, "pd_op.stack": true, "pd_op.flip": true, "pd_op.roll": true,
	"pd_op.pad": true, "pd_op.pad3d": true, "pd_op.set_value": true, "pd_op.set_value_with_tensor": true,
	"pd_op.where": true, "pd_op.masked_fill": true, "pd_op.relu": true, "pd_op.maximum": true, "pd_op.minimum": true,
	"pd_op.clip": true, "pd_op.max": true, "pd_op.min": true, "pd_op.topk": true, "pd_op.argmax": true,
	"pd_op.argmin": true, "pd_op.nearest_interp": true, "pd_op.tril": true, "pd_op.triu": true, "pd_op.meshgrid": true,
	"pd_op.repeat_interleave": true, "pd_op.fetch": true, "pd_op.to_tensor": true, "pd_op.to_vtensor": true,
	"builtin.combine": true, "builtin.split": true, "builtin.slice": true, "builtin.parameter": true,
	"pd_op.data": true, "pd_op.full": true, "pd_op.full_int_array": true, "pd_op.assign_value": true,
	"pd_op.amax": true, "pd_op.amin": true, "pd_op.fmax": true, "pd_op.fmin": true, "pd_op.reverse": true,
	"pd_op.pixel_shuffle": true, "pd_op.pixel_unshuffle": true, "pd_op.channel_shuffle": true,
	"pd_op.shuffle_channel": true, "pd_op.temporal_shift": true, "pd_op.unbind": true, "pd_op.unstack": true,
	"pd_op.diagonal": true, "pd_op.argsort": true, "pd_op.cummax": true, "pd_op.cummin": true, "pd_op.maxout": true,
	"pd_op.eye": true,
}

// rowNorms normalize along (at least) their last dim: the cost is that dim's length.
var rowNorms = map[string]bool{
	"pd_op.softmax": true, "pd_op.log_softmax": true, "pd_op.layer_norm": true, "pd_op.rms_norm": true,
	"pd_op.fused_bias_residual_layernorm": true, "pd_op.skip_layernorm": true, "pd_op.fused_softmax_mask": true,
	"pd_op.fused_softmax_mask_upper_triangle": true, "pd_op.cross_entropy_with_softmax": true,
	"pd_op.fused_embedding_eltwise_layernorm": true, "pd_op.logsumexp": true,
}

// roundingCost is the variance (in units of u²) one evaluation of op adds to its results.
func roundingCost[T tensor.Float](op *ir.Op, args, res []*value[T]) float64 {
	name := ir.NonInplaceName(op.Name())
	if dataMovement[name] {
		return 0
	}
	shape := func(i int) []int {
		if i < len(args) && args[i] != nil && !args[i].vec {
			return args[i].shape
		}
		return nil
	}
	last := func(s []int) float64 {
		if len(s) == 0 {
			return 1
		}
		return float64(s[len(s)-1])
	}
	n := 1.0
	switch name {
	case "pd_op.matmul", "pd_op.bmm":
		x := shape(0)
		n = last(x)
		if t, _ := ir.AsBool(op.AttrOrDefault("transpose_x")); t && len(x) >= 2 {
			n = float64(x[len(x)-2])
		}
		n++
	case "pd_op.fc", "pd_op.fused_gemm_epilogue", "pd_op.fused_fc_elementwise_layernorm", "pd_op.addmm":
		n = float64(prod(shape(1))) / max(last(shape(1)), 1) // the rows of w
		n += 4
	case "pd_op.weight_only_linear":
		n = last(shape(0)) + 4
	case "pd_op.weight_quantize":
		if len(args) > 0 && args[0] != nil && !args[0].vec {
			n = quantizationVariance(args[0].tensor(), op) / (unitRoundoffOf[T]() * unitRoundoffOf[T]())
		}
	case "pd_op.conv2d", "pd_op.depthwise_conv2d", "pd_op.fused_conv2d_add_act", "pd_op.conv2d_transpose",
		"pd_op.depthwise_conv2d_transpose", "pd_op.deformable_conv":
		w := shape(1)
		if name == "pd_op.deformable_conv" {
			w = shape(2)
		}
		if len(w) > 0 && w[0] > 0 {
			n = float64(prod(w)/w[0]) + 4
		}
	case "pd_op.multihead_matmul":
		x := shape(0)
		if len(x) == 3 {
			n = float64(x[1]+x[2]) + 8
		}
	case "pd_op.flash_attn":
		q, k := shape(0), shape(1)
		if len(q) == 4 && len(k) == 4 {
			n = float64(q[3]+k[1]) + 8
		}
	case "pd_op.quantize_linear":
		// Rounding to the quantization grid, far coarser than u (k_quant.go, quantStep).
		return quantStep(op, args, res)
	case "pd_op.dequantize_linear":
		// x·s/qmax: two roundings, none for only_observer (a copy).
		if observer, _ := ir.AsBool(op.AttrOrDefault("only_observer")); observer {
			return 0
		}
		n = 2
	case "pd_op.einsum", "pd_op.pool2d", "pd_op.rnn":
		// Contractions and windows: the terms per output element.
		in, out := 0, 0
		for _, a := range args {
			if a != nil {
				if a.vec {
					for _, e := range a.elems {
						in += e.NumElements()
					}
				} else {
					in += a.NumElements()
				}
			}
		}
		if len(res) > 0 && res[0] != nil && !res[0].vec {
			out = res[0].NumElements()
		}
		if out > 0 {
			n = max(float64(in)/float64(out), 1) + 2
		}
	default:
		switch {
		case rowNorms[name]:
			n = last(shape(0)) + 4
		case len(res) > 0 && res[0] != nil && !res[0].vec && len(args) > 0 && args[0] != nil && !args[0].vec &&
			res[0].NumElements() > 0 && res[0].NumElements() < args[0].NumElements():
			// A reduction: the terms per output element.
			n = float64(args[0].NumElements())/float64(res[0].NumElements()) + 1
		}
	}
	return n
}

// quantizationVariance is the relative variance of weight_quantize's rounding of a weight w [K, N]: each weight
// moves to the nearest multiple of its column's (or group's) step s = max|w|/bound (bound 127 for int8, 7 for int4),
// an error uniform in [-s/2, s/2] of variance s²/12, which is not a rounding of the float format but of a much
// coarser grid. Relative to the weight's scale (its mean square) that is Σ s²/12 / Σ w² over the weights: about
// 1/(4·127²) for uniformly spread int8 weights, an error of 1/254 of the scale, 1/14 for int4. A linear layer
// sums K such products with independent errors, so its output carries the same relative variance; the comparison
// budget of a weight-only linear is then a few times 1/254 of its scale, where a wrong rewrite (a transposed
// weight, a dropped bias) is off by the whole scale.
func quantizationVariance[T tensor.Float](w *tensor.Tensor[T], op *ir.Op) float64 {
	if len(w.Shape) != 2 {
		return 0
	}
	bound := 127.0
	if algo, _ := ir.AsString(op.AttrOrDefault("algo")); algo == "weight_only_int4" {
		bound = 7
	}
	k, n := w.Shape[0], w.Shape[1]
	rows := k
	if gs, _ := ir.AsInt(op.AttrOrDefault("group_size")); gs > 0 && int(gs) < k {
		rows = int(gs)
	}
	var errSum, sum float64
	for g := 0; g < k; g += rows {
		for j := range n {
			m := 0.0
			for i := g; i < min(g+rows, k); i++ {
				v := float64(w.Data[i*n+j])
				m = max(m, math.Abs(v))
				sum += v * v
			}
			s := m / bound
			errSum += float64(min(rows, k-g)) * s * s / 12
		}
	}
	if sum == 0 {
		return 0
	}
	return errSum / sum
}

// unitRoundoffOf is u of the element type T (float32 or float64).
func unitRoundoffOf[T tensor.Float]() float64 {
	var z T
	if _, f32 := any(z).(float32); f32 {
		return Float32.UnitRoundoff()
	}
	return Float64.UnitRoundoff()
}

// UnitRoundoff is u, the relative error of one rounding in precision p: 2⁻²⁴ for Float32, 2⁻⁵³ otherwise. The
// rounding variances of outputs (Output.Rounding) are in units of u².
func (p Precision) UnitRoundoff() float64 {
	if p == Float32 {
		return 0x1p-24
	}
	return 0x1p-53
}

// quantStep is the rounding variance quantize_linear adds, in units of u²: the grid it rounds to has the step
// Δ = s/qmax in x's units (per channel: the largest), so the rounding error is uniform in ±Δ/2, of variance
// Δ²/12, which relative to the scale of x (max|x|) is (Δ/max|x|)²/12. Relative to the output it is the same (the
// output is x on the grid). It is capped at 1 (an error of the order of the values: every element rounded to 0).
// Clipping (|x| > s) is not rounding and is not covered: a rewrite that removes a clipping quantization changes
// the values beyond the budget, as it should.
func quantStep[T tensor.Float](op *ir.Op, args, res []*value[T]) float64 {
	if len(args) == 0 || args[0] == nil || args[0].vec {
		return 1
	}
	if observer, _ := ir.AsBool(op.AttrOrDefault("only_observer")); observer {
		return 0
	}
	var scale *value[T]
	if isTest, _ := ir.AsBool(op.AttrOrDefault("is_test")); isTest {
		if len(args) > 1 {
			scale = args[1]
		}
	} else if len(res) > 3 {
		scale = res[3]
	}
	qmax, _ := ir.AsInt(op.AttrOrDefault("qmax"))
	if scale == nil || scale.vec || qmax <= 0 {
		return 1
	}
	step := 0.0
	for _, s := range scale.buf.data {
		step = max(step, math.Abs(1/(float64(qmax)*float64(quantInverse(s)))))
	}
	m := 0.0
	for _, v := range args[0].buf.data {
		m = max(m, math.Abs(float64(v)))
	}
	if m == 0 {
		return 1
	}
	rel := min(step*step/(12*m*m), 1)
	u := unitRoundoffOf[T]()
	return 1 + rel/(u*u)
}
