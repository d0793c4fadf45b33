package rewriter

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

// TestSeedingSkipsRulelessOps: the driver does not push ops of kinds no rule is rooted at (unless they lost their
// uses), neither when seeding nor when a rewrite changes them; the result, the rewrites and the per-rule counts
// are those of a run that pushes every op, top-down and bottom-up.
func TestSeedingSkipsRulelessOps(t *testing.T) {
	in := loadBenchInput(t, 1000)
	for _, bottomUp := range []bool{false, true} {
		var texts []string
		var stats []*Stats
		for _, every := range []bool{false, true} {
			ctx := ir.NewContext()
			set, diags := drr.Load(ctx, drr.LoadOptions{CheckOptions: drr.CheckOptions{Unregistered: true}}, benchRules)
			require.False(t, diags.HasErrors(), "%v", diags)
			p, _, err := pirtext.Parse(ctx, "w.pir", in.src, pirtext.ReadOptions{})
			require.NoError(t, err)
			a, err := NewRulePass("rules", set).automaton()
			require.NoError(t, err)
			m := a.NewMatcher()
			d := NewDriver(p, set, func(dst []*rule.Match, op *ir.Op) []*rule.Match { return m.MatchInto(dst, op, nil) },
				nil, nil, Options{BottomUp: bottomUp})
			d.seedEvery = every
			st, err := d.Run()
			require.NoError(t, err)
			checkCounts(t, p, in.expect)
			texts = append(texts, string(pirtext.Print(p, pirtext.WriteOptions{})))
			stats = append(stats, st)
		}
		assert.Equal(t, texts[1], texts[0], "bottom-up %v", bottomUp)
		assert.Equal(t, stats[1].Rewrites, stats[0].Rewrites)
		assert.Equal(t, stats[1].Iterations, stats[0].Iterations)
		for i := range stats[0].Rules {
			a, b := *stats[0].Rules[i], *stats[1].Rules[i]
			a.Time, a.MatchTime, b.Time, b.MatchTime = 0, 0, 0, 0 // times differ run to run: compare the counts
			assert.Equal(t, b, a, "bottom-up %v", bottomUp)
		}
	}
}
