package drrcli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir/pirfile"
)

// snapshot returns every file below dir with its mode and content (the size and time of a regular file over 1 MiB;
// the mode alone of a link, a FIFO or a device, which are not followed nor read), to show that a command changed
// nothing.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		require.NoError(t, err)
		rel, _ := filepath.Rel(dir, p)
		switch {
		case info.IsDir():
			out[rel+"/"] = info.Mode().String()
		case !info.Mode().IsRegular():
			out[rel] = info.Mode().String()
		case info.Size() > 1<<20:
			out[rel] = fmt.Sprintf("%s %d bytes, %v", info.Mode(), info.Size(), info.ModTime())
		default:
			data, err := os.ReadFile(p)
			require.NoError(t, err)
			out[rel] = info.Mode().String() + " " + string(data)
		}
		return nil
	}))
	return out
}

// TestWriteOverOwnInput: a command that would write a program over its own input (a GraphNet graph folder onto
// itself, a file onto itself, a folder of programs onto itself) is a usage error that changes nothing, unless -w;
// with -w a graph folder keeps the user's files (issue 26 item 2).
func TestWriteOverOwnInput(t *testing.T) {
	graph := filepath.Join(tinySample(t), "subgraph_10")
	write(t, graph, "NOTES.txt", "my notes")
	write(t, graph, "results/run.log", "ok")
	write(t, graph, "graph_hash.txt", "0123")
	dir := t.TempDir()
	prog := write(t, dir, "p.pir", reluProgram)
	progs := filepath.Join(dir, "progs")
	write(t, progs, "a.pir", reluProgram)
	tests := [][]string{
		{"convert", graph, "-o", graph},
		{"convert", "-format", "graphnet", graph, "-o", graph + "/"},
		{"apply", graph, "-o", graph},
		{"convert", prog, "-o", prog},
		{"apply", "-set", "inplace", prog, "-o", prog},
		{"apply", "-set", "inplace", progs, "-o", progs},
		{"convert", progs, "-o", progs},
	}
	for _, args := range tests {
		before, beforeProgs, beforeGraph := snapshot(t, dir), snapshot(t, progs), snapshot(t, graph)
		code, _, errs := run(t, "", args...)
		assert.Equal(t, exitUsage, code, "%v: %s", args, errs)
		assert.Contains(t, errs, "itself: -w writes over it", args)
		assert.Equal(t, before, snapshot(t, dir), args)
		assert.Equal(t, beforeProgs, snapshot(t, progs), args)
		assert.Equal(t, beforeGraph, snapshot(t, graph), args)
	}
	code, _, errs := run(t, "", "apply", "-w", graph, "-o", graph)
	require.Equal(t, exitOK, code, errs)
	after := snapshot(t, graph)
	assert.Equal(t, "-rw-r--r-- my notes", after["NOTES.txt"])
	assert.Equal(t, "-rw-r--r-- ok", after["results/run.log"])
	assert.Equal(t, "-rw-r--r-- 0123", after["graph_hash.txt"])
	assert.NotContains(t, after["model.py"], "pd_op.add:", "matmul + add fused")
	code, _, errs = run(t, "", "convert", "-w", prog, "-o", prog)
	assert.Equal(t, exitOK, code, errs)
}

