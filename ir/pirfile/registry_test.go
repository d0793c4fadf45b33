package pirfile

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

const reluPIR = `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[true]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%2) = "pd_op.fetch" (%1) {col:(Int32)0,name:"out",persistable:[true],stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
}
`

// folderFormat is a folder format for tests: a folder holding program.pir (as GraphNet's folders hold model.py).
var folderFormat = &Format{
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
		return PIRText.Read(ctx, name, src)
	},
	WriteDir: func(dir string, p *ir.Program, opts Options) error {
		return WriteFileFunc(filepath.Join(dir, "program.pir"), func(w io.Writer) error { return PIRText.Write(w, p, opts) })
	},
}

func withFolder(t *testing.T) *Registry {
	t.Helper()
	r, err := NewRegistry(append(Standard().Formats(), folderFormat)...)
	require.NoError(t, err)
	return r
}

func TestStandard(t *testing.T) {
	r := Standard()
	var names []string
	for _, f := range r.Formats() {
		names = append(names, f.Name)
	}
	assert.Equal(t, []string{"graphnet", "json", "mlir", "pir"}, names)
	assert.Equal(t, "graphnet|json|pir", r.Names(true))
	assert.Equal(t, "graphnet|json|mlir|pir", r.Names(false))
	assert.NotSame(t, Standard(), Standard(), "each call returns a new registry")
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name, want, err string
	}{
		{"pir", "pir", ""},
		{"TEXT", "pir", ""},
		{"json", "json", ""},
		{"mlir", "mlir", ""},
		{"jsno", "", `unknown format "jsno" (did you mean json?)`},
		{"onnx", "", `unknown format "onnx" (known: graphnet, json, mlir, pir)`},
	}
	for _, tt := range tests {
		f, err := Lookup(tt.name)
		if tt.err != "" {
			assert.EqualError(t, err, tt.err, tt.name)
			continue
		}
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, f.Name)
	}
}

func TestRegister(t *testing.T) {
	r := Standard()
	assert.EqualError(t, r.Register(&Format{Name: "text", Write: PIRText.Write}), "pirfile: format name text is taken by pir")
	assert.EqualError(t, r.Register(&Format{Name: "pir2", Extensions: []string{".json"}, Write: PIRText.Write}),
		"pirfile: extension .json is taken by json")
	assert.EqualError(t, r.Register(&Format{Name: "none"}), "pirfile: format none neither reads nor writes")
	assert.EqualError(t, r.Register(&Format{Name: "mixed", Dir: true, Write: PIRText.Write}),
		"pirfile: format mixed mixes file and folder functions (Dir is true)")
	assert.EqualError(t, r.Register(&Format{}), "pirfile: a format needs a name")
	require.NoError(t, r.Register(folderFormat))
	assert.Len(t, r.Formats(), 5)
	assert.Len(t, Standard().Formats(), 4, "registering into one registry leaves the standard list alone")
}

func TestDetectContent(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"m.json", `{"base_code":{}}`, "json"},
		{"m.pir", "{\n}\n", "pir"},
		{"m.pir", ` { "base_code": 1}`, "json"}, // content wins over an extension whose format does not sniff
		{"m.txt", "{\n}\n", "pir"},              // the fallback
		{"<stdin>", "\ufeff{\"program\":1}", "json"},
		{"m.mlir", "module {}", "mlir"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, DetectContent(tt.name, []byte(tt.src)).Name, "%s %q", tt.name, tt.src)
	}
	assert.Nil(t, ByExtension("noext"))
	assert.Equal(t, PIRJSON, ByExtension("A.JSON"))
}

func TestOutputName(t *testing.T) {
	tests := []struct {
		f        *Format
		in, want string
		folder   bool
	}{
		{PIRText, "model.json", "model.pir", false},
		{PIRText, "sub/model.pir", "sub/model.pir", false},
		{PIRJSON, "model.pir", "model.json", false},
		{PIRJSON, "subgraph_0", "subgraph_0.json", true},
		{MLIR, "a/b.json", "a/b.mlir", false},
		{folderFormat, "model.json", "model", false},
		{folderFormat, "subgraph_0", "subgraph_0", true},
		// A folder's name has no extension (issue 26 item 12: ernie-2.0-base-zh and ernie-2.0-large-zh were both ernie-2.pir).
		{PIRText, "PaddleNLP/ernie-2.0-base-zh", "PaddleNLP/ernie-2.0-base-zh.pir", true},
		{PIRJSON, "ernie-2.0-large-zh", "ernie-2.0-large-zh.json", true},
		{folderFormat, "ernie-2.0-base-zh", "ernie-2.0-base-zh", true},
		{PIRText, "v1.5.json", "v1.5.pir", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.f.OutputName(tt.in, tt.folder), "%s %s", tt.f.Name, tt.in)
	}
}

