package rules

import (
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
)

// GPUInferencePipeline is the pipeline gpu_inference: Paddle's kPirGpuPasses (paddle_pass_builder.cc) in Paddle's
// order, as far as they are ported. The first, add_shadow_output_after_dead_parameter (a Go pass,
// AddShadowOutputAfterDeadParameter), runs on the program as given, as in Paddle. Around them: inplace (the
// patterns see X, not X_); at the end fold_constants (the weight
// arithmetic conv2d_bn_fold builds is evaluated when the weights have data, as Paddle's constant folding does after
// its passes; a no-op otherwise), dce, and reinplace (X back to X_ where the input dies).
//
// Paddle's conv2d_bn_fuse, conv2d_add_act_fuse and conv2d_add_fuse are the sets of those names, run one after the
// other as in Paddle (conv_bn_relu imports the three into one set). delete_weight_dequant_linear_op builds the
// dequantized weight as ops that
// fold_constants evaluates, as conv2d_bn_fold does. add_shadow_output_after_dead_parameter is a Go pass
// (AddShadowOutputAfterDeadParameter), first as in Paddle. fused_weight_only_linear fires only for a GPU target:
// its rule-set parameter sm_version (drrc -target gpu:sm80) is 0 by default. Every pass of kPirGpuPasses is
// here (docs/gpu-inference.md); horizontal_fuse is the rule set of users groups rules/horizontal_fuse.drr.
var GPUInferencePipeline = []string{
	"add_shadow_output_after_dead_parameter",
	"inplace",
	"delete_quant_dequant_linear_op",
	"delete_weight_dequant_linear_op",
	"map_op_to_another",
	"identity_op_clean",
	"silu_fuse",
	"conv2d_bn_fuse",
	"conv2d_add_act_fuse",
	"conv2d_add_fuse",
	"embedding_eltwise_layernorm_fuse",
	"fused_rotary_position_embedding",
	"rotary_shared_ids",
	"rotary_single_tensor",
	"fused_flash_attn",
	"multihead_matmul_fuse",
	"fused_weight_only_linear",
	"weight_only_linear_bias",
	"matmul_add_act_fuse",
	"fc_elementwise_layernorm_fuse",
	"add_norm_fuse",
	"group_norm_silu_fuse",
	"group_norm_swish",
	"matmul_scale_fuse",
	"matmul_transpose_fuse",
	"transpose_flatten_concat_fuse",
	"remove_redundant_transpose",
	"horizontal_fuse",
	"fold_constants",
	"dce",
	"reinplace",
}

