package gentest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/ir/pirtext"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rulegen/internal/difftest"
	"github.com/pirdrr/drr/rules"
)

// orders are the driver orders every differential test runs: top-down, bottom-up and three shuffled worklists.
var orders = []rewriter.Options{{}, {BottomUp: true}, {Shuffle: true, Seed: 1}, {Shuffle: true, Seed: 2},
	{Shuffle: true, Seed: 3}}

func orderName(o rewriter.Options) string {
	switch {
	case o.Shuffle:
		return fmt.Sprintf("shuffle%d", o.Seed)
	case o.BottomUp:
		return "bottomup"
	}
	return "topdown"
}

// TestBenchWorkload runs the generated bench rules and the automaton on gen.py's workload.
func TestBenchWorkload(t *testing.T) {
	src := difftest.BenchInput(t, 2000)
	for _, o := range orders {
		t.Run(orderName(o), func(t *testing.T) {
			ctx := ir.NewContext()
			pass, err := BenchPass(ctx, rewriter.NewRegistry())
			require.NoError(t, err)
			compareOn(t, ctx, "w.pir", src, rewriter.Pipeline{pass}, &rewriter.Env{Options: o})
		})
	}
}

// compareOn runs pl (with compiled passes) and its interpreted twin on the program src and requires the same
// outcome.
func compareOn(t *testing.T, ctx *ir.Context, name string, src []byte, pl rewriter.Pipeline, env *rewriter.Env) {
	t.Helper()
	require.Positive(t, difftest.Compiled(pl), "the pipeline has no compiled pass")
	parse := func() *ir.Program {
		p, _, err := pirtext.Parse(ctx, name, src, pirtext.ReadOptions{})
		require.NoError(t, err)
		return p
	}
	want := difftest.Run(parse(), difftest.Interpreted(pl), env)
	got := difftest.Run(parse(), pl, env)
	require.Equal(t, want.Err, got.Err)
	require.Equal(t, want.Stats, got.Stats)
	require.True(t, want.Program == got.Program, "the programs differ")
}

// TestArchives runs every golden archive compiled here with its own options and passes, and in every order.
func TestArchives(t *testing.T) {
	for _, src := range sources(t) {
		if !src.archive {
			continue
		}
		t.Run(src.path, func(t *testing.T) {
			ar, err := txtar.ParseFile(filepath.Join(root, src.path))
			require.NoError(t, err)
			var names []string
			opts := rewriter.Options{VerifyEach: true}
			var input string
			for _, f := range ar.Files {
				switch {
				case f.Name == "passes":
					names = strings.FieldsFunc(string(f.Data), func(r rune) bool { return r == ',' || r == '\n' || r == ' ' })
				case f.Name == "options":
					opts = archiveOptions(t, string(f.Data))
				case f.Name == "input.pir" || strings.HasPrefix(f.Name, "input/"):
					input = f.Name
				}
			}
			if len(names) == 0 {
				names = []string{"rules"}
			}
			ctx := ir.NewContext()
			if !unregistered(ar) {
				require.NoError(t, ctx.LoadDefaultDialects())
			}
			reg := rewriter.NewRegistry()
			require.NoError(t, rules.Register(reg))
			var pl rewriter.Pipeline
			for _, n := range names {
				if n == "rules" {
					pass, err := Passes[src.path].Factory(ctx, reg)
					require.NoError(t, err)
					pl = append(pl, pass)
					continue
				}
				more, err := reg.Pipeline(ctx, n)
				require.NoError(t, err)
				pl = append(pl, more...)
			}
			for _, o := range append([]rewriter.Options{opts}, orders[2:]...) {
				o.VerifyEach, o.Enabled, o.MaxRewrites, o.NoDCE = opts.VerifyEach, opts.Enabled, opts.MaxRewrites, opts.NoDCE
				t.Run(orderName(o), func(t *testing.T) {
					env := &rewriter.Env{Registry: reg, Options: o}
					if input == "input.pir" {
						compareOn(t, ctx, "input.pir", sectionData(ar, "input.pir"), pl, env)
						return
					}
					compareLoaded(t, ctx, ar, pl, env)
				})
			}
		})
	}
}

// archiveOptions reads the options section of an archive (the flags drrtest accepts that change the driver).
func archiveOptions(t *testing.T, s string) rewriter.Options {
	o := rewriter.Options{VerifyEach: true}
	var enable, disable []string
	f := strings.Fields(s)
	for i := 0; i < len(f); i++ {
		arg := func() string { i++; require.Less(t, i, len(f)); return f[i] }
		switch f[i] {
		case "-unregistered":
		case "-bottom-up":
			o.BottomUp = true
		case "-no-dce":
			o.NoDCE = true
		case "-verify-each=false":
			o.VerifyEach = false
		case "-max-iterations":
			_, err := fmt.Sscan(arg(), &o.MaxIterations)
			require.NoError(t, err)
		case "-max-rewrites":
			_, err := fmt.Sscan(arg(), &o.MaxRewrites)
			require.NoError(t, err)
		case "-shuffle":
			o.Shuffle = true
			_, err := fmt.Sscan(arg(), &o.Seed)
			require.NoError(t, err)
		case "-enable":
			enable = append(enable, arg())
		case "-disable":
			disable = append(disable, arg())
		default:
			t.Fatalf("unknown option %s", f[i])
		}
	}
	o.Enabled = rewriter.LabelFilter(enable, disable)
	return o
}

func sectionData(ar *txtar.Archive, name string) []byte {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

// compareLoaded compares the runs on an archive's input folder (a GraphNet graph).
func compareLoaded(t *testing.T, ctx *ir.Context, ar *txtar.Archive, pl rewriter.Pipeline, env *rewriter.Env) {
	dir := t.TempDir()
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, "input/") {
			p := filepath.Join(dir, filepath.FromSlash(f.Name))
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, f.Data, 0o644))
		}
	}
	load := func() *ir.Program {
		p, _, err := pirfile.Load(ctx, filepath.Join(dir, "input"))
		require.NoError(t, err)
		return p
	}
	want := difftest.Run(load(), difftest.Interpreted(pl), env)
	got := difftest.Run(load(), pl, env)
	require.Equal(t, want, got)
}
