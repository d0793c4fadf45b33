package graphview

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/internal/golden"
)

// TestGolden renders each testdata/*.txtar archive's input.pir (options in the archive's comment: collapse,
// params) as DOT and SVG and compares with its graph.dot and graph.svg sections; go test -update rewrites them.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			require.NoError(t, err)
			var input []byte
			for _, f := range ar.Files {
				if f.Name == "input.pir" {
					input = f.Data
				}
			}
			require.NotNil(t, input, "no input.pir")
			fs := flag.NewFlagSet("options", flag.ContinueOnError)
			var opts Options
			fs.BoolVar(&opts.Collapse, "collapse", false, "")
			fs.BoolVar(&opts.Params, "params", false, "")
			require.NoError(t, fs.Parse(flags(ar.Comment)))
			g := Build(parse(t, string(input)), opts)
			g.Layout()
			var dot, svg bytes.Buffer
			require.NoError(t, WriteDOT(&dot, "test", g))
			require.NoError(t, WriteSVG(&svg, "test", g))
			got := map[string][]byte{"graph.dot": dot.Bytes(), "graph.svg": svg.Bytes()}
			if golden.Update() {
				var files []txtar.File
				files = append(files, txtar.File{Name: "input.pir", Data: input})
				for _, name := range []string{"graph.dot", "graph.svg"} {
					files = append(files, txtar.File{Name: name, Data: got[name]})
				}
				ar.Files = files
				require.NoError(t, os.WriteFile(path, txtar.Format(ar), 0o644))
				return
			}
			for _, f := range ar.Files {
				if want, ok := got[f.Name]; ok {
					assert.Equal(t, string(f.Data), string(want), f.Name)
					delete(got, f.Name)
				}
			}
			assert.Empty(t, got, "sections missing (run go test -update)")
		})
	}
}

func flags(s []byte) []string {
	var out []string
	for _, f := range bytes.Fields(s) {
		out = append(out, string(f))
	}
	return out
}
