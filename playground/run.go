package playground

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/graphview"
	"github.com/pirdrr/drr/internal/pipecheck"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/matcher"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/stats"
)

// RulesFile is the name the editor's rules go by in positions (rules.drr:3:5) and in the pipeline ("rules").
const RulesFile = "rules.drr"

// rulesPass is the name of the editor's rules in a list of passes.
const rulesPass = "rules"

// maxMatches bounds the matches a run lists.
const maxMatches = 20000

// runRequest is the body of POST /api/run.
type runRequest struct {
	// Rules is the editor's text (may be empty: then only the passes named run).
	Rules   string     `json:"rules"`
	Program programRef `json:"program"`
	// Passes are pass and pipeline names, comma-separated, "rules" standing for the editor's rules, a pipeline
	// extended at a named point as drrc apply -passes extends it (gpu_inference[before reinplace: rules]); empty
	// means "rules".
	Passes string `json:"passes"`
	// Target is the device the run rewrites for, as drrc's -target takes it (gpu:sm80, cpu; empty: none): it sets
	// the parameter sm_version of the rule sets that declare it, and is the target of kernel_check.
	Target string `json:"target"`
}

// runResult is the answer to POST /api/run.
type runResult struct {
	// ID names the run in the requests that look into it (stages, graph, explain, verify).
	ID      string `json:"id"`
	Program string `json:"program"`
	// Diagnostics are the rules' errors and warnings; with an error nothing ran.
	Diagnostics []diagnostic `json:"diagnostics"`
	// Passes are the passes that ran, in order; Stages the programs before the first and after each.
	Passes []passResult `json:"passes"`
	Stages []stageInfo  `json:"stages"`
	// MatchStage is the stage the editor's rules ran on (the input of the "rules" pass), whose matches Matches
	// lists; -1 when the pipeline does not run them.
	MatchStage int `json:"matchStage"`
	// Rules are the editor's rules (one entry per rule instance) with their matches in MatchStage.
	Rules   []ruleInfo  `json:"rules"`
	Matches []matchInfo `json:"matches"`
	// MatchesCut says that Matches stops at maxMatches.
	MatchesCut bool `json:"matchesCut,omitempty"`
	OpsIn      int  `json:"opsIn"`
	OpsOut     int  `json:"opsOut"`
	// Before and After are the program's cost figures before the first pass and after the last that ran (the
	// stats schema; Stages holds them for every stage).
	Before *cost.Summary `json:"before"`
	After  *cost.Summary `json:"after"`
	// Stopped says why the run stopped early: a budget ("the run took more than its time budget of 10s") or a
	// cancellation. Error is the pipeline's error (a cycle, a failed rewrite), Stopped included.
	Stopped string `json:"stopped,omitempty"`
	Error   string `json:"error,omitempty"`
	// Millis is how long the run took.
	Millis float64 `json:"ms"`
}

// diagnostic is a rule diagnostic.
type diagnostic struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

// passResult is what a pass did: its record in the stats schema (name, kind, the driver's outcome, per rule and
// family instance tried/matched/applied/failed, the cost figures after it), how long it took and the ops after it.
type passResult struct {
	stats.Pass
	Millis   float64 `json:"ms"`
	OpsAfter int     `json:"opsAfter"`
}

// stageInfo describes a stage.
type stageInfo struct {
	Pass string `json:"pass"`
	Ops  int    `json:"ops"`
	// Added is the number of ops the pass created that are still there.
	Added int `json:"added"`
	// Cost are the stage's cost figures.
	Cost *cost.Summary `json:"cost"`
}

// ruleInfo is a rule instance of the editor with where it is and how many matches it has in MatchStage, the program
// the rules pass starts from, before any rewrite: not the matches the driver found during the pass (the pass's
// stats.Rule and stats.Instance counts), which rewrites of other rules create or remove.
type ruleInfo struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Line    int    `json:"line"`
	Matches int    `json:"matchesInInput"`
}

// matchInfo is a match of an editor rule in MatchStage: its root and the op each pattern op bound.
type matchInfo struct {
	Rule string    `json:"rule"` // the rule instance's ID
	Root string    `json:"root"` // the key of the root op
	Ops  []boundOp `json:"ops"`
}

