package drrcli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/mine"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
	"github.com/pirdrr/drr/stats"
)

func init() {
	register(&command{
		name:    "mine",
		usage:   "mine [flags] CORPUS...",
		summary: "find the op chains programs leave unfused after a pipeline, ranked by what fusing them would save",
		help: `
Mine runs a pipeline (-passes, gpu_inference then inplace by default, so that ops are seen without their inplace
twins) on every program of the corpus, then enumerates the connected subgraphs of -min to -max ops that run on
every inference (the runtime compute ops of drrc cost) whose inner values nothing else reads: chains a fused kernel
could replace. Equal chains anywhere get one key: op names, the attribute values that matter, the operand structure
and the element types; shapes are holes. Per chain it counts the occurrences, programs and model families (the
first word of a sample's name: bert-base-cased and bert-large are bert), and sums over the occurrences what fusing
would save by the cost model of drrc cost on -device: the kernels (all of the chain's but one), the bytes of the
values kept on chip, and the estimated time. The table ranks chains by time saved, not by frequency.

Each chain is compared with the match sides of the shipped fusion rules (the rules labelled fusion): a chain a
rule's pattern matches names that rule and its fused op (which did not fire: its constraints refused the sites,
or its set is not in the pipeline), and says why at the chain's first site: the rule's first failed check there,
as drrc explain reports it, or that it matches (its set did not run).

With -o DIR, each listed chain's skeleton rule is written to DIR/mined_RANK_OPS.drr: its match is the chain, its
where clause the inputs' element types, its rewrite a rebuild of the chain under a comment naming the fused op or
the kernel that would be needed, so that drrc check accepts the file. A file in DIR that drrc mine did not write is
never replaced; a chain whose ops do not fit their schemas (a program read with operands or attributes the
catalog does not declare) gets no skeleton, and the report says why.

With -verify, each listed skeleton whose rewrite makes the fused op is checked as drrc verify checks rules: in rule
mode (small programs built from its pattern and constraints) and in program mode on the programs of its first sites
(-verify-sites), after the pipeline, with random weights; the report says which passed, and how often each fired.

-json prints the candidates with their sites as JSON; -html also writes the report as a page. A site is a program
and the %N of the chain's result in the program as the pipeline leaves it: drrc apply -passes P PROGRAM -o
after.pir, then drrc graph -focus %N after.pir draws it (the page lists these commands per site).

A CORPUS argument is a program (.pir, .json, a GraphNet graph folder) or a folder of them. A program that does not
read or verify is reported with its position and left out: the others are mined and reported, the exit status is
1, and -o and -html write nothing. Programs are mined in
parallel (-j); the subgraphs grown from one op are at most -per-root, so that mining is linear in the ops.

Examples:
  drrc mine GraphNet/paddle_samples/PaddleNLP
  drrc mine -top 30 -device a100 ../shared/corpus/graphnet_samples
  drrc mine -o mined/ -top 10 -verify model.json
  drrc mine -html mined.html GraphNet/paddle_samples/PaddleX
  drrc mine -json -passes inference internal/sample/tinyresnet.json`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			f := &mineFlags{}
			f.register(fs)
			return f.run
		},
	})
}

type mineFlags struct {
	cf      contextFlags
	params  paramFlag
	passes  string
	device  string
	dim     int64
	top     int
	minOps  int
	maxOps  int
	perRoot int
	sites   int
	jobs    int
	json    bool
	html    string
	out     string
	verify  bool
	// verifySites is the number of programs -verify checks each skeleton on.
	verifySites int
}

