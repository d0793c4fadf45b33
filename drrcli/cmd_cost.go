package drrcli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pdiparams"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/stats"
)

func init() {
	register(&command{
		name:    "cost",
		usage:   "cost [flags] PROGRAM... | -diff BEFORE AFTER",
		summary: "estimate what programs cost per inference: runtime ops, kernels, FLOPs, bytes, time",
		help: `
Cost estimates what a program costs per inference on a device (package cost): the ops that run on every inference
(runtime ops: they depend on a program input) and those that compute from weights and constants only (load-time
ops, which constant folding evaluates once), the kernels the runtime ops launch (a fused op is one; views such as
reshape, metadata such as shape, and inputs, outputs, parameters and vector plumbing are none), their FLOPs and the
bytes they move, and the estimated time as XLA's GPU performance model estimates a kernel: the longer of compute
(FLOPs over the device's peak rate for the op's unit and type) and memory (bytes over the bandwidth), plus the
launch overhead. The time is an interval: its upper end moves every byte through device memory (XLA's estimate),
its lower end only the bytes no fusion can save (weights, inputs, outputs), so that a fusion lowers the lower end
by the launches it saves and the upper end by launches and bytes. A per-op-type table follows, costliest first.

A dynamic (-1) dim counts as -dim (1: one sample per inference); static dims count as they are (a GraphNet graph
captured at batch 4 is costed at batch 4). An op the model has no formula for is reported as uncosted and left out
of the sums, never counted as free.

A program is a .pir or .json file, a GraphNet graph folder, or a folder of programs: a GraphNet sample folder's
figures are the sums of its subgraph_N graphs', each also listed. With -passes, the passes run first (as drrc apply
runs them, -param included; -weights reads the weights, so that fold_constants folds the weight arithmetic) and the
figures are shown before → after, with what each pass changed. With -diff, two programs (or two folders,
summed) are compared, and the time saved is given as an interval.

Devices (-device): a100, h100, v100, t4 (NVIDIA datasheets) and cpu-avx2 (one AVX2 core), or a profile in a JSON
file (the format of cost/devices.json: every figure with its source). -families lists the op families the model
knows, with the ops each costs. -json prints the statistics schema of package stats (with the per-op-type tables).

Examples:
  drrc cost model.json
  drrc cost -device t4 -top 0 GraphNet/paddle_samples/PaddleX/ResNet50
  drrc cost -passes gpu_inference GraphNet/paddle_samples/PaddleNLP/bert-base-cased
  drrc cost -passes inference -weights auto internal/sample/tinyresnet.json
  drrc cost -diff model.json fused.json
  drrc cost -json -passes inference tinyresnet.json`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			f := &costFlags{}
			f.register(fs)
			return f.run
		},
	})
}

type costFlags struct {
	cf       contextFlags
	params   paramFlag
	device   string
	dim      int64
	passes   string
	weights  string
	diff     bool
	json     bool
	top      int
	families bool
}

func (f *costFlags) register(fs *flag.FlagSet) {
	f.cf.register(fs)
	f.params.register(fs)
	fs.StringVar(&f.device, "device", cost.DefaultDevice, "estimate times on `device`: "+deviceNames()+", or a profile.json")
	fs.Int64Var(&f.dim, "dim", 1, "the size dynamic (-1) dims count as")
	fs.StringVar(&f.passes, "passes", "", "run these passes and pipelines first, comma-separated, and show the figures before → after")
	fs.StringVar(&f.weights, "weights", "", "with -passes: read the parameters' data from `file.pdiparams` (auto: each program's sibling X.pdiparams), so that fold_constants folds")
	fs.BoolVar(&f.diff, "diff", false, "compare two programs (or folders): drrc cost -diff BEFORE AFTER")
	fs.BoolVar(&f.json, "json", false, "print the statistics as JSON (the schema of package stats)")
	fs.IntVar(&f.top, "top", 15, "rows of the per-op-type table (0: all)")
	fs.BoolVar(&f.families, "families", false, "list the op families the model knows and the ops each costs, then exit")
}

// costResult is the JSON form of drrc cost: the statistics record and the per-op-type tables.
type costResult struct {
	stats.Program
	TypesBefore cost.Table    `json:"by_type_before,omitempty"`
	TypesAfter  cost.Table    `json:"by_type"`
	Subgraphs   []*costResult `json:"subgraphs,omitempty"`
	// Saved is, for -diff, the estimated time saved per inference (before minus after, end by end).
	Saved *cost.Interval `json:"saved_s,omitempty"`
}

