package paddle

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/internal/corpus"
)

var update = flag.Bool("update", false, "rewrite the golden C++ in testdata")

// wholeSets are the shipped rule sets whose Paddle counterpart is itself written with Paddle's DRR: each must
// export every rule.
var wholeSets = []string{"identity_op_clean", "map_op_to_another", "delete_quant_dequant_linear_op",
	"delete_weight_dequant_linear_op", "silu_fuse", "remove_redundant_transpose", "transpose_flatten_concat_fuse",
	"fused_weight_only_linear", "matmul_scale_fuse", "matmul_transpose_fuse", "group_norm_silu_fuse"}

// goldenSets are the rule sets whose C++ is kept as golden files.
var goldenSets = []string{"silu_fuse", "identity_op_clean", "delete_weight_dequant_linear_op", "fused_weight_only_linear",
	"remove_redundant_transpose"}

// headers returns the folder of Paddle's DRR headers (../shared/reference/paddle-drr-headers/include beside the
// repository) and g++, or skips the test saying which is absent.
func headers(t *testing.T) (include, gxx string) {
	t.Helper()
	root, _ := corpus.Root()
	include = filepath.Join(filepath.Dir(root), "reference", "paddle-drr-headers", "include")
	if _, err := os.Stat(filepath.Join(include, "paddle/fluid/pir/drr/include/drr_pattern_base.h")); err != nil {
		t.Skipf("Paddle's DRR headers are absent (%s): the g++ check needs ../shared/reference/paddle-drr-headers", include)
	}
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("g++ is not installed: the syntax check of the generated C++ needs it (apt-get install g++)")
	}
	return include, gxx
}

// syntaxCheck runs g++ -fsyntax-only with every warning an error on a C++ file, as the headers' README says.
func syntaxCheck(t *testing.T, gxx, include string, code []byte) (string, error) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "pass.cc")
	require.NoError(t, os.WriteFile(f, code, 0o644))
	cmd := exec.Command(gxx, "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-isystem", include, f)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func ruleFiles(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join("..", "..", "rules", "*.drr"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	sort.Strings(files)
	return files
}

// exampleFiles are the rule files of the repository's examples (examples/*/*.drr).
func exampleFiles(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "*", "*.drr"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	sort.Strings(files)
	return files
}

func generate(t *testing.T, path string, cfg Config) ([]byte, Result, diag.Diagnostics) {
	t.Helper()
	return GenerateFile(newContext(t), path, cfg)
}

// TestShippedRules generates every shipped rule file (the rules Paddle can express) and checks the C++ with g++:
// the sets written with Paddle's DRR in Paddle export whole, the others report each rule they cannot export with
// its position. One g++ check costs a few CPU seconds, so by default only the whole sets are compiled;
// PIRDRR_CORPUS=full compiles every file. The table of counts is logged (go test -v) and is the one of docs/paddle-export.md.
func TestShippedRules(t *testing.T) {
	include, gxx := headers(t)
	whole := map[string]bool{}
	for _, s := range wholeSets {
		whole[s] = true
	}
	type row struct {
		name              string
		exported, total   int
		err, gxxOut, code string
	}
	files := ruleFiles(t)
	rows := make([]row, len(files))
	for i, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".drr")
		code, res, diags := generate(t, f, Config{Partial: true})
		r := row{name: name, exported: res.Exported, total: res.Total}
		if whole[name] {
			assert.Equal(t, res.Total, res.Exported, "%s must export whole: %v", name, diags)
			assert.False(t, diags.HasErrors(), "%s: %v", name, diags)
		}
		for _, d := range diags {
			if !strings.Contains(d.Message, "cannot be exported to Paddle") {
				continue
			}
			assert.NotZero(t, d.Pos.Line, "a refusal names a position: %s", d)
		}
		if code == nil {
			assert.Zero(t, res.Exported, "%s: no code but %d rules exported", name, res.Exported)
			r.err = diags.Error()
		} else {
			r.code = string(code)
		}
		rows[i] = r
	}
	// The syntax checks, two at a time (one g++ takes about a second and 330 MB).
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	full := os.Getenv(corpus.EnvFull) == "full"
	for i := range rows {
		if rows[i].code == "" || !full && !whole[rows[i].name] {
			continue // by default g++ checks the sets that must export whole; PIRDRR_CORPUS=full checks every one
		}
		wg.Add(1)
		go func(r *row) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out, err := syntaxCheckNoHelper(gxx, include, []byte(r.code))
			if err != nil {
				r.gxxOut = fmt.Sprintf("%v\n%s", err, out)
			}
		}(&rows[i])
	}
	wg.Wait()
	var table strings.Builder
	exported, total := 0, 0
	doc := docCounts(t)
	for _, r := range rows {
		assert.Equal(t, [2]int{r.exported, r.total}, doc[r.name], "%s: the table of docs/paddle-export.md", r.name)
		delete(doc, r.name)
		assert.Empty(t, r.gxxOut, "%s: g++ rejects the generated C++", r.name)
		fmt.Fprintf(&table, "%-34s %3d / %3d\n", r.name, r.exported, r.total)
		exported += r.exported
		total += r.total
	}
	assert.Empty(t, doc, "docs/paddle-export.md lists rule files that are not shipped")
	fmt.Fprintf(&table, "%-34s %3d / %3d\n", "all", exported, total)
	t.Logf("rules exported / total per rule file:\n%s", table.String())
}

