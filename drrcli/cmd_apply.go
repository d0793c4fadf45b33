package drrcli

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pdiparams"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/rewriter"
)

func init() {
	register(&command{
		name:    "apply",
		usage:   "apply [flags] PROGRAM... | DIR",
		summary: "apply rules and passes to programs",
		help: `
Apply reads programs (.pir or .json), runs passes on them and writes the results in the input's format (or
-format). Passes are the rule files given with -rules (the pass "rules"), registered rule sets and Go passes
(-set, -passes), and pipelines; with neither, the default inference pipeline runs (drrc apply -list shows every
pass and pipeline).

Each rule set is applied by a greedy worklist driver until nothing matches. Statistics go to standard error
(-stats json for machines); -timing adds the parse / rewrite / print split and, for each rule tried, the time
spent matching it (its share of the merged automaton's time at the ops it was tried on) and rewriting with it.

One program is written to -o (standard output by default). With several programs or a directory, -o names an
output directory (required) and the programs run in parallel (-j); a summary table follows. Outputs are written
atomically, and nothing is written for a program whose passes fail.

Weights: -weights reads the parameters' data from Paddle's .pdiparams file (auto: inference.pdiparams beside
inference.json), so that the fold_constants pass can fold the weight arithmetic conv2d_bn_fold builds into new
parameters; -weights-out writes the result's parameters (auto: beside each output), the pair Paddle loads.

Debugging: -trace prints every rewrite (rule, op, position); -verify-each runs the verifier after every rewrite
and names the rule that broke the program; -shuffle SEED visits ops in a random order to expose rule sets whose
result depends on the order; a rule set that rewrites back and forth is stopped and its rules named.

Examples:
  drrc apply inference.json -o fused.json
  drrc apply -passes inference,fold_constants -weights auto -weights-out auto inference.json -o fused/inference.json
  drrc apply -rules my_fusion.drr model.pir
  drrc apply -set conv_bn_relu -stats json model.pir -o out.pir
  drrc apply -passes inplace,conv_bn_relu,dce -trace model.pir
  drrc apply -j 4 models/ -o fused/
  drrc apply -unregistered -rules testdata/bench/mlir_equivalent.drr w1000.pir -o out.pir`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			a := &applyFlags{}
			a.register(fs)
			return a.run
		},
	})
}

type applyFlags struct {
	cf            contextFlags
	rules, sets   listFlag
	passes        string
	out, format   string
	trace, verify bool
	shuffle       int64
	bottomUp      bool
	maxIter       int
	maxRewrites   int
	noDCE         bool
	enable        listFlag
	disable       listFlag
	stats         string
	timing        bool
	jobs          int
	untagged      bool
	list          bool
	cpuprofile    string
	weights       string
	weightsOut    string
}

func (a *applyFlags) register(fs *flag.FlagSet) {
	a.cf.register(fs)
	fs.Var(&a.rules, "rules", "apply the rules of `file.drr` (repeatable; the pass is named \"rules\")")
	fs.Var(&a.sets, "set", "run the registered rule set or pass `name` (repeatable)")
	fs.StringVar(&a.passes, "passes", "", "run these passes and pipelines in order, comma-separated (\"rules\" is the -rules files)")
	fs.StringVar(&a.out, "o", "", "write the result to `file` (a directory for several programs)")
	fs.StringVar(&a.format, "format", "", "output format `pir|json|mlir` (default: the output file's extension, else the input's format)")
	fs.BoolVar(&a.untagged, "untagged", false, "print PIR text attributes in the newer untagged syntax")
	fs.BoolVar(&a.trace, "trace", false, "print every rewrite: rule, op and position")
	fs.BoolVar(&a.verify, "verify-each", false, "verify the program after every rewrite and name the rule that broke it")
	fs.Int64Var(&a.shuffle, "shuffle", -1, "visit ops in a random order drawn from `seed`, to expose order dependence (negative: program order)")
	fs.BoolVar(&a.bottomUp, "bottom-up", false, "visit users before producers (default: top-down)")
	fs.IntVar(&a.maxIter, "max-iterations", 0, "stop a rule pass after `n` sweeps over the program (default 10)")
	fs.IntVar(&a.maxRewrites, "max-rewrites", 0, "stop a rule pass after `n` rewrites (default 20 per op + 10000)")
	fs.BoolVar(&a.noDCE, "no-dce", false, "keep ops that become dead")
	fs.Var(&a.disable, "disable", "do not apply rules with this `label` or name (repeatable)")
	fs.Var(&a.enable, "enable", "apply rules with this `label` or name even if -disable names another of their labels (repeatable)")
	fs.StringVar(&a.stats, "stats", "text", "statistics on standard error: `text|json|none`")
	fs.BoolVar(&a.timing, "timing", false, "report the parse / rewrite / print times")
	fs.IntVar(&a.jobs, "j", 0, "programs processed in parallel (default: the number of CPUs)")
	fs.BoolVar(&a.list, "list", false, "list the registered passes and pipelines and exit")
	fs.StringVar(&a.cpuprofile, "cpuprofile", "", "write a CPU profile of the run to `file` (for go tool pprof)")
	fs.StringVar(&a.weights, "weights", "", "read the parameters' data from `file.pdiparams` (auto: each program's sibling X.pdiparams)")
	fs.StringVar(&a.weightsOut, "weights-out", "", "write the parameters' data, folded ones included, to `file.pdiparams` (auto: beside each output)")
}

