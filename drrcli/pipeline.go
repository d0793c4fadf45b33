package drrcli

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/internal/suggest"
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
	if err := checkPassNames(reg, names, len(rules) > 0, "-passes"); err != nil {
		c.errorf(cmd, "%v", err)
		return nil, false
	}
	if err := checkPassNames(reg, sets, len(rules) > 0, "-set"); err != nil {
		c.errorf(cmd, "%v", err)
		return nil, false
	}
	var rulePass rewriter.Pass
	if len(rules) > 0 {
		set, diags := drr.Load(ctx, drr.LoadOptions{CheckOptions: drr.CheckOptions{Unregistered: unregistered, Natives: reg.HasNative}}, rules...)
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

// checkPassNames checks that every name is a registered pass or pipeline ("rules" too when rule files are given);
// flag names the flag the names came from.
func checkPassNames(reg *rewriter.Registry, names []string, haveRules bool, flag string) error {
	var known []string
	for _, p := range reg.Passes() {
		known = append(known, p.Name)
	}
	if haveRules {
		known = append(known, "rules")
	}
	for _, n := range names {
		if !contains(known, n) {
			msg := suggest.Unknown("pass", n, known)
			if n == "rules" {
				msg += "; \"rules\" stands for the -rules files, and none is given"
			}
			return fmt.Errorf("%s: %s", flag, msg)
		}
	}
	return nil
}

// ruleSetsOf returns the rule sets of a pipeline's rule passes.
func ruleSetsOf(pl rewriter.Pipeline) []*rule.Set {
	var out []*rule.Set
	for _, p := range pl {
		if rp, ok := p.(*rewriter.RulePass); ok {
			out = append(out, rp.Set)
		}
	}
	return out
}

// checkLabels checks that every -enable and -disable name is the name or a label of a rule the pipeline runs.
func checkLabels(pl rewriter.Pipeline, enable, disable []string) error {
	if len(enable) == 0 && len(disable) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var known []string
	for _, set := range ruleSetsOf(pl) {
		for _, r := range set.Rules {
			for _, n := range append([]string{r.Name}, r.Labels...) {
				if !seen[n] {
					seen[n] = true
					known = append(known, n)
				}
			}
		}
	}
	sort.Strings(known)
	for _, f := range []struct {
		flag  string
		names []string
	}{{"-disable", disable}, {"-enable", enable}} {
		for _, n := range f.names {
			if !seen[n] {
				return fmt.Errorf("%s: %s", f.flag, suggest.Unknown("rule name or label", n, known))
			}
		}
	}
	return nil
}

// checkPassFilter checks that every name given to a flag that selects passes of the pipeline (-print-ir-after) is
// the name of one of its passes.
func checkPassFilter(pl rewriter.Pipeline, names []string, flag string) error {
	var known []string
	for _, p := range pl {
		if !contains(known, p.Name()) {
			known = append(known, p.Name())
		}
	}
	for _, n := range names {
		if !contains(known, n) {
			return errors.New(flag + ": " + suggest.Unknown("pass", n, known) + " in this pipeline")
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
