package verify

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/lint"
	"github.com/pirdrr/drr/matcher"
	"github.com/pirdrr/drr/rewriter"
)

// Rule verification: every rule of a set is instantiated as small programs (Instantiate), applied to them alone
// with the rewrite driver, and the programs before and after are compared with real numbers (compare.Programs). A
// rule that changes what its programs compute is reported FAILED with the outputs that differ.

// RuleStatus is the outcome of verifying a rule.
type RuleStatus uint8

// The rule statuses.
const (
	// RuleOK: the rule applied to every instance and the outputs agree within tolerance.
	RuleOK RuleStatus = iota
	// RuleFailed: on some instance the outputs differ, the rewritten program is invalid or cannot be evaluated, or
	// the rule matched but its rewrite failed.
	RuleFailed
	// RuleSkipped: the rule could not be checked: no program satisfying its constraints was found, or the
	// interpreter cannot evaluate one of its ops.
	RuleSkipped
	// RuleNeverFires: no program can make the rule fire (lint.DeadInstances: a where clause the pattern alone
	// decides is false, such as !has_trait(%b, SideEffects) on a family member that has side effects), so there is
	// nothing to verify. Not a skip: the rule provably never rewrites anything.
	RuleNeverFires
)

// String returns "ok", "FAILED", "SKIPPED" or "never".
func (s RuleStatus) String() string {
	switch s {
	case RuleFailed:
		return "FAILED"
	case RuleSkipped:
		return "SKIPPED"
	case RuleNeverFires:
		return "never"
	}
	return "ok"
}

// RuleOptions configures Rules.
type RuleOptions struct {
	// Compare configures the comparisons: runs, seed, tolerances, precision. Dynamic dims do not occur in
	// instances (their shapes are static).
	Compare compare.Options
	// Registry provides native constraints and rewrites (nil: none).
	Registry *rewriter.Registry
	// MaxInstances bounds the programs checked per rule (default 4); MaxPrograms bounds the candidate programs
	// built while searching for them (default 2048). See InstantiateOptions.
	MaxInstances, MaxPrograms int
	// Rewrite configures the driver (Enabled is replaced: only the rule being verified is enabled).
	Rewrite rewriter.Options
	// Jobs is the number of rules verified in parallel (default: the number of CPUs).
	Jobs int
	// GroupSize is the number of elements of a users group's instances (InstantiateOptions.GroupSize; 0: its MIN).
	GroupSize int
}

// RuleVerification is the outcome of verifying one rule (one family instance).
type RuleVerification struct {
	Rule   *rule.Rule
	Status RuleStatus
	// Reason says why the rule FAILED or was SKIPPED.
	Reason string
	// MaxAbs and MaxRel are the largest absolute and relative errors over the outputs of every instance checked.
	MaxAbs, MaxRel float64
	// Variants are the instances checked, in order.
	Variants []*RuleVariant
	// Witness is the variant the status comes from: the first that FAILED, or for a rule SKIPPED after
	// instantiation the first skipped (nil when the rule could not be instantiated).
	Witness *RuleVariant
}

// RuleVariant is the check of one instance.
type RuleVariant struct {
	Instance *Instance
	// After is the instance's program after the rule applied.
	After  *ir.Program
	Report *compare.Report
	Status RuleStatus
	// Reason says why the variant FAILED or was SKIPPED.
	Reason string
}

// RuleVerifier verifies the rules of one set: the set is compiled once.
type RuleVerifier struct {
	set  *rule.Set
	auto *matcher.Automaton
	pass *rewriter.RulePass
	reg  *rewriter.Registry
	opts RuleOptions
	// dead are the rules no program can make fire, with why.
	dead map[*rule.Rule]lint.Finding
}

// NewRuleVerifier compiles set for verification.
func NewRuleVerifier(set *rule.Set, opts RuleOptions) (*RuleVerifier, error) {
	auto, err := matcher.Compile(set, matcher.Options{})
	if err != nil {
		return nil, err
	}
	reg := opts.Registry
	if reg == nil {
		reg = rewriter.NewRegistry()
	}
	pass := &rewriter.RulePass{PassName: "rules", Set: set,
		Compile: func(_ *rule.Set, o rule.Oracle) (rewriter.MatchFunc, error) {
			m := auto.NewMatcher()
			return func(dst []*rule.Match, op *ir.Op) []*rule.Match { return m.MatchInto(dst, op, o) }, nil
		}}
	return &RuleVerifier{set: set, auto: auto, pass: pass, reg: reg, opts: opts, dead: lint.DeadInstances(set)}, nil
}

