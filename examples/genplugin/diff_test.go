package genplugin_test

import (
	"testing"

	"github.com/pirdrr/drr/internal/difftest"
	"github.com/pirdrr/drr/rewriter"
)

// TestInterpretedTwin runs the golden archive with the compiled pass and with the interpreted automaton on the
// same rules, in the archive's order and in the others (bottom-up, shuffled): outputs and statistics must be
// identical. (This check uses pirdrr's internal difftest; a plugin outside the module keeps TestGolden.)
func TestInterpretedTwin(t *testing.T) {
	reg := registry(t)
	a := difftest.ReadArchive(t, "testdata/activations.txtar")
	ctx := a.Context(t)
	pl := a.Pipeline(t, ctx, reg, nil)
	load := a.Input(t, ctx)
	for _, order := range append([]rewriter.Options{a.Options}, difftest.Orders...) {
		o := difftest.WithOrder(a.Options, order)
		t.Run(difftest.OrderName(o), func(t *testing.T) {
			out := difftest.Compare(t, load, pl, &rewriter.Env{Registry: reg, Options: o})
			if out.Rewrites != 5 {
				t.Errorf("%d rewrites, want the archive's 5", out.Rewrites)
			}
		})
	}
}
