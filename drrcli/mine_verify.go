package drrcli

import (
	"fmt"
	"strings"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/mine"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/verify"
)

// mineVerification is what drrc mine -verify found for a skeleton whose rewrite makes the fused op: the rule checked
// in rule mode (drrc verify -rules) and on a few of its sites' programs in program mode (drrc verify -passes).
type mineVerification struct {
	// Rule is the rule mode's status (ok, FAILED, SKIPPED, never) and RuleReason why it is not ok.
	Rule       string `json:"rule"`
	RuleReason string `json:"rule_reason,omitempty"`
	// Sites are the programs checked in program mode.
	Sites []mineSiteVerification `json:"sites"`
	// Passed is set when rule mode is ok and the rule fired on every program checked, whose outputs agree.
	Passed bool `json:"passed"`
}

// mineSiteVerification is one program checked in program mode: the skeleton's rule run on it after the pipeline.
type mineSiteVerification struct {
	Program  string `json:"program"`
	Rewrites int    `json:"rewrites"`
	// Status is ok, FAILED (outputs differ, or the program is invalid after the rule), "not fired" or "error" (the
	// program could not be read or evaluated); Reason says more.
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
}

// verifySkeleton checks a skeleton with a rewrite in rule mode, then on the distinct programs of its first sites
// (at most f.verifySites) in program mode.
func (f *mineFlags) verifySkeleton(c *CLI, ctx *ir.Context, reg *rewriter.Registry, pl rewriter.Pipeline,
	opts rewriter.Options, sk *mine.Skeleton, cand *mine.Candidate) *mineVerification {
	res := &mineVerification{}
	set, diags := drr.LoadSource(ctx, drr.LoadOptions{}, sk.Rule+".drr", sk.Source)
	if diags.HasErrors() || len(set.Rules) == 0 {
		res.Rule, res.RuleReason = "FAILED", "the skeleton does not check: "+diags.Error()
		return res
	}
	cmp := compare.Options{Runs: 2, Seed: 1}
	vs, err := verify.Rules(set, verify.RuleOptions{Compare: cmp, Registry: reg, Jobs: 1})
	switch {
	case err != nil:
		res.Rule, res.RuleReason = "FAILED", err.Error()
	case len(vs) == 0:
		res.Rule, res.RuleReason = "SKIPPED", "no rule instance"
	default:
		res.Rule, res.RuleReason = vs[0].Status.String(), vs[0].Reason
		for _, v := range vs[1:] {
			if v.Status != verify.RuleOK {
				res.Rule, res.RuleReason = v.Status.String(), v.Reason
			}
		}
	}
	pass := rewriter.NewRulePass(sk.Rule, set)
	var seen []string
	for _, site := range cand.Sites {
		if len(seen) == f.verifySites {
			break
		}
		if containsString(seen, site.Program) {
			continue
		}
		seen = append(seen, site.Program)
		res.Sites = append(res.Sites, f.verifySite(c, ctx, reg, pl, opts, pass, site.Program, cmp))
	}
	res.Passed = res.Rule == verify.RuleOK.String() && len(res.Sites) > 0
	for _, s := range res.Sites {
		if s.Status != "ok" {
			res.Passed = false
		}
	}
	return res
}

// verifySite reads a program, runs the pipeline the candidates were mined after, and verifies the skeleton's rule
// on it in program mode (random weights where the program has none).
func (f *mineFlags) verifySite(c *CLI, ctx *ir.Context, reg *rewriter.Registry, pl rewriter.Pipeline, opts rewriter.Options,
	pass rewriter.Pass, path string, cmp compare.Options) mineSiteVerification {
	out := mineSiteVerification{Program: path}
	p, _, _, err := c.readProgram(ctx, path)
	if err != nil {
		out.Status, out.Reason = "error", firstLine(err.Error())
		return out
	}
	if pl != nil {
		if _, err := pl.Run(p, &rewriter.Env{Registry: reg, Options: opts}); err != nil {
			out.Status, out.Reason = "error", firstLine(err.Error())
			return out
		}
	}
	v, err := verify.Pipeline(p, rewriter.Pipeline{pass}, verify.PipelineOptions{Compare: cmp, Registry: reg,
		FillWeights: true, WeightSeed: 1})
	for _, r := range v.Passes {
		if r.Stats != nil {
			out.Rewrites += r.Stats.Rewrites
		}
	}
	switch {
	case err != nil && out.Rewrites > 0:
		out.Status, out.Reason = "FAILED", firstLine(err.Error())
	case err != nil:
		out.Status, out.Reason = "error", firstLine(err.Error())
	case out.Rewrites == 0:
		out.Status, out.Reason = "not fired", "the rule matched none of the program's ops"
	default:
		out.Status = "ok"
	}
	return out
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// verificationLine renders a verification for the text report.
func verificationLine(v *mineVerification) string {
	var b strings.Builder
	verdict := "not verified"
	if v.Passed {
		verdict = "verified"
	}
	fmt.Fprintf(&b, "%s: rule mode %s", verdict, v.Rule)
	if v.RuleReason != "" && v.Rule != "ok" {
		fmt.Fprintf(&b, " (%s)", v.RuleReason)
	}
	for _, s := range v.Sites {
		fmt.Fprintf(&b, "; %s %s", s.Program, s.Status)
		if s.Rewrites > 0 {
			fmt.Fprintf(&b, " (%s)", nouns(s.Rewrites, "rewrite"))
		}
		if s.Reason != "" && s.Status != "ok" {
			fmt.Fprintf(&b, ": %s", s.Reason)
		}
	}
	return b.String()
}