// boundOp is a pattern op's binding: the op (its key) and the pattern line that bound it.
type boundOp struct {
	Key  string `json:"key"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

// namedSet is a rule set of a run with the pass it runs in.
type namedSet struct {
	pass string
	set  *rule.Set
}

// run answers POST /api/run: the editor's rules (and the passes named) applied to a program, in a copy.
func (s *Server) run(w http.ResponseWriter, r *http.Request) {
	var req runRequest
	if !readJSON(w, r, s.lim.MaxRequest, &req) {
		return
	}
	src, err := s.loadProgram(req.Program)
	if err != nil {
		writeError(w, statusOf(err), "%v", err)
		return
	}
	res := &runResult{Program: src.name, MatchStage: -1, Diagnostics: []diagnostic{}, Passes: []passResult{},
		Rules: []ruleInfo{}, Matches: []matchInfo{}}
	var set *rule.Set
	if strings.TrimSpace(req.Rules) != "" {
		var diags diag.Diagnostics
		set, diags = drr.LoadSource(s.opts.Context, s.loadOptions(), RulesFile, []byte(req.Rules))
		diags = orderDiagnostics(diags)
		for _, d := range diags {
			res.Diagnostics = append(res.Diagnostics, diagnostic{File: d.Pos.Filename, Line: d.Pos.Line, Col: d.Pos.Column,
				Severity: d.Severity.String(), Message: d.Message})
		}
		if diags.HasErrors() {
			res.Error = "the rules do not check: " + firstError(diags).Error()
			writeJSON(w, http.StatusOK, res)
			return
		}
	}
	pl, err := s.pipeline(set, req.Passes)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	target, err := ir.ParseTarget(strings.TrimSpace(req.Target))
	if err != nil {
		writeError(w, http.StatusBadRequest, "target: %v", err)
		return
	}
	params, err := drr.TargetParams(pl.Params(), nil, target)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	release, err := s.gate.enter(r.Context())
	if err != nil {
		writeError(w, statusOf(err), "%v", err)
		return
	}
	defer release()
	run := s.execute(r.Context(), src, pl, rewriter.Options{Target: target, Params: params}, set, res)
	s.runs.add(run)
	writeJSON(w, http.StatusOK, res)
}

// orderDiagnostics returns the diagnostics in the order they are best read and fixed: errors first, by file and
// line, and on one line a name that is not bound (or not known) before the rest, which often follows from it
// ("pd_op.fc takes 3 operands; the rewrite gives 2" when an operand's name is mistyped), then by column.
func orderDiagnostics(diags diag.Diagnostics) diag.Diagnostics {
	out := slices.Clone(diags)
	rank := func(d diag.Diagnostic) int {
		if isNameError(d.Message) {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(out, func(a, b diag.Diagnostic) int {
		return cmp.Or(cmp.Compare(a.Pos.Filename, b.Pos.Filename), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(rank(a), rank(b)),
			cmp.Compare(a.Pos.Column, b.Pos.Column))
	})
	return out
}

// isNameError reports whether a diagnostic's message is about a name: a value or parameter not bound, an op or a
// rule not known.
func isNameError(msg string) bool {
	return strings.Contains(msg, " is not bound") || strings.HasPrefix(msg, "unknown ")
}

// firstError returns the first error of diags (which has one).
func firstError(diags diag.Diagnostics) diag.Diagnostic {
	for _, d := range diags {
		if d.Severity == diag.Error {
			return d
		}
	}
	return diags[0]
}

// loadOptions are the options rules are loaded with: the catalogue's rule files and the shipped sets to import
// from, nothing else.
func (s *Server) loadOptions() drr.LoadOptions {
	return drr.LoadOptions{CheckOptions: drr.CheckOptions{Unregistered: s.opts.Unregistered, Natives: s.opts.Registry.HasNative},
		FS: ruleFS{s.files}}
}

// pipeline builds the passes of a run: the spec's names in order (a pipeline extended at a named point as drrc
// apply -passes extends it: gpu_inference[before reinplace: rules]), "rules" standing for the editor's rules (set,
// nil when the editor is empty); no names means "rules".
func (s *Server) pipeline(set *rule.Set, passes string) (rewriter.Pipeline, error) {
	items, err := pipecheck.ParseSpec(passes, "passes")
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		if set == nil {
			return nil, nil // nothing to run: the run shows the program
		}
		items = []pipecheck.Item{{Name: rulesPass}}
	}
	names := pipecheck.Names(items)
	if err := pipecheck.Passes(s.opts.Registry, names, true, "passes"); err != nil {
		return nil, err
	}
	local := map[string]rewriter.Pass{}
	if set != nil {
		local[rulesPass] = rewriter.NewRulePass(rulesPass, set)
	} else if slices.Contains(names, rulesPass) {
		return nil, errors.New(`passes: "rules" names the editor's rules, and the editor is empty`)
	}
	pl, err := pipecheck.Build(s.opts.Registry, func(n string) (rewriter.Pipeline, error) {
		return s.opts.Registry.Pipeline(s.opts.Context, n)
	}, local, items)
	if err != nil {
		return nil, fmt.Errorf("passes: %w", err)
	}
	return pl, nil
}

