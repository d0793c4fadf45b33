package drrcli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/internal/pipecheck"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pdiparams"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/stats"
	"github.com/pirdrr/drr/verify"
)

func init() {
	register(&command{
		name:    "verify",
		usage:   "verify [flags] PROGRAM | RULES.drr... | -set NAME",
		summary: "check with real numbers that passes and rules preserve what programs compute",
		help: `
Verify runs programs with the reference interpreter (package interp) before and after a rewrite, on random inputs
and weights, and compares their outputs.

Program mode (a .pir or .json program, a GraphNet graph folder, or a folder of programs such as a GraphNet sample,
each verified in turn): the passes are chosen as drrc apply chooses them (-rules, -set, -passes;
the default inference pipeline without them) and run on a copy of the program; both copies are evaluated on -runs
random input/weight sets (seeds -seed, -seed+1, …; dynamic dims take -batch and -size, or give whole input
shapes with -input), and for every output the largest absolute and relative error is printed (the relative error
is relative to the output's scale, max|a-b| / max|a|). Programs without fetch ops (GraphNet captures) get a fetch
per sink output first, so that dead-code elimination keeps the model. A graph captured at a static batch (a
GraphNet vision graph, 64x3x224x224) is compared at -batch first, its inputs and the constants that carry the
batch rebatched alike; when that fails, the captured batch decides (-captured-batch skips the first attempt).
With -weights the parameters hold the model's real weights, read from Paddle's .pdiparams file; with
-fill-weights SEED, parameters without data get random data first, so that fold_constants has numbers to fold;
the ops left computing on weights are then listed. A program is computed in the precision of its floating-point types (float32 for float32 models, as
Paddle computes them; -float64 forces float64): each output's tolerance is then the larger of -rtol and its
float32 error budget, which grows with the reductions the output went through (docs/verify.md); an output that
differs in float32 is compared again in float64, on the runs where it did, which decides. Beside the verdict, verify prints what the passes
are worth: the program's cost figures before → after (runtime ops, kernels, FLOPs, bytes, estimated time per
inference on -device; drrc help cost). The exit status is
1 when an output differs beyond its tolerance, or when an op cannot be evaluated (the op and its position are
printed).

Many programs split into shards that run anywhere (-shard K/N, or the Bazel and Kubernetes Indexed Job variables),
each appending one JSON line per program to -results (a rerun skips the programs recorded); drrc report merges
the files and finds the gaps (docs/verify.md, "On many machines").

Rule mode (.drr files, or -set NAME without a program): every rule — every instance of a family rule — is
instantiated as small programs its pattern and where clause accept (attribute holes set to defaults and to the
literals the constraints compare them with, inputs shaped per op, parameters where the constraints want
immutable weights; up to -variants programs covering the candidate values), the rule alone is applied with the
driver, and the programs are compared. Each rule is reported ok (with its largest relative error), FAILED (with
the outputs that differ, or the error), SKIPPED (why: no program satisfies its constraints, or the interpreter
cannot evaluate one of its ops), or never (no program can make it fire: a where clause the pattern alone decides is
false, such as a family member with side effects that the rule excludes; there is nothing to verify). -set accepts
rule sets and pipelines (their rule sets are verified). The exit status is 1 when a rule FAILED or was SKIPPED;
-allow-skip accepts skipped rules (they are still listed).

Examples:
  drrc verify model.json -size 64
  drrc verify -fill-weights 5 model.json -size 64
  drrc verify -weights auto inference.json -size 64
  drrc verify -input data_0=1x3x64x64 graphnet_ResNet18.pir
  drrc verify -shard 1/4 -results shard1.jsonl GraphNet/paddle_samples
  drrc verify -set conv_bn_relu
  drrc verify -set inference -v
  drrc verify my_fusion.drr`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			v := &verifyFlags{}
			v.register(fs)
			return v.run
		},
	})
}

