package drrcli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pdiparams"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/stats"
)

// applyJob is one program to process.
type applyJob struct {
	in, out string
	// sub is the job's name below the input folder without its extension (a/b for DIR/a/b.json), the subfolder of
	// -print-ir-dir for the job when there are several.
	sub string
	// single is set when the one program was named as such: its output path decides its format (-o out.pir).
	single bool
	// sample is the GraphNet sample folder the job is a graph of ("" for none): the statistics sum its graphs.
	sample string
	res    *applyResult
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

// jobsFor expands the arguments into jobs with their output paths. An argument is a program (a file, a program
// folder, "-") or a folder of programs (Registry.Expand: the files of formats that read, and program folders).
// Several programs write into the folder -o, under their names relative to the folder given, renamed for the
// output format when -format names one (a.json → a.pir).
func (a *applyFlags) jobsFor(c *CLI, args []string, outFormat *pirfile.Format) ([]*applyJob, error) {
	type input struct {
		path, rel, sample string
		folder            bool // a program folder (a GraphNet graph): its name has no extension
	}
	var inputs []input
	fromFolder := false
	for _, arg := range args {
		if arg == "-" {
			inputs = append(inputs, input{"-", "stdin", "", false})
			continue
		}
		progs, err := c.formats().Expand(arg)
		if err != nil {
			return nil, err
		}
		if len(progs) == 1 && progs[0] == arg {
			inputs = append(inputs, input{arg, filepath.Base(arg), "", isFolder(arg)})
			continue
		}
		if len(progs) == 0 {
			return nil, fmt.Errorf("no programs under %s (files of the formats %s, or program folders)", arg, c.formats().Names(true))
		}
		fromFolder = true
		sample := ""
		if isSampleFolder(arg, progs) {
			sample = arg
		}
		for _, p := range progs {
			rel, err := filepath.Rel(arg, p)
			if err != nil || strings.HasPrefix(rel, "..") {
				rel = filepath.Base(p)
			}
			inputs = append(inputs, input{p, rel, sample, isFolder(p)})
		}
	}
	if len(inputs) == 1 && !fromFolder {
		in := inputs[0]
		out := a.out
		if out == "" {
			out = "-"
		}
		if namesFolder(out) {
			// -o DIR/ is the folder to write the program into, under its name: the graph folder itself for a folder
			// format (a GraphNet graph is a folder), DIR/NAME.EXT for a file format.
			f := outFormat
			if f == nil {
				var err error
				if in.path == "-" {
					f = c.formats().ByExtension(".pir")
				} else if f, err = c.formats().Detect(in.path); err != nil {
					return nil, err
				}
			}
			if !f.Dir {
				out = filepath.Join(out, f.OutputName(in.rel, in.folder))
			}
		}
		return []*applyJob{{in: in.path, out: out, single: true, sub: ""}}, nil
	}
	if a.out == "" || a.out == "-" {
		return nil, fmt.Errorf("several programs need -o DIR for the results")
	}
	if info, err := os.Stat(a.out); err == nil && !info.IsDir() {
		return nil, fmt.Errorf("-o %s: several programs need a folder, and this is a file", a.out)
	}
	var jobs []*applyJob
	for _, in := range inputs {
		if in.path == "-" {
			return nil, fmt.Errorf("standard input (-) is one program: give it alone")
		}
		name := in.rel
		if outFormat != nil {
			name = outFormat.OutputName(name, in.folder)
		}
		jobs = append(jobs, &applyJob{in: in.path, out: filepath.Join(a.out, name), sub: strings.TrimSuffix(in.rel, filepath.Ext(in.rel)),
			sample: in.sample})
	}
	return jobs, nil
}

// checkOutputs reports two programs that would be written to the same output (a.json and a.pir with -format pir,
// or one program given twice).
func checkOutputs(jobs []*applyJob) error {
	outs := map[string]string{}
	for _, j := range jobs {
		if prev, dup := outs[j.out]; dup {
			return fmt.Errorf("%s and %s would both be written to %s", prev, j.in, j.out)
		}
		outs[j.out] = j.in
	}
	return nil
}

// process runs the pipeline on one program and writes the result.
func (a *applyFlags) process(c *CLI, ctx *ir.Context, reg *rewriter.Registry, pl rewriter.Pipeline, opts rewriter.Options,
	j *applyJob, outFormat *pirfile.Format, several bool) *applyResult {
	r := &applyResult{Program: stats.Program{Program: j.in}, Output: j.out}
	t0 := time.Now()
	p, inFormat, warns, err := c.readProgram(ctx, j.in)
	r.Parse = time.Since(t0)
	if len(warns) > 0 {
		r.warnings = append(r.warnings, c.renderDiags(warns))
	}
	if err != nil {
		r.Error = c.renderError(err)
		return r
	}
	// The cost figures of the program as read are measured while it is checked (both only read it).
	var rec *stats.Recorder
	if a.model != nil {
		rec = stats.NewRecorder(a.model)
		rec.StartBefore(p)
	}
	// A program that fails checking is not rewritten: the passes assume a valid program, and what they would make
	// of another is not the user's program (nothing is written, the exit status is 1).
	errs := ir.Verify(p).Errors()
	if rec != nil {
		rec.Wait() // the weights are read into the program next
	}
	if len(errs) > 0 {
		r.Error = c.renderDiags(errs) + fmt.Sprintf("%s: the program fails checking (%s): not rewritten, nothing written\n",
			j.in, nouns(len(errs), "error"))
		return r
	}
	if w := a.weightsIn(j.in); w != "" {
		if err := pdiparams.ReadFile(w, p); err != nil {
			r.Error = err.Error()
			return r
		}
	} else if a.weights == "auto" {
		where := "standard input has no parameter file beside it"
		if j.in != "-" {
			where = "there is no " + siblingWeights(j.in)
		}
		r.warnings = append(r.warnings, fmt.Sprintf("%s: warning: -weights auto: %s, so no weights were read\n", j.in, where))
	}
	// The output's format: -format, else (for one program) the output file's extension, else the input's format.
	outName := ""
	if j.single {
		outName = j.out
	}
	f := outFormat
	if f == nil {
		if f, err = c.formats().OutputFormat("", outName, inFormat); err != nil {
			r.Error = fmt.Sprintf("%s: %v", j.out, err)
			return r
		}
	}
	if j.out != "-" && !f.Dir {
		if info, err := os.Stat(j.out); err == nil && info.IsDir() {
			r.Error = fmt.Sprintf("-o %s is a directory: one program is written to a file (several programs or a folder of programs take -o DIR)", j.out)
			return r
		}
	}
	r.OpsIn = p.NumOps()
	if a.trace {
		opts.Trace = func(e rewriter.TraceEvent) { r.trace = append(r.trace, e.String()) }
	}
	if a.printIR.enabled() {
		r.dumps = a.printIR.printer(a.untagged)
		pl = r.dumps.wrap(pl)
		if several {
			r.dumps.sub = j.sub
		}
	}
	if rec != nil {
		// The figures after the last pass are measured when the record is made, as the job ends, whichever way:
		// after the result is checked and written, which then have the cores to themselves.
		rec.MeasureLastAtEnd()
		pl = rec.Instrument(pl)
	}
	t1 := time.Now()
	results, err := pl.Run(p, &rewriter.Env{Registry: reg, Options: opts})
	r.Rewrite = time.Since(t1)
	if rec != nil {
		defer func() { r.Program = rec.Program(j.in, results, p) }()
	}
	if r.dumps != nil {
		// The dumps go first, failed passes included: a program whose dumps cannot be written is not written.
		if derr := r.dumps.writeFiles(); derr != nil {
			if err == nil {
				r.Error = fmt.Sprintf("%s: %v; the program is not written", j.in, derr)
				return r
			}
			r.warnings = append(r.warnings, fmt.Sprintf("%s: %v\n", j.in, derr))
		}
	}
	r.Passes = results
	r.OpsOut = p.NumOps()
	r.warnings = append(r.warnings, passWarnings(j.in, results)...)
	if err != nil {
		r.Error = fmt.Sprintf("%s: %v", j.in, err)
		if ds, ok := pirfile.DiagnosticsOf(err); ok {
			// A pass that reports positioned problems (kernel_check): each with its source line.
			first, _, _ := strings.Cut(err.Error(), "\n")
			r.Error = fmt.Sprintf("%s: %s\n%s", j.in, first, c.renderDiags(ds))
		}
		return r
	}
	t2 := time.Now()
	weightsOut := a.weightsFile(j.out)
	// The result is judged (rewriter.Outcome, which checks the whole program) while it is printed, where the
	// printing can be undone: into a regular file, written atomically, whose rename waits for the judgement.
	// Otherwise (standard output, a device, a folder, a weights file beside it) the judgement comes first.
	var verdict *verdictGate
	if writesUndoably(j.out, f) && weightsOut == "" {
		verdict = &verdictGate{ch: make(chan bool, 1)}
		go func() { verdict.ch <- a.timedJudge(j, r, p, results) }()
	} else if !a.timedJudge(j, r, p, results) {
		r.output = time.Since(t2)
		return r
	}
	// The weights go first: if the program cannot be written, a weights file that did not exist is removed again.
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
	popts := pirfile.Options{Untagged: a.untagged, Internal: a.internal}
	if j.out == "-" {
		err = writeStdout(c, p, f, popts)
	} else {
		if dir := filepath.Dir(j.out); dir != "." {
			err = os.MkdirAll(dir, 0o755)
		}
		if err == nil {
			err = pirfile.Save(p, j.out, verdict.gate(f), popts)
		}
	}
	// Print is the writing alone: without the judgement when it came first, and without the wait for it at the end
	// when it ran alongside (-timing reports it as check).
	r.Print = time.Since(t2) - verdict.waitTime()
	written := verdict == nil || verdict.wait()
	r.output = time.Since(t2)
	if verdict == nil {
		r.Print -= r.Check
	}
	if !written {
		return r // judged not to be written: the judgement said why, and the file is as it was
	}
	if err != nil {
		r.Error = fmt.Sprintf("%s: %v", j.out, err)
	}
	return r
}

// timedJudge is judge, recording its duration in r.Check.
func (a *applyFlags) timedJudge(j *applyJob, r *applyResult, p *ir.Program, results []*rewriter.PassResult) bool {
	t := time.Now()
	ok := a.judge(j, r, p, results)
	r.Check = time.Since(t)
	return ok
}

// judge reports whether the rewritten program may be written, recording in r what keeps it from being the rules'
// result (rewriter.Outcome, the one judgement every command uses): a program that fails checking is never written;
// a rule pass a limit stopped (one that grows the program forever stops so) and failed rewrites are not written
// unless -keep-going.
func (a *applyFlags) judge(j *applyJob, r *applyResult, p *ir.Program, results []*rewriter.PassResult) bool {
	for _, finding := range rewriter.Outcome(p, results) {
		switch e := finding.(type) {
		case *rewriter.InvalidProgramError:
			r.Error = fmt.Sprintf("%s: the rewritten program fails checking, so it is not written (-verify-each names the rule that broke it):\n%s",
				j.in, e.Diags.Error())
			return false
		case *rewriter.LimitError:
			if !a.keepGoing {
				r.Error = fmt.Sprintf("%s: %v; the program is not written (-max-rewrites and -max-iterations raise the limits, -keep-going writes it anyway)", j.in, e)
				return false
			}
			r.warnings = append(r.warnings, fmt.Sprintf("%s: warning: %v; written anyway (-keep-going)\n", j.in, e))
		case *rewriter.FailedRewritesError:
			r.FailedRewrites = e.N
			if !a.keepGoing {
				r.Error = fmt.Sprintf("%s: %v; the program is not written (-keep-going writes it anyway)", j.in, e)
				return false
			}
		}
	}
	return true
}

// passWarnings renders the warnings of a pipeline's passes, one line per distinct warning naming the passes that
// gave it (every rule pass says the same of a program without outputs).
func passWarnings(in string, results []*rewriter.PassResult) []string {
	var texts []string
	passes := map[string][]string{}
	for _, pr := range results {
		for _, w := range pr.Warnings {
			if _, seen := passes[w]; !seen {
				texts = append(texts, w)
			}
			passes[w] = append(passes[w], pr.Pass)
		}
	}
	var out []string
	for _, w := range texts {
		ps := dedupe(passes[w])
		out = append(out, fmt.Sprintf("%s: warning: %s %s: %s\n", in, pluralWord(len(ps), "pass", "passes"), strings.Join(ps, ", "), w))
	}
	return out
}

// dedupe returns names without repetitions, in first-seen order.
func dedupe(names []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}
