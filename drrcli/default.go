package drrcli

import (
	"errors"
	"fmt"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/internal/sample"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/stats"
)

// runDefault is drrc without arguments: the default inference pipeline on the embedded sample model. The result is
// printed as PIR text on standard output, the statistics on standard error.
func runDefault(c *CLI) int {
	ctx, err := ir.NewDefaultContext()
	if err != nil {
		return c.errorf("", "%v", err)
	}
	p, err := sample.Load(ctx)
	if err != nil {
		return c.errorf("", "%v", err)
	}
	before := opStats(p)
	reg, err := c.registry()
	if err != nil {
		return c.errorf("", "%v", err)
	}
	pl, err := reg.Pipeline(ctx, "inference")
	if err != nil {
		return c.errorf("", "%v", err)
	}
	m, err := cost.NewModel(cost.DefaultDevice)
	if err != nil {
		return c.errorf("", "%v", err)
	}
	measured, rec := stats.Instrument(pl, m)
	results, err := measured.Run(p, &rewriter.Env{Registry: reg, Options: rewriter.Options{VerifyEach: true}})
	if err != nil {
		return c.errorf("", "%v", err)
	}
	if findings := rewriter.Outcome(p, results); len(findings) > 0 {
		return c.errorf("", "the sample's rewritten program is not the rules' result: %v", errors.Join(findings...))
	}
	c.Stdout.Write(pirtext.Print(p, pirtext.WriteOptions{}))
	fmt.Fprintf(c.Stderr, "drrc: the inference pipeline on the sample model %s (run 'drrc help' for the commands)\n", sample.Name)
	a := &applyFlags{}
	a.printStats(c.Stderr, &applyResult{Program: rec.Program(sample.Name, results, p), Passes: results, OpsIn: count(before),
		OpsOut: p.NumOps()}, false)
	printOpDiff(c.Stderr, before, opStats(p))
	return exitOK
}

func count(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
