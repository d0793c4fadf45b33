package pirtext

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

// update rewrites the expected sections of the golden files: go test ./ir/pirtext -run Golden -update
var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// goldenFiles returns the txtar archives of a testdata folder.
func goldenFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.txtar"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no golden files in testdata/%s", dir)
	return files
}

func section(a *txtar.Archive, name string) (string, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return string(f.Data), true
		}
	}
	return "", false
}

func setSection(a *txtar.Archive, name, data string) {
	for i := range a.Files {
		if a.Files[i].Name == name {
			a.Files[i].Data = []byte(data)
			return
		}
	}
	a.Files = append(a.Files, txtar.File{Name: name, Data: []byte(data)})
}

// goldenContext returns a plain Context, with the archive's "catalog" section registered if it has one.
func goldenContext(t *testing.T, a *txtar.Archive) *ir.Context {
	ctx := ir.NewContext()
	if cat, ok := section(a, "catalog"); ok {
		_, err := ctx.LoadCatalog("catalog", []byte(cat))
		require.NoError(t, err)
	}
	return ctx
}

func diagLines(ds diag.Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Error())
		b.WriteByte('\n')
	}
	return b.String()
}

// TestGoldenErrors reads each testdata/errors archive's input.pir and expects the exact error of its "error"
// section (and the warnings of "warnings", if any); a failed read returns no program.
func TestGoldenErrors(t *testing.T) {
	for _, path := range goldenFiles(t, "errors") {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(path)
			require.NoError(t, err)
			input, ok := section(a, "input.pir")
			require.True(t, ok, "%s has no input.pir section", path)
			p, warns, err := Parse(goldenContext(t, a), "input.pir", []byte(input), ReadOptions{})
			require.Error(t, err, "input was accepted")
			assert.Nil(t, p)
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.False(t, e.Internal, "internal error: %v", e)
			// The expected error is what drrc prints: the message, the source line and a caret under the column.
			got := e.Diagnostic().Render([]byte(input))
			assert.True(t, strings.HasPrefix(got, err.Error()+"\n"), "the rendering starts with the error's text")
			if *update {
				setSection(a, "error", got)
				if len(warns) > 0 {
					setSection(a, "warnings", diagLines(warns))
				}
				require.NoError(t, os.WriteFile(path, txtar.Format(a), 0o644))
				return
			}
			want, _ := section(a, "error")
			assert.Equal(t, want, got)
			wantWarns, _ := section(a, "warnings")
			assert.Equal(t, wantWarns, diagLines(warns))
		})
	}
}

// TestGoldenPrint reads each testdata/print archive's input.pir and expects its tagged print ("output.pir"), its
// untagged print ("untagged.pir") and its warnings ("warnings"); both prints must read back to the same program.
func TestGoldenPrint(t *testing.T) {
	for _, path := range goldenFiles(t, "print") {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(path)
			require.NoError(t, err)
			input, ok := section(a, "input.pir")
			require.True(t, ok, "%s has no input.pir section", path)
			ctx := goldenContext(t, a)
			p, warns, err := Parse(ctx, "input.pir", []byte(input), ReadOptions{})
			require.NoError(t, err)
			tagged := string(Print(p, WriteOptions{}))
			untagged := string(Print(p, WriteOptions{Untagged: true}))
			if *update {
				setSection(a, "output.pir", tagged)
				setSection(a, "untagged.pir", untagged)
				setSection(a, "warnings", diagLines(warns))
				require.NoError(t, os.WriteFile(path, txtar.Format(a), 0o644))
				return
			}
			want, _ := section(a, "output.pir")
			assert.Equal(t, want, tagged)
			want, _ = section(a, "untagged.pir")
			assert.Equal(t, want, untagged)
			want, _ = section(a, "warnings")
			assert.Equal(t, want, diagLines(warns))
			q, _, err := Parse(ctx, "output.pir", []byte(tagged), ReadOptions{})
			require.NoError(t, err)
			assert.NoError(t, ir.Equal(p, q, ir.EqualOptions{}))
			assert.Equal(t, tagged, string(Print(q, WriteOptions{})))
			u, _, err := Parse(ctx, "untagged.pir", []byte(untagged), ReadOptions{})
			require.NoError(t, err)
			untaggedEqual(t, p, u)
		})
	}
}
