package drrcli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
)

// runEnv runs drrc in-process with the environment env (and nothing else of the process's).
func runEnv(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	c := &CLI{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }}
	code := c.Run(args)
	return code, out.String(), errb.String()
}

// reluPrograms writes n small programs into dir/models and returns the folder.
func reluPrograms(t *testing.T, dir string, n int) string {
	t.Helper()
	models := filepath.Join(dir, "models")
	for i := 0; i < n; i++ {
		write(t, models, fmt.Sprintf("m%02d.pir", i), reluProgram)
	}
	return models
}

// readRecords reads a results file, failing the test on errors.
func readRecords(t *testing.T, path string) []*recordAt {
	t.Helper()
	recs, err := readResults(path, 1<<30)
	require.NoError(t, err)
	return recs
}

// comparable returns a record as JSON without its times, memory and shard fields (the fields in which a sharded
// run may differ from a one-process run), keys sorted.
func comparable(t *testing.T, r *resultRecord) string {
	t.Helper()
	data, err := json.Marshal(r)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m))
	var strip func(v any)
	strip = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if strings.HasSuffix(k, "_ns") || k == "peak_rss_bytes" || k == "peak_rss_from" || k == "shard" || k == "shard_programs" {
					delete(v, k)
					continue
				}
				strip(x)
			}
		case []any:
			for _, x := range v {
				strip(x)
			}
		}
	}
	strip(m)
	out, err := json.Marshal(m) // maps marshal with sorted keys
	require.NoError(t, err)
	return string(out)
}

// TestShardedVerifyEqualsOneProcess verifies six real GraphNet graphs (the smallest of the default sample) in one
// process and as three shards, merges the shards' result files and compares them with the one-process run record
// for record: equal in every field but times, memory and the shard fields.
func TestShardedVerifyEqualsOneProcess(t *testing.T) {
	graphs := corpus.RequireGraphs(t, 0)
	size := func(dir string) int64 {
		info, err := os.Stat(filepath.Join(dir, "model.py"))
		require.NoError(t, err)
		return info.Size()
	}
	sort.SliceStable(graphs, func(i, j int) bool { return size(graphs[i].Dir) < size(graphs[j].Dir) })
	var dirs []string
	for _, g := range graphs[:min(6, len(graphs))] {
		dirs = append(dirs, g.Dir)
	}
	tmp := t.TempDir()
	verifyArgs := func(extra ...string) []string {
		return append(append([]string{"verify", "-runs", "1"}, extra...), dirs...)
	}
	one := filepath.Join(tmp, "one.jsonl")
	code, _, stderr := run(t, "", verifyArgs("-results", one)...)
	require.Equal(t, exitOK, code, stderr)
	var files []string
	for k := 1; k <= 3; k++ {
		f := filepath.Join(tmp, fmt.Sprintf("shard%d.jsonl", k))
		code, _, stderr := run(t, "", verifyArgs("-shard", fmt.Sprintf("%d/3", k), "-results", f)...)
		require.Equal(t, exitOK, code, stderr)
		if _, err := os.Stat(f); err == nil {
			files = append(files, f)
		}
	}
	var sharded []*recordAt
	for _, f := range files {
		sharded = append(sharded, readRecords(t, f)...)
	}
	merged, errs := mergeRecords(sharded, dirs)
	require.Empty(t, errs)
	single, errs := mergeRecords(readRecords(t, one), dirs)
	require.Empty(t, errs)
	require.Len(t, merged.Records, len(dirs))
	require.Len(t, single.Records, len(dirs))
	for i := range dirs {
		a, b := single.Records[i], merged.Records[i]
		assert.Equal(t, comparable(t, a), comparable(t, b), "record of %s", a.Program)
		assert.Equal(t, statusOK, b.Status, "%s: %s", b.Program, b.Error)
		assert.NotNil(t, b.Stats, "%s: the cost figures", b.Program)
		assert.Positive(t, b.WallNS)
	}
	// drrc report merges the shard files without complaint, and the one-process file alike.
	args := []string{"report"}
	for _, d := range dirs {
		args = append(args, "-expect", d)
	}
	code, stdout, stderr := run(t, "", append(args, files...)...)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, fmt.Sprintf("totals: %d program(s): %d ok", len(dirs), len(dirs)))
	assert.Contains(t, stdout, "shard(s), the slowest")
}

