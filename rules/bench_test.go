package rules_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
)

// benchPipeline runs drrc apply's default pipeline (inference) on the programs at paths: read (untimed) before
// each run, then the pipeline, timed. It reports ns per op of the programs read. Programs the readers reject are
// left out (the corpus keeps some fragments that are not whole programs).
func benchPipeline(b *testing.B, paths []string) {
	ctx, err := ir.NewDefaultContext()
	if err != nil {
		b.Fatal(err)
	}
	reg := rewriter.NewRegistry()
	if err := rules.Register(reg); err != nil {
		b.Fatal(err)
	}
	pl, err := reg.Pipeline(ctx, "inference")
	if err != nil {
		b.Fatal(err)
	}
	var readable []string
	for _, path := range paths {
		if _, _, err := pirfile.Load(ctx, path); err == nil {
			readable = append(readable, path)
		}
	}
	if len(readable) == 0 {
		b.Skip("no readable program")
	}
	load := func() ([]*ir.Program, int) {
		var progs []*ir.Program
		ops := 0
		for _, path := range readable {
			p, _, err := pirfile.Load(ctx, path)
			if err != nil {
				b.Fatalf("%s: %v", path, err)
			}
			progs = append(progs, p)
			ops += p.NumOps()
		}
		return progs, ops
	}
	_, ops := load()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		progs, _ := load()
		b.StartTimer()
		for _, p := range progs {
			if _, err := pl.Run(p, &rewriter.Env{Registry: reg}); err != nil {
				b.Fatalf("%s: %v", p.File, err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*ops), "ns/op-ir")
}

// BenchmarkInferenceCorpus runs the inference pipeline on every PIR JSON and PIR text program of the shared
// corpus.
func BenchmarkInferenceCorpus(b *testing.B) {
	var paths []string
	for _, dir := range []string{"pir_json", "pir_text"} {
		entries, err := os.ReadDir(corpus.Path(b, dir))
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range entries {
			if name := e.Name(); strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".pir") {
				paths = append(paths, filepath.Join(corpus.Path(b, dir), name))
			}
		}
	}
	benchPipeline(b, paths)
}

// BenchmarkInferenceGraphNet runs the inference pipeline on the sampled GraphNet graphs (every tenth;
// PIRDRR_CORPUS=full for all 811) and on the largest one alone. It reads them with pirfile.Load, which reads
// GraphNet folders once the GraphNet reader is registered with it; until then it skips.
func BenchmarkInferenceGraphNet(b *testing.B) {
	graphs := corpus.RequireGraphs(b, 0)
	ctx, err := ir.NewDefaultContext()
	if err != nil {
		b.Fatal(err)
	}
	if _, _, err := pirfile.Load(ctx, graphs[0].Dir); err != nil {
		b.Skipf("pirfile.Load does not read GraphNet folders yet: %v", err)
	}
	var sample []string
	for _, g := range graphs {
		sample = append(sample, g.Dir)
	}
	b.Run("sample", func(b *testing.B) { benchPipeline(b, sample) })
	b.Run("largest", func(b *testing.B) {
		benchPipeline(b, []string{corpus.Path(b, "graphnet_samples/PaddleX/SegFormer-B5/subgraph_1")})
	})
}
