// Package drrtest runs golden rewrite tests: txtar archives that hold rule files, an input program, the passes to
// run and the expected output — the tests rule authors keep next to their rules. drrc test runs the same archives
// from the command line; Run runs them under go test.
//
// An archive:
//
//	Optional description (the archive's comment).
//	-- rules.drr --        rule files (any number of .drr files; they may import each other, and files beside the
//	                       archive: an import resolves relative to the archive's folder, an absolute one as it is)
//	-- input.pir --        the input program (input.json for PIR JSON; a GraphNet graph is input/model.py,
//	                       input/weight_meta.py and input/input_meta.py)
//	-- passes --           optional: passes and pipelines to run, one per line or comma-separated, a pipeline
//	                       extended as drrc apply -passes extends it (gpu_inference[before reinplace: rules]); "rules" names
//	                       the archive's own rules; the default is "rules"
//	-- options --          optional: drrc apply flags: -unregistered -bottom-up -no-dce -verify-each=false
//	                       -max-iterations N -max-rewrites N -shuffle SEED -disable LABEL -enable LABEL
//	                       -param NAME=VALUE (a rule-set parameter of the passes that run; repeatable)
//	                       -target gpu:smNN|cpu (the device: sets sm_version, and kernel_check's table)
//	-- output.pir --       the expected program after the passes (output.json for PIR JSON, output/model.py,
//	                       output/weight_meta.py and output/input_meta.py for a GraphNet graph; without an
//	                       output section, in the input's form)
//	-- stats --            optional: the expected statistics (rewrites per rule, stop reasons)
//	-- ops --              optional: op counts the output must have, one "NAME: N" a line (# comments), counted
//	                       in the program's top-level block as Paddle's pass tests count their valid_op_map
//	-- errors --           instead of an output: the expected diagnostics (rule check errors, a failed pipeline)
//
// A rule pass that reaches -max-rewrites or -max-iterations before converging fails the run (its program is not
// what the rules make of the input), as a rewrite cycle does.
//
// An archive may run its input more than once: each section RUN:passes (RUN a name: letters, digits, _ and -)
// declares another run of the same input and rule files, whose sections are RUN:options, RUN:output.pir (or
// RUN:output.json, RUN:output/...), RUN:stats, RUN:ops and RUN:errors, with the meaning above. The unprefixed
// sections are the first run. Paddle's pass tests are kept this way: the pass alone, then a run named
// gpu_inference of the whole pipeline (rules/testdata/paddle_tests).
//
// Each run verifies the program after every rewrite (-verify-each is on unless the options turn it off). With
// Options.Update the expected sections are rewritten from what the run produced — never from a run that failed
// where the archive expects an output (nor from one that succeeded where it expects errors): an archive expects
// errors exactly when it has an errors section. An ops section is a requirement, not a record: -update never
// writes it. Failures show unified diffs with word lines (~) that mark what changed inside a line. Unknown pass
// names, labels and rule names in the passes and options sections are errors.
package drrtest

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/internal/fileio"
	"github.com/pirdrr/drr/internal/golden"
	"github.com/pirdrr/drr/internal/pipecheck"
	"github.com/pirdrr/drr/internal/textdiff"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
)

// Options configure a run.
type Options struct {
	// Update rewrites the expected sections of failing archives with what the run produced.
	Update bool
	// Run, if set, selects the archives whose name (path relative to the directory given, without .txtar) it
	// matches.
	Run *regexp.Regexp
	// Registry is where the archives' passes and natives are found (nil: a registry of the shipped rule sets and
	// passes, rules.Register). drrc test passes its own, so that a drrc built with plugins tests their rules.
	Registry *rewriter.Registry
	// Params are -param NAME=VALUE assignments for every archive (drrc test -param), before the archive's own
	// options: an archive's -param of the same name wins. An archive whose passes declare none of the names
	// fails, as with an unknown name in its options.
	Params []string
	// Target is the target of every archive (drrc test -target) whose options give none (an archive's -target
	// wins): it sets the parameter sm_version of the sets that declare it and is the target of kernel_check.
	Target ir.Target
	// MaxFileSize is the size limit of an archive (0: pirfile.DefaultMaxFileSize); only regular files are read.
	MaxFileSize int64

	shared *shared // what the archives of one RunPath share (nil: nothing, each archive makes its own)
}

