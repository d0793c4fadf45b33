// Package rules holds the rule sets that ship with pirdrr, embedded in the binary, and the Go passes they need,
// and registers them — with the inference pipeline that combines them — in a rewriter.Registry.
//
// The sets (rules/*.drr):
//
//   - conv_bn_relu: conv2d/depthwise_conv2d + batch_norm folding, conv2d + add (+ activation) →
//     pd_op.fused_conv2d_add_act;
//   - value_semantics: removal of the tensor/v_tensor copies that are not needed (seed 000 §2.5.1);
//   - inplace: de-inplacing X_ ops into X (seed 000 §2.5.2); reinplace: the reverse, for the end of a pipeline;
//   - the ports of Paddle's GPU inference passes, one set per Paddle DRR pass (matmul_add_act_fuse, add_norm_fuse,
//     multihead_matmul_fuse, …), which the pipeline gpu_inference runs in Paddle's order (GPUInferencePipeline,
//     docs/gpu-inference.md), horizontal_fuse among them (users groups; cse_constants, which merges equal
//     constants, is registered for programs that want it; no pipeline needs it since patterns match constants by
//     value).
//
// The Go passes: value_semantics.wrap (pass 1 of seed 000 §2.5.1: ops with value semantics move to value tensors),
// value_semantics.maximize (pass 2 for the copies whose tensor is overwritten or viewed: Torch-MLIR's
// MaximizeValueSemantics, see MaximizeValueSemantics), value_semantics.lower (back to tensors Paddle can load),
// fold_constants (FoldWeights: weight arithmetic evaluated into new parameters by FoldConstants when
// the weights have data; a no-op otherwise), and dce from package rewriter.
package rules

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
)

//go:embed *.drr
var files embed.FS

// Sets names the shipped rule sets: one file each, rules/NAME.drr.
func Sets() []string {
	entries, _ := fs.ReadDir(files, ".")
	var out []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".drr"); ok {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// Source returns the text of a shipped rule set.
func Source(name string) ([]byte, error) { return files.ReadFile(name + ".drr") }

// FS returns the shipped rule files (NAME.drr at the root).
func FS() fs.FS { return files }

// Load checks a shipped rule set against ctx.
func Load(ctx *ir.Context, name string) (*rule.Set, error) {
	set, diags := drr.Load(ctx, drr.LoadOptions{FS: files}, name+".drr")
	if diags.HasErrors() {
		return nil, fmt.Errorf("rule set %s: %w", name, diags)
	}
	return set, nil
}

// InferencePipeline is the default pipeline of drrc apply: inplace → value_semantics.wrap → value_semantics →
// value_semantics.maximize → conv_bn_relu → cleanup → reinplace → fold_constants, where cleanup is
// value_semantics, value_semantics.maximize, value_semantics.lower, value_semantics again (dropping the copies
// nobody needs) and dce. fold_constants evaluates the weight arithmetic the batch-norm folds build into new
// parameters when the weights have data (drrc apply -weights), as Paddle's constant_folding_pass does; without
// data it changes nothing.
var InferencePipeline = []string{"inplace", "value_semantics.wrap", "value_semantics", "value_semantics.maximize",
	"conv_bn_relu", "cleanup", "reinplace", "fold_constants"}

// Register registers the shipped sets, the Go passes and the pipelines "cleanup", "inference" and "gpu_inference"
// (GPUInferencePipeline) in reg.
func Register(reg *rewriter.Registry) error {
	docs := map[string]string{
		"conv_bn_relu":    "fold batch norms into convolutions; fuse conv2d + add (+ activation): Paddle's conv2d_bn_fuse, conv2d_add_act_fuse and conv2d_add_fuse as one set, order-independent",
		"value_semantics": "remove tensor/v_tensor copies nothing needs (seed 000 §2.5.1, pass 2)",
		"inplace":         "turn inplace ops X_ into X where nothing else sees the buffer (seed 000 §2.5.2)",
		"reinplace":       "turn X back into X_ where the input dies (seed 000 §2.5.2)",
	}
	for k, v := range gpuSetDocs {
		docs[k] = v
	}
	for _, name := range Sets() {
		cache := &setCache{name: name}
		if err := reg.RegisterPass(name, docs[name], cache.pass); err != nil {
			return err
		}
	}
	goPasses := []struct {
		name, doc string
		fn        func(*ir.Program, *ir.Rewriter) (int, error)
	}{
		{"value_semantics.wrap", "move ops with value semantics to value tensors, with copies (seed 000 §2.5.1, pass 1)", WrapValueSemantics},
		{"value_semantics.maximize", "remove the copies whose tensor is only viewed, snapshotted or overwritten within a block (Torch-MLIR's MaximizeValueSemantics; seed 000 §2.5.1, pass 2)", MaximizeValueSemantics},
		{"value_semantics.lower", "back from value tensors to tensors: v_tensor types become builtin.tensor, copies pd_op.assign", LowerValueSemantics},
		{"fold_constants", "fold parameter arithmetic into new parameters when weight data is present (FoldConstants, after de-inplacing the weight ops reinplace made inplace); a no-op otherwise", FoldWeights},
	}
	for _, gp := range goPasses {
		gp := gp
		err := reg.RegisterPass(gp.name, gp.doc, func(*ir.Context, *rewriter.Registry) (rewriter.Pass, error) {
			return &rewriter.GoPass{PassName: gp.name, Fn: gp.fn}, nil
		})
		if err != nil {
			return err
		}
	}
	if err := rewriter.RegisterBuiltinPasses(reg); err != nil {
		return err
	}
	kc := &KernelCheckPass{}
	if err := reg.RegisterPass("kernel_check", "fail on the ops Paddle has no kernel for on the -target (their data types, attribute values, the GPU's architecture: drrc check -target); changes nothing, put it last",
		func(*ir.Context, *rewriter.Registry) (rewriter.Pass, error) { return kc, nil }); err != nil {
		return err
	}
	if err := reg.RegisterPipeline("cleanup", "drop copies and dead ops, and leave the value-tensor world",
		"value_semantics", "value_semantics.maximize", "value_semantics.lower", "value_semantics", "dce"); err != nil {
		return err
	}
	if err := reg.RegisterPipeline("inference", "the default pipeline of drrc apply", InferencePipeline...); err != nil {
		return err
	}
	return registerGPU(reg)
}

// setCache loads and compiles a shipped set once per Context.
type setCache struct {
	name string
	mu   sync.Mutex
	ctx  *ir.Context
	rp   *rewriter.RulePass
}

func (c *setCache) pass(ctx *ir.Context, _ *rewriter.Registry) (rewriter.Pass, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ctx != ctx || c.rp == nil {
		set, err := Load(ctx, c.name)
		if err != nil {
			return nil, err
		}
		c.ctx, c.rp = ctx, rewriter.NewRulePass(c.name, set)
	}
	return c.rp, nil
}
