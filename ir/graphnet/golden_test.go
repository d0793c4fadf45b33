package graphnet

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

// update rewrites the expected sections of the golden archives: go test ./ir/graphnet -run Golden -update
var update = flag.Bool("update", false, "rewrite the expected sections of testdata/*.txtar")

// TestGolden reads the graph of each testdata archive (sections model.py, weight_meta.py, input_meta.py and
// optionally graph_net.json) and compares, with the expected sections:
//   - "program.pir": the program, printed as PIR text, with its parameters and feeds;
//   - "written/model.py", "written/weight_meta.py", "written/input_meta.py": the graph folder Encode writes
//     for it (which must read back to an equal program);
//   - or "error": the error Decode reports.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			a, err := txtar.ParseFile(file)
			require.NoError(t, err)
			src := Source{Dir: "g"}
			for _, f := range a.Files {
				switch f.Name {
				case ModelFile:
					src.Model = f.Data
				case WeightMetaFile:
					src.WeightMeta = f.Data
				case InputMetaFile:
					src.InputMeta = f.Data
				case GraphNetJSON:
					src.JSON = f.Data
				}
			}
			got := map[string]string{}
			p, err := Decode(ctx, src)
			if err != nil {
				got["error"] = err.Error() + "\n"
			} else {
				require.Empty(t, ir.Verify(p))
				got["program.pir"] = string(pirtext.Print(p, pirtext.WriteOptions{})) + variables(p)
				w, err := Encode(p, WriteOptions{})
				require.NoError(t, err)
				got["written/"+ModelFile] = string(w.Model)
				got["written/"+WeightMetaFile] = string(w.WeightMeta)
				got["written/"+InputMetaFile] = string(w.InputMeta)
				w.Dir = "written"
				q, err := Decode(ctx, w)
				require.NoError(t, err, "the written graph must read back")
				require.NoError(t, ir.Equal(p, q, ir.EqualOptions{AttrOrder: true}))
			}
			if *update {
				for i := 0; i < len(a.Files); i++ {
					name := a.Files[i].Name
					if name == "error" || name == "program.pir" || strings.HasPrefix(name, "written/") {
						a.Files = append(a.Files[:i], a.Files[i+1:]...)
						i--
					}
				}
				var names []string
				for n := range got {
					names = append(names, n)
				}
				sort.Strings(names)
				for _, n := range names {
					a.Files = append(a.Files, txtar.File{Name: n, Data: []byte(got[n])})
				}
				require.NoError(t, os.WriteFile(file, txtar.Format(a), 0o644))
				return
			}
			want := map[string]string{}
			for _, f := range a.Files {
				if f.Name == "error" || f.Name == "program.pir" || strings.HasPrefix(f.Name, "written/") {
					want[f.Name] = string(f.Data)
				}
			}
			assert.Equal(t, want, got)
		})
	}
}

// variables lists a program's parameters and feeds.
func variables(p *ir.Program) string {
	var b strings.Builder
	list := func(kind string, m map[string]*ir.Variable) {
		var names []string
		for n := range m {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			v := m[n]
			fmt.Fprintf(&b, "%s %s: %s", kind, n, v.Type)
			if v.OriginalName != "" {
				fmt.Fprintf(&b, " original=%s", v.OriginalName)
			}
			if v.Stats != nil {
				fmt.Fprintf(&b, " stats=%+v", *v.Stats)
			}
			if v.Data != nil {
				fmt.Fprintf(&b, " data=%x", v.Data)
			}
			b.WriteByte('\n')
		}
	}
	list("param", p.Params)
	list("feed", p.Feeds)
	return b.String()
}