func TestShardResume(t *testing.T) {
	dir := t.TempDir()
	models := reluPrograms(t, dir, 5)
	results := filepath.Join(dir, "r.jsonl")
	code, stdout, stderr := run(t, "", "verify", "-results", results, models)
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, 5, strings.Count(stdout, "\nok: "), stdout)
	full, err := os.ReadFile(results)
	require.NoError(t, err)
	lines := strings.SplitAfter(strings.TrimSuffix(string(full), "\n"), "\n")
	require.Len(t, lines, 5)

	// A run stopped after two programs: the rerun runs the three others only.
	require.NoError(t, os.WriteFile(results, []byte(lines[0]+lines[1]), 0o644))
	code, stdout, stderr = run(t, "", "verify", "-results", results, models)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "drrc verify: shard 1/1: 5 of 5 program(s); 2 already recorded in "+results+", 3 to run")
	assert.Equal(t, 3, strings.Count(stdout, "verify "+models), stdout)
	recs := readRecords(t, results)
	merged, errs := mergeRecords(recs, nil)
	require.Empty(t, errs)
	assert.Len(t, merged.Records, 5)

	// A complete file: nothing runs, and the file is left as it is.
	before, err := os.ReadFile(results)
	require.NoError(t, err)
	code, stdout, stderr = run(t, "", "verify", "-results", results, models)
	require.Equal(t, exitOK, code, stderr)
	assert.Empty(t, stdout)
	after, err := os.ReadFile(results)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after))

	// apply's records are another command's: the verify records do not make apply skip its programs.
	code, _, stderr = run(t, "", "apply", "-results", results, "-stats", "none", models, "-o", filepath.Join(dir, "out"))
	require.Equal(t, exitOK, code, stderr)
	code, _, stderr = run(t, "", "apply", "-results", results, "-stats", "none", models, "-o", filepath.Join(dir, "out"))
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "5 already recorded")
	merged, errs = mergeRecords(readRecords(t, results), nil)
	require.Empty(t, errs)
	assert.Len(t, merged.Records, 10)
	assert.Equal(t, 10, merged.Totals.Statuses[statusOK])
}

// TestShardEnv runs apply as the three shards of a Bazel test and of a Kubernetes Indexed Job: the shards write
// every program exactly once between them.
func TestShardEnv(t *testing.T) {
	for _, engine := range []string{"bazel", "kubernetes"} {
		t.Run(engine, func(t *testing.T) {
			dir := t.TempDir()
			models := reluPrograms(t, dir, 12)
			out := filepath.Join(dir, "out")
			status := filepath.Join(dir, "status")
			seen := map[string]int{}
			for k := 0; k < 3; k++ {
				env := map[string]string{"TEST_TOTAL_SHARDS": "3", "TEST_SHARD_INDEX": fmt.Sprint(k), "TEST_SHARD_STATUS_FILE": status}
				if engine == "kubernetes" {
					env = map[string]string{"JOB_COMPLETION_INDEX": fmt.Sprint(k), "PIRDRR_TOTAL_SHARDS": "3"}
				}
				results := filepath.Join(dir, fmt.Sprintf("r%d.jsonl", k))
				code, _, stderr := runEnv(t, env, "apply", "-stats", "none", "-results", results, models, "-o", out)
				require.Equal(t, exitOK, code, stderr)
				assert.Contains(t, stderr, fmt.Sprintf("drrc apply: shard %d/3 (from ", k+1))
				if _, err := os.Stat(results); err != nil {
					continue // an empty shard
				}
				for _, r := range readRecords(t, results) {
					seen[filepath.Base(r.Program)]++
					assert.Equal(t, fmt.Sprintf("%d/3", k+1), r.Shard)
				}
			}
			entries, err := os.ReadDir(out)
			require.NoError(t, err)
			assert.Len(t, entries, 12)
			assert.Len(t, seen, 12)
			for name, n := range seen {
				assert.Equal(t, 1, n, name)
			}
			if engine == "bazel" {
				_, err := os.Stat(status)
				assert.NoError(t, err, "TEST_SHARD_STATUS_FILE is touched")
			}
		})
	}
}

