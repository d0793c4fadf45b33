package rules_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/graphnet"
	"github.com/pirdrr/drr/rewriter"
)

// TestTransformerExamplesOnCorpus applies the example set examples/transformer/transformer.drr alone (no pass merges
// equal constants first) to the GraphNet graphs issue 29 names, and requires each rule's count: every layer norm of
// DeBERTa (25: one computing x − mean(x) once, 24 twice), every RMS norm of RoFormer v2 (25 in base, 49 in large),
// and GPT-2 medium's 24 MLP epilogues. GPT-2's 24 masked softmaxes stay: the capture's 19 tokens are below the key
// length of 32 Paddle's fused_softmax_mask kernel needs, and the rule asks what the kernel asks. The outputs must check.
func TestTransformerExamplesOnCorpus(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	set, diags := drr.Load(ctx, drr.LoadOptions{}, filepath.Join("..", "examples", "transformer", "transformer.drr"))
	require.Empty(t, diags)
	for _, tc := range []struct {
		graph string
		want  map[string]int
	}{
		{"PaddleNLP/microsoft_deberta-base", map[string]int{"layer_norm_written_out": 25}},
		{"PaddleNLP/roformer_v2_chinese_char_base", map[string]int{"rms_norm_weightless": 25}},
		{"PaddleNLP/roformer_v2_chinese_char_large", map[string]int{"rms_norm_weightless": 49}},
		{"PaddleNLP/gpt2-medium-en", map[string]int{"matmul_bias_gelu_tanh": 24}},
	} {
		t.Run(tc.graph, func(t *testing.T) {
			p, err := graphnet.Read(ctx, corpus.Path(t, "graphnet_samples/"+tc.graph))
			require.NoError(t, err)
			res, err := rewriter.NewRulePass("transformer", set).Run(p, &rewriter.Env{})
			require.NoError(t, err)
			got := map[string]int{}
			for _, rs := range res.Stats.Rules {
				require.Zerof(t, rs.Failed, "rule %s: %s", rs.Name, rs.FirstFailure)
				if rs.Applied > 0 {
					got[rs.Name] = rs.Applied
				}
			}
			require.Equal(t, tc.want, got)
			require.Empty(t, ir.Verify(p).Errors(), "the output checks")
		})
	}
}