func (f *costFlags) run(c *CLI, args []string) int {
	if f.families {
		printFamilies(c.Stdout)
		return exitOK
	}
	if f.dim < 1 {
		return c.usageErrorf("cost", "-dim must be at least 1")
	}
	if f.top < 0 {
		return c.usageErrorf("cost", "-top must not be negative")
	}
	if len(args) == 0 {
		return c.usageErrorf("cost", "no program to cost")
	}
	if f.diff && len(args) != 2 {
		return c.usageErrorf("cost", "-diff compares two programs: drrc cost -diff BEFORE AFTER")
	}
	if f.diff && f.passes != "" {
		return c.usageErrorf("cost", "-diff compares two programs as they are: give -passes without -diff")
	}
	if f.weights != "" && f.passes == "" {
		return c.usageErrorf("cost", "-weights is for the passes' fold_constants: give it with -passes")
	}
	m, err := cost.NewModel(f.device)
	if err != nil {
		return c.usageErrorf("cost", "-device: %v", err)
	}
	m.DynamicDim = f.dim
	ctx, err := f.cf.context(c)
	if err != nil {
		return c.errorf("cost", "%v", err)
	}
	var pl rewriter.Pipeline
	var reg *rewriter.Registry
	var opts rewriter.Options
	if f.passes != "" {
		if reg, err = c.registry(); err != nil {
			return c.errorf("cost", "%v", err)
		}
		var ok bool
		if pl, ok = buildPipeline(c, "cost", ctx, reg, f.cf.unregistered, nil, nil, f.passes); !ok {
			return exitFailure
		}
		if opts.Params, ok = f.params.resolve(c, "cost", ctx, pl); !ok {
			return exitFailure
		}
	}
	code := exitOK
	var results []*costResult
	for _, arg := range args {
		r, ok := f.costArg(c, ctx, m, reg, pl, opts, arg)
		if !ok {
			code = exitFailure
		}
		if r != nil {
			results = append(results, r)
		}
	}
	if f.diff {
		if len(results) != 2 {
			return exitFailure
		}
		return f.printDiff(c, results[0], results[1], code)
	}
	if f.json {
		enc := json.NewEncoder(c.Stdout)
		enc.SetIndent("", "  ")
		if len(results) == 1 {
			enc.Encode(results[0])
		} else {
			enc.Encode(results)
		}
		return code
	}
	for i, r := range results {
		if i > 0 {
			fmt.Fprintln(c.Stdout)
		}
		f.printResult(c.Stdout, r)
	}
	return code
}

// costArg costs the programs an argument names: one, or a folder's (summed; a GraphNet sample's graphs listed as
// its subgraphs).
func (f *costFlags) costArg(c *CLI, ctx *ir.Context, m *cost.Model, reg *rewriter.Registry, pl rewriter.Pipeline,
	opts rewriter.Options, arg string) (*costResult, bool) {
	progs, err := c.programsOf(arg)
	if err != nil {
		c.errorf("cost", "%v", err)
		return nil, false
	}
	ok := true
	var parts []*costResult
	for _, path := range progs {
		r, good := f.costProgram(c, ctx, m, reg, pl, opts, path)
		if !good {
			ok = false
			continue
		}
		parts = append(parts, r)
	}
	if len(parts) == 0 {
		return nil, false
	}
	if len(progs) == 1 && progs[0] == arg {
		return parts[0], ok
	}
	var records []stats.Program
	sum := &costResult{Subgraphs: parts}
	for _, p := range parts {
		records = append(records, p.Program)
		sum.TypesBefore = sum.TypesBefore.Merge(p.TypesBefore)
		sum.TypesAfter = sum.TypesAfter.Merge(p.TypesAfter)
	}
	if len(sum.TypesBefore) == 0 {
		sum.TypesBefore = nil
	}
	sum.Program = stats.Sum(arg, records)
	sum.Program.Subgraphs = nil // listed with their tables
	return sum, ok
}

