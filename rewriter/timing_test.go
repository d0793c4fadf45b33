package rewriter

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSampler(t *testing.T) {
	for _, tc := range []struct {
		name   string
		events int
		each   time.Duration
		timed  int64
	}{
		{"none", 0, time.Microsecond, 0},
		{"all timed", sampleFirst, time.Microsecond, sampleFirst},
		{"sampled", sampleFirst + 10*sampleEvery, time.Microsecond, sampleFirst + 10},
		{"many", 100000, 3 * time.Microsecond, sampleFirst + (100000-sampleFirst)/sampleEvery + 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s sampler
			for range tc.events {
				if s.want() {
					s.add(tc.each)
				}
			}
			assert.Equal(t, int64(tc.events), s.events)
			assert.InDelta(t, tc.timed, s.timed, 1)
			// Every event takes the same time, so the estimate is exact.
			assert.Equal(t, time.Duration(tc.events)*tc.each, s.total())
		})
	}
}

// TestDriverTimesRules: the rules tried at an op share its match time; a rule that rewrote has a rewrite time; a
// rule whose root never occurs has neither.
func TestDriverTimesRules(t *testing.T) {
	x := newPB(t)
	h := x.data()
	for range 200 {
		h = x.op("pd_op.relu_", 1, nil, h).Result(0)
	}
	x.fetch(h)
	set := setOf(x.c, unaryRule("relu", "pd_op.relu_", "pd_op.relu", 0), unaryRule("relu_b", "pd_op.relu_", "pd_op.tanh", 0),
		unaryRule("never", "pd_op.exp", "pd_op.tanh", 0))
	st, err := run(t, x, set, Options{})
	require.NoError(t, err)
	relu, other, never := st.Rules[0], st.Rules[1], st.Rules[2]
	assert.Equal(t, 200, relu.Applied)
	assert.Positive(t, relu.Time)
	assert.Positive(t, relu.MatchTime)
	assert.Equal(t, relu.MatchTime, other.MatchTime, "two rules rooted at relu_ share its match time evenly")
	assert.Zero(t, other.Time, "a rule that never rewrote")
	assert.Zero(t, never.Time+never.MatchTime, "a rule never tried")
	for op := range x.p.Walk() {
		require.Zero(t, op.Mark(), "the driver clears its marks")
	}
}
