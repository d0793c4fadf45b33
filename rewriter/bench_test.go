package rewriter

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

// The side-by-side workload of ../shared/bench (gen.py) and pirdrr's equivalent of its MLIR rules.
const (
	benchGen   = "../../shared/bench/gen.py"
	benchRules = "../testdata/bench/mlir_equivalent.drr"
)

// benchInput is one generated workload: its PIR text and the pd_op.* counts gen.py predicts after rewriting.
type benchInput struct {
	src    []byte
	expect map[string]int
}

// loadBenchInput generates the workload of n blocks with gen.py (--format=pir and --expect) in a temporary folder,
// or skips when python3 or the generator is missing.
func loadBenchInput(tb testing.TB, n int) benchInput {
	tb.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		tb.Skip("python3 is not installed: cannot generate the bench workload")
	}
	if _, err := os.Stat(benchGen); err != nil {
		tb.Skipf("the workload generator %s is absent", benchGen)
	}
	dir := tb.TempDir()
	pir, exp := filepath.Join(dir, "w.pir"), filepath.Join(dir, "w.json")
	out, err := exec.Command(py, benchGen, fmt.Sprint(n), "--format=pir", "-o", pir, "--expect", exp).CombinedOutput()
	require.NoError(tb, err, "gen.py: %s", out)
	src, err := os.ReadFile(pir)
	require.NoError(tb, err)
	raw, err := os.ReadFile(exp)
	require.NoError(tb, err)
	var e struct {
		After map[string]int `json:"after"`
	}
	require.NoError(tb, json.Unmarshal(raw, &e))
	require.NotEmpty(tb, e.After, "gen.py --expect wrote no counts")
	return benchInput{src: src, expect: e.After}
}

// checkCounts compares the program's op counts with gen.py's prediction, as verify.py does (gen.py names the
// parameters pd_op.parameter, as in the MLIR form).
func checkCounts(tb testing.TB, p *ir.Program, expect map[string]int) {
	tb.Helper()
	got := map[string]int{}
	for op := range p.Walk() {
		name := op.Name()
		if name == ir.ParameterOpName {
			name = "pd_op.parameter"
		}
		got[name]++
	}
	want := map[string]int{}
	for name, n := range expect {
		if n > 0 {
			want[name] = n
		}
	}
	require.Equal(tb, want, got, "op counts after rewriting")
}

// BenchmarkWorkload runs the rule pass of drrc apply -unregistered -rules testdata/bench/mlir_equivalent.drr on
// gen.py's workload, top-down (drrc's default) and bottom-up (MLIR's order): the rewrite phase alone, the program
// being parsed again, untimed, before each run. The result's op counts are checked against gen.py's prediction.
func BenchmarkWorkload(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		in := loadBenchInput(b, n)
		for _, bottomUp := range []bool{false, true} {
			order := "topdown"
			if bottomUp {
				order = "bottomup"
			}
			b.Run(fmt.Sprintf("N=%d/%s", n, order), func(b *testing.B) {
				ctx := ir.NewContext()
				set, diags := drr.Load(ctx, drr.LoadOptions{CheckOptions: drr.CheckOptions{Unregistered: true}}, benchRules)
				require.False(b, diags.HasErrors(), "%v", diags)
				pass := NewRulePass("rules", set)
				env := &Env{Options: Options{BottomUp: bottomUp}}
				parse := func() *ir.Program {
					p, _, err := pirtext.Parse(ctx, "w.pir", in.src, pirtext.ReadOptions{})
					require.NoError(b, err)
					return p
				}
				p := parse()
				ops := p.NumOps()
				_, err := pass.Run(p, env)
				require.NoError(b, err)
				checkCounts(b, p, in.expect)
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

// BenchmarkVerifyWorkload runs ir.Verify on gen.py's workload as drrc apply does: on the program as read
// ("input") and after the rule pass ("output"), whose four batch-norm parameters each have a use per block.
func BenchmarkVerifyWorkload(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		in := loadBenchInput(b, n)
		for _, stage := range []string{"input", "output"} {
			b.Run(fmt.Sprintf("N=%d/%s", n, stage), func(b *testing.B) {
				ctx := ir.NewContext()
				p, _, err := pirtext.Parse(ctx, "w.pir", in.src, pirtext.ReadOptions{})
				require.NoError(b, err)
				if stage == "output" {
					set, diags := drr.Load(ctx, drr.LoadOptions{CheckOptions: drr.CheckOptions{Unregistered: true}}, benchRules)
					require.False(b, diags.HasErrors(), "%v", diags)
					_, err := NewRulePass("rules", set).Run(p, &Env{})
					require.NoError(b, err)
					checkCounts(b, p, in.expect)
				}
				require.Empty(b, ir.Verify(p))
				ops := p.NumOps()
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if ds := ir.Verify(p); len(ds) > 0 {
						b.Fatal(ds)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*ops), "ns/op-ir")
			})
		}
	}
}
