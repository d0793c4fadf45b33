package interp

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// sharedCorpusPath returns the path of rel inside the shared corpus (../shared/corpus next to the module root)
// and whether it exists: tests never depend on an absolute path of one machine.
func sharedCorpusPath(rel string) (string, bool) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", false
	}
	// This file is <module>/interp/shared_corpus_test.go.
	module := filepath.Dir(filepath.Dir(file))
	p := filepath.Join(filepath.Dir(module), "shared", "corpus", filepath.FromSlash(rel))
	_, err := os.Stat(p)
	return p, err == nil
}

// sharedCorpus is sharedCorpusPath for a test that needs the entry: it skips when the entry is absent.
func sharedCorpus(tb testing.TB, rel string) string {
	tb.Helper()
	p, ok := sharedCorpusPath(rel)
	if !ok {
		tb.Skipf("corpus entry %s is absent (%s)", rel, p)
	}
	return p
}
