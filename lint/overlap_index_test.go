package lint_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/lint"
	"github.com/pirdrr/drr/rules"
)

// randomOverlapRules returns n random rules over a few ops, with pinned and unpinned attributes, commutative
// operands, any-op producers and two benefits: rules that overlap in every way the unifier knows, and many that
// do not.
func randomOverlapRules(rng *rand.Rand, n int) string {
	var b strings.Builder
	attr := func(name string, vals []string, hole string, where *[]string) string {
		switch rng.IntN(4) {
		case 0:
			return fmt.Sprintf("%s: %s", name, vals[rng.IntN(len(vals))])
		case 1:
			*where = append(*where, fmt.Sprintf("%s == %s", hole, vals[rng.IntN(len(vals))]))
		case 2:
			*where = append(*where, fmt.Sprintf("%s in [%s, %s]", hole, vals[0], vals[1]))
		}
		return fmt.Sprintf("%s: %s", name, hole)
	}
	seen := map[string]bool{}
	for i := 0; i < n; {
		var lines, where []string
		vals := 0
		next := func() string { vals++; return fmt.Sprintf("%%v%d", vals) }
		var producer func(depth int) string
		producer = func(depth int) string {
			out := next()
			if depth >= 2 {
				return out // an input of the pattern
			}
			switch rng.IntN(5) {
			case 0:
				return out
			case 1:
				lines = append(lines, fmt.Sprintf("%s = pd_op.conv2d(%s, %s) {%s}", out, producer(depth+1), next(),
					attr("groups", []string{"1", "2", "3"}, fmt.Sprintf("$g%d", depth), &where)))
			case 2:
				lines = append(lines, fmt.Sprintf("%s = pd_op.scale(%s, %s) {%s}", out, producer(depth+1), next(),
					attr("bias", []string{"0.0", "1.0", "2"}, fmt.Sprintf("$b%d", depth), &where)))
			case 3:
				x, y := producer(depth+1), producer(depth+1)
				if rng.IntN(2) == 0 {
					lines = append(lines, fmt.Sprintf("%s = pd_op.add(either(%s, %s))", out, x, y))
				} else {
					lines = append(lines, fmt.Sprintf("%s = pd_op.add(%s, %s)", out, x, y))
				}
			case 4:
				lines = append(lines, fmt.Sprintf("%s = pd_op.subtract(%s, %s)", out, producer(depth+1), producer(depth+1)))
			}
			return out
		}
		x := producer(0)
		root := []string{"pd_op.relu", "pd_op.sigmoid"}[rng.IntN(2)]
		lines = append(lines, fmt.Sprintf("%%r = %s(%s)", root, x))
		body := fmt.Sprintf("  benefit %d\n  match {\n    %s\n  }\n", 1+rng.IntN(2), strings.Join(lines, "\n    "))
		if len(where) > 0 {
			body += fmt.Sprintf("  where {\n    %s\n  }\n", strings.Join(where, "\n    "))
		}
		if seen[body] { // a rule shadowed by an equal one does not check
			continue
		}
		seen[body] = true
		fmt.Fprintf(&b, "rule r%d {\n%s  rewrite {\n    replace %%r with pd_op.exp(%s)\n  }\n}\n", i, body, x)
		i++
	}
	return b.String()
}

// TestCandidatePairsComplete: the pin index never leaves out a pair the unifier finds overlapping, on the shipped
// sets and on random sets, and it leaves out most pairs of the random sets.
func TestCandidatePairsComplete(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	var sets []*rule.Set
	for _, name := range rules.Sets() {
		set, err := rules.Load(ctx, name)
		require.NoError(t, err)
		sets = append(sets, set)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	random := 0
	for range 100 {
		src := randomOverlapRules(rng, 60)
		set, diags := drr.LoadSource(ctx, drr.LoadOptions{}, "random.drr", []byte(src))
		if diags.HasErrors() {
			continue // two rules the same up to either(…) over inputs: the checker refuses the set as shadowed
		}
		sets = append(sets, set)
		if random++; random == 20 {
			break
		}
	}
	require.Equal(t, 20, random, "random sets that check")
	var all, candidates, overlapping int
	for _, set := range sets {
		a, c, o, missed := lint.CheckCandidatePairs(set)
		all, candidates, overlapping = all+a, candidates+c, overlapping+o
		assert.Empty(t, missed, "overlapping pairs the index leaves out")
	}
	t.Logf("%d pairs of one benefit, %d candidates, %d overlapping", all, candidates, overlapping)
	assert.Positive(t, overlapping)
	assert.Less(t, candidates, all/2, "the index leaves out most pairs")
}