// Rules verifies every rule of set (see RuleVerifier.Verify), opts.Jobs at a time, and returns the results in
// rule order.
func Rules(set *rule.Set, opts RuleOptions) ([]*RuleVerification, error) {
	v, err := NewRuleVerifier(set, opts)
	if err != nil {
		return nil, err
	}
	out := make([]*RuleVerification, len(set.Rules))
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = v.Verify(set.Rules[i])
			}
		}()
	}
	for i := range set.Rules {
		next <- i
	}
	close(next)
	wg.Wait()
	return out, nil
}

// Verify verifies one rule of the set: it instantiates the rule (Instantiate), fills the instances' parameters
// with random data, applies the rule alone to a copy of each with the driver, checks that it applied and that the
// result is a valid program, and compares the outputs before and after on opts.Runs random input sets.
func (v *RuleVerifier) Verify(r *rule.Rule) *RuleVerification {
	res := &RuleVerification{Rule: r}
	if f, ok := v.dead[r]; ok {
		res.Status, res.Reason = RuleNeverFires, fmt.Sprintf("%s (%s)", f.Message, f.Pos)
		return res
	}
	for _, op := range r.Pattern.Ops {
		if op.Name != "" && !interp.CanEvaluate(v.set.Ctx, op.Name) {
			res.Status, res.Reason = RuleSkipped, fmt.Sprintf("the interpreter cannot evaluate %s", op.Name)
			return res
		}
	}
	insts, err := Instantiate(v.set, r, InstantiateOptions{Registry: v.reg, Automaton: v.auto,
		MaxInstances: v.opts.MaxInstances, MaxPrograms: v.opts.MaxPrograms, Params: v.opts.Rewrite.Params,
		GroupSize: v.opts.GroupSize})
	var partial *PathsError
	if errors.As(err, &partial) && len(insts) > 0 {
		err = nil // the paths that have instances are verified; the others are said in the verdict's reason
	}
	if err != nil {
		res.Status, res.Reason = RuleSkipped, err.Error()
		return res
	}
	for _, inst := range insts {
		vr := v.variant(r, inst)
		res.Variants = append(res.Variants, vr)
		if vr.Report != nil {
			for _, o := range vr.Report.Outputs {
				res.MaxAbs = max(res.MaxAbs, o.MaxAbs)
				res.MaxRel = max(res.MaxRel, o.MaxRel)
			}
		}
	}
	res.Status = RuleSkipped
	for _, vr := range res.Variants {
		switch {
		case vr.Status == RuleFailed && res.Status != RuleFailed:
			res.Status, res.Reason, res.Witness = RuleFailed, vr.Reason, vr
		case vr.Status == RuleOK && res.Status == RuleSkipped:
			res.Status, res.Reason, res.Witness = RuleOK, "", nil
		case vr.Status == RuleSkipped && res.Status == RuleSkipped && res.Witness == nil:
			res.Reason, res.Witness = vr.Reason, vr
		}
	}
	if partial != nil && res.Status == RuleOK {
		res.Reason = partial.Error()
	}
	return res
}