type verifyFlags struct {
	cf          contextFlags
	rules, sets listFlag
	passes      string
	runs        int
	seed        uint64
	batch, size int
	inputs      listFlag
	rtol, atol  float64
	float32     bool
	float64     bool
	fillWeights int64
	weights     string
	variants    int
	jobs        int
	verbose     bool
	allowSkip   bool
	captured    bool
	cpuprofile  string
	maxMACs     int64
	maxElements int
	timeout     time.Duration
	params      paramFlag
	device      string
	model       *cost.Model
	// rewrite are the driver options of the rule passes (the -param and -target values).
	rewrite rewriter.Options
	sh      shardFlags
}

func (v *verifyFlags) register(fs *flag.FlagSet) {
	v.cf.register(fs)
	v.params.register(fs)
	v.sh.register(fs)
	fs.Var(&v.rules, "rules", "apply (program mode) or verify (rule mode) the rules of `file.drr` (repeatable)")
	fs.Var(&v.sets, "set", "run (program mode) or verify (rule mode) the registered rule set or pipeline `name` (repeatable)")
	fs.StringVar(&v.passes, "passes", "", "program mode: run these passes and pipelines in order, comma-separated (\"rules\" is the -rules files); NAME[before|after POINT: PASSES] extends a pipeline, as in drrc apply")
	fs.IntVar(&v.runs, "runs", 3, "number of random input/weight sets")
	fs.Uint64Var(&v.seed, "seed", 1, "seed of the first random set (set k uses seed+k)")
	fs.IntVar(&v.batch, "batch", 1, "size of a dynamic batch dimension (dim 0) of program inputs")
	fs.IntVar(&v.size, "size", 32, "size of the other dynamic dimensions of program inputs")
	fs.Var(&v.inputs, "input", "give the program input `name=1x3x64x64` this shape (repeatable; declared static dims are then not checked)")
	fs.Float64Var(&v.rtol, "rtol", 1e-5, "largest accepted relative error of an output (relative to its scale)")
	fs.Float64Var(&v.atol, "atol", 0, "also accept an output whose largest absolute error is at most this")
	fs.BoolVar(&v.float32, "float32", false, "compute in float32 (program mode's default for float32 programs; rule mode computes in float64)")
	fs.BoolVar(&v.float64, "float64", false, "program mode: compute in float64 even for float32 programs")
	fs.StringVar(&v.weights, "weights", "", "program mode: read the parameters' data from `file.pdiparams` (auto: the program's sibling X.pdiparams)")
	fs.Int64Var(&v.fillWeights, "fill-weights", -1, "program mode: give parameters without data random data drawn from `seed` before the passes run")
	fs.IntVar(&v.variants, "variants", 4, "rule mode: programs checked per rule, chosen to cover the candidate attribute values")
	fs.IntVar(&v.jobs, "j", 0, "rule mode: rules verified in parallel (default: the number of CPUs)")
	fs.BoolVar(&v.verbose, "v", false, "print every program checked for every rule (rule mode), or output names in full (program mode)")
	fs.BoolVar(&v.allowSkip, "allow-skip", false, "rule mode: exit 0 even when rules were SKIPPED (they are still reported)")
	fs.Int64Var(&v.maxMACs, "max-macs", 0, "program mode: largest multiply-accumulate count of one conv2d, matmul or fc the interpreter evaluates (default 2^40, about 20 seconds on two cores)")
	fs.IntVar(&v.maxElements, "max-elements", 0, "program mode: largest element count of one tensor the interpreter holds (default 2^28, 1 GiB in float32)")
	fs.DurationVar(&v.timeout, "timeout", 0, "program mode: stop a program's evaluation after `duration` (10m, 1h30m; 0: no limit): the program fails with a time-out and the next one starts (its result record's status is error)")
	fs.StringVar(&v.cpuprofile, "cpuprofile", "", "write a CPU profile of the run to `file` (for go tool pprof)")
	fs.StringVar(&v.device, "device", cost.DefaultDevice, "program mode: estimate times on `device`: "+deviceNames()+", or a profile.json")
	fs.BoolVar(&v.captured, "captured-batch", false, "program mode: evaluate a graph captured at a static batch at that batch, not rebatched to -batch first")
}

