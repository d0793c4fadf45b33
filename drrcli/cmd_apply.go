package drrcli

import (
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/internal/pipecheck"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/stats"
)

func init() {
	register(&command{
		name:    "apply",
		usage:   "apply [flags] PROGRAM... | DIR",
		summary: "apply rules and passes to programs",
		help: `
Apply reads programs (.pir, .json, or a program folder such as a GraphNet graph), runs passes on them and writes
the results in the input's format (or -format). Passes are the rule files given with -rules (the pass "rules"), registered rule sets and Go
passes (-set, -passes), and pipelines; with neither, the default inference pipeline runs (drrc apply -list shows
every pass and pipeline). A name that is not registered, and a -disable or -enable name that is no rule's name or
label, is an error that suggests the nearest one.

-passes lists passes and pipelines in order, comma-separated, and may extend a pipeline at a named point, so that
rules run where they can match (after gpu_inference the ops are fused and inplace again, and rules run after it
match nothing):

  -passes 'gpu_inference[before reinplace: rules]'
  -passes 'inference[after conv_bn_relu: rules, dce; before reinplace: my_set], fold_constants'

NAME[before POINT: PASSES] and NAME[after POINT: PASSES] insert PASSES (any names, "rules" included, extended in
turn) around POINT, a pass or sub-pipeline of NAME's expansion at any depth; several edits are separated by ';'.
A POINT that occurs more than once needs #N (value_semantics#2); an unknown one suggests the nearest. drrc apply
-list shows what each pipeline runs. The rule files run first when the passes do not name "rules".

A program that fails checking (drrc check) is not rewritten and nothing is written for it: the exit status is 1.
The result is checked too, and not written if a pass broke it. A program without outputs (no pd_op.fetch,
builtin.shadow_output or builtin.set_parameter: a hand-written text program) does not say which of its values
matter, so no op of it is erased as dead: the passes that would have erased some say so in a warning. The
outputs are written for Paddle: PIR JSON and GraphNet refuse pirdrr's value tensors (pd_op.v_tensor, also inside
vectors) and their copies, which the default pipeline lowers away; -internal writes them into PIR JSON anyway.

Rule-set parameters: a rule file may declare parameters (param sm_version: i64 = 0) that its rules read;
-param NAME=VALUE sets one for the rule sets that run (repeatable; the value is parsed per the parameter's kind,
and a name no set of the pipeline declares is an error). drrc apply -list shows each set's parameters with their
defaults and docs.

Target: -target gpu:smNN (NN the GPU's compute capability: gpu:sm80 for an A100) or -target cpu says what the
program is rewritten for. It sets the parameter sm_version of every rule set that declares it (the GPU's compute
capability, 0 for cpu; -param sm_version=N stays an alias, which must then agree): in gpu_inference,
fused_weight_only_linear fires only for gpu:sm70, sm75, sm80, sm86, sm89 and sm90, fused_flash_attn for sm80 and
newer, and the cutlass convolutions (-param use_cutlass=true) for sm75, sm80, sm85 and sm86. The pass kernel_check, put last in
-passes, then fails the run on any op Paddle has no kernel for on that target, as drrc check -target reports it.

Each rule set is applied by a greedy worklist driver until nothing matches. Statistics go to standard error
(-stats json for machines, in the schema of package stats): per pass the rewrites of each rule and what the pass
changed in the program's cost figures, then the figures before → after — ops, runtime ops (those that run on
every inference), load-time ops (computed from weights only, which fold_constants folds), kernels, FLOPs, bytes
moved and the estimated time per inference on -device (drrc help cost says how they are estimated); a GraphNet
sample folder's figures are also summed over its graphs. -timing adds the parse / rewrite / check / print split (check: judging the result, which runs alongside the printing
when the output is a file; a line per program with -stats none) and, for each rule tried, the time
spent matching it (its share of the merged automaton's time at the ops it was tried on) and rewriting with it. A
match whose rewrite cannot be carried out (an attribute the rule computes is out of range, …) leaves the program
unchanged at that op and counts as a failed rewrite: the program is then not written and the exit status is 1, unless -keep-going.
A rule pass that reaches -max-rewrites (default 20 per op + 10000) or -max-iterations (default 10 sweeps) before
converging has not done its work (a rule that keeps growing the program ends so): the rules still firing are named,
and the program is not written and the exit status is 1, unless -keep-going, which writes it with a warning.

One program is written to -o (standard output by default, where a GraphNet graph is printed as PIR text). With
several programs or a directory, -o names an output directory (required) and the programs run in parallel (-j); a
summary table follows. A GraphNet sample folder is the graphs of its subgraph_N folders, written as OUT/subgraph_N/
(or OUT/subgraph_N.json with -format json). Output names follow
the output format: with -format pir, models/a.json is written as OUT/a.pir. A regular output file is written
atomically (a temporary file renamed over it), and nothing is written for a program whose passes fail; a device
such as /dev/null or a FIFO is written in place (a GraphNet graph as PIR text), and an -o that is an existing
directory, for one program, is an error: -o DIR/ (with the separator) writes it into DIR under its name. A
GraphNet graph is written into its folder, replacing only GraphNet's four files and keeping the others. An output
that is the input program itself (-o model.pir model.pir, or a folder of programs onto itself) is refused unless
-w. Folders a failed run created for its outputs are removed again.
-shard K/N runs one shard of the programs (as drrc verify does) and -results appends one JSON line per program
to a file that drrc report merges; a rerun skips the programs recorded.

Weights: -weights reads the parameters' data from Paddle's .pdiparams file (auto: inference.pdiparams beside
inference.json, with a warning for a program that has none), so that the fold_constants pass can fold the weight
arithmetic conv2d_bn_fold builds into new parameters; -weights-out writes the result's parameters (auto: beside
each output), the pair Paddle loads.

Debugging: -trace prints every rewrite (rule, op, position); -verify-each runs the verifier after every rewrite
and names the rule that broke the program; -shuffle SEED visits ops in a random order to expose rule sets whose
result depends on the order; a rule set that rewrites back and forth is stopped and its rules named.
-print-ir-after-all, -print-ir-after=PASS, -print-ir-before=PASS and -print-ir-after-change print the program
(PIR text) around passes, as mlir-opt's flags of those names do, to standard error or, with -print-ir-dir, to
numbered files (01-after-conv_bn_relu.pir, …; a subfolder per program when there are several).

Examples:
  drrc apply inference.json -o fused.json
  drrc apply -weights auto -weights-out auto inference.json -o fused/inference.json
  drrc apply -rules my_fusion.drr model.pir
  drrc apply -rules my_fusion.drr -passes 'gpu_inference[before reinplace: rules]' model.pir -o out.pir
  drrc apply -set conv_bn_relu -stats json model.pir -o out.pir
  drrc apply -passes inplace,conv_bn_relu,dce -trace model.pir
  drrc apply -passes gpu_inference -target gpu:sm80 GraphNet/paddle_samples/PaddleNLP/facebook_llama-7b -o llama.pir
  drrc apply -passes gpu_inference,kernel_check -target gpu:sm80 inference.json -o fused.json
  drrc apply -print-ir-after-change -print-ir-dir dumps/ model.pir -o out.pir
  drrc apply -j 4 models/ -o fused/
  drrc apply -shard 2/8 -results shard2.jsonl models/ -o fused/
  drrc apply GraphNet/paddle_samples/PaddleNLP/bert-base-cased -o bert_fused/
  drrc apply -format json GraphNet/paddle_samples/PaddleX/FCOS-ResNet50 -o fcos_fused/
  drrc apply -format pir models/ -o as_text/
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
	device        string
	model         *cost.Model // the cost model of the statistics (nil with -stats none)
	timing        bool
	jobs          int
	untagged      bool
	list          bool
	cpuprofile    string
	weights       string
	weightsOut    string
	keepGoing     bool
	internal      bool
	overwrite     bool
	printIR       printIRFlags
	params        paramFlag
	sh            shardFlags
}

func (a *applyFlags) register(fs *flag.FlagSet) {
	a.cf.register(fs)
	a.params.register(fs)
	fs.Var(&a.rules, "rules", "apply the rules of `file.drr` (repeatable; the pass is named \"rules\")")
	fs.Var(&a.sets, "set", "run the registered rule set or pass `name` (repeatable)")
	fs.StringVar(&a.passes, "passes", "", "run these passes and pipelines in order, comma-separated (\"rules\" is the -rules files); NAME[before|after POINT: PASSES] extends a pipeline")
	fs.StringVar(&a.out, "o", "", "write the result to `file` (a directory for several programs; DIR/ writes one program into DIR)")
	fs.BoolVar(&a.overwrite, "w", false, "write the results over the input programs themselves when -o names them")
	fs.StringVar(&a.format, "format", "", "output format `"+pirfile.Standard().Names(false)+"` (default: the output file's extension, else the input's format)")
	fs.BoolVar(&a.untagged, "untagged", false, "print PIR text attributes in the newer untagged syntax")
	fs.BoolVar(&a.internal, "internal", false, "write pirdrr's value tensors (pd_op.v_tensor) and their copies into PIR JSON, which Paddle cannot load, instead of refusing them")
	fs.BoolVar(&a.trace, "trace", false, "print every rewrite: rule, op and position")
	fs.BoolVar(&a.verify, "verify-each", false, "verify the program after every rewrite and name the rule that broke it")
	fs.Int64Var(&a.shuffle, "shuffle", -1, "visit ops in a random order drawn from `seed`, to expose order dependence (negative: program order)")
	fs.BoolVar(&a.bottomUp, "bottom-up", false, "visit users before producers (default: top-down)")
	fs.IntVar(&a.maxIter, "max-iterations", 0, "stop a rule pass after `n` sweeps over the program (default 10)")
	fs.IntVar(&a.maxRewrites, "max-rewrites", 0, "stop a rule pass after `n` rewrites (default 20 per op + 10000)")
	fs.BoolVar(&a.noDCE, "no-dce", false, "keep ops that become dead")
	fs.Var(&a.disable, "disable", "do not apply rules with this `label` or name (repeatable)")
	fs.Var(&a.enable, "enable", "apply rules with this `label` or name even if -disable names another of their labels (repeatable)")
	fs.BoolVar(&a.keepGoing, "keep-going", false, "write the program and exit 0 even if some rewrites failed or a rule pass stopped at a limit before converging (they are still reported)")
	fs.StringVar(&a.stats, "stats", "text", "statistics on standard error: `text|json|none` (with the cost figures: drrc help cost)")
	fs.StringVar(&a.device, "device", cost.DefaultDevice, "estimate times on `device`: "+deviceNames()+", or a profile.json")
	fs.BoolVar(&a.timing, "timing", false, "report the parse / rewrite / check / print times")
	fs.IntVar(&a.jobs, "j", 0, "programs processed in parallel (default: the number of CPUs)")
	fs.BoolVar(&a.list, "list", false, "list the registered passes and pipelines and exit")
	fs.StringVar(&a.cpuprofile, "cpuprofile", "", "write a CPU profile of the run to `file` (for go tool pprof)")
	fs.StringVar(&a.weights, "weights", "", "read the parameters' data from `file.pdiparams` (auto: each program's sibling X.pdiparams)")
	fs.StringVar(&a.weightsOut, "weights-out", "", "write the parameters' data, folded ones included, to `file.pdiparams` (auto: beside each output)")
	a.printIR.register(fs)
	a.sh.register(fs)
}

// applyResult is what processing one program produced: its statistics record (the schema of package stats: the
// program's cost figures before and after, and its passes) and what apply adds to it.
type applyResult struct {
	stats.Program
	Output string `json:"output,omitempty"`
	// OpsIn and OpsOut count the ops before and after (also in Before and After when measured).
	OpsIn  int                    `json:"-"`
	OpsOut int                    `json:"-"`
	Passes []*rewriter.PassResult `json:"-"`
	Error  string                 `json:"error,omitempty"`
	// FailedRewrites counts the matches whose rewrite could not be carried out (an error unless -keep-going).
	FailedRewrites int `json:"failed_rewrites,omitempty"`
	// Parse, Rewrite, Check and Print are the phases -timing reports: reading the program, the pass pipeline,
	// judging the result (rewriter.Outcome; alongside the printing when the output is a file) and writing it.
	Parse   time.Duration `json:"parse_ns"`
	Rewrite time.Duration `json:"rewrite_ns"`
	Check   time.Duration `json:"check_ns"`
	Print   time.Duration `json:"print_ns"`
	// Subgraphs are, for a GraphNet sample folder, its graphs' results; the record's figures are their sums.
	Subgraphs []*applyResult `json:"subgraphs,omitempty"`
	output    time.Duration  // from the end of the rewrite to the output written: check and print, overlapping or not
	trace     []string
	warnings  []string
	dumps     *irPrinter // the programs -print-ir-* printed
}

func (a *applyFlags) run(c *CLI, args []string) int {
	if a.list {
		reg, err := c.registry()
		if err != nil {
			return c.errorf("apply", "%v", err)
		}
		ctx, err := a.cf.context(c)
		if err != nil {
			return c.errorf("apply", "%v", err)
		}
		for _, p := range reg.Passes() {
			fmt.Fprintf(c.Stdout, "%-24s %s\n", p.Name, p.Doc)
			if len(p.Pipeline) > 0 {
				fmt.Fprintf(c.Stdout, "%-24s   = %s\n", "", strings.Join(p.Pipeline, " → "))
				continue
			}
			printParams(c.Stdout, reg, ctx, p.Name)
		}
		return exitOK
	}
	if len(args) == 0 {
		return c.usageErrorf("apply", "no program to apply passes to")
	}
	if a.stats != "text" && a.stats != "json" && a.stats != "none" {
		return c.usageErrorf("apply", "-stats must be text, json or none")
	}
	for _, f := range []struct {
		name string
		n    int
	}{{"-max-rewrites", a.maxRewrites}, {"-max-iterations", a.maxIter}, {"-j", a.jobs}} {
		if f.n < 0 {
			return c.usageErrorf("apply", "%s %d: a count cannot be negative (0 takes the default)", f.name, f.n)
		}
	}
	if _, _, err := a.sh.spec(c); err != nil {
		return c.usageErrorf("apply", "%v", err)
	}
	if a.stats != "none" {
		m, err := cost.NewModel(a.device)
		if err != nil {
			return c.usageErrorf("apply", "-device: %v", err)
		}
		a.model = m
	}
	var outFormat *pirfile.Format
	if a.format != "" {
		f, err := c.formats().Lookup(a.format)
		if err != nil {
			return c.usageErrorf("apply", "-format: %v", err)
		}
		if !f.CanWrite() {
			return c.usageErrorf("apply", "-format: pirdrr does not write %s (%s)", f.Name, f.Doc)
		}
		outFormat = f
	}
	jobs, err := a.jobsFor(c, args, outFormat)
	if err != nil {
		return c.usageErrorf("apply", "%v", err)
	}
	if len(jobs) > 1 && (a.weights != "" && a.weights != "auto" || a.weightsOut != "" && a.weightsOut != "auto") {
		return c.usageErrorf("apply", "several programs take -weights auto and -weights-out auto (one file each), not one file")
	}
	if err := checkOutputs(jobs); err != nil {
		return c.usageErrorf("apply", "%v", err)
	}
	if !a.overwrite {
		for _, j := range jobs {
			if isOwnInput(j.in, j.out) {
				return c.usageErrorf("apply", "-o %s is the input program %s itself: -w writes over it", j.out, j.in)
			}
		}
	}
	all := len(jobs)
	plan, rc := a.sh.plan(c, "apply", jobRefs(jobs))
	if plan == nil {
		return rc
	}
	jobs = plan.jobs(jobs)
	stop, err := startCPUProfile(a.cpuprofile)
	if err != nil {
		return c.errorf("apply", "%v", err)
	}
	defer stop()
	ctx, err := a.cf.context(c)
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
	if err := pipecheck.Labels(pipeline, a.enable, a.disable); err != nil {
		return c.errorf("apply", "%v", err)
	}
	if err := a.printIR.check(pipeline); err != nil {
		return c.errorf("apply", "%v", err)
	}
	opts := rewriter.Options{
		MaxIterations: a.maxIter, MaxRewrites: a.maxRewrites, BottomUp: a.bottomUp, VerifyEach: a.verify, NoDCE: a.noDCE,
		Enabled: rewriter.LabelFilter(a.enable, a.disable),
	}
	if a.shuffle >= 0 {
		opts.Shuffle, opts.Seed = true, uint64(a.shuffle)
	}
	if opts.Params, ok = a.params.resolve(c, "apply", ctx, pipeline); !ok {
		return exitFailure
	}
	opts.Target = a.params.target.t
	// The folders the outputs go into that do not exist yet: a run creates them, and removes those it did not write
	// anything into in the end.
	var created []string
	for _, j := range jobs {
		if j.out != "-" {
			created = append(created, missingDirs(filepath.Dir(j.out))...)
		}
	}
	defer func() {
		sort.Slice(created, func(i, j int) bool { return len(created[i]) > len(created[j]) }) // deepest first
		removeEmptyDirs(created)
	}()
	var mu sync.Mutex
	recorded := true
	process := func(j *applyJob) {
		start := time.Now()
		j.res = a.process(c, ctx, reg, pipeline, opts, j, outFormat, all > 1)
		rec := plan.applyRecord(j, time.Since(start))
		mu.Lock()
		recorded = recorded && plan.write(c, "apply", rec)
		mu.Unlock()
	}
	if len(jobs) == 1 {
		process(jobs[0])
	} else if len(jobs) > 1 {
		runParallel(c, jobs, a.jobs, process)
	}
	if !plan.close(c, "apply") || !recorded {
		return exitFailure
	}
	failed := false
	for _, j := range jobs {
		r := j.res
		for _, w := range r.warnings {
			fmt.Fprint(c.Stderr, w)
		}
		for _, t := range r.trace {
			fmt.Fprintln(c.Stderr, t)
		}
		if r.dumps != nil {
			r.dumps.flushStderr(c) // -print-ir-dir's files are written with the program
		}
		if r.Error != "" {
			failed = true
			fmt.Fprint(c.Stderr, ensureNewline(r.Error))
		}
	}
	statsMode := a.stats
	if len(jobs) == 0 {
		statsMode = "none" // a shard without programs, or a resumed run with nothing left: no statistics to print
	}
	switch statsMode {
	case "json":
		records := groupSamples(jobs)
		enc := json.NewEncoder(c.Stderr)
		enc.SetIndent("", "  ")
		if len(records) == 1 {
			enc.Encode(records[0])
		} else {
			enc.Encode(records)
		}
	case "text":
		for _, r := range groupSamples(jobs) {
			a.printRecord(c.Stderr, r, len(jobs) > 1)
		}
		if len(jobs) > 1 || all > 1 && len(jobs) > 0 {
			printSummary(c.Stderr, jobs)
		}
	case "none":
		if a.timing { // -timing asks for its line whatever -stats says
			for _, j := range jobs {
				if r := j.res; r.Error == "" || len(r.Passes) > 0 {
					fmt.Fprintf(c.Stderr, "%s: timing: %s\n", r.Program.Program, r.timing())
				}
			}
		}
	}
	if failed {
		return exitFailure
	}
	return exitOK
}

func ensureNewline(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}
