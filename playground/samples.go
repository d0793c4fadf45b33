package playground

import (
	"github.com/pirdrr/drr/internal/sample"
	"github.com/pirdrr/drr/ir"
)

// sampleProgram is a program embedded in the binary, with the rule the page starts with when it is picked.
type sampleProgram struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	Doc   string `json:"doc"`
	// Rules is the editor's text when the sample is picked on a fresh page.
	Rules string `json:"rules"`
	load  func(ctx *ir.Context) (*ir.Program, error)
}

// samples are the embedded programs: a CNN and a transformer, both written by us (internal/sample and
// sample_transformer.go), small enough to read whole and run in the interpreter in a blink.
func samples() []*sampleProgram {
	return []*sampleProgram{
		{Name: "tinyresnet", Title: "TinyResNet (CNN, 51 ops)",
			Doc: "A small image classifier shaped like the models Paddle exports: convolutions with inference batch norms, " +
				"a residual block, a depthwise-separable block, relu/relu6/hardswish, pooling and a matmul + add head.",
			Rules: resnetRules, load: sample.Load},
		{Name: "tinytransformer", Title: "TinyTransformer (2 encoder layers)",
			Doc: "A small transformer encoder: layer norms decomposed into primitives (as Paddle's decomposition writes " +
				"them), multi-head attention with matmul + add projections, reshape/transpose, softmax, a gelu feed-forward " +
				"block and residual adds.",
			Rules: transformerRules, load: func(ctx *ir.Context) (*ir.Program, error) { return buildTransformer(ctx, 2) }},
	}
}

// resnetRules is the first rule a user sees: it runs as it is, and its comment says what to try next.
const resnetRules = `// Ctrl+Enter (or Run) applies these rules to the program; click an op of the graph to see
// what every rule makes of it. Try: fuse the classifier head, matmul + add, into pd_op.fc.

/// relu6 is a clip to [0, 6].
rule relu6_as_clip {
  match {
    %y = pd_op.relu6(%x)
  }
  rewrite {
    %lo = pd_op.full() {shape: [1], value: 0.0, dtype: float32}
    %hi = pd_op.full() {shape: [1], value: 6.0, dtype: float32}
    replace %y with pd_op.clip(%x, %lo, %hi)
  }
}
`

// transformerRules starts the transformer sample with a fusion that fires twelve times.
const transformerRules = `// Ctrl+Enter (or Run) applies these rules to the program; click an op of the graph to see
// what every rule makes of it.

/// matmul(x, w) + b becomes fc(x, w, b), as Paddle's fc_fuse_pass does.
rule fc {
  match {
    %m = pd_op.matmul(%x, %w) {transpose_x: false, transpose_y: false}
    %z = pd_op.add(%m, %b)
  }
  where {
    rank(%w) == 2 && rank(%x) >= 2 && dim(%x, -1) == dim(%w, 0)
    shape(%b) in [[dim(%w, 1)], [1, dim(%w, 1)]]
    immutable(%w, %b)
  }
  rewrite {
    replace %z with pd_op.fc(%x, %w, %b) {in_num_col_dims: rank(%x) - 1, activation_type: "", padding_weights: false}
  }
}
`