// compareOptions builds the interpreter options the flags ask for.
func (v *verifyFlags) compareOptions() (compare.Options, error) {
	o := compare.Options{Runs: v.runs, Seed: v.seed, RelTol: v.rtol, AbsTol: v.atol, NoRebatch: v.captured}
	o.Batch, o.DynamicSize = v.batch, v.size
	o.MaxMACs, o.MaxElements = v.maxMACs, v.maxElements
	if v.maxMACs < 0 || v.maxElements < 0 {
		return o, fmt.Errorf("-max-macs and -max-elements must not be negative")
	}
	if v.timeout < 0 {
		return o, fmt.Errorf("-timeout must not be negative")
	}
	switch {
	case v.float32 && v.float64:
		return o, fmt.Errorf("-float32 and -float64 exclude each other")
	case v.float32:
		o.Precision = interp.Float32
	case v.float64:
		o.Precision = interp.Float64
	}
	for _, f := range []struct {
		name string
		n    int
	}{{"-runs", v.runs}, {"-batch", v.batch}, {"-size", v.size}, {"-variants", v.variants}} {
		if f.n <= 0 {
			return o, fmt.Errorf("%s must be positive, not %d", f.name, f.n)
		}
	}
	if v.jobs < 0 {
		return o, fmt.Errorf("-j %d: a count cannot be negative (0 takes the default)", v.jobs)
	}
	if v.rtol <= 0 {
		return o, fmt.Errorf("-rtol must be positive")
	}
	if v.atol < 0 {
		return o, fmt.Errorf("-atol must not be negative")
	}
	for _, in := range v.inputs {
		name, dims, ok := strings.Cut(in, "=")
		if !ok || name == "" {
			return o, fmt.Errorf("-input %q: want name=1x3x64x64", in)
		}
		var shape []int
		for _, d := range strings.Split(dims, "x") {
			n, err := strconv.Atoi(d)
			if err != nil || n < 0 {
				return o, fmt.Errorf("-input %q: bad dimension %q", in, d)
			}
			shape = append(shape, n)
		}
		if o.InputShapes == nil {
			o.InputShapes = map[string][]int{}
		}
		o.InputShapes[name] = shape
		o.IgnoreDeclaredShapes = true
	}
	return o, nil
}

func (v *verifyFlags) run(c *CLI, args []string) int {
	copts, err := v.compareOptions()
	if err != nil {
		return c.usageErrorf("verify", "%v", err)
	}
	if _, _, err := v.sh.spec(c); err != nil {
		return c.usageErrorf("verify", "%v", err)
	}
	if _, err := interp.Kernels(); err != nil {
		// A user chasing a difference between kernel paths must not get another path than the one asked for.
		return c.usageErrorf("verify", "%v", err)
	}
	var programs, ruleFiles []string
	for _, a := range args {
		if isRuleFile(a) {
			ruleFiles = append(ruleFiles, a)
		} else {
			programs = append(programs, a)
		}
	}
	if len(programs) > 0 && len(ruleFiles) > 0 {
		return c.usageErrorf("verify", "give either programs or rule files (in program mode, rule files go with -rules)")
	}
	if len(programs) == 0 && v.passes != "" {
		return c.usageErrorf("verify", "-passes needs a program (rule mode verifies -set and rule files)")
	}
	if len(programs) == 0 && len(ruleFiles) == 0 && len(v.rules) == 0 && len(v.sets) == 0 {
		return c.usageErrorf("verify", "nothing to verify: give a program, rule files or -set")
	}
	if len(programs) == 0 && v.sh.used() {
		return c.usageErrorf("verify", "-shard, -balance and -results are for programs (program mode)")
	}
	stop, err := startCPUProfile(v.cpuprofile)
	if err != nil {
		return c.errorf("verify", "%v", err)
	}
	defer stop()
	ctx, err := v.cf.context(c)
	if err != nil {
		return c.errorf("verify", "%v", err)
	}
	reg, err := c.registry()
	if err != nil {
		return c.errorf("verify", "%v", err)
	}
	if len(programs) == 0 {
		return v.verifyRules(c, ctx, reg, append(append([]string(nil), v.rules...), ruleFiles...), copts)
	}
	if v.model, err = cost.NewModel(v.device); err != nil {
		return c.usageErrorf("verify", "-device: %v", err)
	}
	pl, ok := v.pipeline(c, ctx, reg)
	if !ok {
		return exitFailure
	}
	if v.rewrite.Params, ok = v.params.resolve(c, "verify", ctx, pl); !ok {
		return exitFailure
	}
	v.rewrite.Target = v.params.target.t
	code := exitOK
	var refs []programRef
	for _, arg := range programs {
		progs, err := c.programsOf(arg)
		if err != nil {
			c.errorf("verify", "%v", err)
			code = exitFailure
			continue
		}
		for _, p := range progs {
			refs = append(refs, programRef{p, programName(arg, p)})
		}
	}
	plan, rc := v.sh.plan(c, "verify", refs)
	if plan == nil {
		return rc
	}
	// A shape for an input no program has is a misspelt name, not something to ignore: one program is checked
	// before it is verified, several once they all are (-input may name the inputs of some).
	inputs := map[string]bool{}
	for _, ref := range plan.run {
		rec := plan.record("verify", ref.path)
		var m *meter
		if plan.out != nil {
			m = startMeter()
		}
		rc := v.verifyOne(c, ctx, reg, pl, ref.path, copts, inputs, len(refs) == 1, rec)
		if rc != exitOK {
			code = max(code, rc) // a usage error (2) wins over a failure (1)
		}
		if m != nil {
			m.stop(rec)
		}
		if !plan.write(c, "verify", rec) {
			plan.close(c, "verify")
			return exitFailure
		}
	}
	if !plan.close(c, "verify") {
		code = max(code, exitFailure)
	}
	if len(refs) > 1 && len(plan.run) == len(refs) { // a shard, or a resumed run, sees only some programs
		if err := unknownInputs(copts.InputShapes, inputs); err != nil {
			return c.usageErrorf("verify", "%v", err)
		}
	}
	return code
}

