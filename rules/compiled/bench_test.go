package compiled_test

import (
	"testing"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/internal/difftest"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/rewriter"
)

// BenchmarkGraphNetRewrite times the rewrite phase of the inference pipeline — its rule passes (inplace,
// value_semantics twice, conv_bn_relu, reinplace), not its Go passes, which are run untimed between them — on the
// sampled GraphNet graphs (every tenth; PIRDRR_CORPUS=full for all), with the interpreted automaton and with the
// compiled sets. The graphs are read again, untimed, before each run; ns/op-ir is the time per op of the input.
func BenchmarkGraphNetRewrite(b *testing.B) {
	graphs := corpus.RequireGraphs(b, 0)
	ctx, err := ir.NewDefaultContext()
	if err != nil {
		b.Fatal(err)
	}
	reg := registry(b)
	compiledPl, err := reg.Pipeline(ctx, "inference")
	if err != nil {
		b.Fatal(err)
	}
	for _, kind := range []string{"interpreted", "compiled"} {
		pl := compiledPl
		if kind == "interpreted" {
			pl = difftest.Interpreted(compiledPl)
		}
		b.Run(kind, func(b *testing.B) {
			load := func() ([]*ir.Program, int) {
				var progs []*ir.Program
				ops := 0
				for _, g := range graphs {
					p, _, err := pirfile.Load(ctx, g.Dir)
					if err != nil {
						b.Fatalf("%s: %v", g.Dir, err)
					}
					progs = append(progs, p)
					ops += p.NumOps()
				}
				return progs, ops
			}
			env := &rewriter.Env{Registry: reg}
			b.StopTimer()
			_, ops := load()
			b.ReportAllocs()
			b.ResetTimer()
			b.StopTimer()
			for range b.N {
				progs, _ := load()
				for _, p := range progs {
					for _, pass := range pl {
						_, isRules := pass.(*rewriter.RulePass)
						if isRules {
							b.StartTimer()
						}
						_, err := pass.Run(p, env)
						if isRules {
							b.StopTimer()
						}
						if err != nil {
							b.Fatalf("%s: %s: %v", p.File, pass.Name(), err)
						}
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*ops), "ns/op-ir")
		})
	}
}