func (f *mineFlags) register(fs *flag.FlagSet) {
	f.cf.register(fs)
	f.params.register(fs)
	fs.StringVar(&f.passes, "passes", "gpu_inference,inplace", "run these passes and pipelines first, comma-separated (none: mine the programs as they are)")
	fs.StringVar(&f.device, "device", cost.DefaultDevice, "estimate savings on `device`: "+deviceNames()+", or a profile.json")
	fs.Int64Var(&f.dim, "dim", 1, "the size dynamic (-1) dims count as")
	fs.IntVar(&f.top, "top", 20, "candidates listed (0: all)")
	fs.IntVar(&f.minOps, "min", mine.DefaultMinOps, "the fewest ops of a chain")
	fs.IntVar(&f.maxOps, "max", mine.DefaultMaxOps, "the most ops of a chain")
	fs.IntVar(&f.perRoot, "per-root", mine.DefaultMaxPerRoot, "the most subgraphs grown from one op")
	fs.IntVar(&f.sites, "sites", mine.DefaultMaxSites, "sites kept per candidate")
	fs.IntVar(&f.jobs, "j", 0, "programs mined in parallel (default: the number of CPUs)")
	fs.BoolVar(&f.json, "json", false, "print the candidates as JSON")
	fs.StringVar(&f.html, "html", "", "also write the report as a page to `file.html` (sites with the drrc graph commands that draw them)")
	fs.BoolVar(&f.verify, "verify", false, "check each listed skeleton whose rewrite makes the fused op in rule mode and on its first sites' programs in program mode (drrc verify)")
	fs.IntVar(&f.verifySites, "verify-sites", 2, "with -verify: the programs each skeleton is checked on")
	fs.StringVar(&f.out, "o", "", "write each listed candidate's skeleton rule to `DIR`/mined_RANK_OPS.drr")
}

// mineResult is the JSON form of drrc mine.
type mineResult struct {
	Device     string          `json:"device"`
	Passes     string          `json:"passes"`
	Stats      mine.Stats      `json:"stats"`
	Failed     int             `json:"failed_programs,omitempty"`
	Keys       int             `json:"keys"`
	Candidates []mineCandidate `json:"candidates"`
	Written    []string        `json:"written,omitempty"`
	unranked   []*mine.Candidate
}

// mineCandidate is one candidate in JSON.
type mineCandidate struct {
	Rank        int           `json:"rank"`
	Chain       string        `json:"chain"`
	Key         string        `json:"key"`
	Ops         int           `json:"ops"`
	Occurrences int           `json:"occurrences"`
	Programs    int           `json:"programs"`
	Families    []string      `json:"families"`
	Saving      mine.Saving   `json:"saving"`
	Fused       []*mine.Fused `json:"fused,omitempty"`
	Sites       []mine.Site   `json:"sites"`
	// Fuses says whether the skeleton's rewrite makes the fused op (the catalog rule's rewrite), Skeleton where -o
	// wrote it; skeletons are built for -o, -html and -verify only.
	Fuses bool `json:"fuses,omitempty"`
	// Verify is what -verify found (skeletons that make the fused op only).
	Verify   *mineVerification `json:"verify,omitempty"`
	Skeleton string            `json:"skeleton,omitempty"`
	// SkeletonError says why the candidate has no skeleton: its chain does not fit its ops' schemas.
	SkeletonError string `json:"skeleton_error,omitempty"`
	skeleton      *mine.Skeleton
}

// skeletonOp names the fused op a skeleton's rewrite makes, and the rule it is copied from.
func skeletonOp(s *mine.Skeleton) string {
	return fmt.Sprintf("%s, as rule %s does", s.Fused.Op, s.Fused.Rule)
}

