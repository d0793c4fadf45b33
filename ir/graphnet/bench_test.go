package graphnet

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
)

// largestGraph is the corpus graph with the most statements (3,307 ops in forward).
const largestGraph = "graphnet_samples/PaddleX/SegFormer-B5/subgraph_1"

func loadSource(b *testing.B, dir string) (Source, int64) {
	b.Helper()
	src := Source{Dir: dir}
	var size int64
	for _, f := range []struct {
		name string
		dst  *[]byte
	}{{ModelFile, &src.Model}, {WeightMetaFile, &src.WeightMeta}, {InputMetaFile, &src.InputMeta}, {GraphNetJSON, &src.JSON}} {
		data, err := os.ReadFile(filepath.Join(dir, f.name))
		if err != nil {
			b.Fatal(err)
		}
		*f.dst = data
		size += int64(len(data))
	}
	return src, size
}

// BenchmarkDecodeLargest decodes the largest graph of the corpus from memory (MB/s counts all four files).
func BenchmarkDecodeLargest(b *testing.B) {
	src, size := loadSource(b, corpus.Path(b, largestGraph))
	ctx, err := ir.NewDefaultContext()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(ctx, src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodeLargest writes the largest graph's files to memory.
func BenchmarkEncodeLargest(b *testing.B) {
	src, size := loadSource(b, corpus.Path(b, largestGraph))
	ctx, err := ir.NewDefaultContext()
	if err != nil {
		b.Fatal(err)
	}
	p, err := Decode(ctx, src)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Encode(p, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadCorpus reads every graph of the corpus from disk once per iteration (run with -benchtime=1x and
// GOMAXPROCS=1 for the one-core figure).
func BenchmarkReadCorpus(b *testing.B) {
	root := corpus.Require(b)
	graphs, err := corpus.GraphNetGraphs(root)
	if err != nil {
		b.Fatal(err)
	}
	ctx, err := ir.NewDefaultContext()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, g := range graphs {
			if _, err := Read(ctx, g.Dir); err != nil {
				b.Fatal(err)
			}
		}
	}
}