// costProgram costs one program, running the passes first when there are some.
func (f *costFlags) costProgram(c *CLI, ctx *ir.Context, m *cost.Model, reg *rewriter.Registry, pl rewriter.Pipeline,
	opts rewriter.Options, path string) (*costResult, bool) {
	p, ok := c.loadProgram("cost", ctx, path)
	if !ok {
		return nil, false
	}
	if errs := ir.Verify(p).Errors(); len(errs) > 0 {
		fmt.Fprint(c.Stderr, c.renderDiags(errs))
		c.errorf("cost", "%s: the program fails checking (%s): not costed", path, nouns(len(errs), "error"))
		return nil, false
	}
	if f.weights != "" {
		w := f.weights
		if w == "auto" {
			w = siblingWeights(path)
			if _, err := os.Stat(w); err != nil {
				w = ""
			}
		}
		if w != "" {
			if err := pdiparams.ReadFile(w, p); err != nil {
				c.errorf("cost", "%v", err)
				return nil, false
			}
		}
	}
	if pl == nil {
		rep := m.Analyze(p)
		s := rep.Summary
		return &costResult{Program: stats.Program{Program: path, After: &s, Passes: []stats.Pass{}}, TypesAfter: rep.ByType()}, true
	}
	before := m.Analyze(p)
	measured, rec := stats.Instrument(pl, m)
	results, err := measured.Run(p, &rewriter.Env{Registry: reg, Options: opts})
	if err != nil {
		c.errorf("cost", "%s: %v", path, err)
		return nil, false
	}
	after := m.Analyze(p)
	r := &costResult{Program: rec.Program(path, results, p), TypesBefore: before.ByType(), TypesAfter: after.ByType()}
	if findings := rewriter.Outcome(p, results); len(findings) > 0 {
		c.errorf("cost", "%s: %v", path, errors.Join(findings...))
		return r, false
	}
	return r, true
}

// printResult prints one argument's figures: the programs of a folder one line each, then the figures (before →
// after with passes), then the per-op-type table.
func (f *costFlags) printResult(w io.Writer, r *costResult) {
	figs := r.After
	if len(r.Subgraphs) > 0 {
		fmt.Fprintf(w, "%s: %d programs\n", r.Program.Program, len(r.Subgraphs))
		fmt.Fprintf(w, "  %-40s %9s %9s %10s %10s  %s\n", "program", "runtime", "kernels", "FLOPs", "bytes", "est. time")
		for _, s := range r.Subgraphs {
			a := s.After
			fmt.Fprintf(w, "  %-40s %9s %9s %10s %10s  %s\n", trimLeft(s.Program.Program, 40), stats.Count(int64(a.RuntimeOps)),
				stats.Count(int64(a.Kernels)), stats.FLOPs(a.FLOPs), stats.Bytes(a.Bytes()), stats.Time(a.Time))
		}
		fmt.Fprintf(w, "the sum of its %d programs, %s:\n", len(r.Subgraphs), stats.Heading(figs))
	} else {
		fmt.Fprintf(w, "%s: %s\n", r.Program.Program, stats.Heading(figs))
	}
	if r.Before != nil {
		width := 0
		for _, p := range r.Passes {
			width = max(width, len(p.Pass))
		}
		prev := r.Before
		quiet := 0
		for _, p := range r.Passes {
			line := stats.ChangeLine(prev, p.After)
			if p.After != nil {
				prev = p.After
			}
			if line == "" {
				quiet++
				continue
			}
			fmt.Fprintf(w, "  %-*s  %s: %s\n", width, p.Pass, passSummary(p), line)
		}
		if quiet > 0 {
			fmt.Fprintf(w, "  (%d %s of %d changed no figure)\n", quiet, pluralWord(quiet, "pass", "passes"), len(r.Passes))
		}
		fmt.Fprintln(w)
		stats.WriteChange(w, "  ", r.Before, r.After)
	} else {
		stats.WriteFigures(w, "  ", figs)
	}
	fmt.Fprintln(w)
	printTable(w, r.TypesAfter, f.top)
}

// passSummary is a pass's outcome in a few words: its rewrites or changes.
func passSummary(p stats.Pass) string {
	if p.Kind == "rules" {
		return nouns(p.Rewrites, "rewrite")
	}
	return nouns(p.Changes, "change")
}

// printTable prints the per-op-type table, top rows (all when top is 0).
func printTable(w io.Writer, t cost.Table, top int) {
	fmt.Fprintf(w, "  %-40s %7s %8s %9s %8s %12s %10s  %s\n", "op", "count", "runtime", "load-time", "kernels", "FLOPs", "bytes", "est. time")
	shown := 0
	for _, row := range t {
		if top > 0 && shown == top {
			fmt.Fprintf(w, "  … %d more op kinds (-top 0 lists them)\n", len(t)-top)
			break
		}
		shown++
		flops, bytes, tm := "", "", ""
		if row.Runtime > 0 {
			flops, bytes, tm = stats.FLOPs(row.FLOPs), stats.Bytes(row.Bytes), stats.Time(row.Time)
		}
		name := row.Op
		if row.Uncosted > 0 {
			name += fmt.Sprintf(" (%d uncosted)", row.Uncosted)
		}
		fmt.Fprintf(w, "  %-40s %7d %8d %9d %8d %12s %10s  %s\n", name, row.Count, row.Runtime, row.LoadTime, row.Kernels, flops, bytes, tm)
	}
}

