package drrcli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/internal/sample"
	"github.com/pirdrr/drr/ir"
)

// mineArchive is the golden archive of drrc mine: two programs, and the text and JSON reports on them.
var mineArchive = filepath.Join("testdata", "mine", "two.txtar")

// mineCorpus extracts the archive's programs into a new folder, changes into it and returns the archive and its
// absolute path.
func mineCorpus(t *testing.T) (*txtar.Archive, string) {
	t.Helper()
	abs, err := filepath.Abs(mineArchive)
	require.NoError(t, err)
	data, err := os.ReadFile(abs)
	require.NoError(t, err)
	ar := txtar.Parse(data)
	dir := t.TempDir()
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, "corpus/") {
			write(t, dir, f.Name, string(f.Data))
		}
	}
	t.Chdir(dir)
	return ar, abs
}

// TestMineGolden compares drrc mine's text and JSON reports on the archive's programs with the archive's; -update
// rewrites them.
func TestMineGolden(t *testing.T) {
	ar, abs := mineCorpus(t)
	outputs := map[string][]string{
		"stdout.txt":  {"mine", "-passes", "none", "-top", "0", "corpus"},
		"stdout.json": {"mine", "-passes", "none", "-top", "3", "-json", "corpus"},
	}
	got := map[string]string{}
	for name, args := range outputs {
		code, out, errs := run(t, "", args...)
		require.Equal(t, 0, code, errs)
		require.Empty(t, errs)
		got[name] = out
	}
	if *update {
		var files []txtar.File
		for _, f := range ar.Files {
			if _, ok := outputs[f.Name]; !ok {
				files = append(files, f)
			}
		}
		for _, name := range []string{"stdout.txt", "stdout.json"} {
			files = append(files, txtar.File{Name: name, Data: []byte(got[name])})
		}
		ar.Files = files
		require.NoError(t, os.WriteFile(abs, txtar.Format(ar), 0o644))
		return
	}
	for _, f := range ar.Files {
		if want, ok := outputs[f.Name]; ok {
			assert.Equal(t, string(f.Data), got[f.Name], "drrc %s (go test ./drrcli -run TestMineGolden -update)", strings.Join(want, " "))
		}
	}
	var res mineResult
	require.NoError(t, json.Unmarshal([]byte(got["stdout.json"]), &res))
	require.Len(t, res.Candidates, 3)
	for _, c := range res.Candidates {
		assert.Equal(t, 2, c.Programs, c.Chain)
	}
}

// checkSkeleton fails the test when a skeleton file does not check.
func checkSkeleton(t *testing.T, path string) {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	set, diags := drr.LoadSource(ctx, drr.LoadOptions{}, path, src)
	require.False(t, diags.HasErrors(), "%s:\n%s\n%s", path, diags, src)
	require.Len(t, set.Rules, 1, path)
}

// TestMineSkeletons: -o writes one skeleton per listed candidate, each of which checks; a second run replaces them,
// and a file drrc mine did not write makes the run write nothing.
func TestMineSkeletons(t *testing.T) {
	mineCorpus(t)
	code, out, errs := run(t, "", "mine", "-passes", "none", "-top", "3", "-o", "out/", "corpus")
	require.Equal(t, 0, code, errs)
	entries, err := os.ReadDir("out")
	require.NoError(t, err)
	require.Len(t, entries, 3)
	for _, e := range entries {
		checkSkeleton(t, filepath.Join("out", e.Name()))
		assert.Contains(t, out, "skeleton: "+filepath.Join("out", e.Name()))
	}
	code, _, errs = run(t, "", "mine", "-passes", "none", "-top", "3", "-o", "out/", "corpus")
	require.Equal(t, 0, code, errs)

	// A foreign file under a skeleton's name: nothing is written, the file is left as it was.
	names := []string{entries[0].Name(), entries[1].Name()}
	foreign := filepath.Join("out", names[0])
	require.NoError(t, os.WriteFile(foreign, []byte("// my own rules\n"), 0o644))
	ours := filepath.Join("out", names[1])
	require.NoError(t, os.WriteFile(ours, []byte("// Written by drrc mine, then edited\n"), 0o644))
	code, _, errs = run(t, "", "mine", "-passes", "none", "-top", "3", "-o", "out/", "corpus")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "was not written by drrc mine: not replacing it")
	data, err := os.ReadFile(foreign)
	require.NoError(t, err)
	assert.Equal(t, "// my own rules\n", string(data))
	data, err = os.ReadFile(ours)
	require.NoError(t, err)
	assert.Equal(t, "// Written by drrc mine, then edited\n", string(data), "a refused run writes no file")

	// -o naming a file.
	code, _, errs = run(t, "", "mine", "-passes", "none", "-o", foreign, "corpus")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "not a folder")
}

// TestMineHostile: missing folders, folders without programs, programs that do not read, bad flags: positioned
// errors and a failing exit, the other programs still mined.
func TestMineHostile(t *testing.T) {
	mineCorpus(t)
	code, _, errs := run(t, "", "mine", "nosuch/")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "nosuch")

	require.NoError(t, os.MkdirAll("empty", 0o755))
	code, _, errs = run(t, "", "mine", "empty")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "no programs in this folder")

	write(t, ".", "corpus/junk.pir", "{\n    (%0) = \"pd_op.relu\" (%9) {} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>\n}\n")
	write(t, ".", "corpus/noise.json", "{\"not\": [\"a program\"")
	code, out, errs := run(t, "", "mine", "-passes", "none", "corpus")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "corpus/junk.pir:2:")
	assert.Contains(t, errs, "corpus/noise.json:1:")
	assert.Contains(t, errs, "drrc mine: corpus/junk.pir: not mined")
	assert.Contains(t, out, "mined 2 programs")
	assert.Contains(t, out, "(2 of 4 programs not mined: see the errors above)")

	for _, args := range [][]string{
		{"mine"}, {"mine", "-min", "1", "corpus"}, {"mine", "-max", "13", "corpus"}, {"mine", "-top", "-1", "corpus"},
		{"mine", "-device", "nosuch", "corpus"}, {"mine", "-passes", "nosuch_pass", "corpus"}, {"mine", "-verify-sites", "0", "corpus"},
	} {
		code, _, errs := run(t, "", args...)
		assert.NotEqual(t, 0, code, "%v", args)
		assert.NotEmpty(t, errs, "%v", args)
	}
}

