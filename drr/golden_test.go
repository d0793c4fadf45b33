package drr

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pirdrr/drr/diag"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"
)

// update rewrites the expected sections of the golden files:
//
//	go test ./drr/ -run Golden -update
var update = flag.Bool("update", false, "rewrite the expected sections of testdata/*/*.txtar")

// goldenFiles returns the txtar archives of a testdata subdirectory.
func goldenFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.txtar"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	return files
}

// section returns the content of the named file of an archive.
func section(ar *txtar.Archive, name string) ([]byte, bool) {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// setSection replaces (or adds) the named file of an archive.
func setSection(ar *txtar.Archive, name string, data []byte) {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = data
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: data})
}

// TestGoldenFormat checks testdata/format/*.txtar: `input.drr` formats to
// `formatted.drr`, and formatting is idempotent on both.
func TestGoldenFormat(t *testing.T) {
	for _, path := range goldenFiles(t, "format") {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			require.NoError(t, err)
			input, ok := section(ar, "input.drr")
			require.True(t, ok, "missing input.drr")
			f, err := Parse("input.drr", input)
			if err != nil {
				t.Fatalf("parse error:\n%s", err.(diag.Diagnostics).Render(input))
			}
			got := checkRoundTrip(t, f)
			if *update {
				setSection(ar, "formatted.drr", got)
				require.NoError(t, os.WriteFile(path, txtar.Format(ar), 0o644))
				return
			}
			want, ok := section(ar, "formatted.drr")
			require.True(t, ok, "missing formatted.drr (run with -update)")
			require.Equal(t, string(want), string(got))
			checkRoundTrip(t, mustParse(t, string(want)))
		})
	}
}

// TestGoldenErrors checks testdata/errors/*.txtar: parsing `input.drr`
// reports exactly the diagnostics of `errors` (rendered with source line
// and caret). The partial file that Parse returns still formats
// idempotently.
func TestGoldenErrors(t *testing.T) {
	for _, path := range goldenFiles(t, "errors") {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			require.NoError(t, err)
			input, ok := section(ar, "input.drr")
			require.True(t, ok, "missing input.drr")
			f, err := Parse("input.drr", input)
			require.Error(t, err, "input.drr should not parse")
			got := err.(diag.Diagnostics).Render(input)
			// The partial file formats idempotently (when what remains is valid).
			out := Format(f)
			if f2, err := Parse("formatted.drr", out); err == nil {
				require.Equal(t, string(out), string(Format(f2)))
			}
			if *update {
				setSection(ar, "errors", []byte(got))
				require.NoError(t, os.WriteFile(path, txtar.Format(ar), 0o644))
				return
			}
			want, ok := section(ar, "errors")
			require.True(t, ok, "missing errors (run with -update)")
			require.Equal(t, string(want), got)
		})
	}
}
