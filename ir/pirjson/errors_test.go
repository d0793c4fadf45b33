package pirjson

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/ir"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// txtarFile returns the named file of an archive.
func txtarFile(a *txtar.Archive, name string) ([]byte, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// setTxtarFile sets the named file of an archive, adding it if needed.
func setTxtarFile(a *txtar.Archive, name string, data []byte) {
	for i := range a.Files {
		if a.Files[i].Name == name {
			a.Files[i].Data = data
			return
		}
	}
	a.Files = append(a.Files, txtar.File{Name: name, Data: data})
}

// TestReadErrors reads each testdata/errors/*.txtar: "input.json" must fail with the message in "error".
func TestReadErrors(t *testing.T) {
	files, err := filepath.Glob("testdata/errors/*.txtar")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			a, err := txtar.ParseFile(file)
			require.NoError(t, err)
			input, ok := txtarFile(a, "input.json")
			require.True(t, ok, "no input.json")
			p, err := Read(ir.NewContext(), "input.json", input, ReadOptions{})
			require.Error(t, err, "the input must not read")
			assert.Nil(t, p, "no program on error")
			var perr *Error
			assert.ErrorAs(t, err, &perr)
			// The expected error is what drrc prints: the message, the source line (cut around the column on these
			// one-line files) and a caret under the column.
			got := perr.Diagnostic().Render(input)
			assert.True(t, strings.HasPrefix(got, err.Error()+"\n"), "the rendering starts with the error's text")
			if *update {
				setTxtarFile(a, "error", []byte(got))
				require.NoError(t, os.WriteFile(file, txtar.Format(a), 0o644))
				return
			}
			want, _ := txtarFile(a, "error")
			assert.Equal(t, string(want), got)
		})
	}
}

// TestDeepNesting checks that hostile nesting is an error, not a stack overflow.
func TestDeepNesting(t *testing.T) {
	const n = 6000
	deep := strings.Repeat(`{"#":"0.a_array","D":[`, n) + strings.Repeat("]}", n)
	src := oneOp(f32, deep)
	_, err := Read(ir.NewContext(), "deep.json", []byte(src), ReadOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nesting deeper than 10000")
}
