package drrcli

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/internal/sample"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
)

// TestOutputNotRegular: an output that is not a regular file is written in place, never replaced by one (issue 20
// item 1). /dev/null itself is reached through a link in the test's folder, so that a regression can only replace
// the link, never the device.
func TestOutputNotRegular(t *testing.T) {
	dir := t.TempDir()
	prog := write(t, dir, "p.pir", reluProgram)
	for _, cmd := range [][]string{{"convert", prog, "-format", "json"}, {"apply", "-set", "inplace", prog}} {
		t.Run(cmd[0], func(t *testing.T) {
			link := filepath.Join(dir, cmd[0]+"-null")
			require.NoError(t, os.Symlink(os.DevNull, link))
			code, _, errs := run(t, "", append(cmd, "-o", link)...)
			require.Equal(t, exitOK, code, errs)
			info, err := os.Lstat(link)
			require.NoError(t, err)
			assert.NotZero(t, info.Mode()&fs.ModeSymlink, "the link is still a link")
			info, err = os.Stat(os.DevNull)
			require.NoError(t, err)
			assert.NotZero(t, info.Mode()&fs.ModeCharDevice, "%s is still a device", os.DevNull)

			// A directory is an error, and is left alone.
			sub := filepath.Join(dir, cmd[0]+"-dir")
			require.NoError(t, os.Mkdir(sub, 0o755))
			code, _, errs = run(t, "", append(cmd, "-o", sub)...)
			assert.Equal(t, exitFailure, code)
			assert.Contains(t, errs, "is a directory")
			info, err = os.Stat(sub)
			require.NoError(t, err)
			assert.True(t, info.IsDir())
			entries, _ := os.ReadDir(sub)
			assert.Empty(t, entries)
		})
	}
	for _, e := range mustReadDir(t, dir) {
		assert.NotContains(t, e, ".tmp", "temporary file left")
	}
}

func mustReadDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestOutputNamesFollowFormat: drrc apply -format pir DIR -o OUT writes .pir names holding PIR text (item 5).
func TestOutputNamesFollowFormat(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "in/a.json", string(sample.JSON()))
	write(t, dir, "in/sub/b.pir", reluProgram)
	out := filepath.Join(dir, "out")
	code, _, errs := run(t, "", "apply", "-set", "inplace", "-format", "pir", filepath.Join(dir, "in"), "-o", out)
	require.Equal(t, exitOK, code, errs)
	var got []string
	require.NoError(t, filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(out, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return err
	}))
	assert.Equal(t, []string{"a.pir", "sub/b.pir"}, got)
	data, err := os.ReadFile(filepath.Join(out, "a.pir"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(data), "{\n"), "PIR text, not JSON")

	// JSON the other way, and a name clash is an error before anything runs.
	code, _, errs = run(t, "", "apply", "-set", "inplace", "-format", "json", filepath.Join(dir, "in"), "-o", filepath.Join(dir, "js"))
	require.Equal(t, exitOK, code, errs)
	assert.FileExists(t, filepath.Join(dir, "js", "sub", "b.json"))
	write(t, dir, "clash/a.json", string(sample.JSON()))
	write(t, dir, "clash/a.pir", reluProgram)
	code, _, errs = run(t, "", "apply", "-format", "pir", filepath.Join(dir, "clash"), "-o", filepath.Join(dir, "c"))
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errs, "would both be written to "+filepath.Join(dir, "c", "a.pir"))
	code, _, errs = run(t, "", "apply", "-format", "onnx", filepath.Join(dir, "in"), "-o", filepath.Join(dir, "c"))
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errs, `unknown format "onnx"`)
}

// folderFormat is a folder format for tests, as GraphNet's will be: a folder holding program.pir.
var folderFormat = &pirfile.Format{
	Name: "folder",
	Doc:  "a folder holding program.pir",
	Dir:  true,
	SniffDir: func(dir string) bool {
		_, err := os.Stat(filepath.Join(dir, "program.pir"))
		return err == nil
	},
	ReadDir: func(ctx *ir.Context, dir string) (*ir.Program, diag.Diagnostics, error) {
		name := filepath.Join(dir, "program.pir")
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, nil, err
		}
		return pirfile.PIRText.Read(ctx, name, src)
	},
	WriteDir: func(dir string, p *ir.Program, opts pirfile.Options) error {
		return pirfile.WriteFileFunc(filepath.Join(dir, "program.pir"), func(w io.Writer) error {
			return pirfile.PIRText.Write(w, p, opts)
		})
	},
}

// TestFolderFormat: a drrc whose registry has a folder format reads program folders (alone, or the subfolders of
// a sample folder) and writes them, with no change to the commands.
func TestFolderFormat(t *testing.T) {
	formats, err := pirfile.NewRegistry(append(pirfile.Standard().Formats(), folderFormat)...)
	require.NoError(t, err)
	drrc := func(args ...string) (int, string) {
		var o, e strings.Builder
		c := &CLI{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e, Formats: formats}
		return c.Run(args), e.String()
	}
	dir := t.TempDir()
	write(t, dir, "sample/subgraph_0/program.pir", reluProgram)
	write(t, dir, "sample/subgraph_1/program.pir", strings.Replace(reluProgram, `"pd_op.relu"`, `"pd_op.relu_"`, 1))
	out := filepath.Join(dir, "out")
	code, errs := drrc("apply", "-set", "inplace", filepath.Join(dir, "sample"), "-o", out)
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, errs, "2 of 2 programs ok")
	assert.FileExists(t, filepath.Join(out, "subgraph_0", "program.pir"))
	assert.FileExists(t, filepath.Join(out, "subgraph_1", "program.pir"))

	// One folder in, a file out, and back to a folder.
	js := filepath.Join(dir, "g.json")
	code, errs = drrc("convert", filepath.Join(dir, "sample", "subgraph_0"), "-o", js)
	require.Equal(t, exitOK, code, errs)
	back := filepath.Join(dir, "back")
	code, errs = drrc("convert", "-format", "folder", js, "-o", back)
	require.Equal(t, exitOK, code, errs)
	got, err := os.ReadFile(filepath.Join(back, "program.pir"))
	require.NoError(t, err)
	assert.Equal(t, reluProgram, string(got))
	// -format folder names outputs without the input's extension.
	code, errs = drrc("apply", "-set", "inplace", "-format", "folder", js, filepath.Join(dir, "sample"), "-o", filepath.Join(dir, "f"))
	require.Equal(t, exitOK, code, errs)
	assert.DirExists(t, filepath.Join(dir, "f", "g"))
	assert.FileExists(t, filepath.Join(dir, "f", "subgraph_1", "program.pir"))
}