// printDiff compares two programs' figures and tables.
func (f *costFlags) printDiff(c *CLI, before, after *costResult, code int) int {
	b, a := before.After, after.After
	saved := b.Time.Sub(a.Time)
	if f.json {
		out := &costResult{Program: stats.Program{Program: before.Program.Program + " → " + after.Program.Program, Before: b, After: a,
			Passes: []stats.Pass{}}, TypesBefore: before.TypesAfter, TypesAfter: after.TypesAfter, Saved: &saved}
		enc := json.NewEncoder(c.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(out)
		return code
	}
	w := c.Stdout
	fmt.Fprintf(w, "%s → %s: %s\n", before.Program.Program, after.Program.Program, stats.Heading(b))
	stats.WriteChange(w, "  ", b, a)
	lo, hi := min(saved.Low, saved.High), max(saved.Low, saved.High)
	fmt.Fprintf(w, "  est. time saved per inference: %s (launches alone – launches and bytes)\n", stats.Time(cost.Interval{Low: lo, High: hi}))
	fmt.Fprintln(w)
	printTableDiff(w, before.TypesAfter, after.TypesAfter, f.top)
	return code
}

// printTableDiff prints, per op kind whose figures differ, its runtime ops, kernels and time before → after, the
// largest change of time first.
func printTableDiff(w io.Writer, before, after cost.Table, top int) {
	type pair struct{ b, a cost.TypeRow }
	rows := map[string]*pair{}
	var names []string
	for _, r := range before {
		rows[r.Op] = &pair{b: r}
		names = append(names, r.Op)
	}
	for _, r := range after {
		p := rows[r.Op]
		if p == nil {
			p = &pair{}
			rows[r.Op] = p
			names = append(names, r.Op)
		}
		p.a = r
	}
	var changed []string
	for _, n := range names {
		p := rows[n]
		if p.b.Count != p.a.Count || p.b.Runtime != p.a.Runtime || p.b.Kernels != p.a.Kernels || p.b.Bytes != p.a.Bytes {
			changed = append(changed, n)
		}
	}
	delta := func(n string) float64 {
		p := rows[n]
		return p.b.Time.High - p.a.Time.High
	}
	sortStable(changed, func(x, y string) bool {
		dx, dy := delta(x), delta(y)
		if dx < 0 {
			dx = -dx
		}
		if dy < 0 {
			dy = -dy
		}
		if dx != dy {
			return dx > dy
		}
		return x < y
	})
	fmt.Fprintf(w, "  %-40s %13s %13s %13s  %s\n", "op (kinds that changed)", "count", "runtime", "kernels", "est. time")
	for i, n := range changed {
		if top > 0 && i == top {
			fmt.Fprintf(w, "  … %d more op kinds (-top 0 lists them)\n", len(changed)-top)
			break
		}
		p := rows[n]
		fmt.Fprintf(w, "  %-40s %13s %13s %13s  %s → %s\n", n, arrow(p.b.Count, p.a.Count), arrow(p.b.Runtime, p.a.Runtime),
			arrow(p.b.Kernels, p.a.Kernels), stats.Time(p.b.Time), stats.Time(p.a.Time))
	}
	if len(changed) == 0 {
		fmt.Fprintln(w, "  (no op kind changed)")
	}
}

func arrow(b, a int) string { return fmt.Sprintf("%d → %d", b, a) }

// sortStable sorts names by less, keeping the order of equal ones.
func sortStable(names []string, less func(a, b string) bool) {
	for i := 1; i < len(names); i++ {
		for j := i; j > 0 && less(names[j], names[j-1]); j-- {
			names[j], names[j-1] = names[j-1], names[j]
		}
	}
}

// printFamilies lists the op families of the model.
func printFamilies(w io.Writer) {
	for _, fam := range cost.Families() {
		fmt.Fprintf(w, "%s: %s\n", fam.Name, fam.Doc)
		fmt.Fprintf(w, "  %s\n", strings.Join(fam.Ops, " "))
	}
}