// execute runs the pipeline on a copy of src within the run's budgets, filling res, and returns the run. base holds
// the target and the rule-set parameters the passes run with.
func (s *Server) execute(parent context.Context, src *program, pl rewriter.Pipeline, base rewriter.Options, set *rule.Set, res *runResult) *run {
	start := time.Now()
	tctx, cancelTime := context.WithTimeoutCause(parent, s.lim.RunTime, timeBudget("run", s.lim.RunTime))
	defer cancelTime()
	ctx, cancel := context.WithCancelCause(tctx)
	defer cancel(nil)

	run := &run{id: s.nextID("r"), srv: s, pipeline: pl, target: base.Target, params: base.Params, result: res,
		graphs: map[string]*graphview.Drawing{}}
	res.ID = run.id
	in := &stage{prog: src.clone()}
	var fresh idCounter
	in.ids = newStableIDs(in.prog, nil, lineage{}, &fresh)
	run.stages = []*stage{in}
	res.OpsIn = in.prog.NumOps()
	model := s.costModel()
	res.Before = summarize(model, in.prog)
	res.Stages = append(res.Stages, stageInfo{Pass: "input", Ops: res.OpsIn, Cost: res.Before})
	if set != nil {
		run.ruleSets = append(run.ruleSets, namedSet{rulesPass, set})
	}
	grown := 0
	cur := in
	for _, pass := range pl {
		if rp, ok := pass.(*rewriter.RulePass); ok && rp.PassName == rulesPass && res.MatchStage < 0 {
			res.MatchStage = len(run.stages) - 1
		}
		if rp, ok := pass.(*rewriter.RulePass); ok && rp.PassName != rulesPass && !hasSet(run.ruleSets, rp.Set) {
			run.ruleSets = append(run.ruleSets, namedSet{rp.PassName, rp.Set})
		}
		next := &stage{pass: pass.Name(), prog: cur.prog.Clone(), created: map[*ir.Op]bool{}}
		next.lineage = cloneLineage(cur.prog, next.prog)
		g := &growth{limit: s.lim.GrowOps, grown: &grown, created: next.created, cancel: cancel}
		env := &rewriter.Env{Registry: s.opts.Registry, Options: rewriter.Options{Context: ctx, Target: base.Target,
			Params: base.Params}, Listeners: []ir.Listener{g}}
		t0 := time.Now()
		pr, err := s.runPass(pass, next.prog, env)
		elapsed := time.Since(t0)
		settle(next.prog)
		next.ids = newStableIDs(next.prog, cur.ids, next.lineage, &fresh)
		run.stages = append(run.stages, next)
		figures := summarize(model, next.prog)
		res.Passes = append(res.Passes, describePass(pass, pr, elapsed, next.prog.NumOps(), figures))
		res.Stages = append(res.Stages, stageInfo{Pass: pass.Name(), Ops: res.Passes[len(res.Passes)-1].OpsAfter, Added: len(next.created),
			Cost: figures})
		cur = next
		if err == nil && ctx.Err() != nil {
			err = context.Cause(ctx) // a Go pass, which does not look at the context, ran past the budget
		}
		if err != nil {
			res.Error = fmt.Sprintf("pass %s: %v", pass.Name(), err)
			var be *budgetError
			if errors.As(err, &be) || errors.Is(err, context.Canceled) {
				res.Stopped = err.Error()
			}
			break
		}
	}
	res.OpsOut = cur.prog.NumOps()
	res.After = res.Stages[len(res.Stages)-1].Cost
	for _, st := range run.stages {
		run.ops += st.prog.NumOps()
	}
	if set != nil {
		s.listMatches(run, set, res)
	}
	res.Millis = float64(time.Since(start).Microseconds()) / 1000
	return run
}

