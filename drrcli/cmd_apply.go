package drrcli

import (
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/pirdrr/drr/internal/pipecheck"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/rewriter"
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
capability, 0 for cpu; -param sm_version=N stays an alias, which must then agree): fused_weight_only_linear in
gpu_inference fires only for gpu:sm70, sm75, sm80, sm86, sm89 and sm90. The pass kernel_check, put last in
-passes, then fails the run on any op Paddle has no kernel for on that target, as drrc check -target reports it.

Each rule set is applied by a greedy worklist driver until nothing matches. Statistics go to standard error
(-stats json for machines); -timing adds the parse / rewrite / print split and, for each rule tried, the time
spent matching it (its share of the merged automaton's time at the ops it was tried on) and rewriting with it. A
match whose rewrite cannot be carried out (an attribute the rule computes is out of range, …) leaves the program
unchanged at that op and counts as a failed rewrite: the program is then not written and the exit status is 1, unless -keep-going.

One program is written to -o (standard output by default, where a GraphNet graph is printed as PIR text). With
several programs or a directory, -o names an output directory (required) and the programs run in parallel (-j); a
summary table follows. A GraphNet sample folder is the graphs of its subgraph_N folders, written as OUT/subgraph_N/
(or OUT/subgraph_N.json with -format json). Output names follow
the output format: with -format pir, models/a.json is written as OUT/a.pir. A regular output file is written
atomically (a temporary file renamed over it), and nothing is written for a program whose passes fail; a device
such as /dev/null or a FIFO is written in place, and an -o that is an existing directory, for one program, is an
error.

Weights: -weights reads the parameters' data from Paddle's .pdiparams file (auto: inference.pdiparams beside
inference.json), so that the fold_constants pass can fold the weight arithmetic conv2d_bn_fold builds into new
parameters; -weights-out writes the result's parameters (auto: beside each output), the pair Paddle loads.

Debugging: -trace prints every rewrite (rule, op, position); -verify-each runs the verifier after every rewrite
and names the rule that broke the program; -shuffle SEED visits ops in a random order to expose rule sets whose
result depends on the order; a rule set that rewrites back and forth is stopped and its rules named.
-print-ir-after-all, -print-ir-after=PASS, -print-ir-before=PASS and -print-ir-after-change print the program
(PIR text) around passes, as mlir-opt's flags of those names do, to standard error or, with -print-ir-dir, to
numbered files (01-after-conv_bn_relu.pir, …; a subfolder per program when there are several).

Examples:
  drrc apply inference.json -o fused.json
  drrc apply -passes inference,fold_constants -weights auto -weights-out auto inference.json -o fused/inference.json
  drrc apply -rules my_fusion.drr model.pir
  drrc apply -rules my_fusion.drr -passes 'gpu_inference[before reinplace: rules]' model.pir -o out.pir
  drrc apply -set conv_bn_relu -stats json model.pir -o out.pir
  drrc apply -passes inplace,conv_bn_relu,dce -trace model.pir
  drrc apply -passes gpu_inference -target gpu:sm80 GraphNet/paddle_samples/PaddleNLP/facebook_llama-7b -o llama.pir
  drrc apply -passes gpu_inference,kernel_check -target gpu:sm80 inference.json -o fused.json
  drrc apply -print-ir-after-change -print-ir-dir dumps/ model.pir -o out.pir
  drrc apply -j 4 models/ -o fused/
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
	timing        bool
	jobs          int
	untagged      bool
	list          bool
	cpuprofile    string
	weights       string
	weightsOut    string
	keepGoing     bool
	internal      bool
	printIR       printIRFlags
	params        paramFlag
}

func (a *applyFlags) register(fs *flag.FlagSet) {
	a.cf.register(fs)
	a.params.register(fs)
	fs.Var(&a.rules, "rules", "apply the rules of `file.drr` (repeatable; the pass is named \"rules\")")
	fs.Var(&a.sets, "set", "run the registered rule set or pass `name` (repeatable)")
	fs.StringVar(&a.passes, "passes", "", "run these passes and pipelines in order, comma-separated (\"rules\" is the -rules files); NAME[before|after POINT: PASSES] extends a pipeline")
	fs.StringVar(&a.out, "o", "", "write the result to `file` (a directory for several programs)")
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
	fs.BoolVar(&a.keepGoing, "keep-going", false, "write the program and exit 0 even if some rewrites failed (they are still reported)")
	fs.StringVar(&a.stats, "stats", "text", "statistics on standard error: `text|json|none`")
	fs.BoolVar(&a.timing, "timing", false, "report the parse / rewrite / print times")
	fs.IntVar(&a.jobs, "j", 0, "programs processed in parallel (default: the number of CPUs)")
	fs.BoolVar(&a.list, "list", false, "list the registered passes and pipelines and exit")
	fs.StringVar(&a.cpuprofile, "cpuprofile", "", "write a CPU profile of the run to `file` (for go tool pprof)")
	fs.StringVar(&a.weights, "weights", "", "read the parameters' data from `file.pdiparams` (auto: each program's sibling X.pdiparams)")
	fs.StringVar(&a.weightsOut, "weights-out", "", "write the parameters' data, folded ones included, to `file.pdiparams` (auto: beside each output)")
	a.printIR.register(fs)
}

// applyResult is what processing one program produced.
type applyResult struct {
	Input  string                 `json:"input"`
	Output string                 `json:"output,omitempty"`
	OpsIn  int                    `json:"ops_in"`
	OpsOut int                    `json:"ops_out"`
	Passes []*rewriter.PassResult `json:"-"`
	Stats  []passStats            `json:"passes"`
	Error  string                 `json:"error,omitempty"`
	// FailedRewrites counts the matches whose rewrite could not be carried out (an error unless -keep-going).
	FailedRewrites int           `json:"failed_rewrites,omitempty"`
	Parse          time.Duration `json:"parse_ns"`
	Rewrite        time.Duration `json:"rewrite_ns"`
	Print          time.Duration `json:"print_ns"`
	trace          []string
	warnings       []string
	dumps          *irPrinter // the programs -print-ir-* printed
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
		ctx, err := a.cf.context()
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
	stop, err := startCPUProfile(a.cpuprofile)
	if err != nil {
		return c.errorf("apply", "%v", err)
	}
	defer stop()
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
	process := func(j *applyJob) {
		j.res = a.process(c, ctx, reg, pipeline, opts, j, outFormat, len(jobs) > 1)
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
			fmt.Fprint(c.Stderr, w)
		}
		for _, t := range r.trace {
			fmt.Fprintln(c.Stderr, t)
		}
		if r.dumps != nil {
			if err := r.dumps.flush(c); err != nil && r.Error == "" {
				r.Error = fmt.Sprintf("-print-ir-dir: %v", err)
			}
		}
		if r.Error != "" {
			failed = true
			fmt.Fprint(c.Stderr, ensureNewline(r.Error))
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

func ensureNewline(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}
