// Package pipecheck checks the names users give to build and steer a pipeline — passes and pipelines (-passes,
// -set, an archive's passes section), rule names and labels (-disable, -enable), passes of the pipeline
// (-print-ir-after) — so that a misspelled name is an error that suggests the nearest one instead of being
// ignored; and it parses and builds pipeline specs, a list of passes that may extend a pipeline at a named point
// (spec.go). drrcli, drrtest, the playground and the language server share it.
package pipecheck

import (
	"fmt"
	"slices"
	"sort"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/internal/suggest"
	"github.com/pirdrr/drr/rewriter"
)

// Rules is the name that stands for the rule files of a command line or an archive in a list of passes.
const Rules = "rules"

// Passes checks that every name is a pass or pipeline of the registry, or Rules when haveRules; flag names where
// the names came from ("-passes", "passes section") and starts the error.
func Passes(reg *rewriter.Registry, names []string, haveRules bool, flag string) error {
	var known []string
	for _, p := range reg.Passes() {
		known = append(known, p.Name)
	}
	if haveRules {
		known = append(known, Rules)
	}
	for _, n := range names {
		if slices.Contains(known, n) {
			continue
		}
		msg := suggest.Unknown("pass", n, known)
		if n == Rules {
			msg += `; "rules" stands for the rule files, and there are none`
		}
		return fmt.Errorf("%s: %s", flag, msg)
	}
	return nil
}

// RuleSets returns the rule sets of a pipeline's rule passes, in order.
func RuleSets(pl rewriter.Pipeline) []*rule.Set {
	var out []*rule.Set
	for _, p := range pl {
		if rp, ok := p.(*rewriter.RulePass); ok {
			out = append(out, rp.Set)
		}
	}
	return out
}

// Labels checks that every -enable and -disable name is the name or a label of a rule the pipeline runs (what
// rewriter.LabelFilter compares them with).
func Labels(pl rewriter.Pipeline, enable, disable []string) error {
	if len(enable) == 0 && len(disable) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var known []string
	for _, set := range RuleSets(pl) {
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

// PassesOf checks that every name is the name of a pass of the pipeline (flags that select some of its passes).
func PassesOf(pl rewriter.Pipeline, names []string, flag string) error {
	var known []string
	for _, p := range pl {
		if !slices.Contains(known, p.Name()) {
			known = append(known, p.Name())
		}
	}
	for _, n := range names {
		if !slices.Contains(known, n) {
			return fmt.Errorf("%s: %s in this pipeline", flag, suggest.Unknown("pass", n, known))
		}
	}
	return nil
}
