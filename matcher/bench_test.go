package matcher

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// gen.py 1000 --expect: the op counts of the workload before rewriting (pd_op.parameter is builtin.parameter in
// the PIR form, as here).
var genPy1000 = map[string]int{"pd_op.add": 51, "pd_op.add_": 32, "pd_op.batch_norm": 592, "pd_op.conv2d": 689,
	"pd_op.data": 1, "pd_op.fetch": 1, ir.ParameterOpName: 693, "pd_op.relu": 588, "pd_op.relu_": 68,
	"pd_op.scale_": 28, "pd_op.shape": 30, "pd_op.sigmoid_": 31, "pd_op.tanh_": 27, "pd_op.to_tensor": 125,
	"pd_op.to_vtensor": 125}

func TestBenchWorkload(t *testing.T) {
	ctx := ir.NewContext()
	p := benchProgram(ctx, 1000, 1)
	counts := map[string]int{}
	for op := range p.Walk() {
		counts[op.Name()]++
	}
	assert.Equal(t, genPy1000, counts, "the Go workload is gen.py's")

	set := rule.NewSet(ctx, benchRules(ctx)...)
	a, err := Compile(set, Options{})
	require.NoError(t, err)
	ref := newRef()
	perRule := map[string]int{}
	for _, op := range allOps(p) {
		got := a.Match(op, nil)
		require.True(t, sameMatches(ref.match(set, op, nil), got), "at %s", op.Name())
		for _, m := range got {
			perRule[m.Rule.Name]++
		}
	}
	// gen.py 1000 has 405 cbr, 101 cb, 28 bn2uses, 97 cr blocks, 69 tv, 26 vt and 30 tv_shared round trips, and
	// 68 relu_, 31 sigmoid_, 32 add_, 28 scale_ blocks. Adjacent round trips also meet in the middle
	// (to_vtensor, to_tensor | to_vtensor, to_tensor has a to_tensor→to_vtensor pair): 3 + 16 more.
	assert.Equal(t, map[string]int{"ConvBnRelu": 405, "ConvBn": 405 + 101 + 28, "ConvRelu": 97,
		"ToTensorOfToVTensor": 69 + 3, "ToTensorOfSharedToVTensor": 69 + 30 + 3, "ToVTensorOfToTensor": 26 + 16,
		"ToVTensorOfSharedToTensor": 26 + 16, "ReluInplace": 68, "SigmoidInplace": 31, "AddInplace": 32,
		"ScaleInplace": 28}, perRule)
}

var (
	benchOnce sync.Once
	benchCtx  *ir.Context
	benchOps  []*ir.Op // the ops of gen.py's workload with 100,000 blocks
	smallOps  []*ir.Op // … with 10,000 blocks (for the reference matcher)
)

func benchSetup() {
	benchOnce.Do(func() {
		benchCtx = ir.NewContext()
		benchOps = allOps(benchProgram(benchCtx, 100000, 1))
		smallOps = allOps(benchProgram(benchCtx, 10000, 1))
		runtime.GC()
	})
}

// matchAll matches every op with m and returns the number of matches.
func matchAll(m *Matcher, ops []*ir.Op) int {
	n := 0
	var buf []*rule.Match
	for _, op := range ops {
		buf = m.MatchInto(buf, op, nil)
		n += len(buf)
	}
	return n
}

func reportPerOp(b *testing.B, start time.Time, nops int) {
	b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N*nops), "ns/op-of-program")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkWorkload matches every op of gen.py's 100,000-block workload (about 308k ops) against its 12 rules.
func BenchmarkWorkload(b *testing.B) {
	benchSetup()
	for _, opts := range []Options{{}, {NoTree: true}} {
		name := "tree"
		if opts.NoTree {
			name = "notree"
		}
		b.Run(name, func(b *testing.B) {
			a, err := Compile(rule.NewSet(benchCtx, benchRules(benchCtx)...), opts)
			require.NoError(b, err)
			m := a.NewMatcher()
			matchAll(m, benchOps)
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				matchAll(m, benchOps)
			}
			reportPerOp(b, start, len(benchOps))
		})
	}
	b.Run("reference", func(b *testing.B) {
		set := rule.NewSet(benchCtx, benchRules(benchCtx)...)
		ref := newRef()
		b.ResetTimer()
		start := time.Now()
		for i := 0; i < b.N; i++ {
			for _, op := range smallOps {
				ref.match(set, op, nil)
			}
		}
		reportPerOp(b, start, len(smallOps))
	})
}

// BenchmarkScaling matches every op of the workload while the rule set grows from 10 to 1,000 rules sharing roots
// and prefixes and differing in a literal deep in the pattern (scalingRules). The reference matcher runs on the
// 10,000-block workload (about 31k ops) to bound its time; all report ns per program op.
func BenchmarkScaling(b *testing.B) {
	benchSetup()
	for _, impl := range []string{"tree", "notree", "reference"} {
		for _, n := range []int{10, 100, 1000} {
			b.Run(fmt.Sprintf("%s/rules=%d", impl, n), func(b *testing.B) {
				set := rule.NewSet(benchCtx, scalingRules(benchCtx, n)...)
				ops := benchOps
				var run func()
				switch impl {
				case "reference":
					ops = smallOps
					ref := newRef()
					run = func() {
						for _, op := range ops {
							ref.match(set, op, nil)
						}
					}
				default:
					a, err := Compile(set, Options{NoTree: impl == "notree"})
					require.NoError(b, err)
					m := a.NewMatcher()
					run = func() { matchAll(m, ops) }
				}
				run()
				b.ResetTimer()
				start := time.Now()
				for i := 0; i < b.N; i++ {
					run()
				}
				reportPerOp(b, start, len(ops))
			})
		}
	}
}