func TestOutputFormat(t *testing.T) {
	r := withFolder(t)
	dir := t.TempDir()
	claimed := filepath.Join(dir, "g")
	require.NoError(t, os.MkdirAll(claimed, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(claimed, "program.pir"), []byte(reluPIR), 0o644))
	tests := []struct {
		named, out string
		input      *Format
		want, err  string
	}{
		{"", "out.json", PIRText, "json", ""},
		{"", "out", PIRText, "pir", ""},
		{"", "-", PIRJSON, "json", ""},
		{"pir", "out.json", PIRJSON, "pir", ""}, // -format wins
		{"", claimed, PIRText, "folder", ""},
		{"", "out", folderFormat, "folder", ""},
		{"", "-", folderFormat, "pir", ""},          // a folder cannot be streamed: PIR text instead
		{"folder", "-", folderFormat, "folder", ""}, // unless named (Save and Write then say why not)
		{"", os.DevNull, folderFormat, "pir", ""},   // a device is written in place, as a stream (issue 26 item 13)
		{"", os.DevNull, PIRJSON, "json", ""},
		{"jsn", "out", PIRText, "", `unknown format "jsn" (did you mean json?)`},
		{"", "out", nil, "", "no output format (name one with -format)"},
	}
	for _, tt := range tests {
		f, err := r.OutputFormat(tt.named, tt.out, tt.input)
		if tt.err != "" {
			assert.EqualError(t, err, tt.err)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tt.want, f.Name, "%s %s", tt.named, tt.out)
	}
	readOnly := &Format{Name: "ro", Doc: "read only", Read: PIRText.Read}
	_, err := r.OutputFormat("", "x", readOnly)
	assert.EqualError(t, err, "pirdrr does not write ro (read only)")
}

func TestExpandAndLoadFolders(t *testing.T) {
	r, err := NewRegistry(PIRText, PIRJSON, MLIR, folderFormat)
	require.NoError(t, err)
	dir := t.TempDir()
	for _, f := range []string{"a.pir", "sub/b.json", "notes.txt", "out.mlir", "sample/subgraph_0/program.pir",
		"sample/subgraph_1/program.pir", "sample/subgraph_1/extra/c.pir", "sample/subgraph_10/program.pir",
		"sample/subgraph_2/program.pir"} {
		p := filepath.Join(dir, f)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(reluPIR), 0o644))
	}
	got, err := r.Expand(dir)
	require.NoError(t, err)
	var rel []string
	for _, g := range got {
		s, _ := filepath.Rel(dir, g)
		rel = append(rel, filepath.ToSlash(s))
	}
	// Files of formats that read, and the folders a folder format claims (not descended into), numbers in order.
	assert.Equal(t, []string{"a.pir", "sample/subgraph_0", "sample/subgraph_1", "sample/subgraph_2", "sample/subgraph_10",
		"sub/b.json"}, rel)

	one, err := r.Expand(filepath.Join(dir, "sample", "subgraph_0"))
	require.NoError(t, err)
	assert.Len(t, one, 1, "a program folder is one program")

	ctx := ir.NewContext()
	p, _, err := r.Load(ctx, filepath.Join(dir, "sample", "subgraph_1"))
	require.NoError(t, err)
	assert.Equal(t, 3, p.NumOps())
	_, _, err = r.Load(ctx, filepath.Join(dir, "sub"))
	assert.ErrorContains(t, err, "a folder, and not a program of any format (folder formats: folder)")
	files, err := NewRegistry(PIRText, PIRJSON)
	require.NoError(t, err)
	_, _, err = files.Load(ctx, filepath.Join(dir, "sample"))
	assert.ErrorContains(t, err, "no folder format is registered")
	_, _, err = Load(ctx, filepath.Join(dir, "out.mlir"))
	assert.ErrorContains(t, err, "pirdrr does not read mlir")
	_, _, err = r.Parse(ctx, "x", []byte(reluPIR), folderFormat)
	assert.ErrorContains(t, err, "folder programs are folders, not files")
}