// syntaxCheckNoHelper is syntaxCheck for goroutines (no testing helpers).
func syntaxCheckNoHelper(gxx, include string, code []byte) (string, error) {
	dir, err := os.MkdirTemp("", "paddlecpp")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	f := filepath.Join(dir, "pass.cc")
	if err := os.WriteFile(f, code, 0o644); err != nil {
		return "", err
	}
	out, err := exec.Command(gxx, "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-isystem", include, f).CombinedOutput()
	return string(out), err
}

// wholeExamples are the example sets (examples/NAME/*.drr) that must export whole: the transformer fusions of the
// rule-authoring issue, written in .drr only. The plugin examples show Go natives and $attrs..., which Paddle's DRR
// cannot take: they export in part, each refusal positioned.
var wholeExamples = map[string]bool{"transformer": true}

// TestExampleSets generates the example rule sets and checks the C++ with g++.
func TestExampleSets(t *testing.T) {
	include, gxx := headers(t)
	for _, f := range exampleFiles(t) {
		name := filepath.Base(filepath.Dir(f))
		t.Run(name, func(t *testing.T) {
			code, res, diags := generate(t, f, Config{Partial: true})
			if wholeExamples[name] {
				require.False(t, diags.HasErrors(), "%v", diags)
				assert.Equal(t, res.Total, res.Exported)
			}
			for _, d := range diags {
				assert.NotZero(t, d.Pos.Line, "a refusal names a position: %s", d)
			}
			if code == nil {
				return
			}
			out, err := syntaxCheck(t, gxx, include, code)
			assert.NoError(t, err, "g++ rejects the generated C++:\n%s", out)
		})
	}
}

// TestGolden compares the C++ of a few rule sets with testdata/golden.txtar (go test -update rewrites it). The
// printer is deterministic: the same rules give the same bytes.
func TestGolden(t *testing.T) {
	outputs := map[string]string{}
	for _, name := range goldenSets {
		code, _, diags := generate(t, filepath.Join("..", "..", "rules", name+".drr"), Config{})
		require.False(t, diags.HasErrors(), "%s: %v", name, diags)
		again, _, _ := generate(t, filepath.Join("..", "..", "rules", name+".drr"), Config{})
		require.Equal(t, string(code), string(again), "%s: the output differs between two runs", name)
		outputs[name+"_pass.cc"] = string(code)
	}
	path := filepath.Join("testdata", "golden.txtar")
	if *update {
		a := &txtar.Archive{Comment: []byte("drrc gen -lang paddle on shipped rule files (go test ./rulegen/paddle -update rewrites it).\n")}
		for _, name := range goldenSets {
			a.Files = append(a.Files, txtar.File{Name: name + "_pass.cc", Data: []byte(outputs[name+"_pass.cc"])})
		}
		require.NoError(t, os.WriteFile(path, txtar.Format(a), 0o644))
		return
	}
	a, err := txtar.ParseFile(path)
	require.NoError(t, err, "run go test -update to create it")
	require.Len(t, a.Files, len(outputs))
	for _, f := range a.Files {
		assert.Equal(t, string(f.Data), outputs[f.Name], "%s differs (go test -update rewrites it)", f.Name)
	}
}

// TestSyntaxCheckBites proves the g++ check catches the mistakes a generator could make: a misspelled API call
// and a call with the wrong number of arguments, in otherwise good generated code.
func TestSyntaxCheckBites(t *testing.T) {
	include, gxx := headers(t)
	code, _, diags := generate(t, filepath.Join("..", "..", "rules", "identity_op_clean.drr"), Config{})
	require.False(t, diags.HasErrors(), "%v", diags)
	out, err := syntaxCheck(t, gxx, include, code)
	require.NoError(t, err, "the unmodified code must pass: %s", out)
	tests := []struct {
		name, from, to, want string
	}{
		{"misspelled method", ".Assign(", ".Asign(", "did you mean"},
		{"misspelled pattern", "ctx->SourcePattern()", "ctx->SourcePatern()", "SourcePatern"},
		{"wrong argument count", `res.BoolAttr(true)`, `res.BoolAttr(true, false)`, "BoolAttr"},
		{"wrong Attr type", `match_ctx.Attr<float>("scale_bias") == 0.0f`, `match_ctx.Attr<float>("scale_bias", 1) == 0.0f`, "Attr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Contains(t, string(code), tt.from)
			bad := bytes.Replace(code, []byte(tt.from), []byte(tt.to), 1)
			out, err := syntaxCheck(t, gxx, include, bad)
			require.Error(t, err, "g++ accepted %s", tt.name)
			assert.Contains(t, out, tt.want)
		})
	}
}