// shared is what the archives of one RunPath share: the registry of the shipped sets when Options gives none, and
// a Context per dialect mode, so that a registry's rule sets are loaded and checked once per mode rather than once
// per archive (the shipped sets cache their compiled pass per Context). A Context only interns types and
// attributes: what one archive reads into it cannot change what another computes.
type shared struct {
	reg  *rewriter.Registry
	ctxs [2]*ir.Context // the default dialects, and unregistered ops only
}

// get returns the registry (reg, else the shipped sets') and the Context of the mode the archive asks for; a nil
// s makes new ones.
func (s *shared) get(reg *rewriter.Registry, unregistered bool) (*rewriter.Registry, *ir.Context, error) {
	if reg == nil && s != nil {
		reg = s.reg
	}
	if reg == nil {
		reg = rewriter.NewRegistry()
		if err := rules.Register(reg); err != nil {
			return nil, nil, err
		}
		if s != nil {
			s.reg = reg
		}
	}
	mode := 0
	if unregistered {
		mode = 1
	}
	if s != nil && s.ctxs[mode] != nil {
		return reg, s.ctxs[mode], nil
	}
	ctx := ir.NewContext()
	if !unregistered {
		if err := ctx.LoadDefaultDialects(); err != nil {
			return nil, nil, err
		}
	}
	if s != nil {
		s.ctxs[mode] = ctx
	}
	return reg, ctx, nil
}

// Result is the outcome of one archive.
type Result struct {
	Name string
	Path string
	// Failures lists what differed: one entry per section, with a unified diff or a message.
	Failures []string
	// Updated is set when the archive was rewritten.
	Updated bool
}

// OK reports whether the archive passed.
func (r *Result) OK() bool { return len(r.Failures) == 0 }

