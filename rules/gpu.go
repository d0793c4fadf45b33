package rules

import "github.com/pirdrr/drr/rewriter"

// GPUInferencePipeline is the pipeline gpu_inference: Paddle's kPirGpuPasses (paddle_pass_builder.cc) in Paddle's
// order, as far as they are ported, between the de-inplacing that lets the patterns see X instead of X_ and the
// reinplacing that turns X back where its input dies. Paddle's conv2d_bn_fuse, conv2d_add_act_fuse and
// conv2d_add_fuse passes are the set conv_bn_relu (which also folds NHWC and refuses training-mode batch norms).
// Not ported yet: add_shadow_output_after_dead_parameter, delete_quant_dequant_linear_op,
// delete_weight_dequant_linear_op, fused_rotary_position_embedding, fused_flash_attn, multihead_matmul_fuse,
// fused_weight_only_linear, transpose_flatten_concat_fuse and horizontal_fuse (docs/gpu-inference.md).
var GPUInferencePipeline = []string{
	"inplace",
	"map_op_to_another",
	"identity_op_clean",
	"silu_fuse",
	"conv_bn_relu",
	"embedding_eltwise_layernorm_fuse",
	"matmul_add_act_fuse",
	"fc_elementwise_layernorm_fuse",
	"add_norm_fuse",
	"group_norm_silu_fuse",
	"matmul_scale_fuse",
	"matmul_transpose_fuse",
	"remove_redundant_transpose",
	"dce",
	"reinplace",
}

// gpuSetDocs documents the rule sets ported from Paddle's GPU inference passes (one set per Paddle DRR pass, named
// as the pass without _pass).
var gpuSetDocs = map[string]string{
	"map_op_to_another":                "Paddle's map_op_to_another_pass: depthwise_conv2d with groups > 1 becomes conv2d",
	"identity_op_clean":                "Paddle's identity_op_clean_pass: remove scale by 1, same-type casts, one-input concats, inference dropouts; merge scale·scale and widening cast·cast",
	"silu_fuse":                        "Paddle's silu_fuse_pass: x·sigmoid(x) becomes swish",
	"embedding_eltwise_layernorm_fuse": "Paddle's embedding_eltwise_layernorm_fuse_pass: 2 or 3 summed embeddings + layer_norm become fused_embedding_eltwise_layernorm",
	"matmul_add_act_fuse":              "Paddle's matmul_add_act_fuse_pass: matmul + bias (+ relu) becomes fc",
	"fc_elementwise_layernorm_fuse":    "Paddle's fc_elementwise_layernorm_fuse_pass: fc + residual + layer_norm becomes fused_fc_elementwise_layernorm",
	"add_norm_fuse":                    "Paddle's add_norm_fuse_pass: RMS norm chains become rms_norm; residual add + rms_norm/layer_norm fuse",
	"group_norm_silu_fuse":             "Paddle's group_norm_silu_fuse_pass: group_norm + silu becomes add_group_norm_silu",
	"matmul_scale_fuse":                "Paddle's matmul_scale_fuse_pass: a scale after a matmul moves onto the parameter weight",
	"matmul_transpose_fuse":            "Paddle's matmul_transpose_fuse_pass: transposes of the last two axes become matmul flags",
	"remove_redundant_transpose":       "Paddle's remove_redundant_transpose_pass: transpose·transpose composes, identity transposes go",
}

// registerGPUPipeline registers the pipeline gpu_inference in reg (its passes must be registered already).
func registerGPUPipeline(reg *rewriter.Registry) error {
	return reg.RegisterPipeline("gpu_inference", "Paddle's GPU inference passes (kPirGpuPasses) as far as ported, in Paddle's order",
		GPUInferencePipeline...)
}
