package gentest

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/internal/difftest"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
	"github.com/pirdrr/drr/matcher"
	"github.com/pirdrr/drr/rewriter"
)

// BenchmarkRewrite times the rewrite phase — the rule pass of drrc apply -unregistered -rules
// testdata/bench/mlir_equivalent.drr, as rewriter's BenchmarkWorkload runs it — on gen.py's workload, with the
// interpreted automaton and with the generated matcher, top-down and bottom-up. The program is parsed again,
// untimed, before each run; ns/op-ir is the time per op of the input.
func BenchmarkRewrite(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		src := difftest.BenchInput(b, n)
		for _, bottomUp := range []bool{false, true} {
			for _, kind := range []string{"interpreted", "compiled"} {
				order := "topdown"
				if bottomUp {
					order = "bottomup"
				}
				b.Run(fmt.Sprintf("N=%d/%s/%s", n, order, kind), func(b *testing.B) {
					ctx := ir.NewContext()
					pass, err := BenchPass(ctx, rewriter.NewRegistry())
					require.NoError(b, err)
					if kind == "interpreted" {
						pass = difftest.Interpreted(rewriter.Pipeline{pass})[0]
					}
					env := &rewriter.Env{Options: rewriter.Options{BottomUp: bottomUp}}
					parse := func() *ir.Program {
						p, _, err := pirtext.Parse(ctx, "w.pir", src, pirtext.ReadOptions{})
						require.NoError(b, err)
						return p
					}
					p := parse()
					ops := p.NumOps()
					_, err = pass.Run(p, env)
					require.NoError(b, err)
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						b.StopTimer()
						p = parse()
						runtime.GC()
						b.StartTimer()
						if _, err := pass.Run(p, env); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*ops), "ns/op-ir")
				})
			}
		}
	}
}

// BenchmarkMatch times matching alone: the match function of the automaton and the generated one, called on every
// op of gen.py's workload (ns/op-ir is the time per op).
func BenchmarkMatch(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		src := difftest.BenchInput(b, n)
		ctx := ir.NewContext()
		pass, err := BenchPass(ctx, rewriter.NewRegistry())
		require.NoError(b, err)
		rp := pass.(*rewriter.RulePass)
		p, _, err := pirtext.Parse(ctx, "w.pir", src, pirtext.ReadOptions{})
		require.NoError(b, err)
		var ops []*ir.Op
		for op := range p.Walk() {
			ops = append(ops, op)
		}
		oracle := rewriter.NewOracle(p, rewriter.NewRegistry())
		a, err := matcher.Compile(rp.Set, matcher.Options{})
		require.NoError(b, err)
		am := a.NewMatcher()
		compiled, err := rp.Compile(rp.Set, oracle)
		require.NoError(b, err)
		for _, kind := range []string{"interpreted", "compiled"} {
			match := compiled
			if kind == "interpreted" {
				match = func(dst []*rule.Match, op *ir.Op) []*rule.Match { return am.MatchInto(dst, op, oracle) }
			}
			b.Run(fmt.Sprintf("N=%d/%s", n, kind), func(b *testing.B) {
				var buf []*rule.Match
				found := 0
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					found = 0
					for _, op := range ops {
						buf = match(buf[:0], op)
						found += len(buf)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ops)), "ns/op-ir")
				b.ReportMetric(float64(found), "matches")
			})
		}
	}
}
