package verify

import (
	"fmt"
	"sort"
	"time"

	"github.com/pirdrr/drr/analysis"
	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
)

// Program verification: run passes on a copy of a program and compare the two with real numbers.

// PipelineOptions configures Pipeline.
type PipelineOptions struct {
	// Compare configures the comparison: runs, seed, tolerances, precision, dynamic dims, input shapes.
	Compare compare.Options
	// Registry provides the natives the passes need (nil: an empty registry).
	Registry *rewriter.Registry
	// Rewrite configures the driver of rule passes.
	Rewrite rewriter.Options
	// FillWeights stores random weight data (feeds.FillRandomWeights with WeightSeed) in the parameters that have none,
	// before the passes run, so that passes computing with weights (fold_constants) have numbers to work with.
	FillWeights bool
	WeightSeed  uint64
}

// PipelineVerification is the outcome of Pipeline.
type PipelineVerification struct {
	// Before is the program the passes ran on (a copy of the input, with anchored sinks and filled weights);
	// After is the result of the passes.
	Before, After *ir.Program
	// Passes are the results of the passes, in order.
	Passes []*rewriter.PassResult
	// Report is the comparison (nil when evaluation failed).
	Report *compare.Report
	// AnchoredSinks is the number of fetch ops added for the sink outputs of a program without outputs.
	AnchoredSinks int
	// WeightsFilled is the number of parameters FillWeights gave data.
	WeightsFilled int
	// WeightOps counts, by op name, the ops of After that compute with weights and constants only (weight
	// arithmetic a constant folding pass would remove; see WeightOps).
	WeightOps map[string]int
	// PassTime and CompareTime are the durations of the passes and of the comparison.
	PassTime, CompareTime time.Duration
}

// Pipeline checks that a pipeline preserves what a program computes: it copies p (p itself is not changed),
// anchors its sink outputs when it has no fetch, shadow_output or set_parameter (AnchorSinks: otherwise dead-code
// elimination may erase the whole model), optionally fills its weights, runs pl on a second copy, and compares the
// two with compare.Programs. The error is the pipeline's, an evaluation error (an *interp.OpError naming the op and
// its position when an op cannot be evaluated), or one wrapping compare.ErrMismatch when outputs differ beyond the
// tolerance; the PipelineVerification is returned with whatever was done.
func Pipeline(p *ir.Program, pl rewriter.Pipeline, opts PipelineOptions) (*PipelineVerification, error) {
	before := p.Clone()
	res := &PipelineVerification{Before: before}
	n, err := AnchorSinks(before)
	if err != nil {
		return res, err
	}
	res.AnchoredSinks = n
	if opts.FillWeights {
		if res.WeightsFilled, err = feeds.FillRandomWeights(before, opts.WeightSeed, opts.Compare.Options); err != nil {
			return res, fmt.Errorf("random weights: %w", err)
		}
	}
	after := before.Clone()
	res.After = after
	reg := opts.Registry
	if reg == nil {
		reg = rewriter.NewRegistry()
	}
	start := time.Now()
	res.Passes, err = pl.Run(after, &rewriter.Env{Registry: reg, Options: opts.Rewrite})
	res.PassTime = time.Since(start)
	if err != nil {
		return res, err
	}
	if errs := ir.Verify(after).Errors(); len(errs) > 0 {
		return res, fmt.Errorf("the program is invalid after the passes:\n%s", errs.Error())
	}
	res.WeightOps = WeightOps(after)
	start = time.Now()
	res.Report, err = compare.Programs(before, after, opts.Compare)
	res.CompareTime = time.Since(start)
	return res, err
}

// AnchorSinks makes the sink outputs of a program explicit: when p has no output op (ir.HasOutputs: no
// pd_op.fetch, builtin.shadow_output or builtin.set_parameter; the GraphNet captures), it appends a pd_op.fetch for
// every tensor result of a sink of the top-level block (ir.SinkTensors: an op none of whose results is used, other
// than inputs, parameters and constants), which Evaluate would report as an output, named as Evaluate names the
// sink. It returns the number of fetches added (0 for programs with outputs).
func AnchorSinks(p *ir.Program) (int, error) {
	if ir.HasOutputs(p) {
		return 0, nil
	}
	sinks := ir.SinkTensors(p.Body())
	if len(sinks) == 0 {
		return 0, nil
	}
	num := ir.NumberValues(p.Body())
	b := ir.NewBuilder(p.Ctx)
	b.SetInsertionPointToEnd(p.Body())
	ctx := p.Ctx
	for i, v := range sinks {
		op := v.DefiningOp()
		name := fmt.Sprintf("%s (%s at %s)", num.Name(v), op.Name(), interp.Where(p, op))
		b.Create(ir.OpSpec{Name: ir.FetchOpName, Operands: []*ir.Value{v}, Results: []ir.Type{v.Type()},
			Attrs: []ir.NamedAttr{{Name: "name", Value: ctx.Str(name)}, {Name: "col", Value: ctx.Int32(int32(i))}}})
	}
	return len(sinks), nil
}

// WeightOps counts, by name, the ops of p's top-level block that compute with weights and constants only
// (analysis.WeightValues): after a conv+bn fold these are the sqrt, divide, multiply, … on the weights (inplace or not); after
// fold_constants with weight data there are none. Parameters and constant-like ops themselves are not counted.
func WeightOps(p *ir.Program) map[string]int {
	weights := analysis.WeightValues(p)
	out := map[string]int{}
	for op := range p.Body().Ops() {
		if op.NumOperands() == 0 || op.NumResults() == 0 || !weights[op.Result(0)] {
			continue
		}
		out[op.Name()]++
	}
	return out
}

// SortedCounts returns the keys of an op count map, most frequent first, then by name.
func SortedCounts(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}