// Files returns the archives under path (a .txtar file, or a directory searched recursively), sorted.
func Files(path string) ([]string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{path}, nil
	}
	var out []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".txtar") {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// RunPath runs every archive under path.
func RunPath(path string, opts Options) ([]*Result, error) {
	files, err := Files(path)
	if err != nil {
		return nil, err
	}
	base := path
	if info, err := os.Stat(path); err == nil && !info.IsDir() {
		base = filepath.Dir(path)
	}
	if opts.shared == nil {
		opts.shared = &shared{}
	}
	var out []*Result
	for _, f := range files {
		name, _ := filepath.Rel(base, f)
		name = strings.TrimSuffix(filepath.ToSlash(name), ".txtar")
		if opts.Run != nil && !opts.Run.MatchString(name) {
			continue
		}
		r, err := RunFile(f, opts)
		if err != nil {
			return out, err
		}
		r.Name = name
		out = append(out, r)
	}
	return out, nil
}

// RunFile runs one archive. The error is for archives that cannot be read or are malformed; test failures are
// in the Result.
func RunFile(path string, opts Options) (*Result, error) {
	limit := opts.MaxFileSize
	if limit <= 0 {
		limit = pirfile.DefaultMaxFileSize
	}
	data, err := fileio.ReadFile(path, limit)
	if err != nil {
		return nil, err
	}
	ar := txtar.Parse(data)
	res := &Result{Name: strings.TrimSuffix(filepath.Base(path), ".txtar"), Path: path}
	runs, err := archiveRuns(ar)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	changed := false
	for _, run := range runs {
		got, err := runArchive(ar, path, opts, run)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if compareRun(ar, run, got, opts.Update, res) {
			changed = true
		}
	}
	if changed {
		if err := pirfile.WriteFile(path, txtar.Format(ar)); err != nil {
			return nil, err
		}
		res.Updated = true
	}
	return res, nil
}

// compareRun compares what one run produced with the archive's expectations, adding to res.Failures, or rewrites
// the expected sections when update is set (never the ops section, nor one kind of outcome into the other). It
// reports whether it changed the archive.
func compareRun(ar *txtar.Archive, run string, got *produced, update bool, res *Result) bool {
	// An archive expects errors when it has an errors section, else an output. A run whose outcome is of the other
	// kind fails, and -update never turns one kind of expectation into the other: it would write a failure down as
	// what the rules should do (or drop an error test).
	if _, wantErrors := section(ar, run+"errors"); wantErrors != got.errored {
		if got.errored {
			res.Failures = append(res.Failures, runLabel(run)+"the run failed, but the archive expects an output (-update does not "+
				"write expectations from a failed run; an archive that tests errors has an errors section):\n"+got.sections[0].text)
		} else {
			res.Failures = append(res.Failures, runLabel(run)+"the run succeeded, but the archive expects errors (-update does not "+
				"replace an errors section; remove it to expect the output)")
		}
		return false
	}
	res.Failures = append(res.Failures, got.checks...)
	changed := false
	for _, sec := range got.sections {
		want, ok := section(ar, sec.name)
		if ok && normalize(want) == normalize(sec.text) {
			continue
		}
		if !ok && sec.optional {
			continue
		}
		if update {
			setSection(ar, sec.name, sec.text)
			changed = true
			continue
		}
		if !ok {
			res.Failures = append(res.Failures, fmt.Sprintf("missing section %s (run with -update); the run produced:\n%s", sec.name, sec.text))
			continue
		}
		res.Failures = append(res.Failures, fmt.Sprintf("%s differs:\n%s", sec.name,
			textdiff.UnifiedWords("want/"+sec.name, "got/"+sec.name, normalize(want), normalize(sec.text))))
	}
	for _, stale := range got.stale {
		if _, ok := section(ar, stale); !ok {
			continue
		}
		if update {
			removeSection(ar, stale)
			changed = true
			continue
		}
		res.Failures = append(res.Failures, fmt.Sprintf("section %s is present, but the run produced none", stale))
	}
	return changed
}

// produced is what a run of an archive produced, section by section.
type produced struct {
	// errored is set when the run failed: the first section is its errors.
	errored  bool
	sections []gotSection
	// stale names expected sections the run has nothing for (an output when there were errors, …).
	stale []string
	// checks are the failures of requirements -update does not rewrite (the ops section).
	checks []string
}

type gotSection struct {
	name     string
	text     string
	optional bool // only compared when the archive has the section
}

// runArchive runs the archive's input through the passes of one run (run is "" for the first run, else the
// prefix "NAME:" of its sections).
func runArchive(ar *txtar.Archive, path string, opts Options, run string) (*produced, error) {
	// The archive's rule files, read from memory; their imports of other files resolve relative to the archive's
	// folder (an absolute path as it is), so that an archive may test the rule file it sits beside.
	var ruleFiles []string
	files := map[string][]byte{}
	for i := range ar.Files {
		f := &ar.Files[i]
		if strings.HasSuffix(f.Name, ".drr") {
			name := filepath.Clean(filepath.FromSlash(f.Name))
			ruleFiles = append(ruleFiles, name)
			files[name] = f.Data
		}
	}
	if _, ok := formOf(ar, "input"); !ok {
		return nil, errNoInput
	}
	cfg, err := parseOptions(ar, run)
	if err != nil {
		return nil, err
	}
	reg, ctx, err := opts.shared.get(opts.Registry, cfg.unregistered)
	if err != nil {
		return nil, err
	}
	// The output's form: that of the archive's output sections, else the input's.
	inForm, _ := formOf(ar, "input")
	outForm, ok := formOf(ar, run+"output")
	if !ok {
		outForm = inForm
	}
	outNames := outForm.sections(run + "output")
	errorsOut := func(msg string) *produced {
		return &produced{errored: true, sections: []gotSection{{name: run + "errors", text: msg}},
			stale: append(outNames, run+"stats")}
	}
	if err := pipecheck.Passes(reg, pipecheck.Names(cfg.passes), len(ruleFiles) > 0, run+"passes"); err != nil {
		return nil, err
	}
	// The archive's rules.
	var passes rewriter.Pipeline
	if len(ruleFiles) > 0 {
		set, diags := drr.Load(ctx, drr.LoadOptions{Dir: filepath.Dir(path), Files: files,
			CheckOptions: drr.CheckOptions{Unregistered: cfg.unregistered, Natives: reg.HasNative}}, ruleFiles...)
		if diags.HasErrors() {
			return errorsOut(diags.Error() + "\n"), nil
		}
		cfg.ruleSet = rewriter.NewRulePass("rules", set)
	}
	items := cfg.passes
	if len(items) == 0 {
		if cfg.ruleSet == nil {
			return nil, fmt.Errorf(`%spasses names "rules" but the archive has no .drr file`, run)
		}
		items = []pipecheck.Item{{Name: pipecheck.Rules}}
	}
	local := map[string]rewriter.Pass{}
	if cfg.ruleSet != nil {
		local[pipecheck.Rules] = cfg.ruleSet
	}
	passes, err = pipecheck.Build(reg, func(n string) (rewriter.Pipeline, error) { return reg.Pipeline(ctx, n) }, local, items)
	if err != nil {
		return nil, fmt.Errorf("%spasses: %w", run, err)
	}
	if err := pipecheck.Labels(passes, cfg.enable, cfg.disable); err != nil {
		return nil, fmt.Errorf("%soptions: %w", run, err)
	}
	if cfg.driver.Target.IsZero() {
		cfg.driver.Target = opts.Target
	}
	if cfg.driver.Params, err = drr.ParseParams(ctx, passes.Params(), append(append([]string(nil), opts.Params...), cfg.params...)); err != nil {
		return nil, fmt.Errorf("%soptions: %w", run, err)
	}
	if cfg.driver.Params, err = drr.TargetParams(passes.Params(), cfg.driver.Params, cfg.driver.Target); err != nil {
		return nil, fmt.Errorf("options: %w", err)
	}
	prog, _, readErr, err := readInput(ctx, ar)
	if err != nil {
		return nil, err
	}
	if readErr != nil {
		return errorsOut(readErr.Error() + "\n"), nil
	}
	results, err := passes.Run(prog, &rewriter.Env{Registry: reg, Options: cfg.driver})
	stats := formatStats(results)
	if err == nil {
		// A pass that a limit stopped before it converged did not produce the rules' result: never an expectation.
		err = rewriter.CheckLimits(results)
	}
	if err != nil {
		p := &produced{errored: true, sections: []gotSection{{name: run + "errors", text: err.Error() + "\n"},
			{name: run + "stats", text: stats, optional: true}}, stale: outNames}
		return p, nil
	}
	out, err := renderOutput(prog, outForm, run+"output")
	if err != nil {
		return errorsOut(err.Error() + "\n"), nil
	}
	checks, err := checkOps(ar, run, prog)
	if err != nil {
		return nil, err
	}
	return &produced{
		sections: append(out, gotSection{name: run + "stats", text: stats, optional: true}),
		stale:    []string{run + "errors"},
		checks:   checks,
	}, nil
}

// archiveConfig is what the passes and options sections say.
type archiveConfig struct {
	passes       []pipecheck.Item
	unregistered bool
	driver       rewriter.Options
	ruleSet      *rewriter.RulePass
	// enable and disable are the -enable and -disable names, checked against the rules once the passes are built.
	enable, disable []string
	// params are the -param NAME=VALUE assignments, checked against the rule sets once the passes are built.
	params []string
}

func parseOptions(ar *txtar.Archive, run string) (*archiveConfig, error) {
	cfg := &archiveConfig{driver: rewriter.Options{VerifyEach: true}}
	if s, ok := section(ar, run+"passes"); ok {
		items, err := pipecheck.ParseSpec(s, run+"passes")
		if err != nil {
			return nil, err
		}
		cfg.passes = items
	}
	s, ok := section(ar, run+"options")
	if !ok {
		return cfg, nil
	}
	fs := flag.NewFlagSet(run+"options", flag.ContinueOnError)
	fs.SetOutput(new(bytes.Buffer))
	fs.BoolVar(&cfg.unregistered, "unregistered", false, "")
	fs.BoolVar(&cfg.driver.BottomUp, "bottom-up", false, "")
	fs.BoolVar(&cfg.driver.NoDCE, "no-dce", false, "")
	fs.BoolVar(&cfg.driver.VerifyEach, "verify-each", true, "")
	fs.IntVar(&cfg.driver.MaxIterations, "max-iterations", 0, "")
	fs.IntVar(&cfg.driver.MaxRewrites, "max-rewrites", 0, "")
	shuffle := fs.Int64("shuffle", -1, "")
	fs.Func("disable", "", func(v string) error { cfg.disable = append(cfg.disable, v); return nil })
	fs.Func("enable", "", func(v string) error { cfg.enable = append(cfg.enable, v); return nil })
	fs.Func("param", "", func(v string) error { cfg.params = append(cfg.params, v); return nil })
	fs.Func("target", "", func(v string) error {
		t, err := ir.ParseTarget(v)
		cfg.driver.Target = t
		return err
	})
	if err := fs.Parse(strings.Fields(s)); err != nil {
		return nil, fmt.Errorf("%soptions: %v", run, err)
	}
	if *shuffle >= 0 {
		cfg.driver.Shuffle = true
		cfg.driver.Seed = uint64(*shuffle)
	}
	cfg.driver.Enabled = rewriter.LabelFilter(cfg.enable, cfg.disable)
	return cfg, nil
}

// formatStats renders the statistics of a pipeline run: per pass the stop reason and the rewrites, per rule the
// rewrites it did, and the passes' warnings (a program without outputs is kept whole).
func formatStats(results []*rewriter.PassResult) string {
	var b strings.Builder
	for _, r := range results {
		if r.Stats == nil {
			fmt.Fprintf(&b, "%s: %s\n", r.Pass, plural(r.Changes, "change"))
			for _, w := range r.Warnings {
				fmt.Fprintf(&b, "  warning: %s\n", w)
			}
			continue
		}
		st := r.Stats
		fmt.Fprintf(&b, "%s: %s, %s, %s erased\n", r.Pass, st.StopReason, plural(st.Rewrites, "rewrite"), plural(st.Erased, "dead op"))
		for _, w := range r.Warnings {
			fmt.Fprintf(&b, "  warning: %s\n", w)
		}
		for _, rs := range st.Rules {
			if rs.Applied > 0 || rs.Failed > 0 {
				line := fmt.Sprintf("  %s: %d", rs.Name, rs.Applied)
				if rs.Failed > 0 {
					line += fmt.Sprintf(" (%d failed; first: %s)", rs.Failed, rs.FirstFailure)
				}
				b.WriteString(line + "\n")
			}
		}
	}
	return b.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func section(ar *txtar.Archive, name string) (string, bool) {
	for _, f := range ar.Files {
		if f.Name == name {
			return string(f.Data), true
		}
	}
	return "", false
}

func setSection(ar *txtar.Archive, name, text string) {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = []byte(text)
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(text)})
}

