package stats

import (
	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/rewriter"
	"slices"
)

// Counts are a rule's or a rule instance's counts in one pass (see the package documentation).
type Counts struct {
	Tried   int `json:"tried"`
	Matched int `json:"matched"`
	Applied int `json:"applied"`
	Failed  int `json:"failed,omitempty"`
}

// add adds c2 to c.
func (c *Counts) add(c2 Counts) {
	c.Tried += c2.Tried
	c.Matched += c2.Matched
	c.Applied += c2.Applied
	c.Failed += c2.Failed
}

// Rule is one rule declaration's statistics in a pass.
type Rule struct {
	Rule string `json:"rule"`
	Counts
	// FirstFailure says why the first failed rewrite of the rule could not be carried out, and where.
	FirstFailure string `json:"first_failure,omitempty"`
	// TimeNS is the time spent rewriting with the rule, MatchTimeNS its share of the matching time (estimates from
	// sampled events: see rewriter.RuleStats).
	TimeNS      int64 `json:"time_ns"`
	MatchTimeNS int64 `json:"match_time_ns"`
	// Instances are a family rule's instances; nil for a rule that is not a family.
	Instances []Instance `json:"instances,omitempty"`
}

// Instance is one instance of a family rule: its ID (name[member,…], rule.Rule.ID) and counts.
type Instance struct {
	ID string `json:"id"`
	Counts
}

// Pass is what one pass did.
type Pass struct {
	Pass string `json:"pass"`
	// Kind is "rules" for a rule set applied by the driver, "go" for a Go pass.
	Kind string `json:"kind"`
	// Converged, StopReason, Iterations, Rewrites and Erased are the driver's outcome (rule passes): whether a
	// sweep found nothing to do, why it stopped, its sweeps, its rewrites, the dead ops it erased.
	Converged  bool   `json:"converged,omitempty"`
	StopReason string `json:"stop_reason,omitempty"`
	Iterations int    `json:"iterations,omitempty"`
	Rewrites   int    `json:"rewrites"`
	Erased     int    `json:"dead_ops_erased"`
	// Changes counts what a Go pass changed, in its own unit.
	Changes    int      `json:"changes,omitempty"`
	Rules      []Rule   `json:"rules,omitempty"`
	DurationNS int64    `json:"duration_ns"`
	Warnings   []string `json:"warnings,omitempty"`
	// After are the program's figures after the pass (nil when not measured).
	After *cost.Summary `json:"after,omitempty"`
}

// Program is one program's run: its figures before the first pass and after the last, and its passes. A GraphNet
// sample is one Program whose Subgraphs are its graphs' (Sum).
type Program struct {
	Program   string        `json:"program"`
	Before    *cost.Summary `json:"before,omitempty"`
	After     *cost.Summary `json:"after,omitempty"`
	Passes    []Pass        `json:"passes"`
	Subgraphs []Program     `json:"subgraphs,omitempty"`
}

// FromPassResult converts a pass result of the rewriter; after are the figures after the pass, or nil.
func FromPassResult(pr *rewriter.PassResult, after *cost.Summary) Pass {
	out := Pass{Pass: pr.Pass, Kind: "go", Changes: pr.Changes, DurationNS: pr.Duration.Nanoseconds(), Warnings: pr.Warnings, After: after}
	st := pr.Stats
	if st == nil {
		return out
	}
	out.Kind = "rules"
	out.Converged, out.StopReason, out.Iterations, out.Rewrites, out.Erased = st.Converged, st.StopReason, st.Iterations, st.Rewrites, st.Erased
	for _, rs := range st.Rules {
		r := Rule{Rule: rs.Name, Counts: countsOf(rs), FirstFailure: rs.FirstFailure, TimeNS: rs.Time.Nanoseconds(),
			MatchTimeNS: rs.MatchTime.Nanoseconds()}
		for _, inst := range rs.Instances {
			r.Instances = append(r.Instances, Instance{ID: inst.Name, Counts: countsOf(inst)})
		}
		out.Rules = append(out.Rules, r)
	}
	return out
}

func countsOf(rs *rewriter.RuleStats) Counts {
	return Counts{Tried: rs.Tried, Matched: rs.Matched, Applied: rs.Applied, Failed: rs.Failed}
}

// Sum returns the record of a GraphNet sample (or any group of programs run through the same pipeline) named
// name: its Subgraphs are the records given, its figures their sums, its passes theirs pass by pass (rule counts
// summed by rule and instance; the driver's outcome is the last subgraph's where it is not a count).
func Sum(name string, parts []Program) Program {
	out := Program{Program: name, Subgraphs: parts}
	for i, p := range parts {
		out.Before = addSummary(out.Before, p.Before)
		out.After = addSummary(out.After, p.After)
		if i == 0 {
			for _, ps := range p.Passes {
				out.Passes = append(out.Passes, Pass{Pass: ps.Pass, Kind: ps.Kind})
			}
		}
		for j, ps := range p.Passes {
			if j >= len(out.Passes) || out.Passes[j].Pass != ps.Pass {
				continue // a subgraph whose run stopped early, or a different pipeline
			}
			addPass(&out.Passes[j], ps)
		}
	}
	return out
}

// addSummary returns a + b, where nil is nothing measured.
func addSummary(a, b *cost.Summary) *cost.Summary {
	if b == nil {
		return a
	}
	if a == nil {
		s := *b
		return &s
	}
	s := a.Add(*b)
	return &s
}

// addPass adds p's counts to sum.
func addPass(sum *Pass, p Pass) {
	sum.Converged = p.Converged
	sum.StopReason = p.StopReason
	sum.Iterations = max(sum.Iterations, p.Iterations)
	sum.Rewrites += p.Rewrites
	sum.Erased += p.Erased
	sum.Changes += p.Changes
	sum.DurationNS += p.DurationNS
	sum.After = addSummary(sum.After, p.After)
	for _, w := range p.Warnings {
		if !slices.Contains(sum.Warnings, w) {
			sum.Warnings = append(sum.Warnings, w)
		}
	}
	for _, r := range p.Rules {
		k := -1
		for i := range sum.Rules {
			if sum.Rules[i].Rule == r.Rule {
				k = i
				break
			}
		}
		if k < 0 {
			sum.Rules = append(sum.Rules, Rule{Rule: r.Rule})
			k = len(sum.Rules) - 1
		}
		s := &sum.Rules[k]
		s.Counts.add(r.Counts)
		if s.FirstFailure == "" {
			s.FirstFailure = r.FirstFailure
		}
		s.TimeNS += r.TimeNS
		s.MatchTimeNS += r.MatchTimeNS
		for _, inst := range r.Instances {
			j := -1
			for i := range s.Instances {
				if s.Instances[i].ID == inst.ID {
					j = i
					break
				}
			}
			if j < 0 {
				s.Instances = append(s.Instances, Instance{ID: inst.ID})
				j = len(s.Instances) - 1
			}
			s.Instances[j].Counts.add(inst.Counts)
		}
	}
}