// TestOutputFolders: -o DIR/ writes one program into DIR under its name (a graph is that folder), a device takes a
// graph as PIR text, and a failed run removes the folders it created for its outputs (issue 26 items 11 and 13).
func TestOutputFolders(t *testing.T) {
	sample := tinySample(t)
	graph := filepath.Join(sample, "subgraph_10")
	dir := t.TempDir()
	prog := write(t, dir, "p.pir", reluProgram)

	out := filepath.Join(dir, "g") + "/"
	code, _, errs := run(t, "", "apply", graph, "-o", out)
	require.Equal(t, exitOK, code, errs)
	assert.FileExists(t, filepath.Join(dir, "g", "model.py"))
	code, _, errs = run(t, "", "apply", "-set", "inplace", prog, "-o", filepath.Join(dir, "f")+"/")
	require.Equal(t, exitOK, code, errs)
	assert.FileExists(t, filepath.Join(dir, "f", "p.pir"))
	code, _, errs = run(t, "", "convert", prog, "-format", "json", "-o", filepath.Join(dir, "c")+"/")
	require.Equal(t, exitOK, code, errs)
	assert.FileExists(t, filepath.Join(dir, "c", "p.json"))
	code, _, errs = run(t, "", "convert", graph, "-format", "pir", "-o", filepath.Join(dir, "c")+"/")
	require.Equal(t, exitOK, code, errs)
	assert.FileExists(t, filepath.Join(dir, "c", "subgraph_10.pir"))

	for _, args := range [][]string{{"apply", graph}, {"convert", graph}, {"apply", sample}} {
		code, _, errs = run(t, "", append(args, "-o", os.DevNull)...)
		if args[1] == sample {
			assert.Equal(t, exitUsage, code, "several programs need a folder: %s", errs)
			continue
		}
		assert.Equal(t, exitOK, code, "%v: %s", args, errs)
	}

	// -weights-out auto with no weight data to write fails the program: the folders made for it go again.
	params := write(t, dir, "w.pir", wolProgram)
	nested := filepath.Join(dir, "new", "deeper", "out.pir")
	code, _, errs = run(t, "", "apply", "-set", "inplace", "-weights-out", "auto", params, "-o", nested)
	assert.Equal(t, exitFailure, code, errs)
	assert.Contains(t, errs, "has no data to write")
	assert.NoDirExists(t, filepath.Join(dir, "new"))
	batch := filepath.Join(dir, "two")
	write(t, batch, "a.pir", wolProgram)
	write(t, batch, "sub/b.pir", wolProgram)
	code, _, errs = run(t, "", "apply", "-set", "inplace", "-weights-out", "auto", batch, "-o", filepath.Join(dir, "batch", "x"))
	assert.Equal(t, exitFailure, code, errs)
	assert.NoDirExists(t, filepath.Join(dir, "batch"))
	internal := write(t, dir, "v.pir", `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[true]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.to_vtensor" (%0) {} : (builtin.tensor<4xf32>) -> pd_op.v_tensor<4xf32>
    (%2) = "pd_op.to_tensor" (%1) {} : (pd_op.v_tensor<4xf32>) -> builtin.tensor<4xf32>
    (%3) = "pd_op.fetch" (%2) {col:(Int32)0,name:"out",persistable:[true],stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
}
`)
	code, _, errs = run(t, "", "convert", "-format", "graphnet", internal, "-o", filepath.Join(dir, "conv", "g"))
	assert.Equal(t, exitFailure, code, errs)
	assert.NoDirExists(t, filepath.Join(dir, "conv"), "a program Paddle cannot load writes nothing")
}

// TestPrintIRDirFailure: dumps that cannot be written fail the program before it is written (issue 26 item 6).
func TestPrintIRDirFailure(t *testing.T) {
	dir := t.TempDir()
	prog := write(t, dir, "p.pir", reluProgram)
	blocker := write(t, dir, "file", "x") // a file where -print-ir-dir wants a folder
	out := filepath.Join(dir, "out.pir")
	code, _, errs := run(t, "", "apply", "-print-ir-after-all", "-print-ir-dir", filepath.Join(blocker, "dumps"), prog, "-o", out)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "-print-ir-dir: mkdir "+blocker)
	assert.Contains(t, errs, "the program is not written")
	assert.NoFileExists(t, out)
	code, _, errs = run(t, "", "apply", "-print-ir-after-all", "-print-ir-dir", filepath.Join(dir, "dumps"), prog, "-o", out)
	assert.Equal(t, exitOK, code, errs)
	assert.FileExists(t, out)
	assert.FileExists(t, filepath.Join(dir, "dumps", "01-after-inplace.pir"))
}

