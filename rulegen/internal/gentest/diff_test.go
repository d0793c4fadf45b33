package gentest

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/internal/difftest"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
)

// TestBenchWorkload runs the generated bench rules and the automaton on gen.py's workload: 2,000 blocks, and the
// benchmark's 100,000 with PIRDRR_CORPUS=full.
func TestBenchWorkload(t *testing.T) {
	n := 2000
	if corpus.Full() {
		n = 100000
	}
	src := difftest.BenchInput(t, n)
	for _, o := range difftest.Orders {
		t.Run(difftest.OrderName(o), func(t *testing.T) {
			ctx := ir.NewContext()
			pass, err := BenchPass(ctx, rewriter.NewRegistry())
			require.NoError(t, err)
			compareOn(t, ctx, "w.pir", src, rewriter.Pipeline{pass}, &rewriter.Env{Options: o})
		})
	}
}

// compareOn runs pl (with compiled passes) and its interpreted twin on the PIR text src and requires the same
// outcome.
func compareOn(t *testing.T, ctx *ir.Context, name string, src []byte, pl rewriter.Pipeline, env *rewriter.Env) {
	t.Helper()
	difftest.Compare(t, func() *ir.Program {
		p, _, err := pirtext.Parse(ctx, name, src, pirtext.ReadOptions{})
		require.NoError(t, err)
		return p
	}, pl, env)
}

// TestArchives runs every golden archive compiled here with its own options and passes, in its own order and in
// the others.
func TestArchives(t *testing.T) {
	for _, src := range sources(t) {
		if !src.archive {
			continue
		}
		t.Run(src.path, func(t *testing.T) {
			a := difftest.ReadArchive(t, filepath.Join(root, src.path))
			ctx := a.Context(t)
			reg := rewriter.NewRegistry()
			require.NoError(t, rules.Register(reg))
			registerNatives(t, reg)
			pass, err := Passes[src.path].Factory(ctx, reg)
			require.NoError(t, err)
			pl := a.Pipeline(t, ctx, reg, pass)
			load := a.Input(t, ctx)
			for _, order := range append([]rewriter.Options{a.Options}, difftest.Orders...) {
				o := difftest.WithOrder(a.Options, order)
				t.Run(difftest.OrderName(o), func(t *testing.T) {
					difftest.Compare(t, load, pl, &rewriter.Env{Registry: reg, Options: o})
				})
			}
		})
	}
}