// siblingWeights returns the parameter file beside a program: inference.json → inference.pdiparams.
func siblingWeights(path string) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + ".pdiparams"
}

// weightsIn returns the parameter file to read for input in ("" for none).
func (a *applyFlags) weightsIn(in string) string {
	if a.weights != "auto" {
		return a.weights
	}
	if in == "-" {
		return ""
	}
	if _, err := os.Stat(siblingWeights(in)); err != nil {
		return ""
	}
	return siblingWeights(in)
}

// weightsFile returns the parameter file to write for output out ("" for none).
func (a *applyFlags) weightsFile(out string) string {
	if a.weightsOut != "auto" {
		return a.weightsOut
	}
	if out == "-" {
		return ""
	}
	return siblingWeights(out)
}

// applyJob is one program to process.
type applyJob struct {
	in, out string
	format  pirfile.Format // of the input: the output's unless -format says otherwise
	res     *applyResult
}

// applyResult is what processing one program produced.
type applyResult struct {
	Input    string                 `json:"input"`
	Output   string                 `json:"output,omitempty"`
	OpsIn    int                    `json:"ops_in"`
	OpsOut   int                    `json:"ops_out"`
	Passes   []*rewriter.PassResult `json:"-"`
	Stats    []passStats            `json:"passes"`
	Error    string                 `json:"error,omitempty"`
	Parse    time.Duration          `json:"parse_ns"`
	Rewrite  time.Duration          `json:"rewrite_ns"`
	Print    time.Duration          `json:"print_ns"`
	trace    []string
	warnings []string
}

// passStats is the JSON form of a pass result.
type passStats struct {
	Pass       string      `json:"pass"`
	Converged  bool        `json:"converged,omitempty"`
	StopReason string      `json:"stop_reason,omitempty"`
	Iterations int         `json:"iterations,omitempty"`
	Rewrites   int         `json:"rewrites"`
	Erased     int         `json:"dead_ops_erased"`
	Changes    int         `json:"changes,omitempty"`
	Rules      []ruleStats `json:"rules,omitempty"`
	Duration   int64       `json:"duration_ns"`
}

type ruleStats struct {
	Rule    string `json:"rule"`
	Tried   int    `json:"tried"`
	Matched int    `json:"matched"`
	Applied int    `json:"applied"`
	Failed  int    `json:"failed,omitempty"`
	// FirstFailure says why the first failed rewrite of the rule could not be carried out.
	FirstFailure string `json:"first_failure,omitempty"`
	// TimeNS is the time spent rewriting with the rule, MatchTimeNS its share of the matching time (estimates from
	// sampled events: see rewriter.RuleStats).
	TimeNS      int64 `json:"time_ns"`
	MatchTimeNS int64 `json:"match_time_ns"`
}

