// Command plugin shows pirdrr's Go API for plugins: a native constraint used from a .drr rule, a pass written in Go
// against *ir.Rewriter, and a pipeline that runs them after the shipped inference pipeline on the embedded sample
// model (TinyResNet). It prints the statistics of every pass.
//
//	go run ./examples/plugin
//
// plugin.go is the plugin (what a plugin package would hold); this file is the host program. See docs/plugins.md.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/pirdrr/drr/internal/sample"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
)

// init registers the shipped rule sets, Go passes and pipelines (inference, cleanup) in rewriter.Default, next to
// the plugin (plugin.go registers itself there).
func init() {
	if err := rules.Register(rewriter.Default); err != nil {
		panic(err)
	}
}

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "plugin:", err)
		os.Exit(1)
	}
}

// run applies the pipeline "plugin" to the sample model and prints what each pass did.
func run(w io.Writer) error {
	reg := rewriter.Default
	ctx, err := ir.NewDefaultContext()
	if err != nil {
		return err
	}
	p, err := sample.LoadModel(ctx) // without weights: the constants dedup_constants merges stay
	if err != nil {
		return err
	}
	before, opsIn := countOps(p), p.NumOps()
	pl, err := reg.Pipeline(ctx, "plugin")
	if err != nil {
		return err
	}
	results, err := pl.Run(p, &rewriter.Env{Registry: reg, Options: rewriter.Options{VerifyEach: true}})
	if err != nil {
		return err
	}
	if errs := ir.Verify(p).Errors(); len(errs) > 0 {
		return errs
	}
	for _, r := range results {
		if st := r.Stats; st != nil { // a rule pass
			fmt.Fprintf(w, "%-24s %s, rewrites: %d\n", r.Pass, st.StopReason, st.Rewrites)
			for _, rs := range st.Rules {
				if rs.Applied > 0 {
					fmt.Fprintf(w, "    %-34s applied %d of %d matched\n", rs.Name, rs.Applied, rs.Matched)
				}
			}
		} else { // a Go pass
			fmt.Fprintf(w, "%-24s changes: %d\n", r.Pass, r.Changes)
		}
	}
	after := countOps(p)
	fmt.Fprintf(w, "ops: %d -> %d\n", opsIn, p.NumOps())
	for _, name := range []string{"pd_op.full", "pd_op.full_int_array", "pd_op.fused_conv2d_add_act"} {
		fmt.Fprintf(w, "    %-28s %2d -> %d\n", name, before[name], after[name])
	}
	// The fused convolutions and the policy's decision for each.
	num := ir.NumberValues(p.Body())
	for op := range p.Walk() {
		if op.Name() != "pd_op.fused_conv2d_add_act" {
			continue
		}
		in, out := ir.TensorOf(op.Operand(0).Type()), ir.TensorOf(op.Result(0).Type())
		search, _ := ir.AsBool(op.Attr("exhaustive_search"))
		fmt.Fprintf(w, "%s: channels %d -> %d, exhaustive_search %v\n", num.Name(op.Result(0)), in.Dims[1], out.Dims[1], search)
	}
	return nil
}

func countOps(p *ir.Program) map[string]int {
	n := map[string]int{}
	for op := range p.Walk() {
		n[op.Name()]++
	}
	return n
}
