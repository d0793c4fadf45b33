package verify_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
	"github.com/pirdrr/drr/verify"
)

// Rule verification: instantiating rules as small programs and checking them with real numbers.

func newCtx(t testing.TB) *ir.Context {
	t.Helper()
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	return ctx
}

func shippedRegistry(t testing.TB) *rewriter.Registry {
	t.Helper()
	reg := rewriter.NewRegistry()
	require.NoError(t, rules.Register(reg))
	return reg
}

// loadRules checks rule source text.
func loadRules(t testing.TB, ctx *ir.Context, src string) *rule.Set {
	t.Helper()
	set, diags := drr.LoadSource(ctx, drr.LoadOptions{}, "test.drr", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	return set
}

func verifyAll(t testing.TB, set *rule.Set, reg *rewriter.Registry) map[string]*verify.RuleVerification {
	t.Helper()
	res, err := verify.Rules(set, verify.RuleOptions{Registry: reg})
	require.NoError(t, err)
	out := map[string]*verify.RuleVerification{}
	for _, r := range res {
		out[r.Rule.ID()] = r
	}
	return out
}

// TestVerifyShippedRules: every shipped rule the interpreter can evaluate and that some program satisfies passes;
// the others are skipped for the stated reason. Nothing fails.
func TestVerifyShippedRules(t *testing.T) {
	// minOK is the least number of rules that must pass (the sets grow); allOK requires every rule to pass.
	counts := []struct {
		set   string
		minOK int
		allOK bool
	}{
		{"conv_bn_relu", 23, true},
		{"inplace", 98, true},
		{"reinplace", 93, true},
		{"value_semantics", 3, true},
		// add_group_norm_silu's operands from its data_format (the instantiator's plan) and its groups in range.
		// Its swish forms moved to group_norm_swish, a set of pirdrr's own (Paddle's patterns take silu only).
		{"add_norm_fuse", 7, true},
		{"group_norm_swish", 6, true},
	}
	type want struct {
		status verify.RuleStatus
		reason string // substring of the reason of a skipped rule
	}
	expect := map[string]map[string]want{
		"conv_bn_relu": {
			"conv2d_bn_fold[pd_op.conv2d,pd_op.batch_norm]":            {status: verify.RuleOK},
			"conv2d_bn_fold[pd_op.conv2d,pd_op.batch_norm_]":           {status: verify.RuleOK},
			"conv2d_bn_fold[pd_op.depthwise_conv2d,pd_op.batch_norm]":  {status: verify.RuleOK},
			"conv2d_bn_fold[pd_op.depthwise_conv2d,pd_op.batch_norm_]": {status: verify.RuleOK},
			"conv2d_add_act[pd_op.relu]":                               {status: verify.RuleOK},
			"conv2d_add_residual_act":                                  {status: verify.RuleOK},
			"conv2d_add":                                               {status: verify.RuleOK},
			"conv2d_add_cutlass_nchw":                                  {status: verify.RuleOK},
			"conv2d_add_cutlass_nhwc":                                  {status: verify.RuleOK},
			// Channels multiples of 8 (the second plan of the instantiator's convolutions) and a depthwise
			// convolution of 8 groups.
			"conv2d_add_cutlass_act_nchw[pd_op.sigmoid]":        {status: verify.RuleOK},
			"conv2d_add_cutlass_act_nhwc[pd_op.swish]":          {status: verify.RuleOK},
			"conv2d_add_cutlass_leaky_relu_nchw":                {status: verify.RuleOK},
			"conv2d_add_cutlass_depthwise_act_nhwc[pd_op.relu]": {status: verify.RuleOK},
			"fused_conv2d_add_then_act[pd_op.relu]":             {status: verify.RuleOK},
			"fused_conv2d_add_residual_then_act":                {status: verify.RuleOK},
		},
		"inplace": {
			"deinplace[pd_op.relu_]":  {status: verify.RuleOK},
			"deinplace[pd_op.add_]":   {status: verify.RuleOK},
			"deinplace[pd_op.scale_]": {status: verify.RuleOK},
			// Instances that keep the operand's type: a cast to its own dtype, a comparison of booleans, an identity
			// reshape.
			"deinplace[pd_op.cast_]":        {status: verify.RuleOK},
			"deinplace[pd_op.equal_]":       {status: verify.RuleOK},
			"deinplace[pd_op.reshape_]":     {status: verify.RuleOK},
			"deinplace[pd_op.logical_and_]": {status: verify.RuleOK},
			"deinplace[pd_op.addmm_]":       {status: verify.RuleOK},
			"deinplace[pd_op.index_put_]":   {status: verify.RuleOK},
			"deinplace[pd_op.set_value_]":   {status: verify.RuleOK},
			// The rule excludes ops with side effects: its instance over a collective can never fire.
			"deinplace[pd_op.c_allreduce_sum_]": {status: verify.RuleNeverFires,
				reason: "can never fire: its where clause `!has_trait(%b, \"SideEffects\")` is always false"},
			"deinplace[pd_op.where_]": {status: verify.RuleNeverFires, reason: "inplace_op"},
		},
		"reinplace": {
			"reinplace[pd_op.relu_]":    {status: verify.RuleOK},
			"reinplace[pd_op.sqrt_]":    {status: verify.RuleOK},
			"reinplace[pd_op.add_]":     {status: verify.RuleOK},
			"reinplace[pd_op.cast_]":    {status: verify.RuleOK},
			"reinplace[pd_op.equal_]":   {status: verify.RuleOK},
			"reinplace[pd_op.l1_norm_]": {status: verify.RuleOK},
			// flatten is a view of its operand: !aliased(%a) never holds.
			"reinplace[pd_op.flatten_]": {status: verify.RuleNeverFires, reason: "`!aliased(%a)` is always false"},
		},
		"value_semantics": {
			"snapshot_of_copy": {status: verify.RuleOK},
			"copy_of_snapshot": {status: verify.RuleOK},
			"drop_copy":        {status: verify.RuleOK},
		},
	}
	reg := shippedRegistry(t)
	for _, tc := range counts {
		t.Run(tc.set, func(t *testing.T) {
			set, err := rules.Load(newCtx(t), tc.set)
			require.NoError(t, err)
			res := verifyAll(t, set, reg)
			var ok, failed, skipped int
			for id, r := range res {
				switch r.Status {
				case verify.RuleOK:
					ok++
					assert.LessOrEqual(t, r.MaxRel, 1e-12, "%s: float64 evaluation of an exact rewrite", id)
					assert.NotEmpty(t, r.Variants, id)
				case verify.RuleFailed:
					failed++
					t.Errorf("%s FAILED: %s", id, r.Reason)
				case verify.RuleNeverFires:
					assert.Contains(t, r.Reason, "can never fire", id)
				default:
					skipped++
					assert.NotEmpty(t, r.Reason, id)
				}
			}
			assert.GreaterOrEqual(t, ok, tc.minOK)
			assert.Zero(t, failed)
			if tc.allOK {
				assert.Zero(t, skipped, "every rule the set can fire is verified")
			}
			t.Logf("%s: %d ok, %d failed, %d skipped", tc.set, ok, failed, skipped)
			for id, w := range expect[tc.set] {
				r := res[id]
				require.NotNil(t, r, id)
				assert.Equal(t, w.status, r.Status, "%s: %s", id, r.Reason)
				assert.Contains(t, r.Reason, w.reason, id)
			}
		})
	}
}

// TestInstantiateShippedRules checks the programs built for every shipped rule the interpreter evaluates: valid
// programs, the rule matching at the op built for its pattern's root, one fetch per pattern output, parameters for
// the inputs the constraints want immutable, and the candidate values of the holes covered.
func TestInstantiateShippedRules(t *testing.T) {
	tests := []struct {
		set string
		// cover maps a rule ID to the hole values its instances must cover, as "$hole = value".
		cover map[string][]string
		// params lists, per rule ID, the inputs that must be parameters.
		params map[string][]string
	}{
		{set: "conv_bn_relu", cover: map[string][]string{
			"conv2d_bn_fold[pd_op.conv2d,pd_op.batch_norm_]": {`$fmt = "NCHW"`, `$fmt = "NHWC"`, `$pa = "EXPLICIT"`,
				`$pa = "SAME"`, `$pa = "VALID"`, "$g = 1", "$g = 2", "$test = true", "$test = false", "$global = true",
				"$eps = 1e-05", "$eps = 0.001"},
			"conv2d_add":                 {"$st = [1, 1]", "$st = [2, 2]"},
			"conv2d_add_act[pd_op.relu]": {`$fmt = "NCHW"`, `$fmt = "NHWC"`},
		}, params: map[string][]string{
			"conv2d_bn_fold[pd_op.conv2d,pd_op.batch_norm_]": {"w", "mean", "var", "scale", "bias"},
			"conv2d_add_act[pd_op.relu]":                     {"b"},
		}},
		{set: "inplace"},
		{set: "reinplace"},
		{set: "value_semantics"},
	}
	reg := shippedRegistry(t)
	for _, tc := range tests {
		t.Run(tc.set, func(t *testing.T) {
			set, err := rules.Load(newCtx(t), tc.set)
			require.NoError(t, err)
			n := 0
			for _, r := range set.Rules {
				insts, err := verify.Instantiate(set, r, verify.InstantiateOptions{Registry: reg})
				if err != nil {
					require.ErrorIs(t, err, verify.ErrUnsatisfiable, r.ID())
					continue
				}
				n++
				var holes []string
				for _, inst := range insts {
					assert.Empty(t, ir.Verify(inst.Program).Errors(), "%s: %s", r.ID(), inst)
					require.NotNil(t, inst.Match, r.ID())
					assert.Same(t, r, inst.Match.Rule)
					assert.Same(t, inst.Root, inst.Match.Root())
					assert.Equal(t, r.Pattern.Ops[r.Pattern.Root].Name, inst.Root.Name())
					fetches := map[string]bool{}
					for op := range inst.Program.Walk() {
						if op.Name() == "pd_op.fetch" {
							name, _ := ir.AsString(op.Attr("name"))
							fetches[name] = true
						}
					}
					for _, vh := range r.Pattern.Values {
						if vh.Def >= 0 && outputHole(r.Pattern, vh) {
							assert.True(t, fetches["%"+vh.Name], "%s: output %%%s is fetched", r.ID(), vh.Name)
						}
					}
					for _, name := range tc.params[r.ID()] {
						assert.NotNil(t, inst.Program.Params[name], "%s: %%%s is a parameter", r.ID(), name)
					}
					holes = append(holes, inst.Holes...)
				}
				for _, h := range tc.cover[r.ID()] {
					assert.Contains(t, holes, h, r.ID())
				}
			}
			assert.Positive(t, n)
		})
	}
}

// outputHole reports whether a value hole defined by a pattern op is read by no pattern op.
func outputHole(p *rule.Pattern, vh *rule.ValueHole) bool {
	for _, op := range p.Ops {
		for _, o := range op.Operands {
			if (o.Kind == rule.OperandValue || o.Kind == rule.OperandList) && o.Value >= 0 && p.Values[o.Value] == vh {
				return false
			}
		}
	}
	return true
}

// convBNFold is the shipped conv2d_bn_fold with its rewrite replaced.
func convBNFold(name, rewrite string) string {
	return `family conv = [pd_op.conv2d, pd_op.depthwise_conv2d]
family batch_norm = [pd_op.batch_norm, pd_op.batch_norm_]

rule ` + name + ` {
  for C in conv
  for B in batch_norm
  match {
    %y = C(%x, %w) {strides: $st, paddings: $pd, padding_algorithm: $pa, dilations: $dl, groups: $g, data_format: $fmt}
    %out, _, _, _, _, _ = B(%y, %mean, %var, %scale, %bias) {epsilon: $eps, data_format: $fmt, is_test: $test,
                                                             use_global_stats: $global, trainable_statistics: $trainable}
  }
  where {
    $pa in ["EXPLICIT", "SAME", "VALID"]
    $fmt in ["NCHW", "NHWC"]
    $g >= 1
    $eps >= 0 && $eps <= 0.001
    $global || $test && !$trainable
    immutable(%w, %mean, %var, %scale, %bias)
    dtype(%w) in [float32, float64]
  }
  rewrite {
` + rewrite + `
  }
}
`
}

// WrongConvBNFold divides the batch norm's scale by the variance instead of sqrt(variance + epsilon).
var WrongConvBNFold = convBNFold("conv2d_bn_fold_wrong", `
    %alpha  = pd_op.divide(%scale, %var)
    %wshape = pd_op.full_int_array() {value: [-1, 1, 1, 1], dtype: int64}
    %w2     = pd_op.multiply(%w, pd_op.reshape(%alpha, %wshape))
    %c      = C(%x, %w2) {strides: $st, paddings: $pd, padding_algorithm: $pa, dilations: $dl, groups: $g, data_format: $fmt}
    %b2     = pd_op.subtract(%bias, pd_op.multiply(%mean, %alpha))
    %bshape = pd_op.full_int_array() {value: $fmt == "NCHW" ? [1, -1, 1, 1] : [1, 1, 1, -1], dtype: int64}
    replace %out with pd_op.add(%c, pd_op.reshape(%b2, %bshape))`)

// bnFoldBiasAxis1 reshapes the bias to [1, C, 1, 1] whatever the layout (the flaw of Paddle's pass on NHWC).
var bnFoldBiasAxis1 = convBNFold("conv2d_bn_fold_bias_axis1", `
    %eps    = pd_op.full() {shape: shape(%var), value: $eps, dtype: dtype(%var)}
    %std    = pd_op.sqrt(pd_op.add(%var, %eps))
    %alpha  = pd_op.divide(%scale, %std)
    %wshape = pd_op.full_int_array() {value: [-1, 1, 1, 1], dtype: int64}
    %w2     = pd_op.multiply(%w, pd_op.reshape(%alpha, %wshape))
    %c      = C(%x, %w2) {strides: $st, paddings: $pd, padding_algorithm: $pa, dilations: $dl, groups: $g, data_format: $fmt}
    %b2     = pd_op.subtract(%bias, pd_op.multiply(%mean, %alpha))
    %bshape = pd_op.full_int_array() {value: [1, -1, 1, 1], dtype: int64}
    replace %out with pd_op.add(%c, pd_op.reshape(%b2, %bshape))`)

// TestVerifyCatchesWrongRules: deliberately wrong rules are reported FAILED with the outputs that differ, on the
// instance that shows the bug.
func TestVerifyCatchesWrongRules(t *testing.T) {
	tests := []struct {
		name, src string
		// rule is the ID checked; reason and on are substrings of the reason and of the failing instance.
		rule, reason, on string
	}{
		{name: "fold dividing by the variance", src: WrongConvBNFold,
			rule: "conv2d_bn_fold_wrong[pd_op.conv2d,pd_op.batch_norm_]", reason: "outputs differ: %out: max rel",
			on: `$fmt = "NCHW"`},
		{name: "fold dividing by the variance, depthwise", src: WrongConvBNFold,
			rule: "conv2d_bn_fold_wrong[pd_op.depthwise_conv2d,pd_op.batch_norm]", reason: "outputs differ: %out: max rel"},
		// Only the NHWC instance shows this one: the bias [1, C, 1, 1] broadcasts along H there (H = C by chance
		// would hide it; the instances use distinct sizes), or does not broadcast at all.
		{name: "fold with the bias on axis 1 in NHWC", src: bnFoldBiasAxis1,
			rule: "conv2d_bn_fold_bias_axis1[pd_op.conv2d,pd_op.batch_norm_]", reason: "", on: `$fmt = "NHWC"`},
		{name: "deinplace without redirecting later reads", src: `
family inplace_ops = trait(Inplace)
rule deinplace_forgetful {
  for X_, X in inplace_ops
  match { %b = X_(%a, %rest...) {$attrs...} }
  where {
    inplace_op(X_, 0, 0)
    !has_trait(%b, SideEffects)
    !is_param(%a) && !is_input(%a)
    !aliased(%a, %b)
  }
  rewrite { replace %b with X(%a, %rest...) {$attrs...} }
}`, rule: "deinplace_forgetful[pd_op.relu_]", reason: "%a after: max rel", on: "read again after the pattern"},
		{name: "reinplace without checking that the input dies", src: `
family inplace_ops = trait(Inplace)
rule reinplace_eager {
  for X_, X in inplace_ops
  match { %b = X(%a: tensor<*x?>, %rest...) {$attrs...} }
  where {
    inplace_op(X_, 0, 0)
    !has_trait(%b, SideEffects)
    same_type(%a, %b)
    !is_param(%a) && !is_input(%a)
    !aliased(%a)
  }
  rewrite { replace %b with X_(%a, %rest...) {$attrs...} }
}`, rule: "reinplace_eager[pd_op.relu_]", reason: "%a after: max rel", on: "read again after the pattern"},
		{name: "a copy dropped without checking for writes", src: `
rule drop_copy_always {
  match { %y = pd_op.assign(%x) }
  rewrite { replace %y with %x }
}`, rule: "drop_copy_always", reason: "%x after the outputs are written: max rel", on: "outputs written after the pattern"},
		{name: "conv + add + relu fused with the wrong activation", src: `
rule conv_add_relu_as_sigmoid {
  match {
    %y = pd_op.conv2d(%x, %w) {strides: $st, paddings: $pd, padding_algorithm: $pa, dilations: $dl, groups: $g, data_format: $fmt}
    %z = pd_op.add(%y, %b)
    %r = pd_op.relu(%z)
  }
  where {
    $fmt == "NCHW"
    constant(%b) && numel(%b) != numel(%z)
  }
  rewrite {
    %f, _ = pd_op.fused_conv2d_add_act(%x, %w, %b, null) {strides: $st, paddings: $pd, padding_algorithm: $pa, dilations: $dl, groups: $g, data_format: $fmt, activation: "sigmoid"}
    replace %r with %f
  }
}`, rule: "conv_add_relu_as_sigmoid", reason: "outputs differ: %r: max rel"},
		// Inputs from [-1, 1) never reach relu6's threshold: the second comparison, from [-8, 8), does.
		{name: "relu6 taken for relu", src: `
rule relu6_as_relu {
  match { %y = pd_op.relu6(%x) }
  rewrite { replace %y with pd_op.relu(%x) }
}`, rule: "relu6_as_relu", reason: "with inputs drawn from [-8, 8): outputs differ: %y: max rel"},
	}
	// Shipped rules whose instances need list holes solved from sizes (instantiate_late.go), each with a
	// deliberate mistake: the instances must show it.
	for _, m := range []struct{ name, file, old, new, rule, reason string }{
		{"attention with the head count read from the head size", "multihead_matmul_fuse.drr",
			"head_number: $sh[2]", "head_number: $sh[3]", "multihead_matmul", "mask [2 7 3 3] grows the scores [2 1 3 3]"},
		{"ViT attention with the head count read from the head size", "multihead_matmul_fuse.drr",
			"head_number: $sh[3]}", "head_number: $sh[4]}", "vit_attention", "outputs differ: %out: max rel"},
		{"rotary embedding of q and k in the NeoX style", "fused_rotary_position_embedding.drr",
			"use_neox_rotary_style: false", "use_neox_rotary_style: true", "rotary_q_k", "outputs differ: %"},
		{"rotary embedding of one tensor in the NeoX style", "rotary_single_tensor.drr",
			"use_neox_rotary_style: false", "use_neox_rotary_style: true", "rotary_rotate_half", "outputs differ: %o: max rel"},
		{"cutlass convolution with the filter read as OIHW", "conv2d_add_act_fuse.drr",
			"pd_op.transpose(%w) {perm: [0, 2, 3, 1]}, pd_op.reshape(%b, pd_op.full_int_array() {value: [-1], dtype: int64}),\n        null) {strides: $st, paddings: $pd, padding_algorithm: \"EXPLICIT\", dilations: $dl, groups: 1,",
			"pd_op.transpose(%w) {perm: [0, 3, 1, 2]}, pd_op.reshape(%b, pd_op.full_int_array() {value: [-1], dtype: int64}),\n        null) {strides: $st, paddings: $pd, padding_algorithm: \"EXPLICIT\", dilations: $dl, groups: 1,",
			"conv2d_add_cutlass_act_nchw[pd_op.sigmoid]", ""},
		{"add + group norm with the residual subtracted", "add_norm_fuse.drr", "data_format: \"NHWC\", activation: \"\"}\n    replace %o with %f\n",
			"data_format: \"NHWC\", activation: \"silu\"}\n    replace %o with %f\n", "add_group_norm", "outputs differ"},
		// One mistake in each of the other sets of the gpu_inference pipeline.
		{"swish as sigmoid", "silu_fuse.drr", "pd_op.swish(%x)", "pd_op.sigmoid(%x)", "silu", "outputs differ"},
		{"depthwise to conv2d with one group", "map_op_to_another.drr", "groups: $g, data_format: $fmt}\n  }\n}",
			"groups: 1, data_format: $fmt}\n  }\n}", "depthwise_conv2d_to_conv2d", ""},
		{"fc that forgets its relu", "matmul_add_act_fuse.drr", `activation_type: "relu", padding_weights: $p`,
			`activation_type: "", padding_weights: $p`, "fc_relu", "outputs differ"},
		{"fc with a relu it did not have", "matmul_add_act_fuse.drr", `rank(%x) - 1, activation_type: ""`,
			`rank(%x) - 1, activation_type: "relu"`, "matmul_add_fc", "outputs differ"},
		{"scale moved onto the weight with a bias", "matmul_scale_fuse.drr", "place: $pl}) {bias: 0.0,",
			"place: $pl}) {bias: 1.0,", "matmul_scale", "outputs differ"},
		{"transposes composed in the wrong order", "remove_redundant_transpose.drr", "$p1[$p2[", "$p2[$p1[",
			"redundant_transpose", ""},
		{"rms norm over the last two axes", "add_norm_fuse.drr", "begin_norm_axis: rank(%x) - 1,",
			"begin_norm_axis: rank(%x) - 2,", "rms_norm", ""},
		{"residual layer norm scaling the residual", "add_norm_fuse.drr", "residual_alpha: 1.0",
			"residual_alpha: 2.0", "add_layer_norm", "outputs differ"},
		{"embeddings with scale and bias swapped", "embedding_eltwise_layernorm_fuse.drr", "[%w1, %w2], %bias, %scale)",
			"[%w1, %w2], %scale, %bias)", "embedding2_eltwise_layernorm", "outputs differ"},
		{"fc + layer norm with scale and bias swapped", "fc_elementwise_layernorm_fuse.drr", "%b0, %scale, %b1)",
			"%b0, %b1, %scale)", "fc_elementwise_layernorm", "outputs differ"},
		{"group norm + silu without the silu", "group_norm_silu_fuse.drr", `activation: "silu"}`, `activation: ""}`,
			"group_norm_silu", "outputs differ"},
		{"transpose-flatten-concat along the other axis", "transpose_flatten_concat_fuse.drr",
			"concat_axis: $axis == 1 || $axis == -1 ? 1 : 0}", "concat_axis: $axis == 1 || $axis == -1 ? 0 : 1}",
			"transpose_flatten_concat[n=2]", ""},
		{"attention made causal", "fused_flash_attn.drr", "causal: false", "causal: true", "flash_attn_outscale", "outputs differ"},
		{"inference dropout scaled by 1 + p", "identity_op_clean.drr", "value: 1.0 - $p", "value: 1.0 + $p",
			"replace_dropout_with_scale", "outputs differ"},
		{"scales merged by adding them", "identity_op_clean.drr", "value: $v1 * $v2", "value: $v1 + $v2",
			"remove_redundant_scale", "outputs differ"},
	} {
		src, err := os.ReadFile(filepath.Join("..", "rules", m.file))
		require.NoError(t, err)
		require.Contains(t, string(src), m.old)
		tests = append(tests, struct{ name, src, rule, reason, on string }{name: m.name,
			src: strings.ReplaceAll(string(src), m.old, m.new), rule: m.rule, reason: m.reason})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			set := loadRules(t, newCtx(t), tc.src)
			res := verifyAll(t, set, nil)
			r := res[tc.rule]
			require.NotNil(t, r, "rule %s in %v", tc.rule, keys(res))
			require.Equal(t, verify.RuleFailed, r.Status, "%s", r.Reason)
			assert.Contains(t, r.Reason, tc.reason)
			require.NotNil(t, r.Witness)
			assert.Equal(t, verify.RuleFailed, r.Witness.Status)
			assert.Contains(t, r.Witness.Instance.String(), tc.on)
			t.Logf("%s: %s\n  on %s", r.Rule.ID(), r.Reason, r.Witness.Instance)
		})
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestVerifyHonoursTypePatterns: the test programs of rule mode follow the type patterns of the match (a literal
// dim, a hole two values share, an element type, a rank), not only facts restated in where: these rules were
// SKIPPED ("dimension 1 of %m is 3; the rule wants 1").
func TestVerifyHonoursTypePatterns(t *testing.T) {
	src := `
rule softmax_mask {
  match {
    %y = pd_op.softmax(pd_op.add(%x: tensor<$b x $h x $s x $t x f32>, %m: tensor<$b x 1 x $s x $t x f32>)) {axis: -1}
  }
  rewrite {
    replace %y with pd_op.fused_softmax_mask(%x, %m)
  }
}

rule mask_first {
  match {
    %y = pd_op.subtract(%m: tensor<$b x 1 x $t x f32>, %x: tensor<$b x 4 x $t x f32>)
  }
  rewrite {
    replace %y with pd_op.scale(pd_op.subtract(%x, %m), pd_op.full() {shape: [1], value: -1.0, dtype: float32})
  }
}

rule trailing {
  match {
    %y = pd_op.divide(%x: tensor<* x 8 x f32>, %w: tensor<8 x f32>)
  }
  rewrite {
    replace %y with pd_op.multiply(%x, pd_op.reciprocal(%w))
  }
}`
	res := verifyAll(t, loadRules(t, newCtx(t), src), nil)
	for _, name := range []string{"softmax_mask", "mask_first", "trailing"} {
		r := res[name]
		require.NotNil(t, r, name)
		assert.Equal(t, verify.RuleOK, r.Status, "%s: %s", name, r.Reason)
	}
}

// TestVerifySkips: rules that cannot be checked are SKIPPED with the reason.
func TestVerifySkips(t *testing.T) {
	tests := []struct{ name, src, rule, reason string }{
		{"constraints on holes contradict each other", `
rule never {
  match { %y = pd_op.conv2d(%x, %w) {groups: $g} }
  where { $g >= 2 && $g < 2 }
  rewrite { replace %y with pd_op.conv2d(%x, %w) {groups: $g} }
}`, "never", "no choice of the attribute holes satisfies the constraints on them"},
		{"constraints on values contradict each other", `
rule never2 {
  match { %y = pd_op.relu(%x) }
  where { is_param(%x) && is_input(%x) }
  rewrite { replace %y with pd_op.relu(%x) }
}`, "never2", "constraint is_input(%x) is false"},
		{"an op of the pattern without kernel", `
rule decode {
  match { %y = pd_op.decode_jpeg(%x) }
  rewrite { replace %y with pd_op.relu(%x) }
}`, "decode", "the interpreter cannot evaluate pd_op.decode_jpeg"},
		{"a rewrite creating an op without kernel", `
rule to_i0e {
  match { %y = pd_op.relu(%x) }
  rewrite { replace %y with pd_op.i0e(%x) }
}`, "to_i0e", "the rewritten program cannot be evaluated: cannot evaluate pd_op.i0e at (new op)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			set := loadRules(t, newCtx(t), tc.src)
			r := verifyAll(t, set, nil)[tc.rule]
			require.NotNil(t, r)
			assert.Equal(t, verify.RuleSkipped, r.Status)
			assert.Contains(t, r.Reason, tc.reason)
		})
	}
}

// TestInstantiateSearch checks the search on hand-written patterns: literals drive the hole values, constraints
// drive the producers, and shapes follow the ops.
func TestInstantiateSearch(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // substrings of the first instance's description
		verify    bool     // the rule is also verified (rules that rewrite to themselves are not)
	}{
		{"literal of a hole", `
rule r {
  match { %y = pd_op.scale(%x, %s) {bias: $b, bias_after_scale: $after} }
  where { $b == 0.5 && $after }
  rewrite {
    replace %y with pd_op.add(pd_op.scale(%x, %s) {bias: 0.0}, pd_op.full() {shape: [1], value: $b, dtype: float32})
  }
}`, []string{"$b = 0.5", "$after = true", "%x: builtin.tensor<2x3x6x7xf32> input"}, true},
		{"immutable inputs are parameters", `
rule r {
  match { %y = pd_op.multiply(%x, %w) }
  where { immutable(%w) && is_input(%x) }
  rewrite { replace %y with pd_op.divide(%x, pd_op.divide(pd_op.full() {shape: [1], value: 1.0, dtype: float32}, %w)) }
}`, []string{"%x: builtin.tensor<2x3x6x7xf32> input", "%w: builtin.tensor<2x3x6x7xf32> parameter"}, true},
		{"per-channel broadcast when the sizes must differ", `
rule r {
  match { %y = pd_op.add(%x, %b) }
  where { numel(%b) != numel(%x) && is_input(%x) }
  rewrite { replace %y with pd_op.subtract(%x, pd_op.subtract(pd_op.full() {shape: [1], value: 0.0, dtype: float32}, %b)) }
}`, []string{"%x: builtin.tensor<2x3x6x7xf32> input", "%b: builtin.tensor<1x3x1x1xf32> input"}, true},
		{"inputs that are neither parameters nor inputs are copies", `
rule r {
  match { %y = pd_op.relu(%x) }
  where { !is_param(%x) && !is_input(%x) }
  rewrite { replace %y with pd_op.maximum(%x, pd_op.full() {shape: [1], value: 0.0, dtype: float32}) }
}`, []string{"%x: builtin.tensor<2x3x6x7xf32> copy of an input, read again after the pattern"}, true},
		{"value tensors for to_tensor", `
rule r {
  match { %t = pd_op.to_tensor(%v) }
  rewrite { replace %t with pd_op.to_tensor(%v) }
}`, []string{"%v: pd_op.v_tensor<2x3x6x7xf32> input as a value tensor"}, false},
		{"dtype and rank the where clause wants", `
rule r {
  match { %y = pd_op.matmul(%x, %w) {transpose_x: false, transpose_y: false} }
  where { dtype(%x) in [float16, bfloat16] && dtype(%w) == dtype(%x) && rank(%w) == 2 }
  rewrite { replace %y with pd_op.matmul(%x, %w) {transpose_x: false, transpose_y: false} }
}`, []string{"%x: builtin.tensor<2x3x6xf16> input", "%w: builtin.tensor<6x7xf16> input"}, false},
		{"a shape built from another operand's dims", `
rule r {
  match { %y = pd_op.add(%x, %b) }
  where { shape(%b) == [dim(%x, -1)] || shape(%b) == [1, dim(%x, -1)] }
  rewrite { replace %y with pd_op.subtract(%x, pd_op.subtract(pd_op.full() {shape: [1], value: 0.0, dtype: float32}, %b)) }
}`, []string{"%x: builtin.tensor<2x3x6x7xf32> input", "%b: builtin.tensor<7xf32> input"}, true},
		{"a dimension solved from a hole", `
rule r {
  match { %y = pd_op.scale(%x, pd_op.full() {value: $s}) {bias: 0.0} }
  where { $s * dim(%x, 3) == 2.0 }
  rewrite { replace %y with pd_op.multiply(%x, pd_op.full() {shape: [1], value: $s, dtype: float32}) }
}`, []string{"$s = 0.5", "%x: builtin.tensor<2x3x6x4xf32> input"}, true},
		{"a list hole solved from the sizes of the values built before it", `
rule r {
  match { %y = pd_op.reshape(%x, pd_op.full_int_array() {value: $sh}) }
  where {
    rank(%x) == 3
    len($sh) == 4 && $sh[0] in [0, dim(%x, 0)] && $sh[1] == dim(%x, 1) && $sh[2] > 1 && $sh[2] * $sh[3] == dim(%x, 2)
  }
  rewrite { replace %y with pd_op.reshape(%x, pd_op.full_int_array() {value: $sh}) }
}`, []string{"$sh = [3, 6, 7, 1]", "%x: builtin.tensor<3x6x7xf32> input"}, false},
		{"a list hole of the shortest length that has solutions", `
rule r {
  match {
    %y = pd_op.slice(%x, pd_op.full_int_array() {value: [0]}, pd_op.full_int_array() {value: $e}) {axes: [3], decrease_axis: [], infer_flags: [1]}
  }
  where { rank(%x) == 4 && dim(%x, 3) % 2 == 0 && $e[0] * 2 == dim(%x, 3) }
  rewrite {
    replace %y with pd_op.slice(%x, pd_op.full_int_array() {value: [0]}, pd_op.full_int_array() {value: $e}) {axes: [3], decrease_axis: [], infer_flags: [1]}
  }
}`, []string{"$e = [2]", "%x: builtin.tensor<2x3x6x4xf32> input"}, false},
		{"a dimension equal to another takes what is solved for it", `
rule r {
  match { %y = pd_op.multiply(%a, %b) }
  where { dim(%a, 3) == dim(%b, 3) && dim(%b, 3) % 4 == 0 && rank(%b) == 4 }
  rewrite { replace %y with pd_op.divide(%a, pd_op.divide(pd_op.full() {shape: [1], value: 1.0, dtype: float32}, %b)) }
}`, []string{"%a: builtin.tensor<2x3x6x4xf32> input"}, true},
		{"list literals of a list-valued hole", `
rule r {
  match { %y = pd_op.transpose(%x) {perm: $p} }
  where { $p in [[1, 0], [0, 2, 1]] && rank(%x) == 2 }
  rewrite { replace %y with pd_op.transpose(%x) {perm: $p} }
}`, []string{"$p = [1, 0]", "%x: builtin.tensor<6x7xf32> input"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			set := loadRules(t, newCtx(t), tc.src)
			insts, err := verify.Instantiate(set, set.Rules[0], verify.InstantiateOptions{})
			require.NoError(t, err)
			desc := insts[0].String()
			for _, w := range tc.want {
				assert.Contains(t, desc, w)
			}
			if tc.verify {
				res := verifyAll(t, set, nil)[set.Rules[0].ID()]
				assert.Equal(t, verify.RuleOK, res.Status, "%s", res.Reason)
			}
		})
	}
}

// TestRuleStatusString covers the status names the CLI prints.
func TestRuleStatusString(t *testing.T) {
	assert.Equal(t, "ok FAILED SKIPPED", fmt.Sprint(verify.RuleOK, verify.RuleFailed, verify.RuleSkipped))
	assert.True(t, strings.HasPrefix((&verify.UnsatisfiableError{Reason: "x"}).Error(), verify.ErrUnsatisfiable.Error()))
}