// runPass runs one pass, turning a panic of the pass (a bug in a Go pass, a plugin) into an error: the server lives
// on.
func (s *Server) runPass(pass rewriter.Pass, p *ir.Program, env *rewriter.Env) (pr *rewriter.PassResult, err error) {
	defer func() {
		if v := recover(); v != nil {
			s.opts.Logf("internal error in pass %s: %v", pass.Name(), v)
			err = fmt.Errorf("internal error in pass %s: %v", pass.Name(), v)
		}
	}()
	return pass.Run(p, env)
}

func hasSet(sets []namedSet, set *rule.Set) bool {
	for _, ns := range sets {
		if ns.set == set {
			return true
		}
	}
	return false
}

// describePass turns a pass's result into what the page shows: its stats record, with the figures after it.
func describePass(pass rewriter.Pass, pr *rewriter.PassResult, d time.Duration, opsAfter int, after *cost.Summary) passResult {
	if pr == nil {
		pr = &rewriter.PassResult{Pass: pass.Name()}
	}
	out := passResult{Pass: stats.FromPassResult(pr, after), Millis: float64(d.Microseconds()) / 1000, OpsAfter: opsAfter}
	if _, ok := pass.(*rewriter.RulePass); ok {
		out.Kind = "rules" // a rule pass that stopped before its driver ran still is one
	}
	if err := rewriter.CheckLimits([]*rewriter.PassResult{pr}); err != nil {
		// The pass did not converge: its program is not what the rules make of the input (drrc apply fails so).
		out.Warnings = append(append([]string(nil), out.Warnings...), err.Error())
	}
	return out
}

// costModel is the model of the run figures (Options.Cost, or the default device's).
func (s *Server) costModel() *cost.Model {
	if s.opts.Cost != nil {
		return s.opts.Cost
	}
	m, err := cost.NewModel(cost.DefaultDevice)
	if err != nil {
		panic(err) // the built-in profiles are checked by package cost's tests
	}
	return m
}

// summarize returns the cost figures of a stage's program.
func summarize(m *cost.Model, p *ir.Program) *cost.Summary {
	s := m.Summarize(p)
	return &s
}

// listMatches lists the matches of the editor's rules in the stage they ran on, and the rules with their counts.
func (s *Server) listMatches(run *run, set *rule.Set, res *runResult) {
	count := map[string]int{}
	if res.MatchStage >= 0 {
		st := run.stages[res.MatchStage]
		auto, err := matcher.Compile(set, matcher.Options{})
		if err == nil {
			st.mu.Lock()
			st.collectParams()
			m := auto.NewMatcher()
			oracle := rule.WithParams(rewriter.NewOracle(st.prog, s.opts.Registry), run.params)
			for op := range st.prog.Walk() {
				for _, mt := range m.Match(op, oracle) {
					if len(res.Matches) >= maxMatches {
						res.MatchesCut = true
						break
					}
					mi := matchInfo{Rule: mt.Rule.ID(), Root: st.key(op), Ops: []boundOp{}}
					for i, bound := range mt.Ops {
						if bound == nil {
							continue
						}
						pos := mt.Rule.Pattern.Ops[i].Pos
						line, col := 0, 0
						if pos.Filename == RulesFile {
							line, col = pos.Line, pos.Column
						}
						mi.Ops = append(mi.Ops, boundOp{Key: st.key(bound), Line: line, Col: col})
					}
					res.Matches = append(res.Matches, mi)
					count[mt.Rule.ID()]++
				}
			}
			st.mu.Unlock()
		}
	}
	for _, r := range set.Rules {
		line := 0
		if r.Pos.Filename == RulesFile {
			line = r.Pos.Line
		}
		res.Rules = append(res.Rules, ruleInfo{ID: r.ID(), Name: r.Name, Line: line, Matches: count[r.ID()]})
	}
}