func (f *mineFlags) run(c *CLI, args []string) int {
	switch {
	case len(args) == 0:
		return c.usageErrorf("mine", "no corpus to mine")
	case f.dim < 1:
		return c.usageErrorf("mine", "-dim must be at least 1")
	case f.top < 0 || f.sites < 0 || f.jobs < 0 || f.perRoot < 0:
		return c.usageErrorf("mine", "-top, -sites, -j and -per-root cannot be negative")
	case f.minOps < 2 || f.maxOps < f.minOps:
		return c.usageErrorf("mine", "-min must be at least 2 and -max at least -min (-min %d, -max %d)", f.minOps, f.maxOps)
	case f.verifySites < 1:
		return c.usageErrorf("mine", "-verify-sites must be at least 1")
	case f.maxOps > 12:
		return c.usageErrorf("mine", "-max %d: chains of more than 12 ops are not enumerated", f.maxOps)
	}
	m, err := cost.NewModel(f.device)
	if err != nil {
		return c.usageErrorf("mine", "-device: %v", err)
	}
	m.DynamicDim = f.dim
	ctx, err := f.cf.context(c)
	if err != nil {
		return c.errorf("mine", "%v", err)
	}
	reg, err := c.registry()
	if err != nil {
		return c.errorf("mine", "%v", err)
	}
	var pl rewriter.Pipeline
	var opts rewriter.Options
	passes := f.passes
	if passes == "none" {
		passes = ""
	}
	if passes != "" {
		var ok bool
		if pl, ok = buildPipeline(c, "mine", ctx, reg, f.cf.unregistered, nil, nil, passes); !ok {
			return exitFailure
		}
		if opts.Params, ok = f.params.resolve(c, "mine", ctx, pl); !ok {
			return exitFailure
		}
	}
	code := exitOK
	var progs []string
	for _, arg := range args {
		ps, err := c.programsOf(arg)
		if err != nil {
			c.errorf("mine", "%v", err)
			code = exitFailure
			continue
		}
		progs = append(progs, ps...)
	}
	if len(progs) == 0 {
		return exitFailure
	}
	catalog, err := shippedCatalog(ctx)
	if err != nil {
		return c.errorf("mine", "%v", err)
	}
	miner := mine.New(mine.Options{Model: m, MinOps: f.minOps, MaxOps: f.maxOps, MaxPerRoot: f.perRoot, MaxSites: f.sites,
		Catalog: catalog, Oracle: func(p *ir.Program) rule.Oracle { return rewriter.NewOracle(p, reg) }})
	scans, failed := f.scanAll(c, ctx, reg, pl, opts, miner, progs)
	for _, s := range scans {
		if s != nil {
			miner.Add(s)
		}
	}
	if failed > 0 {
		code = exitFailure
	}
	cands := miner.Candidates()
	catalog.Annotate(cands)
	res := &mineResult{Device: m.Device.Name, Passes: passes, Stats: miner.Stats(), Failed: failed, Keys: len(cands), unranked: cands}
	if res.Passes == "" {
		res.Passes = "none"
	}
	shown := cands
	if f.top > 0 && len(shown) > f.top {
		shown = shown[:f.top]
	}
	info := mine.SkeletonInfo{Device: res.Device, Passes: res.Passes, Ctx: ctx}
	skeletons := make([]*mine.Skeleton, len(shown))
	wantSkeletons := f.out != "" || f.html != "" || f.verify
	for i, cand := range shown {
		if wantSkeletons {
			skeletons[i] = mine.NewSkeleton(i+1, cand, info)
		} else {
			skeletons[i] = &mine.Skeleton{} // not built: nothing shows it
		}
		res.Candidates = append(res.Candidates, mineCandidate{Rank: i + 1, Chain: cand.Chain.Short(), Key: cand.Key,
			Ops: len(cand.Chain.Ops), Occurrences: cand.Occurrences, Programs: cand.Graphs, Families: cand.Families,
			Saving: cand.Saving, Fused: cand.Fused, Sites: cand.Sites, Fuses: skeletons[i].Fuses, skeleton: skeletons[i]})
		if err := skeletons[i].Err; err != nil {
			res.Candidates[i].SkeletonError = err.Error()
		}
	}
	if f.verify {
		for i := range res.Candidates {
			if skeletons[i].Fuses {
				res.Candidates[i].Verify = f.verifySkeleton(c, ctx, reg, pl, opts, skeletons[i], shown[i])
			}
		}
	}
	if code != exitOK && (f.out != "" || f.html != "") {
		// A run with bad input writes nothing: its candidates are those of the programs that read.
		fmt.Fprintln(c.Stderr, "drrc mine: not every input was mined: -o and -html write nothing")
		f.out, f.html = "", ""
	}
	if f.out != "" {
		written, err := writeSkeletons(f.out, shown, skeletons)
		if err != nil {
			return c.errorf("mine", "%v", err)
		}
		res.Written = written
		for i := range res.Candidates {
			res.Candidates[i].Skeleton = written[i]
		}
		res.Written = slices.DeleteFunc(res.Written, func(p string) bool { return p == "" })
	}
	if f.html != "" {
		if err := writeMineHTML(f.html, res, len(progs)); err != nil {
			return c.errorf("mine", "%v", err)
		}
	}
	if f.json {
		enc := json.NewEncoder(c.Stdout)
		enc.SetIndent("", "  ")
		if res.Candidates == nil {
			res.Candidates = []mineCandidate{}
		}
		enc.Encode(res)
		return code
	}
	printMine(c.Stdout, res, len(progs))
	return code
}