func (a *applyFlags) run(c *CLI, args []string) int {
	if a.list {
		reg, err := c.registry()
		if err != nil {
			return c.errorf("apply", "%v", err)
		}
		for _, p := range reg.Passes() {
			fmt.Fprintf(c.Stdout, "%-24s %s\n", p.Name, p.Doc)
			if len(p.Pipeline) > 0 {
				fmt.Fprintf(c.Stdout, "%-24s   = %s\n", "", strings.Join(p.Pipeline, " → "))
			}
		}
		return exitOK
	}
	if len(args) == 0 {
		return c.usageErrorf("apply", "no program to apply passes to")
	}
	if a.cpuprofile != "" {
		f, err := os.Create(a.cpuprofile)
		if err != nil {
			return c.errorf("apply", "%v", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return c.errorf("apply", "%v", err)
		}
		defer pprof.StopCPUProfile()
	}
	if a.stats != "text" && a.stats != "json" && a.stats != "none" {
		return c.usageErrorf("apply", "-stats must be text, json or none")
	}
	var outFormat *pirfile.Format
	if a.format != "" {
		f, err := pirfile.ParseFormat(a.format)
		if err != nil {
			return c.usageErrorf("apply", "%v", err)
		}
		outFormat = &f
	}
	jobs, err := a.jobsFor(args)
	if err != nil {
		return c.usageErrorf("apply", "%v", err)
	}
	if len(jobs) > 1 && (a.weights != "" && a.weights != "auto" || a.weightsOut != "" && a.weightsOut != "auto") {
		return c.usageErrorf("apply", "several programs take -weights auto and -weights-out auto (one file each), not one file")
	}
	ctx, err := a.cf.context()
	if err != nil {
		return c.errorf("apply", "%v", err)
	}
	reg, err := c.registry()
	if err != nil {
		return c.errorf("apply", "%v", err)
	}
	pipeline, ok := a.pipeline(c, ctx, reg)
	if !ok {
		return exitFailure
	}
	opts := rewriter.Options{
		MaxIterations: a.maxIter, MaxRewrites: a.maxRewrites, BottomUp: a.bottomUp, VerifyEach: a.verify, NoDCE: a.noDCE,
		Enabled: rewriter.LabelFilter(a.enable, a.disable),
	}
	if a.shuffle >= 0 {
		opts.Shuffle, opts.Seed = true, uint64(a.shuffle)
	}
	process := func(j *applyJob) {
		j.res = a.process(c, ctx, reg, pipeline, opts, j, outFormat)
	}
	if len(jobs) == 1 {
		process(jobs[0])
	} else {
		runParallel(c, jobs, a.jobs, process)
	}
	failed := false
	for _, j := range jobs {
		r := j.res
		for _, w := range r.warnings {
			fmt.Fprintln(c.Stderr, w)
		}
		for _, t := range r.trace {
			fmt.Fprintln(c.Stderr, t)
		}
		if r.Error != "" {
			failed = true
			fmt.Fprintln(c.Stderr, r.Error)
		}
	}
	switch a.stats {
	case "json":
		var list []*applyResult
		for _, j := range jobs {
			list = append(list, j.res)
		}
		enc := json.NewEncoder(c.Stderr)
		enc.SetIndent("", "  ")
		if len(list) == 1 {
			enc.Encode(list[0])
		} else {
			enc.Encode(list)
		}
	case "text":
		for _, j := range jobs {
			a.printStats(c.Stderr, j.res, len(jobs) > 1)
		}
		if len(jobs) > 1 {
			printSummary(c.Stderr, jobs)
		}
	}
	if failed {
		return exitFailure
	}
	return exitOK
}

// jobsFor expands the arguments (files and directories) into jobs with their output paths.
func (a *applyFlags) jobsFor(args []string) ([]*applyJob, error) {
	var inputs []string
	dirInput := ""
	for _, arg := range args {
		info, err := os.Stat(arg)
		if err == nil && info.IsDir() {
			dirInput = arg
			files := append(walkFiles(arg, ".json"), walkFiles(arg, ".pir")...)
			sort.Strings(files)
			if len(files) == 0 {
				return nil, fmt.Errorf("no .pir or .json programs under %s", arg)
			}
			inputs = append(inputs, files...)
			continue
		}
		inputs = append(inputs, arg)
	}
	if len(inputs) == 1 && dirInput == "" {
		out := a.out
		if out == "" {
			out = "-"
		}
		return []*applyJob{{in: inputs[0], out: out}}, nil
	}
	if a.out == "" {
		return nil, fmt.Errorf("several programs need -o DIR for the results")
	}
	var jobs []*applyJob
	for _, in := range inputs {
		rel := filepath.Base(in)
		if dirInput != "" {
			if r, err := filepath.Rel(dirInput, in); err == nil && !strings.HasPrefix(r, "..") {
				rel = r
			}
		}
		jobs = append(jobs, &applyJob{in: in, out: filepath.Join(a.out, rel)})
	}
	return jobs, nil
}

// pipeline builds the passes the flags ask for.
func (a *applyFlags) pipeline(c *CLI, ctx *ir.Context, reg *rewriter.Registry) (rewriter.Pipeline, bool) {
	return buildPipeline(c, "apply", ctx, reg, a.cf.unregistered, a.rules, a.sets, a.passes)
}

// buildPipeline builds the pipeline of drrc apply and drrc verify: the -passes and -set names in order, "rules"
// standing for the -rules files (which run first when no name mentions them); inference when nothing is named.
func buildPipeline(c *CLI, cmd string, ctx *ir.Context, reg *rewriter.Registry, unregistered bool, rules, sets []string, passes string) (rewriter.Pipeline, bool) {
	var rulePass rewriter.Pass
	if len(rules) > 0 {
		set, diags := drr.Load(ctx, drr.LoadOptions{CheckOptions: drr.CheckOptions{Unregistered: unregistered, Natives: reg.HasNative}}, rules...)
		c.printRuleDiags(diags, true)
		if diags.HasErrors() {
			return nil, false
		}
		rulePass = rewriter.NewRulePass("rules", set)
	}
	var names []string
	for _, n := range strings.Split(passes, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
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

// process runs the pipeline on one program.
func (a *applyFlags) process(c *CLI, ctx *ir.Context, reg *rewriter.Registry, pl rewriter.Pipeline, opts rewriter.Options, j *applyJob, outFormat *pirfile.Format) *applyResult {
	r := &applyResult{Input: j.in, Output: j.out}
	t0 := time.Now()
	var p *ir.Program
	var warns ir.Diagnostics
	var err error
	if j.in == "-" {
		var src []byte
		if src, err = io.ReadAll(c.Stdin); err == nil {
			j.format = pirfile.Detect(src)
			p, warns, err = pirfile.Parse(ctx, "<stdin>", src, j.format)
		}
	} else {
		j.format = pirfile.FormatOf(j.in)
		p, warns, err = pirfile.Load(ctx, j.in)
	}
	r.Parse = time.Since(t0)
	for _, w := range warns {
		r.warnings = append(r.warnings, w.String())
	}
	if err == nil {
		if w := a.weightsIn(j.in); w != "" {
			err = pdiparams.ReadFile(w, p)
		}
	}
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.OpsIn = p.NumOps()
	if a.trace {
		opts.Trace = func(e rewriter.TraceEvent) { r.trace = append(r.trace, e.String()) }
	}
	t1 := time.Now()
	results, err := pl.Run(p, &rewriter.Env{Registry: reg, Options: opts})
	r.Rewrite = time.Since(t1)
	r.Passes = results
	for _, pr := range results {
		r.Stats = append(r.Stats, toPassStats(pr))
	}
	r.OpsOut = p.NumOps()
	if err != nil {
		r.Error = fmt.Sprintf("%s: %v", j.in, err)
		return r
	}
	// The output's format: -format, else the output file's extension, else the input's format.
	f := j.format
	if outFormat != nil {
		f = *outFormat
	} else if j.out != "-" {
		f = pirfile.FormatOf(j.out)
	}
	t2 := time.Now()
	// The weights go first: if the program cannot be written, a weights file that did not exist is removed again.
	weightsOut := a.weightsFile(j.out)
	if weightsOut != "" {
		_, statErr := os.Stat(weightsOut)
		err := os.MkdirAll(filepath.Dir(weightsOut), 0o755)
		if err == nil {
			err = pdiparams.WriteFile(weightsOut, p)
		}
		if err != nil {
			r.Error = fmt.Sprintf("%s: %v", weightsOut, err)
			return r
		}
		if os.IsNotExist(statErr) {
			defer func() {
				if r.Error != "" {
					os.Remove(weightsOut)
				}
			}()
		}
	}
	popts := pirfile.Options{Untagged: a.untagged}
	if j.out == "-" {
		bw := bufio.NewWriterSize(c.Stdout, 1<<16)
		if err = pirfile.Write(bw, p, f, popts); err == nil {
			err = bw.Flush()
		}
	} else {
		if dir := filepath.Dir(j.out); dir != "." {
			err = os.MkdirAll(dir, 0o755)
		}
		if err == nil {
			err = pirfile.Save(p, j.out, f, popts)
		}
	}
	r.Print = time.Since(t2)
	if err != nil {
		r.Error = fmt.Sprintf("%s: %v", j.out, err)
	}
	return r
}

func toPassStats(pr *rewriter.PassResult) passStats {
	ps := passStats{Pass: pr.Pass, Changes: pr.Changes, Duration: pr.Duration.Nanoseconds()}
	if st := pr.Stats; st != nil {
		ps.Converged, ps.StopReason, ps.Iterations, ps.Rewrites, ps.Erased = st.Converged, st.StopReason, st.Iterations, st.Rewrites, st.Erased
		for _, rs := range st.Rules {
			ps.Rules = append(ps.Rules, ruleStats{Rule: rs.Name, Tried: rs.Tried, Matched: rs.Matched, Applied: rs.Applied,
				Failed: rs.Failed, FirstFailure: rs.FirstFailure, TimeNS: rs.Time.Nanoseconds(), MatchTimeNS: rs.MatchTime.Nanoseconds()})
		}
	}
	return ps
}

func (a *applyFlags) printStats(w io.Writer, r *applyResult, withName bool) {
	if r.Error != "" && len(r.Passes) == 0 {
		return // the program did not load: its error is printed already
	}
	if withName {
		fmt.Fprintf(w, "%s:\n", r.Input)
	}
	// Columns as wide as the longest pass and rule names.
	passW, ruleW := 0, 0
	for _, pr := range r.Passes {
		passW = max(passW, len(pr.Pass))
		if pr.Stats != nil {
			for _, rs := range pr.Stats.Rules {
				ruleW = max(ruleW, len(rs.Name))
			}
		}
	}
	for _, pr := range r.Passes {
		if st := pr.Stats; st != nil {
			fmt.Fprintf(w, "  %-*s  %s, %s, %s erased, %s\n", passW, pr.Pass, st.StopReason, nouns(st.Rewrites, "rewrite"),
				nouns(st.Erased, "dead op"), round(pr.Duration))
			for _, rs := range st.Rules {
				if rs.Applied == 0 && rs.Failed == 0 && !(a.timing && rs.Tried > 0) {
					continue // with -timing, rules that were tried show too: matching them may be what is slow
				}
				fmt.Fprintf(w, "      %-*s  applied %d of %d matched (%d tried)", ruleW, rs.Name, rs.Applied, rs.Matched, rs.Tried)
				if rs.Failed > 0 {
					fmt.Fprintf(w, ", %d failed", rs.Failed)
				}
				if a.timing {
					fmt.Fprintf(w, "; match %s, rewrite %s", round(rs.MatchTime), round(rs.Time))
				}
				fmt.Fprintln(w)
				if rs.FirstFailure != "" {
					fmt.Fprintf(w, "      %-*s  first failure: %s\n", ruleW, "", rs.FirstFailure)
				}
			}
		} else {
			fmt.Fprintf(w, "  %-*s  %s, %s\n", passW, pr.Pass, nouns(pr.Changes, "change"), round(pr.Duration))
		}
	}
	fmt.Fprintf(w, "  ops: %d → %d\n", r.OpsIn, r.OpsOut)
	if a.timing {
		fmt.Fprintf(w, "  timing: parse %s, rewrite %s, print %s\n", round(r.Parse), round(r.Rewrite), round(r.Print))
	}
}

func round(d time.Duration) time.Duration {
	switch {
	case d > time.Second:
		return d.Round(time.Millisecond)
	case d > time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// printSummary prints one line per program of a batch.
func printSummary(w io.Writer, jobs []*applyJob) {
	fmt.Fprintf(w, "\n%-40s %8s %8s %9s %10s  %s\n", "program", "ops in", "ops out", "rewrites", "time", "status")
	ok := 0
	for _, j := range jobs {
		r := j.res
		n := 0
		for _, s := range r.Stats {
			n += s.Rewrites
		}
		status := "ok"
		if r.Error != "" {
			status = "FAILED"
		} else {
			ok++
		}
		fmt.Fprintf(w, "%-40s %8d %8d %9d %10s  %s\n", trimLeft(r.Input, 40), r.OpsIn, r.OpsOut, n, round(r.Parse+r.Rewrite+r.Print), status)
	}
	fmt.Fprintf(w, "%d of %d programs ok\n", ok, len(jobs))
}

func trimLeft(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n+1:]
}

// runParallel processes jobs on n workers, drawing a progress line when standard error is a terminal.
func runParallel(c *CLI, jobs []*applyJob, n int, process func(*applyJob)) {
	if n <= 0 {
		n = numCPU()
	}
	var mu sync.Mutex
	done := 0
	next := make(chan *applyJob)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				process(j)
				mu.Lock()
				done++
				if c.IsTerminal {
					fmt.Fprintf(c.Stderr, "\r\033[K[%d/%d] %s", done, len(jobs), j.in)
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
	if c.IsTerminal {
		fmt.Fprint(c.Stderr, "\r\033[K")
	}
}

// nouns renders a count with its noun, singular or plural: "1 rewrite", "2 rewrites".
func nouns(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