// variant checks one instance.
func (v *RuleVerifier) variant(r *rule.Rule, inst *Instance) *RuleVariant {
	vr := &RuleVariant{Instance: inst}
	before := inst.Program
	wide := before.Clone() // without weights yet: WideInputScale draws them for its own inputs
	fail := func(st RuleStatus, format string, args ...any) *RuleVariant {
		vr.Status, vr.Reason = st, fmt.Sprintf(format, args...)
		return vr
	}
	if _, err := feeds.FillRandomWeights(before, v.opts.Compare.Seed, v.opts.Compare.Options); err != nil {
		return fail(RuleSkipped, "random weights: %v", err)
	}
	after := before.Clone()
	vr.After = after
	ropts := v.opts.Rewrite
	ropts.Enabled = func(x *rule.Rule) bool { return x == r }
	ropts.Params = inst.Params
	pr, err := v.pass.Run(after, &rewriter.Env{Registry: v.reg, Options: ropts})
	if err != nil {
		return fail(RuleFailed, "applying the rule: %v", err)
	}
	if st := pr.Stats; st == nil || st.Rewrites == 0 {
		// The driver drops rewrites that fail before changing anything: apply the match directly for the error.
		a := &rewriter.Applier{Rewriter: ir.NewRewriter(before.Ctx, nil), Program: before, Natives: v.reg.Rewrites(),
			Oracle: rule.WithParams(rewriter.NewOracle(before, v.reg), inst.Params)}
		if _, err := a.Apply(inst.Match); err != nil {
			return fail(RuleFailed, "the rule matches but its rewrite fails: %v", err)
		}
		return fail(RuleFailed, "the rule matches at %s but the driver did not apply it", inst.Root.Name())
	}
	if errs := ir.Verify(after).Errors(); len(errs) > 0 {
		return fail(RuleFailed, "the rewritten program is invalid: %s", firstLine(errs.Error()))
	}
	feed, err := feeds.Random(v.opts.Compare.Seed, v.opts.Compare.Options, before, after)
	if err != nil {
		return fail(RuleSkipped, "random inputs: %v", err)
	}
	if _, err := interp.Evaluate(before, feed, v.opts.Compare.Options.Options); err != nil {
		return fail(RuleSkipped, "the instance cannot be evaluated: %v", err)
	}
	rep, err := compare.Programs(before, after, v.opts.Compare)
	vr.Report = rep
	if err == nil {
		if wrep, werr := v.wideCompare(r, inst, wide); errors.Is(werr, compare.ErrMismatch) {
			vr.Report = wrep
			return fail(RuleFailed, "with inputs drawn from [-%g, %g): %s", WideInputScale, WideInputScale, mismatchSummary(wrep))
		}
	}
	switch {
	case err == nil:
		vr.Status = RuleOK
	case errors.Is(err, compare.ErrMismatch):
		return fail(RuleFailed, "%s", mismatchSummary(rep))
	case errors.Is(err, interp.ErrUnsupported):
		return fail(RuleSkipped, "the rewritten program cannot be evaluated: %v", strings.TrimPrefix(err.Error(), "after: "))
	default:
		return fail(RuleFailed, "evaluating the rewritten program: %v", strings.TrimPrefix(err.Error(), "after: "))
	}
	return vr
}

// WideInputScale is the input scale of the second comparison of every instance (feeds.Options.InputScale): inputs
// from [-8, 8) cross the thresholds of relu6 (6), hard_sigmoid and hard_swish (±3) and the clips instances use,
// which inputs from [-1, 1) never reach, so that a rule confusing relu6 with relu fails.
const WideInputScale = 8.0

// wideCompare checks an instance once more with inputs (and the quantization scales that cover them) drawn from
// [-WideInputScale, WideInputScale): p is a copy of the instance's program without weights. Only a mismatch counts;
// an instance that cannot be evaluated on such inputs was checked on the default ones.
func (v *RuleVerifier) wideCompare(r *rule.Rule, inst *Instance, p *ir.Program) (*compare.Report, error) {
	opts := v.opts.Compare
	opts.InputScale = WideInputScale
	opts.Runs = 1
	if _, err := feeds.FillRandomWeights(p, opts.Seed, opts.Options); err != nil {
		return nil, err
	}
	after := p.Clone()
	ropts := v.opts.Rewrite
	ropts.Enabled = func(x *rule.Rule) bool { return x == r }
	ropts.Params = inst.Params
	pr, err := v.pass.Run(after, &rewriter.Env{Registry: v.reg, Options: ropts})
	if err != nil || pr.Stats == nil || pr.Stats.Rewrites == 0 {
		return nil, fmt.Errorf("the rule did not apply to the copy")
	}
	return compare.Programs(p, after, opts)
}

// mismatchSummary lists the failing outputs of a report.
func mismatchSummary(rep *compare.Report) string {
	var parts []string
	for _, o := range rep.Failures() {
		if o.Problem != "" {
			parts = append(parts, fmt.Sprintf("%s: %s", o.Name, o.Problem))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s: max rel %.3g, max abs %.3g (element %d: %.6g before, %.6g after)",
			o.Name, o.MaxRel, o.MaxAbs, o.Index, o.Before, o.After))
	}
	for _, u := range rep.Unmatched {
		parts = append(parts, "unmatched "+u)
	}
	return "outputs differ: " + strings.Join(parts, "; ")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
