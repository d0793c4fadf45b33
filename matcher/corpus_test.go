package matcher_test

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/analysis"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/internal/sample"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/matcher"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
)

// corpusRoot is ../shared/corpus, seen from this package's directory.
const corpusRoot = "../../shared/corpus"

// TestCorpusDifferential: on every program of the corpus and the embedded sample, the automaton of all shipped
// rule sets and the reference matcher find the same matches at every op.
func TestCorpusDifferential(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	var all []*rule.Rule
	for _, name := range rules.Sets() {
		set, err := rules.Load(ctx, name)
		require.NoError(t, err)
		all = append(all, set.Rules...)
	}
	set := rule.NewSet(ctx, all...)
	auto, err := matcher.Compile(set, matcher.Options{})
	require.NoError(t, err)

	type program struct {
		name string
		load func() (*ir.Program, error)
	}
	progs := []program{{"sample", func() (*ir.Program, error) { return sample.Load(ctx) }}}
	if _, err := os.Stat(corpusRoot); err == nil {
		for _, dir := range []string{"pir_text", "pir_json", "graphnet"} {
			files, _ := filepath.Glob(filepath.Join(corpusRoot, dir, "*"))
			sort.Strings(files)
			for _, f := range files {
				progs = append(progs, program{dir + "/" + filepath.Base(f), func() (*ir.Program, error) {
					p, _, err := pirfile.Load(ctx, f)
					return p, err
				}})
			}
		}
	} else {
		t.Logf("the corpus is absent (%s): only the sample model is matched", corpusRoot)
	}
	reg := rewriter.NewRegistry()
	require.NoError(t, rules.Register(reg))
	// Each program is matched as loaded, then moved to value tensors (where the value_semantics rules and the
	// fusions on v_tensors apply).
	stages := []struct {
		name   string
		passes []string
	}{{"", nil}, {" (wrapped)", []string{"inplace", "value_semantics.wrap"}}}
	totalOps, totalMatches := 0, 0
	for _, pr0 := range progs {
		for _, stage := range stages {
			p, err := pr0.load()
			if err != nil {
				if stage.passes == nil {
					t.Logf("%s: not loaded (%v)", pr0.name, err) // corpus files that fail to parse on purpose
				}
				continue
			}
			if stage.passes != nil {
				pl, err := reg.Pipeline(ctx, stage.passes...)
				require.NoError(t, err)
				_, err = pl.Run(p, &rewriter.Env{Registry: reg})
				require.NoError(t, err, pr0.name)
			}
			pr := program{pr0.name + stage.name, nil}
			ref := matcher.Reference()
			o := rule.NewOracle(analysis.NewFacts(p), nil) // the shipped rules call no natives
			m := auto.NewMatcher()
			var buf []*rule.Match
			matches := 0
			for op := range p.Walk() {
				want := ref(set, op, o)
				buf = m.MatchInto(buf, op, o)
				if !matcher.SameMatches(want, buf) {
					num := ir.NumberValues(p.Body())
					var ws, gs []string
					for _, x := range want {
						ws = append(ws, x.Rule.ID())
					}
					for _, x := range buf {
						gs = append(gs, x.Rule.ID())
					}
					t.Fatalf("%s at %s: reference %v, automaton %v", pr.name, num.Describe(op), ws, gs)
				}
				matches += len(want)
				totalOps++
			}
			totalMatches += matches
			t.Logf("%s: %d matches", pr.name, matches)
		}
	}
	t.Logf("%d programs, %d ops, %d rules, %d matches", len(progs), totalOps, len(set.Rules), totalMatches)
	require.Positive(t, totalMatches)
}
