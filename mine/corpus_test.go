package mine_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/graphnet"
	"github.com/pirdrr/drr/mine"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
)

// TestCorpusScan mines the sample of the GraphNet graphs (all with PIRDRR_CORPUS=full) after gpu_inference and
// inplace, and logs the time of the pipeline and of the scans apart: the enumeration must stay a small part of a
// mining run. Every candidate's sites lie in programs that were scanned, its chain has 2 to 6 ops of which at most
// one runs on the matrix units, and the catalog of the shipped sets reads.
func TestCorpusScan(t *testing.T) {
	root := corpus.Require(t)
	graphs, err := corpus.GraphNetGraphs(root)
	require.NoError(t, err)
	graphs = corpus.Sample(graphs, 0)
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	reg := rewriter.NewRegistry()
	require.NoError(t, rules.Register(reg))
	pl, err := reg.Pipeline(ctx, "gpu_inference")
	require.NoError(t, err)
	inplace, err := reg.Pipeline(ctx, "inplace")
	require.NoError(t, err)
	pl = append(pl, inplace...)
	model, err := cost.NewModel("a100")
	require.NoError(t, err)
	m := mine.New(mine.Options{Model: model})
	var passes, scans time.Duration
	scanned := map[string]bool{}
	for _, g := range graphs {
		p, err := graphnet.Read(ctx, g.Dir)
		require.NoError(t, err, g.Rel)
		start := time.Now()
		_, err = pl.Run(p, &rewriter.Env{Registry: reg})
		require.NoError(t, err, g.Rel)
		passes += time.Since(start)
		start = time.Now()
		m.Add(m.Scan(mine.Source{Program: g.Rel, Family: mine.Family(g.Sample)}, p))
		scans += time.Since(start)
		scanned[g.Rel] = true
	}
	st := m.Stats()
	cands := m.Candidates()
	t.Logf("%d graphs, %d ops: %d subgraphs from %d roots (%d truncated), %d chains; pipeline %v, scans %v",
		st.Programs, st.Ops, st.Subgraphs, st.Roots, st.Truncated, len(cands), passes, scans)
	require.NotEmpty(t, cands)
	var sets []mine.NamedSet
	for _, name := range rules.Sets() {
		s, err := rules.Load(ctx, name)
		require.NoError(t, err)
		sets = append(sets, mine.NamedSet{Name: name, Set: s})
	}
	cat := mine.NewCatalog(sets)
	assert.Positive(t, cat.Len())
	cat.Annotate(cands)
	for _, c := range cands {
		assert.GreaterOrEqual(t, len(c.Chain.Ops), 2)
		assert.LessOrEqual(t, len(c.Chain.Ops), 6)
		assert.LessOrEqual(t, c.Occurrences, st.Subgraphs)
		for _, s := range c.Sites {
			assert.True(t, scanned[s.Program], s.Program)
		}
	}
}

// BenchmarkScan scans ResNet50 and BERT-base after gpu_inference and inplace (the corpus's graphs; skipped without it).
func BenchmarkScan(b *testing.B) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(b, err)
	reg := rewriter.NewRegistry()
	require.NoError(b, rules.Register(reg))
	pl, err := reg.Pipeline(ctx, "gpu_inference")
	require.NoError(b, err)
	inplace, err := reg.Pipeline(ctx, "inplace")
	require.NoError(b, err)
	pl = append(pl, inplace...)
	var progs []*ir.Program
	for _, rel := range []string{"graphnet_samples/PaddleX/ResNet50", "graphnet_samples/PaddleNLP/bert-base-cased"} {
		p, err := graphnet.Read(ctx, corpus.Path(b, rel))
		require.NoError(b, err)
		_, err = pl.Run(p, &rewriter.Env{Registry: reg})
		require.NoError(b, err)
		progs = append(progs, p)
	}
	model, err := cost.NewModel("a100")
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		m := mine.New(mine.Options{Model: model})
		for _, p := range progs {
			m.Add(m.Scan(mine.Source{Program: "p"}, p))
		}
	}
}