// TestMineVerify: on the sample model as exported, matmul → add is what the shipped rule matmul_add_fc makes an fc
// of; its skeleton carries that rewrite over, and -verify checks it in rule mode and on the model.
func TestMineVerify(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, sample.Name, string(sample.JSON()))
	t.Chdir(dir)
	code, out, errs := run(t, "", "mine", "-passes", "none", "-max", "2", "-verify", "-json", sample.Name)
	require.Equal(t, 0, code, errs)
	var res mineResult
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	var found *mineCandidate
	for i, c := range res.Candidates {
		if c.Chain == "matmul → add" {
			found = &res.Candidates[i]
		}
	}
	require.NotNil(t, found, out)
	assert.True(t, found.Fuses)
	require.NotNil(t, found.Verify)
	assert.Equal(t, "ok", found.Verify.Rule)
	require.Len(t, found.Verify.Sites, 1)
	assert.Equal(t, mineSiteVerification{Program: sample.Name, Rewrites: 1, Status: "ok"}, found.Verify.Sites[0])
	assert.True(t, found.Verify.Passed)
	for _, c := range res.Candidates {
		if !c.Fuses {
			assert.Nil(t, c.Verify, "only skeletons that make the fused op are verified")
		}
	}
}

// TestMineCorpus mines the sample of the GraphNet corpus (all of it with PIRDRR_CORPUS=full) after gpu_inference:
// every graph is mined, the top candidates are chains of 2 to 6 ops that save something, and their skeletons check.
func TestMineCorpus(t *testing.T) {
	root := corpus.Require(t)
	graphs, err := corpus.GraphNetGraphs(root)
	require.NoError(t, err)
	graphs = corpus.Sample(graphs, 0)
	args := []string{"mine", "-top", "30", "-json", "-o", filepath.Join(t.TempDir(), "mined")}
	for _, g := range graphs {
		args = append(args, g.Dir)
	}
	start := time.Now()
	code, out, errs := run(t, "", args...)
	t.Logf("%d graphs mined in %v", len(graphs), time.Since(start))
	require.Equal(t, 0, code, errs)
	var res mineResult
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	assert.Equal(t, len(graphs), res.Stats.Programs)
	require.Len(t, res.Candidates, 30)
	for i, c := range res.Candidates {
		assert.GreaterOrEqual(t, c.Ops, 2, c.Key)
		assert.LessOrEqual(t, c.Ops, 6, c.Key)
		assert.Positive(t, c.Saving.Kernels+int64(c.Saving.Time.High*1e9), c.Key)
		assert.NotEmpty(t, c.Sites, c.Key)
		if i > 0 {
			assert.LessOrEqual(t, c.Saving.Time.High, res.Candidates[i-1].Saving.Time.High, "ranked by time saved")
		}
		checkSkeleton(t, c.Skeleton)
	}
}

// TestMineHTML: -html writes the page with the table and, per site, commands that draw it: run as written, they
// draw the site's op.
func TestMineHTML(t *testing.T) {
	mineCorpus(t)
	code, out, errs := run(t, "", "mine", "-top", "2", "-json", "-html", "page.html", "corpus")
	require.Equal(t, 0, code, errs)
	var res mineResult
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	require.NotEmpty(t, res.Candidates)
	page, err := os.ReadFile("page.html")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(page), mineHTMLHeader))
	site := res.Candidates[0].Sites[0]
	apply := "drrc apply -passes gpu_inference,inplace -o site1_1.pir " + site.Program
	graph := "drrc graph -focus " + site.Value + " -o site1_1.html site1_1.pir"
	assert.Contains(t, string(page), apply+"\n"+graph)
	for _, cmd := range []string{apply, strings.Replace(graph, "-o site1_1.html", "-format dot -o site1_1.dot", 1)} {
		code, _, errs := run(t, "", strings.Fields(cmd)[1:]...)
		require.Equal(t, 0, code, "%s: %s", cmd, errs)
	}
	dot, err := os.ReadFile("site1_1.dot")
	require.NoError(t, err)
	assert.Contains(t, string(dot), strings.TrimPrefix(site.Op, "pd_op."), "the drawing holds the site's op")

	write(t, ".", "mine.html", "<html>mine</html>")
	code, _, errs = run(t, "", "mine", "-html", "mine.html", "corpus")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "was not written by drrc mine")
	data, err := os.ReadFile("mine.html")
	require.NoError(t, err)
	assert.Equal(t, "<html>mine</html>", string(data))
}

// TestMineWritesNothingOnErrors: with an input that does not read, -o and -html write nothing.
func TestMineWritesNothingOnErrors(t *testing.T) {
	mineCorpus(t)
	write(t, ".", "corpus/junk.pir", "{\n    (%0) = \"pd_op.relu\" (%9) {} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>\n}\n")
	code, out, errs := run(t, "", "mine", "-passes", "none", "-o", "out/", "-html", "page.html", "corpus")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "-o and -html write nothing")
	assert.Contains(t, out, "mined 2 programs")
	assert.NoDirExists(t, "out")
	assert.NoFileExists(t, "page.html")
}
