package cost

import "fmt"

// layerNormOps is the operations per element of a layer (or group, instance) norm: the mean 1, the variance 3
// (subtract, square, add), normalizing 2, scale and shift 2.
const layerNormOps = 8

// normFamily holds the normalizations and the fused ops built around one, one kernel each, reading the input and
// the per-channel parameters once and writing the output (and the small statistics) once. An inference batch norm
// ((x−mean)·scale/√(var+ε)+bias) does 4 operations per element, a training one 3 more for the statistics; layer,
// group and instance norms 8 (layerNormOps); rms_norm 4 (square and sum, scale by the reciprocal root, the weight)
// plus 1 per bias, residual and norm bias present. Fused ops add their parts: a residual or bias add 1, an
// activation its element-wise count; fused_embedding_eltwise_layernorm gathers one row per embedding table and
// sums them (reading as many elements of each table as it writes).
var normFamily = family{
	name: "norm",
	doc:  "normalizations and their fusions: batch norm 4 per element (training 7), layer/group/instance norm 8, rms_norm 4",
	ops: map[string]formula{
		"pd_op.batch_norm":                        batchNorm,
		"pd_op.batch_norm_":                       batchNorm,
		"pd_op.sync_batch_norm_":                  batchNorm,
		"pd_op.fused_batch_norm_act":              fusedBatchNorm,
		"pd_op.fused_bn_add_activation":           fusedBatchNorm,
		"pd_op.layer_norm":                        elementwiseOf(0, layerNormOps),
		"pd_op.group_norm":                        elementwiseOf(0, layerNormOps),
		"pd_op.instance_norm":                     elementwiseOf(0, layerNormOps),
		"pd_op.affine_channel":                    elementwiseOf(0, 2),
		"pd_op.skip_layernorm":                    elementwiseOf(0, 1+layerNormOps),
		"pd_op.rms_norm":                          rmsNorm,
		"pd_op.fused_bias_residual_layernorm":     biasResidualLayerNorm,
		"pd_op.add_group_norm_silu":               addGroupNormSilu,
		"pd_op.fused_embedding_eltwise_layernorm": embeddingEltwiseLayerNorm,
		"pd_op.lrn":                               lrn,
	},
}

// elementwiseOf returns the formula of an op doing k operations per element of operand i, reading every operand
// and writing every result once.
func elementwiseOf(i int, k int64) formula {
	return func(v *opView) (Work, error) {
		x, err := v.mustIn(i)
		if err != nil {
			return Work{}, err
		}
		return Work{FLOPs: k * x.elems(), Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Vector, DType: x.dt}, nil
	}
}

// batchNorm: 4 operations per element in inference (is_test or use_global_stats), 7 when it computes the batch's
// statistics.
func batchNorm(v *opView) (Work, error) {
	k := int64(4)
	if !v.bool("is_test") && !v.bool("use_global_stats") {
		k = 7
	}
	return elementwiseOf(0, k)(v)
}

// fusedBatchNorm is a training batch norm with its activation (and, for fused_bn_add_activation, the add of z).
func fusedBatchNorm(v *opView) (Work, error) {
	act, err := activationOps(v.str("act_type"))
	if err != nil {
		return Work{}, err
	}
	k := 7 + act
	if v.op.Name() == "pd_op.fused_bn_add_activation" {
		k++
	}
	return elementwiseOf(0, k)(v)
}

// rmsNorm: x, bias?, residual?, norm_weight, norm_bias?.
func rmsNorm(v *opView) (Work, error) {
	k := int64(4)
	for _, i := range []int{1, 2, 4} {
		if _, ok := v.in(i); ok {
			k++
		}
	}
	return elementwiseOf(0, k)(v)
}

// biasResidualLayerNorm: x, bias?, residual?, norm_weight?, norm_bias?: the adds, then a layer norm.
func biasResidualLayerNorm(v *opView) (Work, error) {
	k := int64(layerNormOps)
	for _, i := range []int{1, 2} {
		if _, ok := v.in(i); ok {
			k++
		}
	}
	return elementwiseOf(0, k)(v)
}

// addGroupNormSilu: x, residual?, scale?, bias?: the residual add, a group norm, the activation.
func addGroupNormSilu(v *opView) (Work, error) {
	act, err := activationOps(v.str("activation"))
	if err != nil {
		return Work{}, err
	}
	k := layerNormOps + act
	if _, ok := v.in(1); ok {
		k++
	}
	return elementwiseOf(0, k)(v)
}

// embeddingEltwiseLayerNorm: ids (a vector of n id tensors), embs (n tables), bias, scale: n gathered rows summed
// (n−1 adds) and layer-normed.
func embeddingEltwiseLayerNorm(v *opView) (Work, error) {
	out, err := v.mustOut(0)
	if err != nil {
		return Work{}, err
	}
	ids, embs := v.inList(0), v.inList(1)
	if len(ids) == 0 || len(ids) != len(embs) {
		return Work{}, fmt.Errorf("%d id tensors for %d tables", len(ids), len(embs))
	}
	n := int64(len(ids))
	read := v.valueBytes(v.op.Operand(0)) + v.readAll(0, 1) + n*out.bytes()
	return Work{FLOPs: (n - 1 + layerNormOps) * out.elems(), Read: read, Written: v.writeAll(), Kernels: 1, Unit: Vector,
		DType: out.dt}, nil
}

// lrn: a sum of squares over n neighbouring channels, then a power: n+3 operations per element.
func lrn(v *opView) (Work, error) {
	return elementwiseOf(0, v.int("n", 5)+3)(v)
}