func removeSection(ar *txtar.Archive, name string) {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files = append(ar.Files[:i], ar.Files[i+1:]...)
			return
		}
	}
}

// normalize ignores trailing blanks and a final newline, which editors change.
func normalize(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	return strings.Join(lines, "\n") + "\n"
}

// Run runs the archives under path as subtests of t, named by their path; failures print unified diffs with word
// lines. Expectations are rewritten, as drrc test -update rewrites them, when opts.Update is set or the test binary
// runs with -update (go test ./... -update; the caller's package defines the flag, see package internal/golden).
func Run(t *testing.T, path string, opts Options) {
	t.Helper()
	opts.Update = opts.Update || golden.Update()
	results, err := RunPath(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) == 0 {
		t.Fatalf("no archives under %s", path)
	}
	for _, r := range results {
		t.Run(r.Name, func(t *testing.T) {
			if r.Updated {
				t.Logf("updated %s", r.Path)
			}
			for _, f := range r.Failures {
				t.Errorf("%s: %s", r.Path, f)
			}
		})
	}
}

// Count summarises results: passed, failed, updated.
func Count(results []*Result) (passed, failed, updated int) {
	for _, r := range results {
		switch {
		case r.Updated:
			updated++
		case r.OK():
			passed++
		default:
			failed++
		}
	}
	return
}
