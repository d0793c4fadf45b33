// Package corpus locates the shared corpus of real programs (../shared/corpus next to the repository) for the
// tests of every package, and chooses the fixed sample of GraphNet graphs those tests run by default.
//
// The corpus is others' files: it is never copied into the repository. Tests call Require, which skips with a
// message naming the folder when it is absent, so that `go test ./...` passes on a machine without it.
//
// Tests over the whole GraphNet collection (811 graphs) run a fixed sample by default, to keep `go test -race
// ./...` within its time budget: Sample keeps every SampleStride-th graph in path order (the same graphs on every
// machine). Setting the environment variable PIRDRR_CORPUS=full runs all of them.
package corpus

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// EnvFull is the environment variable that, set to "full", makes Sample return every graph.
const EnvFull = "PIRDRR_CORPUS"

// SampleStride is the default sampling stride over the GraphNet graphs: every tenth graph in path order.
const SampleStride = 10

// Root returns the path of the shared corpus folder (../shared/corpus seen from the module root) and whether it
// exists.
func Root() (string, bool) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", false
	}
	// This file is <module>/internal/corpus/corpus.go.
	module := filepath.Dir(filepath.Dir(filepath.Dir(file)))
	dir := filepath.Join(filepath.Dir(module), "shared", "corpus")
	info, err := os.Stat(dir)
	return dir, err == nil && info.IsDir()
}

// Require returns the corpus folder, or skips the test with a message saying where it was looked for.
func Require(tb testing.TB) string {
	tb.Helper()
	dir, ok := Root()
	if !ok {
		tb.Skipf("the shared corpus is absent: %s does not exist (tests read it from ../shared/corpus next to the repository)", dir)
	}
	return dir
}

// Path returns the path of a file or folder inside the corpus (rel uses slashes, as in "pir_json/x.json"), skipping
// the test when the corpus or that entry is absent.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	p := filepath.Join(Require(tb), filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("corpus entry %s is absent: %v", rel, err)
	}
	return p
}

// Graph is one GraphNet graph: a folder holding model.py, weight_meta.py and input_meta.py.
type Graph struct {
	// Dir is the graph folder.
	Dir string
	// Rel is Dir relative to graphnet_samples, with slashes: "PaddleNLP/bert-base-cased" or
	// "PaddleX/PP-YOLOE-L/subgraph_3".
	Rel string
	// Collection is the first path element: PaddleNLP, PaddleX or PaddleScience.
	Collection string
	// Sample is the sample's folder name: "bert-base-cased", "PP-YOLOE-L".
	Sample string
}

// GraphNetGraphs returns every graph under root/graphnet_samples in path order.
func GraphNetGraphs(root string) ([]Graph, error) {
	base := filepath.Join(root, "graphnet_samples")
	var out []Graph
	err := filepath.WalkDir(base, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || d.Name() != "model.py" {
			return nil
		}
		dir := filepath.Dir(path)
		rel, err := filepath.Rel(base, dir)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		parts := strings.Split(rel, "/")
		if len(parts) < 2 {
			return fmt.Errorf("graph folder %s is not inside a collection folder", dir)
		}
		out = append(out, Graph{Dir: dir, Rel: rel, Collection: parts[0], Sample: parts[1]})
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return out, nil
}

// Full reports whether PIRDRR_CORPUS=full asks for the whole corpus.
func Full() bool { return os.Getenv(EnvFull) == "full" }

// Sample returns the graphs a test runs: all of them with PIRDRR_CORPUS=full, otherwise every stride-th graph in
// path order starting with the first (stride <= 0 means SampleStride).
func Sample(graphs []Graph, stride int) []Graph {
	if Full() {
		return graphs
	}
	if stride <= 0 {
		stride = SampleStride
	}
	var out []Graph
	for i := 0; i < len(graphs); i += stride {
		out = append(out, graphs[i])
	}
	return out
}

// RequireGraphs returns the GraphNet graphs a test runs (Sample with the given stride), skipping the test when the
// corpus is absent.
func RequireGraphs(tb testing.TB, stride int) []Graph {
	tb.Helper()
	root := Require(tb)
	graphs, err := GraphNetGraphs(root)
	if err != nil {
		tb.Fatalf("listing GraphNet graphs: %v", err)
	}
	if len(graphs) == 0 {
		tb.Skipf("no GraphNet graphs under %s/graphnet_samples", root)
	}
	return Sample(graphs, stride)
}
