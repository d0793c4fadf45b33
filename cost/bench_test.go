package cost_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

// benchGen is the generator of the side-by-side workload against MLIR (../shared/bench).
const benchGen = "../../shared/bench/gen.py"

// BenchmarkSummarizeWorkload measures Model.Summarize, what drrc apply's default -stats text runs on the program
// before and after its passes, on gen.py's workload (seed 7) as read: a CNN-like program whose layers repeat.
func BenchmarkSummarizeWorkload(b *testing.B) {
	py, err := exec.LookPath("python3")
	if err != nil {
		b.Skip("python3 is not installed: cannot generate the bench workload")
	}
	if _, err := os.Stat(benchGen); err != nil {
		b.Skipf("the workload generator %s is absent", benchGen)
	}
	m, err := cost.NewModel("a100")
	require.NoError(b, err)
	for _, n := range []int{1000, 100000} {
		pir := filepath.Join(b.TempDir(), "w.pir")
		out, err := exec.Command(py, benchGen, fmt.Sprint(n), "--seed", "7", "--format=pir", "-o", pir).CombinedOutput()
		require.NoError(b, err, "gen.py: %s", out)
		src, err := os.ReadFile(pir)
		require.NoError(b, err)
		p, _, err := pirtext.Parse(ir.NewContext(), "w.pir", src, pirtext.ReadOptions{})
		require.NoError(b, err)
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			s := m.Summarize(p)
			require.Equal(b, p.NumOps(), s.Ops)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m.Summarize(p)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*p.NumOps()), "ns/op-ir")
		})
	}
}