func TestSaveFolder(t *testing.T) {
	r := withFolder(t)
	ctx := ir.NewContext()
	p, _, err := PIRText.Read(ctx, "in.pir", []byte(reluPIR))
	require.NoError(t, err)
	dir := t.TempDir()
	out := filepath.Join(dir, "g")
	require.NoError(t, Save(p, out, folderFormat, Options{}))
	q, _, err := r.Load(ctx, out)
	require.NoError(t, err)
	assert.Equal(t, p.NumOps(), q.NumOps())
	// In a folder of the format, the format's files are replaced and the user's kept; nothing temporary is left.
	require.NoError(t, os.WriteFile(filepath.Join(out, "NOTES.txt"), []byte("mine"), 0o600))
	require.NoError(t, Save(p, out, folderFormat, Options{Untagged: true}))
	data, err := os.ReadFile(filepath.Join(out, "program.pir"))
	require.NoError(t, err)
	assert.Contains(t, string(data), "dtype:float32", "the second write replaced the first")
	notes, err := os.ReadFile(filepath.Join(out, "NOTES.txt"))
	require.NoError(t, err)
	assert.Equal(t, "mine", string(notes))
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1, "only g is left")
	entries, _ = os.ReadDir(out)
	assert.Len(t, entries, 2, "program.pir and NOTES.txt")

	// A folder with other files that is not a program of the format is not written into, and neither is a file.
	other := filepath.Join(dir, "other")
	require.NoError(t, os.MkdirAll(other, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(other, "keep.txt"), []byte("x"), 0o644))
	assert.ErrorContains(t, Save(p, other, folderFormat, Options{}), "is a folder that holds other files, and not a program of this format: nothing written")
	assert.NoFileExists(t, filepath.Join(other, "program.pir"))
	_, err = os.Stat(filepath.Join(other, "keep.txt"))
	assert.NoError(t, err)
	file := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	assert.ErrorContains(t, Save(p, file, folderFormat, Options{}), "exists and is not a folder")
	assert.ErrorContains(t, Save(p, "-", folderFormat, Options{}), "cannot be written to standard output")

	// A failing writer leaves the old folder as it was, and a new folder is removed again.
	failing := *folderFormat
	failing.WriteDir = func(string, *ir.Program, Options) error { return io.ErrShortWrite }
	assert.ErrorIs(t, Save(p, out, &failing, Options{}), io.ErrShortWrite)
	assert.ErrorIs(t, Save(p, filepath.Join(dir, "new"), &failing, Options{}), io.ErrShortWrite)
	assert.NoDirExists(t, filepath.Join(dir, "new"))
	again, err := os.ReadFile(filepath.Join(out, "program.pir"))
	require.NoError(t, err)
	assert.Equal(t, data, again)
	entries, _ = os.ReadDir(dir)
	for _, e := range entries {
		assert.False(t, strings.HasPrefix(e.Name(), "."), "left behind: %s", e.Name())
	}
	assert.ErrorContains(t, Write(io.Discard, p, folderFormat, Options{}), "folder programs are folders")
}

func TestDetect(t *testing.T) {
	r := withFolder(t)
	dir := t.TempDir()
	files := map[string]string{"a.pir": reluPIR, "b.pir": `{"base_code":{}}`, "c.json": `{"x":1}`, "d": "{\n}\n",
		"g/program.pir": reluPIR}
	for name, content := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	for name, want := range map[string]string{"a.pir": "pir", "b.pir": "json", "c.json": "json", "d": "pir", "g": "folder"} {
		f, err := r.Detect(filepath.Join(dir, name))
		require.NoError(t, err, name)
		assert.Equal(t, want, f.Name, name)
	}
	_, err := r.Detect(dir)
	assert.ErrorContains(t, err, "a folder, and not a program of any format")
	_, err = r.Detect(filepath.Join(dir, "absent"))
	assert.Error(t, err)
}