// TestWeightsAutoWithoutFile: -weights auto beside no parameter file says that no weights were read (issue 26 item
// 9).
func TestWeightsAutoWithoutFile(t *testing.T) {
	dir := t.TempDir()
	prog := write(t, dir, "p.pir", reluProgram)
	code, _, errs := run(t, "", "apply", "-set", "inplace", "-weights", "auto", prog, "-o", filepath.Join(dir, "o.pir"))
	assert.Equal(t, exitOK, code, errs)
	assert.Contains(t, errs, prog+": warning: -weights auto: there is no "+filepath.Join(dir, "p.pdiparams")+", so no weights were read")
	code, _, _ = run(t, "", "apply", "-set", "inplace", "-weights", "auto", "-")
	assert.NotEqual(t, exitOK, code)
	code, _, errs = run(t, reluProgram, "apply", "-set", "inplace", "-weights", "auto", "-")
	assert.Equal(t, exitOK, code, errs)
	assert.Contains(t, errs, "-: warning: -weights auto: standard input has no parameter file beside it, so no weights were read")
}

// TestFolderOutputNames: a program folder's output name is the folder's whole name with the format's extension,
// dots included: ernie-2.0-base-zh and ernie-2.0-large-zh were both written to ernie-2.pir (issue 26 item 12).
func TestFolderOutputNames(t *testing.T) {
	graph := filepath.Join(tinySample(t), "subgraph_10")
	nlp := filepath.Join(t.TempDir(), "PaddleNLP")
	for _, name := range []string{"ernie-2.0-base-zh", "ernie-2.0-large-zh", "v1.5"} {
		require.NoError(t, os.CopyFS(filepath.Join(nlp, name), os.DirFS(graph)))
	}
	for _, tc := range []struct {
		args []string
		ext  string
	}{
		{[]string{"apply", "-format", "pir"}, ".pir"},
		{[]string{"apply", "-format", "json"}, ".json"},
		{[]string{"apply"}, ""},
		{[]string{"convert", "-format", "pir"}, ".pir"},
	} {
		out := filepath.Join(t.TempDir(), "out")
		code, _, errs := run(t, "", append(tc.args, nlp, "-o", out)...)
		require.Equal(t, exitOK, code, "%v: %s", tc.args, errs)
		assert.Equal(t, []string{"ernie-2.0-base-zh" + tc.ext, "ernie-2.0-large-zh" + tc.ext, "v1.5" + tc.ext}, mustReadDir(t, out), tc.args)
	}
}

// TestCorpusOutputNames: every program of the shared corpus gets its own output name, in every output format (the
// names only: a full drrc apply -format pir of the corpus takes a minute).
func TestCorpusOutputNames(t *testing.T) {
	root := corpus.Require(t)
	c := &CLI{}
	for _, f := range []*pirfile.Format{pirfile.PIRText, pirfile.PIRJSON, pirfile.MLIR} {
		a := &applyFlags{out: t.TempDir()}
		jobs, err := a.jobsFor(c, []string{root}, f)
		require.NoError(t, err)
		require.NoError(t, checkOutputs(jobs), f.Name)
		assert.Greater(t, len(jobs), 800)
		for _, j := range jobs {
			if isFolder(j.in) {
				rel, err := filepath.Rel(root, j.in)
				require.NoError(t, err)
				assert.Equal(t, filepath.Join(a.out, rel)+f.Extensions[0], j.out)
			}
		}
	}
}

// TestFmtWriteLinksAndStaleTemporaries: fmt -w rewrites a file with another hard link in place, so the link sees
// the formatted rules too, and removes the temporary file an earlier drrc killed during -w left (issue 26 item 14).
func TestFmtWriteLinksAndStaleTemporaries(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("hard links and process ids are checked on Unix")
	}
	dir := t.TempDir()
	path := write(t, dir, "r.drr", "rule   deinplace_relu {\n  match { %y = pd_op.relu_(%x) }\n  rewrite { replace %y with pd_op.relu(%x) }\n}\n")
	link := filepath.Join(dir, "link.drr")
	require.NoError(t, os.Link(path, link))
	cmd := exec.Command("true")
	require.NoError(t, cmd.Run())
	stale := write(t, dir, ".r.drr.drrc-"+strconv.Itoa(cmd.Process.Pid)+"-42.tmp", "rule half")
	code, formatted, errs := run(t, "", "fmt", path)
	require.Equal(t, exitOK, code, errs)
	require.Contains(t, formatted, "rule deinplace_relu {")
	code, _, errs = run(t, "", "fmt", "-w", path)
	require.Equal(t, exitOK, code, errs)
	for _, p := range []string{path, link} {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Equal(t, formatted, string(data), p)
	}
	assert.NoFileExists(t, stale)
}
