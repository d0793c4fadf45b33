package drrcli

import (
	"strings"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/internal/pipecheck"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
)

// pipeline builds the passes the flags ask for.
func (a *applyFlags) pipeline(c *CLI, ctx *ir.Context, reg *rewriter.Registry) (rewriter.Pipeline, bool) {
	return buildPipeline(c, "apply", ctx, reg, a.cf.unregistered, a.rules, a.sets, a.passes)
}

// buildPipeline builds the pipeline of drrc apply and drrc verify: the -passes and -set names in order, "rules"
// standing for the -rules files (which run first when no name mentions them); inference when nothing is named.
// A name that is neither registered nor "rules" is an error that suggests the nearest registered name.
func buildPipeline(c *CLI, cmd string, ctx *ir.Context, reg *rewriter.Registry, unregistered bool, rules, sets []string, passes string) (rewriter.Pipeline, bool) {
	var names []string
	for _, n := range strings.Split(passes, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	if err := pipecheck.Passes(reg, names, len(rules) > 0, "-passes"); err != nil {
		c.errorf(cmd, "%v", err)
		return nil, false
	}
	if err := pipecheck.Passes(reg, sets, len(rules) > 0, "-set"); err != nil {
		c.errorf(cmd, "%v", err)
		return nil, false
	}
	var rulePass rewriter.Pass
	if len(rules) > 0 {
		set, diags := drr.Load(ctx, c.loadOptions(drr.CheckOptions{Unregistered: unregistered, Natives: reg.HasNative}), rules...)
		c.printRuleDiags(diags, true)
		if diags.HasErrors() {
			return nil, false
		}
		rulePass = rewriter.NewRulePass("rules", set)
	}
	names = append(names, sets...)
	if len(names) == 0 {
		if rulePass != nil {
			names = []string{"rules"}
		} else {
			names = []string{"inference"}
		}
	}
	var pl rewriter.Pipeline
	for _, n := range names {
		if n == "rules" {
			if rulePass == nil {
				c.errorf(cmd, "-passes names \"rules\" but no -rules file is given")
				return nil, false
			}
			pl = append(pl, rulePass)
			continue
		}
		p, err := reg.Pipeline(ctx, n)
		if err != nil {
			c.errorf(cmd, "%v", err)
			return nil, false
		}
		pl = append(pl, p...)
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