// scanAll reads each program, runs the pipeline and scans it, on -j workers; scans[i] is progs[i]'s (nil when it
// failed, its errors printed in the programs' order).
func (f *mineFlags) scanAll(c *CLI, ctx *ir.Context, reg *rewriter.Registry, pl rewriter.Pipeline, opts rewriter.Options,
	miner *mine.Miner, progs []string) ([]*mine.Scan, int) {
	scans := make([]*mine.Scan, len(progs))
	errs := make([]string, len(progs))
	n := f.jobs
	if n <= 0 {
		n = numCPU()
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				scans[i], errs[i] = f.scanOne(c, ctx, reg, pl, opts, miner, progs[i])
			}
		}()
	}
	for i := range progs {
		next <- i
	}
	close(next)
	wg.Wait()
	failed := 0
	for i, e := range errs {
		if e != "" {
			fmt.Fprint(c.Stderr, e)
		}
		if scans[i] == nil {
			failed++
		}
	}
	return scans, failed
}

// scanOne mines one program; the text it returns is what to print on standard error (diagnostics, errors).
func (f *mineFlags) scanOne(c *CLI, ctx *ir.Context, reg *rewriter.Registry, pl rewriter.Pipeline, opts rewriter.Options,
	miner *mine.Miner, path string) (*mine.Scan, string) {
	var msg strings.Builder
	p, _, warns, err := c.readProgram(ctx, path)
	msg.WriteString(c.renderDiags(warns))
	if err != nil {
		msg.WriteString(c.renderError(err))
		msg.WriteString("drrc mine: " + path + ": not mined\n")
		return nil, msg.String()
	}
	if errs := ir.Verify(p).Errors(); len(errs) > 0 {
		msg.WriteString(c.renderDiags(errs))
		fmt.Fprintf(&msg, "drrc mine: %s: the program fails checking (%s): not mined\n", path, nouns(len(errs), "error"))
		return nil, msg.String()
	}
	if pl != nil {
		if _, err := pl.Run(p, &rewriter.Env{Registry: reg, Options: opts}); err != nil {
			fmt.Fprintf(&msg, "drrc mine: %s: %v: not mined\n", path, err)
			return nil, msg.String()
		}
	}
	sample := mine.SampleName(path)
	return miner.Scan(mine.Source{Program: path, Family: mine.Family(sample)}, p), msg.String()
}

// shippedCatalog is the catalog of the shipped sets' fusion rules.
func shippedCatalog(ctx *ir.Context) (*mine.Catalog, error) {
	var sets []mine.NamedSet
	for _, name := range rules.Sets() {
		s, err := rules.Load(ctx, name)
		if err != nil {
			return nil, err
		}
		sets = append(sets, mine.NamedSet{Name: name, Set: s, Source: func(file string) ([]byte, error) { return fs.ReadFile(rules.FS(), file) }})
	}
	return mine.NewCatalog(sets), nil
}

// writeSkeletons writes each candidate's skeleton to dir, refusing (before writing any) to replace a file drrc
// mine did not write; it returns the paths written, in order.
func writeSkeletons(dir string, cands []*mine.Candidate, files []*mine.Skeleton) ([]string, error) {
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return nil, fmt.Errorf("-o %s: not a folder", dir)
	}
	paths := make([]string, len(cands))
	for i := range cands {
		if files[i].Err != nil {
			continue // no skeleton: the report says why
		}
		paths[i] = filepath.Join(dir, files[i].Rule+".drr")
		if err := replaceableOutput(paths[i], mine.SkeletonHeader, "drrc mine"); err != nil {
			return nil, err
		}
	}
	created := missingDirs(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for i, path := range paths {
		if path == "" {
			continue
		}
		if err := pirfile.WriteFile(path, files[i].Source); err != nil {
			if i == 0 {
				removeEmptyDirs(created)
			}
			return nil, err
		}
	}
	return paths, nil
}

