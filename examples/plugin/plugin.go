package main

// This file is what a plugin package holds: a native constraint, a Go pass and a rule set that uses the native,
// registered by name in a rewriter.Registry. A separate plugin package would do the same from its own init function
// (see init below) and be linked into a host with a blank import, as database/sql drivers are.

import (
	_ "embed"
	"fmt"

	"github.com/pirdrr/drr/analysis"
	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
)

//go:embed tuning.drr
var tuningRules []byte

// init registers the plugin in the process-wide registry, rewriter.Default.
func init() {
	if err := Register(rewriter.Default); err != nil {
		panic(err)
	}
}

// Register registers the plugin's native constraint is_channel_multiple, its passes dedup_constants (Go) and tuning
// (the rules of tuning.drr), and the pipeline "plugin": the shipped inference pipeline followed by both. The
// pipeline names "inference", which the host registers (rules.Register); names are resolved when the pipeline is
// built, not when it is registered.
func Register(reg *rewriter.Registry) error {
	if err := reg.RegisterConstraint("is_channel_multiple", isChannelMultiple); err != nil {
		return err
	}
	err := reg.RegisterPass("dedup_constants", "merge identical pd_op.full and pd_op.full_int_array ops of a block",
		func(*ir.Context, *rewriter.Registry) (rewriter.Pass, error) {
			return &rewriter.GoPass{PassName: "dedup_constants", Fn: DedupConstants}, nil
		})
	if err != nil {
		return err
	}
	err = reg.RegisterPass("tuning", "enable exhaustive_search on fused convolutions with channels that are multiples of 8",
		func(ctx *ir.Context, reg *rewriter.Registry) (rewriter.Pass, error) {
			// Natives: reg.HasNative makes a declared native that is not registered an error at load time.
			set, diags := drr.LoadSource(ctx, drr.LoadOptions{CheckOptions: drr.CheckOptions{Natives: reg.HasNative}},
				"tuning.drr", tuningRules)
			if diags.HasErrors() {
				return nil, diags
			}
			return rewriter.NewRulePass("tuning", set), nil
		})
	if err != nil {
		return err
	}
	return reg.RegisterPipeline("plugin", "the inference pipeline, then dedup_constants and tuning",
		"inference", "dedup_constants", "tuning")
}

// isChannelMultiple is the native constraint is_channel_multiple(%v: value, $n: i64). The matcher passes values as
// *ir.Value and attributes as plain Go values (an i64 parameter arrives as int64). An error counts as false for the
// match; it is for arguments the rule file should never pass.
func isChannelMultiple(args []any) (bool, error) {
	v, ok := args[0].(*ir.Value)
	if !ok || v == nil {
		return false, fmt.Errorf("is_channel_multiple: argument 1 is %T, not a value", args[0])
	}
	n, ok := args[1].(int64)
	if !ok || n <= 0 {
		return false, fmt.Errorf("is_channel_multiple: argument 2 must be a positive int, not %v", args[1])
	}
	t := ir.TensorOf(v.Type())
	if t == nil || t.Rank() != 4 {
		return false, nil
	}
	c := t.Dims[1]
	return c > 0 && c%n == 0, nil
}

// DedupConstants merges the pd_op.full and pd_op.full_int_array ops of a block that are identical (same name,
// attributes and result type) into the first of them, and returns the number of ops it erased. Every change goes
// through rw, so a pipeline's listeners (statistics, tracing, verify-each) see it. A constant whose buffer some op
// may write (an inplace consumer) is left alone: sharing it would let that write reach the other readers.
func DedupConstants(p *ir.Program, rw *ir.Rewriter) (int, error) {
	erased := 0
	var visit func(b *ir.Block) error
	visit = func(b *ir.Block) error {
		first := map[string]*ir.Op{}
		var dups []*ir.Op
		for op := range b.Ops() {
			for i := 0; i < op.NumRegions(); i++ {
				for _, nb := range op.Region(i).Blocks() {
					if err := visit(nb); err != nil {
						return err
					}
				}
			}
			if op.Name() != "pd_op.full" && op.Name() != "pd_op.full_int_array" || analysis.Mutated(op.Result(0)) {
				continue
			}
			key := op.Name() + " " + op.Result(0).Type().String()
			for _, a := range op.SortedAttrs() {
				key += " " + a.Name + "=" + a.Value.String()
			}
			if keep, ok := first[key]; ok {
				rw.ReplaceAllUsesWith(op.Result(0), keep.Result(0))
				dups = append(dups, op)
				continue
			}
			first[key] = op
		}
		for _, op := range dups {
			if err := rw.Erase(op); err != nil {
				return err
			}
			erased++
		}
		return nil
	}
	return erased, visit(p.Body())
}
