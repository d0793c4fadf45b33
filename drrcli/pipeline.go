package drrcli

import (
	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/internal/pipecheck"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
)

// pipeline builds the passes the flags ask for.
func (a *applyFlags) pipeline(c *CLI, ctx *ir.Context, reg *rewriter.Registry) (rewriter.Pipeline, bool) {
	return buildPipeline(c, "apply", ctx, reg, a.cf.unregistered, a.rules, a.sets, a.passes)
}

// buildPipeline builds the pipeline of drrc apply and drrc verify: the -passes spec (names in order, pipelines
// extended at named points: gpu_inference[before horizontal_fuse: rules]; see pipecheck.ParseSpec) and the -set
// names, "rules" standing for the -rules files (which run first when the spec does not mention them); inference
// when nothing is named. A name that is neither registered nor "rules" is an error that suggests the nearest
// registered name.
func buildPipeline(c *CLI, cmd string, ctx *ir.Context, reg *rewriter.Registry, unregistered bool, rules, sets []string, passes string) (rewriter.Pipeline, bool) {
	items, err := pipecheck.ParseSpec(passes, "-passes")
	if err != nil {
		c.errorf(cmd, "%v", err)
		return nil, false
	}
	if err := pipecheck.Passes(reg, pipecheck.Names(items), len(rules) > 0, "-passes"); err != nil {
		c.errorf(cmd, "%v", err)
		return nil, false
	}
	if err := pipecheck.Passes(reg, sets, len(rules) > 0, "-set"); err != nil {
		c.errorf(cmd, "%v", err)
		return nil, false
	}
	local := map[string]rewriter.Pass{}
	var rulePass rewriter.Pass
	if len(rules) > 0 {
		set, diags := drr.Load(ctx, c.loadOptions(drr.CheckOptions{Unregistered: unregistered, Natives: reg.HasNative}), rules...)
		c.printRuleDiags(diags, true)
		if diags.HasErrors() {
			return nil, false
		}
		rulePass = rewriter.NewRulePass("rules", set)
		local[pipecheck.Rules] = rulePass
	}
	for _, s := range sets {
		items = append(items, pipecheck.Item{Name: s})
	}
	if len(items) == 0 {
		if rulePass != nil {
			items = []pipecheck.Item{{Name: pipecheck.Rules}}
		} else {
			items = []pipecheck.Item{{Name: "inference"}}
		}
	}
	pl, err := pipecheck.Build(reg, func(n string) (rewriter.Pipeline, error) { return reg.Pipeline(ctx, n) }, local, items)
	if err != nil {
		c.errorf(cmd, "-passes: %v", err)
		return nil, false
	}
	if rulePass != nil && !containsPass(pl, rulePass) {
		// -rules with -set/-passes that do not mention "rules": the rules run first.
		pl = append(rewriter.Pipeline{rulePass}, pl...)
	}
	return pl, true
}

func containsPass(pl rewriter.Pipeline, p rewriter.Pass) bool {
	for _, x := range pl {
		if x == p {
			return true
		}
	}
	return false
}
