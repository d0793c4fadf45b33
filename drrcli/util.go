package drrcli

import (
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/pirdrr/drr/internal/textdiff"
	"github.com/pirdrr/drr/ir"
)

func unifiedDiff(aName, bName, a, b string) string { return textdiff.Unified(aName, bName, a, b) }

// walkFiles returns the files below dir whose names end in ext, sorted.
func walkFiles(dir, ext string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.EqualFold(filepath.Ext(path), ext) {
			out = append(out, path)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// opStats counts the ops of a program by name.
func opStats(p *ir.Program) map[string]int {
	n := map[string]int{}
	for op := range p.Walk() {
		n[op.Name()]++
	}
	return n
}

func numCPU() int { return runtime.NumCPU() }

// printOpDiff prints, per op name, the count before and after a pipeline where it changed.
func printOpDiff(w io.Writer, before, after map[string]int) {
	names := map[string]bool{}
	for k := range before {
		names[k] = true
	}
	for k := range after {
		names[k] = true
	}
	var list []string
	for k := range names {
		if before[k] != after[k] {
			list = append(list, k)
		}
	}
	sort.Strings(list)
	if len(list) == 0 {
		return
	}
	fmt.Fprintln(w, "  op counts that changed:")
	for _, k := range list {
		fmt.Fprintf(w, "      %-30s %3d → %d\n", k, before[k], after[k])
	}
}