func TestShardUsageErrors(t *testing.T) {
	dir := t.TempDir()
	models := reluPrograms(t, dir, 2)
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"verify shard 0", nil, []string{"verify", "-shard", "0/2", models}, `-shard: shard "0/2": the shard is out of range for 2 shard(s) (K counted from 1)`},
		{"apply shard 3/2", nil, []string{"apply", "-shard", "3/2", models, "-o", filepath.Join(dir, "o")}, "out of range"},
		{"apply shard word", nil, []string{"apply", "-shard", "half", models, "-o", filepath.Join(dir, "o")}, "want K/N"},
		{"verify a missing program", nil, []string{"verify", "-shard", "1/0", "missing.pir"}, "the shard count must be at least 1"},
		{"job without total", map[string]string{"JOB_COMPLETION_INDEX": "1"}, []string{"verify", models}, "JOB_COMPLETION_INDEX is set but PIRDRR_TOTAL_SHARDS is not"},
		{"bazel index", map[string]string{"TEST_TOTAL_SHARDS": "2", "TEST_SHARD_INDEX": "2"}, []string{"apply", models, "-o", filepath.Join(dir, "o")}, "TEST_SHARD_INDEX=2, TEST_TOTAL_SHARDS=2: the shard is out of range"},
		{"rule mode", nil, []string{"verify", "-shard", "1/2", "-set", "conv_bn_relu"}, "-shard, -balance and -results are for programs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runEnv(t, tc.env, tc.args...)
			assert.Equal(t, exitUsage, code, stderr)
			assert.Contains(t, stderr, tc.want)
		})
	}
	_, err := os.Stat(filepath.Join(dir, "o"))
	assert.True(t, os.IsNotExist(err), "a usage error writes nothing")
}

// TestShardBalance gives apply the durations of a previous run: the shards still partition the programs, and the
// plan says it balanced them.
func TestShardBalance(t *testing.T) {
	dir := t.TempDir()
	models := reluPrograms(t, dir, 9)
	prev := filepath.Join(dir, "prev.jsonl")
	code, _, stderr := run(t, "", "verify", "-results", prev, models)
	require.Equal(t, exitOK, code, stderr)
	seen := map[string]int{}
	for k := 1; k <= 2; k++ {
		results := filepath.Join(dir, fmt.Sprintf("r%d.jsonl", k))
		code, _, stderr := run(t, "", "verify", "-shard", fmt.Sprintf("%d/2", k), "-balance", prev, "-results", results, models)
		require.Equal(t, exitOK, code, stderr)
		assert.Contains(t, stderr, "balanced by 9 recorded duration(s)")
		for _, r := range readRecords(t, results) {
			seen[r.Program]++
		}
	}
	assert.Len(t, seen, 9)
	// apply does not balance by verify's durations.
	code, _, stderr = run(t, "", "apply", "-stats", "none", "-shard", "1/2", "-balance", prev, models, "-o", filepath.Join(dir, "out"))
	require.Equal(t, exitOK, code, stderr)
	assert.NotContains(t, stderr, "balanced by")
	// A -balance file that is not a results file is an error at its position.
	bad := write(t, dir, "bad.jsonl", "{\"schema\":\"pirdrr-results/1\"\n")
	code, _, stderr = run(t, "", "verify", "-shard", "1/2", "-balance", bad, models)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, bad+":1:")
}

// TestShardPanicIsOneProgramsError: a pass that panics (a bug) on one program of a sharded run is that program's
// error in the results; the other programs are still verified and recorded, and the exit status is 3.
func TestShardPanicIsOneProgramsError(t *testing.T) {
	plugins := rewriter.NewRegistry()
	require.NoError(t, plugins.RegisterPass("boom_on_m01", "panics on the program with two fetches", func(*ir.Context, *rewriter.Registry) (rewriter.Pass, error) {
		return &rewriter.GoPass{PassName: "boom_on_m01", Fn: func(p *ir.Program, _ *ir.Rewriter) (int, error) {
			n := 0
			for op := range p.Walk() {
				if op.Name() == "pd_op.fetch" {
					n++
				}
			}
			if n == 2 {
				panic("boom")
			}
			return 0, nil
		}}, nil
	}))
	dir := t.TempDir()
	models := reluPrograms(t, dir, 3)
	two := strings.Replace(reluProgram, "\n}\n", "\n    (%3) = \"pd_op.fetch\" (%0) {col:(Int32)1,name:\"x_out\",persistable:[true],stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>\n}\n", 1)
	write(t, models, "m01.pir", two)
	results := filepath.Join(dir, "r.jsonl")
	var out, errb bytes.Buffer
	c := &CLI{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Plugins: plugins, Getenv: func(string) string { return "" }}
	code := c.Run([]string{"verify", "-passes", "boom_on_m01", "-results", results, models})
	assert.Equal(t, exitInternal, code, errb.String())
	assert.Contains(t, errb.String(), "m01.pir: internal error: boom")
	status := map[string]string{}
	for _, r := range readRecords(t, results) {
		status[filepath.Base(r.Program)] = r.Status + " " + r.Error
	}
	assert.Equal(t, map[string]string{"m00.pir": "ok ", "m01.pir": "error internal error: boom", "m02.pir": "ok "}, status)
}