// printMine prints the text report: what was mined, the table, then per candidate its key, fused op and sites.
func printMine(w io.Writer, r *mineResult, programs int) {
	s := r.Stats
	fmt.Fprintf(w, "mined %s (%s) after %s, savings on %s: %s from %s, %s\n",
		nouns(s.Programs, "program"), nouns(s.Ops, "op"), r.Passes, r.Device, nouns(s.Subgraphs, "subgraph"),
		nouns(s.Roots, "root"), nouns(r.Keys, "chain")+" that save something")
	if s.Truncated > 0 {
		fmt.Fprintf(w, "  (%d roots stopped at -per-root)\n", s.Truncated)
	}
	if r.Failed > 0 {
		fmt.Fprintf(w, "  (%d of %d programs not mined: see the errors above)\n", r.Failed, programs)
	}
	if len(r.Candidates) == 0 {
		fmt.Fprintln(w, "no chain to fuse")
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%4s  %-19s %8s %9s %6s %6s %5s  %s %s\n", "rank", "est. time saved", "kernels", "bytes", "occ.", "progs", "fams",
		padRunes("chain", chainWidth), "fused op (rule)")
	for _, cd := range r.Candidates {
		fused := "-"
		if len(cd.Fused) > 0 {
			fused = fmt.Sprintf("%s (%s)", cd.Fused[0].Op, cd.Fused[0].Rule)
			if len(cd.Fused) > 1 {
				fused += fmt.Sprintf(" +%d", len(cd.Fused)-1)
			}
		}
		fmt.Fprintf(w, "%4d  %-19s %8s %9s %6d %6d %5d  %s %s\n", cd.Rank, savedTime(cd.Saving.Time), stats.Count(cd.Saving.Kernels),
			stats.Bytes(cd.Saving.Bytes), cd.Occurrences, cd.Programs, len(cd.Families), padRunes(trimMiddle(cd.Chain, chainWidth), chainWidth), fused)
	}
	if len(r.unranked) > len(r.Candidates) {
		fmt.Fprintf(w, "… %d more chains (-top 0 lists them)\n", len(r.unranked)-len(r.Candidates))
	}
	fmt.Fprintln(w)
	for _, cd := range r.Candidates {
		fmt.Fprintf(w, "%d. %s\n", cd.Rank, cd.Key)
		for _, f := range cd.Fused {
			why := "its set did not run"
			switch {
			case f.Refused != nil:
				why = f.Refused.String()
			case f.Constrained:
				why = "its constraints refused these sites, or its set did not run"
			}
			fmt.Fprintf(w, "   fused op: %s by rule %s of %s (%s): %s\n", f.Op, f.Rule, f.Set, f.Pos, why)
		}
		fmt.Fprintf(w, "   families: %s\n", strings.Join(cd.Families, " "))
		for _, site := range cd.Sites[:min(len(cd.Sites), 3)] {
			fmt.Fprintf(w, "   site: %s %s\n", site.Program, site.Value)
		}
		if cd.Skeleton != "" {
			kind := "its rewrite rebuilds the chain: write the fused op's"
			if cd.Fuses {
				kind = "its rewrite makes " + skeletonOp(cd.skeleton)
			}
			fmt.Fprintf(w, "   skeleton: %s (%s)\n", cd.Skeleton, kind)
		}
		if cd.SkeletonError != "" {
			fmt.Fprintf(w, "   no skeleton: %s\n", cd.SkeletonError)
		}
		if cd.Verify != nil {
			fmt.Fprintf(w, "   %s\n", verificationLine(cd.Verify))
		}
	}
}

// chainWidth is the width of the chain column of drrc mine's table.
const chainWidth = 44

// savedTime renders a saving's time interval, the smaller end first (fusing a compute-bound chain can save less
// than its launches when the fused kernel's compute outlasts the bytes saved).
func savedTime(t cost.Interval) string {
	return stats.Time(cost.Interval{Low: min(t.Low, t.High), High: max(t.Low, t.High)})
}

// trimMiddle shortens s to n runes, keeping its start and end around an ellipsis.
func trimMiddle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head := (n - 1) / 2
	return string(r[:head]) + "…" + string(r[len(r)-(n-1-head):])
}

// padRunes pads s with spaces to n runes.
func padRunes(s string, n int) string {
	if k := utf8.RuneCountInString(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}