// programInputs adds the names of p's inputs (pd_op.data, pd_op.feed) to names.
func programInputs(p *ir.Program, names map[string]bool) {
	for op := range p.Walk() {
		if op.Name() == "pd_op.data" || op.Name() == "pd_op.feed" {
			if name, ok := ir.AsString(op.Attr("name")); ok {
				names[name] = true
			}
		}
	}
}

// unknownInputs reports the names -input gives a shape that are none of inputs.
func unknownInputs(shapes map[string][]int, inputs map[string]bool) error {
	var unknown, known []string
	for name := range shapes {
		if !inputs[name] {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	for name := range inputs {
		known = append(known, name)
	}
	sort.Strings(unknown)
	sort.Strings(known)
	return fmt.Errorf("-input %s: no program has such an input (the inputs: %s)", strings.Join(unknown, ", "), strings.Join(known, ", "))
}

// pipeline builds the passes of program mode as drrc apply does: -rules is the pass "rules", -passes and -set
// name registered passes and pipelines, and the default is the inference pipeline.
func (v *verifyFlags) pipeline(c *CLI, ctx *ir.Context, reg *rewriter.Registry) (rewriter.Pipeline, bool) {
	return buildPipeline(c, "verify", ctx, reg, v.cf.unregistered, v.rules, v.sets, v.passes)
}

// verifyOne is verifyProgram for one program of several: a panic (a bug in drrc) ends that program with its
// error, recorded and reported with status 3, and the others still run (one graph must not lose a shard's hours).
// A single program's panic is left to Run, as in every command.
func (v *verifyFlags) verifyOne(c *CLI, ctx *ir.Context, reg *rewriter.Registry, pl rewriter.Pipeline, path string,
	copts compare.Options, inputs map[string]bool, only bool, rec *resultRecord) (rc int) {
	if !only {
		defer func() {
			if r := recover(); r != nil {
				fmt.Fprintf(c.Stderr, "drrc verify: %s: internal error: %v\nPlease report this with the command line and input files.\n", path, r)
				rec.Status, rec.Error = statusError, fmt.Sprintf("internal error: %v", r)
				rc = exitInternal
			}
		}()
	}
	return v.verifyProgram(c, ctx, reg, pl, path, copts, inputs, only, rec)
}

// verifyProgram is program mode for one program.
func (v *verifyFlags) verifyProgram(c *CLI, ctx *ir.Context, reg *rewriter.Registry, pl rewriter.Pipeline, path string,
	copts compare.Options, inputs map[string]bool, only bool, rec *resultRecord) int {
	rec.Status = statusError
	p, _, warns, err := c.readProgram(ctx, path)
	fmt.Fprint(c.Stderr, c.renderDiags(warns))
	if err != nil {
		msg := c.renderError(err)
		fmt.Fprint(c.Stderr, msg)
		rec.Error, _, _ = strings.Cut(msg, "\n")
		return exitFailure
	}
	programInputs(p, inputs)
	if only {
		if err := unknownInputs(copts.InputShapes, inputs); err != nil {
			rec.Error = err.Error()
			return c.usageErrorf("verify", "%v", err)
		}
	}
	weightsFrom := ""
	if w := v.weights; w != "" {
		if w == "auto" {
			w = siblingWeights(path)
		}
		if err := pdiparams.ReadFile(w, p); err != nil {
			rec.Error = err.Error()
			return c.errorf("verify", "%v", err)
		}
		weightsFrom = w
	}
	if !v.float32 && !v.float64 {
		copts.Precision = interp.Auto // a program is computed in the precision of its floating-point types
	}
	opts := verify.PipelineOptions{Compare: copts, Registry: reg, Rewrite: v.rewrite}
	if v.timeout > 0 {
		ctx, cancel := context.WithTimeoutCause(context.Background(), v.timeout,
			fmt.Errorf("the program's -timeout of %s ran out", v.timeout))
		defer cancel()
		opts.Compare.Context = ctx
	}
	if v.fillWeights >= 0 {
		opts.FillWeights, opts.WeightSeed = true, uint64(v.fillWeights)
	}
	var names []string
	for _, pass := range pl {
		names = append(names, pass.Name())
	}
	fmt.Fprintf(c.Stdout, "verify %s: %s\n", path, strings.Join(names, " → "))
	if weightsFrom != "" {
		fmt.Fprintf(c.Stdout, "  weights from %s\n", weightsFrom)
	}
	measured, recorder := stats.Instrument(pl, v.model)
	res, err := verify.Pipeline(p, measured, opts)
	if res.AnchoredSinks > 0 {
		fmt.Fprintf(c.Stdout, "  the program has no fetch: %d sink output(s) anchored with pd_op.fetch\n", res.AnchoredSinks)
	}
	if opts.FillWeights {
		fmt.Fprintf(c.Stdout, "  random data for %d parameter(s) (seed %d)\n", res.WeightsFilled, opts.WeightSeed)
	}
	var record stats.Program
	if res.Passes != nil && res.After != nil {
		record = recorder.Program(path, res.Passes, nil)
		if record.Before != nil {
			rec.Stats = &record
		}
		a := &applyFlags{}
		a.printStats(c.Stderr, &applyResult{Program: record, Passes: res.Passes, OpsIn: res.Before.NumOps(), OpsOut: res.After.NumOps()}, false)
		printOpDiff(c.Stderr, opStats(res.Before), opStats(res.After))
	}
	rec.PassNS, rec.EvalNS = res.PassTime.Nanoseconds(), res.CompareTime.Nanoseconds()
	if res.Report == nil {
		// The passes failed, the result is invalid, or an op cannot be evaluated.
		rec.Error = fmt.Sprint(err)
		fmt.Fprintf(c.Stdout, "FAIL: %v\n", err)
		fmt.Fprintf(c.Stderr, "drrc verify: %s: %v\n", path, err)
		var lim *interp.LimitError
		if errors.As(err, &lim) {
			flag := map[string]string{"MaxMACs": "-max-macs", "MaxElements": "-max-elements"}[lim.Option]
			fmt.Fprintf(c.Stderr, "drrc verify: %s raises the limit (the evaluation then takes the time and memory it needs)\n", flag)
		}
		return exitFailure
	}
	rep := res.Report
	head := rep // the comparison of every run: the float32 one when float64 confirmed some of its runs
	if rep.Float32 != nil {
		head = rep.Float32
	}
	fmt.Fprintf(c.Stdout, "  %d run(s) from seed %d, %s on the %s kernels, tolerance rel %g", head.Runs, copts.Seed, head.Precision, head.Kernels, head.RelTol)
	if head.Precision == interp.Float32 {
		fmt.Fprintf(c.Stdout, " or each output's float32 error budget")
	}
	if head.AbsTol > 0 {
		fmt.Fprintf(c.Stdout, " or abs %g", head.AbsTol)
	}
	fmt.Fprintf(c.Stdout, "; passes %s, evaluation %s\n", round(res.PassTime), round(res.CompareTime))
	if rep.RecordedBatch {
		fmt.Fprintf(c.Stdout, "  inputs at the recorded sample's shapes: the program cannot be evaluated with a dynamic dim 0 of %d\n", max(v.batch, 1))
	}
	if rb := rep.Rebatched; rb != nil {
		fmt.Fprintf(c.Stdout, "  at batch %d instead of the captured %d: %d input(s) and %d constant(s) rebatched\n",
			rb.To, rb.From, rb.Inputs, rb.Constants)
	}
	if rb := rep.NotRebatched; rb != nil {
		fmt.Fprintf(c.Stdout, "  at the captured batch %d; at batch %d the comparison did not stand: %s\n", rb.From, rb.To, rb.Why)
	}
	if f32 := rep.Float32; f32 != nil {
		var parts []string
		for _, o := range f32.Failures() {
			if o.Problem == "" {
				parts = append(parts, fmt.Sprintf("%s max rel %.3g > tol %.3g", o.Name, o.MaxRel, o.Tol))
			}
		}
		seeds := make([]string, len(f32.FailedRuns))
		for i, k := range f32.FailedRuns {
			seeds[i] = strconv.FormatUint(copts.Seed+uint64(k), 10)
		}
		them := "them"
		if len(seeds) == 1 {
			them = "it"
		}
		fmt.Fprintf(c.Stdout, "  in float32, %d output(s) differ beyond their error budget (%s) in %d of the runs (seed %s); float64 decides %s:\n",
			len(f32.Failures())+len(f32.Unmatched), strings.Join(parts, ", "), len(seeds), strings.Join(seeds, ", "), them)
	}
	printOutputTable(c.Stdout, rep, v.verbose, path)
	if opts.FillWeights || v.weights != "" {
		if len(res.WeightOps) == 0 {
			fmt.Fprintln(c.Stdout, "  weight arithmetic left after the passes: none")
		} else {
			var parts []string
			for _, k := range verify.SortedCounts(res.WeightOps) {
				parts = append(parts, fmt.Sprintf("%d %s", res.WeightOps[k], k))
			}
			fmt.Fprintf(c.Stdout, "  weight arithmetic left after the passes: %s\n", strings.Join(parts, ", "))
		}
	}
	maxRel := 0.0
	for _, o := range rep.Outputs {
		maxRel = max(maxRel, o.MaxRel)
		rec.MaxAbs = max(rec.MaxAbs, o.MaxAbs)
	}
	rec.Outputs, rec.MaxRel, rec.Precision, rec.Kernels = len(rep.Outputs), maxRel, rep.Precision.String(), rep.Kernels
	if record.Before != nil && record.After != nil {
		// What the verified rewrite is worth, beside what it computes.
		line := stats.ChangeLine(record.Before, record.After)
		if line == "" {
			line = "unchanged"
		}
		fmt.Fprintf(c.Stdout, "  %s: ops %d → %d, %s\n", stats.Heading(record.Before), record.Before.Ops, record.After.Ops, line)
	}
	if err != nil {
		fmt.Fprintf(c.Stdout, "FAIL: %d of %d output(s) differ beyond the tolerance\n", len(rep.Failures())+len(rep.Unmatched), len(rep.Outputs))
		fmt.Fprintf(c.Stderr, "drrc verify: %s: %v\n", path, err)
		rec.Status, rec.Error = statusFailed, err.Error()
		return exitFailure
	}
	rec.Status = statusOK
	fmt.Fprintf(c.Stdout, "ok: %d output(s) agree (max rel %.3g)\n", len(rep.Outputs), maxRel)
	return exitOK
}

// printOutputTable prints one line per output: shape, largest absolute and relative error, verdict; then the
// unmatched outputs and the published parameters left out (compare.Report.Published). Sink names mention the
// program's path, shortened to its base name.
func printOutputTable(w io.Writer, rep *compare.Report, verbose bool, path string) {
	short := func(name string) string {
		if path != "" && path != "-" {
			name = strings.ReplaceAll(name, path, filepath.Base(path))
		}
		return name
	}
	width := len("output")
	for _, o := range rep.Outputs {
		width = max(width, min(len(short(o.Name)), 60))
	}
	fmt.Fprintf(w, "  %-*s  %-16s %10s %10s %10s  %s\n", width, "output", "shape", "max abs", "max rel", "tol", "status")
	for _, o := range rep.Outputs {
		name := short(o.Name)
		if len(name) > 60 && !verbose {
			name = "…" + name[len(name)-59:]
		}
		if o.Problem != "" {
			fmt.Fprintf(w, "  %-*s  %-16s %10s %10s %10s  FAIL: %s\n", width, name, "", "", "", "", o.Problem)
			continue
		}
		status := "ok"
		if !o.OK {
			status = fmt.Sprintf("FAIL (run %d, element %d: %.6g before, %.6g after)", o.Run, o.Index, o.Before, o.After)
		}
		if o.Random {
			status += " (depends on random ops)"
		}
		fmt.Fprintf(w, "  %-*s  %-16s %10.3g %10.3g %10.3g  %s\n", width, name, fmt.Sprint(o.Shape), o.MaxAbs, o.MaxRel, o.Tol, status)
	}
	for _, u := range rep.Unmatched {
		fmt.Fprintf(w, "  unmatched: %s\n", u)
	}
	if n := len(rep.Published); n > 0 {
		// Many graphs publish tens of dead weights (LLaMA-7B 32): their names, unless verbose, only up to 3.
		var names []string
		for i, p := range rep.Published {
			if i == 3 && !verbose {
				names = append(names, fmt.Sprintf("… %d more (-v lists them)", n-3))
				break
			}
			if p.Name == p.Param {
				names = append(names, p.Name)
			} else {
				names = append(names, fmt.Sprintf("%s (parameter %s)", p.Name, p.Param))
			}
		}
		fmt.Fprintf(w, "  not compared: %d shadow_output(s) publishing a parameter unchanged (no model outputs): %s\n", n,
			strings.Join(names, ", "))
	}
}

// namedSet is a rule set to verify with the name it is reported under.
type namedSet struct {
	name string
	set  *rule.Set
}

// ruleSets collects the sets of rule mode: the rule files (one set) and the rule sets of the -set names.
func (v *verifyFlags) ruleSets(c *CLI, ctx *ir.Context, reg *rewriter.Registry, files []string) ([]namedSet, bool) {
	var out []namedSet
	if len(files) > 0 {
		set, diags := drr.Load(ctx, c.loadOptions(drr.CheckOptions{Unregistered: v.cf.unregistered, Natives: reg.HasNative}), files...)
		c.printRuleDiags(diags, true)
		if diags.HasErrors() {
			return nil, false
		}
		out = append(out, namedSet{strings.Join(files, ", "), set})
	}
	if err := pipecheck.Passes(reg, v.sets, false, "-set"); err != nil {
		c.errorf("verify", "%v", err)
		return nil, false
	}
	seen := map[*rule.Set]bool{}
	for _, name := range v.sets {
		pl, err := reg.Pipeline(ctx, name)
		if err != nil {
			c.errorf("verify", "%v", err)
			return nil, false
		}
		found := false
		for _, p := range pl {
			rp, ok := p.(*rewriter.RulePass)
			if !ok {
				if len(pl) == 1 {
					fmt.Fprintf(c.Stderr, "drrc verify: %s is a Go pass, not a rule set: verify it on a program (drrc verify -passes %s PROGRAM)\n", name, name)
				}
				continue
			}
			found = true
			if !seen[rp.Set] {
				seen[rp.Set] = true
				out = append(out, namedSet{rp.Name(), rp.Set})
			}
		}
		if !found && len(pl) == 1 {
			return nil, false
		}
	}
	return out, true
}

// verifyRules is rule mode.
func (v *verifyFlags) verifyRules(c *CLI, ctx *ir.Context, reg *rewriter.Registry, files []string, copts compare.Options) int {
	sets, ok := v.ruleSets(c, ctx, reg, files)
	if !ok {
		return exitFailure
	}
	var decls []*rule.ParamDecl
	for _, ns := range sets {
		decls = append(decls, ns.set.Params...)
	}
	if v.rewrite.Params, ok = v.params.resolveDecls(c, "verify", ctx, decls); !ok {
		return exitFailure
	}
	v.rewrite.Target = v.params.target.t
	failed := false
	var nOK, nFailed, nSkipped, nNever int
	for _, ns := range sets {
		start := time.Now()
		results, err := verify.Rules(ns.set, verify.RuleOptions{Compare: copts, Registry: reg,
			MaxInstances: v.variants, Jobs: v.jobs, Rewrite: v.rewrite})
		if err != nil {
			c.errorf("verify", "%s: %v", ns.name, err)
			failed = true
			continue
		}
		fmt.Fprintf(c.Stdout, "%s: %d rule(s), %s\n", ns.name, len(results), round(time.Since(start)))
		width := len("rule")
		for _, r := range results {
			width = max(width, len(r.Rule.ID()))
		}
		fmt.Fprintf(c.Stdout, "  %-*s  %-7s  %9s  %8s  %s\n", width, "rule", "status", "max rel", "programs", "detail")
		for _, r := range results {
			rel := ""
			if r.Status == verify.RuleOK || r.Status == verify.RuleFailed && len(r.Variants) > 0 {
				rel = fmt.Sprintf("%.3g", r.MaxRel)
			}
			fmt.Fprintf(c.Stdout, "  %-*s  %-7s  %9s  %8d  %s\n", width, r.Rule.ID(), r.Status, rel, len(r.Variants), r.Reason)
			if r.Status == verify.RuleFailed && r.Witness != nil && !v.verbose {
				fmt.Fprintf(c.Stdout, "      on %s\n", r.Witness.Instance)
			}
			if v.verbose {
				for i, vr := range r.Variants {
					fmt.Fprintf(c.Stdout, "      program %d: %s: %s\n", i+1, vr.Status, vr.Instance)
					if vr.Reason != "" && vr.Status != verify.RuleOK {
						fmt.Fprintf(c.Stdout, "        %s\n", vr.Reason)
					}
					if vr.Report != nil {
						for _, o := range vr.Report.Outputs {
							fmt.Fprintf(c.Stdout, "        %s: shape %v, max abs %.3g, max rel %.3g\n", o.Name, o.Shape, o.MaxAbs, o.MaxRel)
						}
					}
				}
			}
			switch r.Status {
			case verify.RuleOK:
				nOK++
			case verify.RuleFailed:
				nFailed++
				failed = true
				fmt.Fprintf(c.Stderr, "drrc verify: %s: rule %s FAILED: %s\n", r.Rule.Pos, r.Rule.ID(), r.Reason)
			case verify.RuleNeverFires:
				nNever++
			default:
				nSkipped++
				if !v.allowSkip {
					failed = true
					fmt.Fprintf(c.Stderr, "drrc verify: %s: rule %s SKIPPED: %s\n", r.Rule.Pos, r.Rule.ID(), r.Reason)
				}
			}
		}
	}
	fmt.Fprintf(c.Stdout, "%d ok, %d FAILED, %d SKIPPED", nOK, nFailed, nSkipped)
	if nNever > 0 {
		fmt.Fprintf(c.Stdout, ", %d never fire", nNever)
	}
	fmt.Fprintln(c.Stdout)
	if failed {
		return exitFailure
	}
	return exitOK
}
