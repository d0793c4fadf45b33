package lint_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/lint"
)

// sameRootRules returns n rules with one root op (pd_op.relu over pd_op.subtract over pd_op.conv2d), one benefit and
// constraints that exclude each other ($g == i): the overlap check's worst case, every pair is unified and none
// overlaps.
func sameRootRules(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `rule r%d {
  match {
    %%y = pd_op.conv2d(%%x, %%w) {groups: $g}
    %%z = pd_op.subtract(%%y, %%b)
    %%r = pd_op.relu(%%z)
  }
  where {
    $g == %d
  }
  rewrite {
    replace %%r with pd_op.sigmoid(%%z)
  }
}
`, i, i+1)
	}
	return b.String()
}

// BenchmarkLintSameRoot lints sets of 250, 500 and 1,000 rules of one root. The overlap check's pin index keeps the
// time per rule about flat (24 ms for 1,000 rules; unifying every pair took 10.3 s):
//
//	go test ./lint -run XXX -bench LintSameRoot
func BenchmarkLintSameRoot(b *testing.B) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(b, err)
	for _, n := range []int{250, 500, 1000} {
		set, diags := drr.LoadSource(ctx, drr.LoadOptions{}, "bench.drr", []byte(sameRootRules(n)))
		require.False(b, diags.HasErrors(), "%v", diags)
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			for b.Loop() {
				if fs := lint.Run(set); len(fs) != 0 {
					b.Fatalf("%d findings, first %s", len(fs), fs[0])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(n), "µs/rule")
		})
	}
}