// gpuSetDocs documents the rule sets ported from Paddle's GPU inference passes (one set per Paddle DRR pass, named
// as the pass without _pass).
var gpuSetDocs = map[string]string{
	"delete_quant_dequant_linear_op":   "Paddle's delete_quant_dequant_linear_op_pass: a quantize_linear → dequantize_linear pair on an activation is removed",
	"delete_weight_dequant_linear_op":  "Paddle's delete_weight_dequant_linear_op_pass: the dequantize_linear of a parameter weight is folded into the weight (w·s/qmax as weight ops)",
	"map_op_to_another":                "Paddle's map_op_to_another_pass: depthwise_conv2d with groups > 1 becomes conv2d",
	"identity_op_clean":                "Paddle's identity_op_clean_pass: remove scale by 1, same-type casts, one-input concats, inference dropouts; merge scale·scale and widening cast·cast",
	"silu_fuse":                        "Paddle's silu_fuse_pass: x·sigmoid(x) becomes swish",
	"conv2d_bn_fuse":                   "Paddle's conv2d_bn_fuse_pass: an inference batch norm folds into the convolution before it",
	"conv2d_add_act_fuse":              "Paddle's conv2d_add_act_fuse_pass: conv2d + bias + relu (or the residual form) becomes fused_conv2d_add_act on cuDNN; with -param use_cutlass=true on a target gpu:sm75, sm80, sm85 or sm86, relu/sigmoid/swish/leaky_relu on cutlass",
	"conv2d_add_fuse":                  "Paddle's conv2d_add_fuse_pass: conv2d + bias becomes fused_conv2d_add_act (identity) on cuDNN, or on cutlass with -param use_cutlass=true",
	"embedding_eltwise_layernorm_fuse": "Paddle's embedding_eltwise_layernorm_fuse_pass: 2 or 3 summed embeddings + layer_norm become fused_embedding_eltwise_layernorm",
	"matmul_add_act_fuse":              "Paddle's matmul_add_act_fuse_pass: matmul + bias (+ relu) becomes fc",
	"fc_elementwise_layernorm_fuse":    "Paddle's fc_elementwise_layernorm_fuse_pass: fc + residual + layer_norm becomes fused_fc_elementwise_layernorm",
	"add_norm_fuse":                    "Paddle's add_norm_fuse_pass: RMS norm chains become rms_norm; residual add + rms_norm/layer_norm fuse; half-precision add + group_norm (+ silu) becomes add_group_norm_silu",
	"group_norm_silu_fuse":             "Paddle's group_norm_silu_fuse_pass: half-precision group_norm + silu becomes add_group_norm_silu (NHWC; an NCHW one transposed around it), float32 too with -param enable_gpu_mixed=true",
	"matmul_scale_fuse":                "Paddle's matmul_scale_fuse_pass: a scale after a matmul moves onto the parameter weight",
	"fused_rotary_position_embedding":  "Paddle's fused_rotary_position_embedding pass: the rotate-half rotary embeddings of q and k (x·cos + rotate_half(x)·sin at position ids) become one fused_rotary_position_embedding",
	"rotary_shared_ids":                "pirdrr's own, after fused_rotary_position_embedding: the rotary embeddings of q and k with one unsqueeze of the position ids for both gathers (LLaMA's form) become one fused_rotary_position_embedding",
	"rotary_single_tensor":             "pirdrr's own, after fused_rotary_position_embedding: the rotate-half rotary embedding of one tensor alone becomes fused_rotary_position_embedding of that tensor",
	"group_norm_swish":                 "pirdrr's own, after group_norm_silu_fuse: a swish (x·sigmoid(x) after silu_fuse) after a group norm or add_group_norm_silu fuses as silu does",
	"weight_only_linear_bias":          "pirdrr's own, after fused_weight_only_linear: a weight_only_linear without bias absorbs the [N] bias add after it (what Paddle's bottom-up pass makes)",
	"fused_flash_attn":                 "Paddle's fused_flash_attn_pass: half-precision attention scaled by 1/√D (q or scores, mask [B,1,Sq,Sk], softmax with or without casts, or q, k, v sliced from one tensor) becomes flash_attn, for a GPU of sm 80 or newer (-target gpu:sm80; its rule-set parameter sm_version, default 0: none)",
	"multihead_matmul_fuse":            "Paddle's multihead_matmul_fuse_pass: BERT (q/k/v projections) and ViT (one qkv projection) attention becomes multihead_matmul",
	"fused_weight_only_linear":         "Paddle's fused_weight_only_linear_pass: matmul (+ bias) by a float16/bfloat16 parameter becomes weight_quantize + weight_only_linear, for the GPU of -target gpu:smNN (its rule-set parameter sm_version; default 0: none, the rules do not fire)",
	"matmul_transpose_fuse":            "Paddle's matmul_transpose_fuse_pass: transposes of the last two axes become matmul flags",
	"transpose_flatten_concat_fuse":    "Paddle's transpose_flatten_concat_fuse_pass: n tensors transposed and flattened alike, then concatenated, become fusion_transpose_flatten_concat",
	"remove_redundant_transpose":       "Paddle's remove_redundant_transpose_pass: transpose·transpose composes, identity transposes go",
	"horizontal_fuse":                  "Paddle's horizontal_fuse_pass: three or more matmul/fc projections of one value by constant weights become one projection, split (users groups)",
}

// registerGPU registers the Go passes add_shadow_output_after_dead_parameter and cse_constants,
// and the pipeline gpu_inference in reg (the pipeline's other passes must be registered already).
func registerGPU(reg *rewriter.Registry) error {
	err := reg.RegisterPass("add_shadow_output_after_dead_parameter", "Paddle's add_shadow_output_after_dead_parameter_pass: a builtin.shadow_output, named as the parameter, for every builtin.parameter nothing reads, so that the executor keeps it",
		func(*ir.Context, *rewriter.Registry) (rewriter.Pass, error) {
			return &rewriter.GoPass{PassName: "add_shadow_output_after_dead_parameter", Fn: AddShadowOutputAfterDeadParameter}, nil
		})
	if err != nil {
		return err
	}
	err = reg.RegisterPass("cse_constants", "merge equal constants (full, full_int_array) of a block into one (no pipeline needs it: patterns match constants by value)",
		func(*ir.Context, *rewriter.Registry) (rewriter.Pass, error) {
			return &rewriter.GoPass{PassName: "cse_constants", Fn: MergeConstants}, nil
		})
	if err != nil {
		return err
	}
	return reg.RegisterPipeline("gpu_inference", "Paddle's GPU inference passes (kPirGpuPasses) as far as ported, in Paddle's order",
		GPUInferencePipeline...)
}
