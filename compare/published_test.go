package compare

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/ir"
)

// TestComparePublishedParameters: a shadow output of after that publishes a parameter unchanged, and that before
// does not have, is no model output (Compare's doc): add_shadow_output_after_dead_parameter's output passes. Every
// other difference in the outputs still fails, whichever direction: an added output of a computed value, an added
// fetch of a parameter, a shadow output of a parameter the program writes, a removed model output, a removed
// publication.
func TestComparePublishedParameters(t *testing.T) {
	// Every program: relu(x) fetched as "r", and a parameter w [2, 3] (read by nothing unless emit uses it).
	build := func(emit func(b *progtest.Builder, x, w *ir.Value)) *ir.Program {
		b := progtest.New(t)
		x := b.Data("x", 2, 3)
		w := b.Param("w", 2, 3)
		b.Fetch(b.V("pd_op.relu", x), "r", 0)
		if emit != nil {
			emit(b, x, w)
		}
		b.P.CollectParams()
		return b.P
	}
	publish := func(b *progtest.Builder, _, w *ir.Value) { b.Shadow(w, "w") }
	published := Publication{Name: "w", Param: "w"}
	tests := []struct {
		name          string
		before, after func(b *progtest.Builder, x, w *ir.Value)
		ok            bool
		pairs         [][2]string
		unmatched     []string
		published     []Publication
	}{
		{name: "dead parameter published after", after: publish, ok: true,
			pairs: [][2]string{{"r", "r"}}, published: []Publication{published}},
		{name: "published under another name", after: func(b *progtest.Builder, _, w *ir.Value) { b.Shadow(w, "keep_w") }, ok: true,
			pairs: [][2]string{{"r", "r"}}, published: []Publication{{Name: "keep_w", Param: "w"}}},
		{name: "published by both", before: publish, after: publish, ok: true,
			pairs: [][2]string{{"r", "r"}, {"w", "w"}}},
		{name: "nothing published", ok: true, pairs: [][2]string{{"r", "r"}}},
		{name: "a computed value of the parameter", after: func(b *progtest.Builder, _, w *ir.Value) { b.Shadow(b.V("pd_op.relu", w), "w") },
			pairs: [][2]string{{"r", "r"}}, unmatched: []string{`shadow_output "w" of after has no counterpart before`}},
		{name: "a computed value", after: func(b *progtest.Builder, x, _ *ir.Value) { b.Shadow(b.V("pd_op.tanh", x), "t") },
			pairs: [][2]string{{"r", "r"}}, unmatched: []string{`shadow_output "t" of after has no counterpart before`}},
		{name: "a fetch of the parameter", after: func(b *progtest.Builder, _, w *ir.Value) { b.Fetch(w, "w", 1) },
			pairs: [][2]string{{"r", "r"}}, unmatched: []string{`fetch "w" of after has no counterpart before`}},
		{name: "a parameter written in place", after: func(b *progtest.Builder, _, w *ir.Value) {
			b.V("pd_op.relu_", w)
			b.Shadow(w, "w")
		}, pairs: [][2]string{{"r", "r"}}, unmatched: []string{`shadow_output "w" of after has no counterpart before`}},
		{name: "a parameter replaced by set_parameter", after: func(b *progtest.Builder, x, w *ir.Value) {
			b.Shadow(w, "w")
			b.Op(ir.SetParameterOpName, []*ir.Value{b.V("pd_op.tanh", x)}, progtest.Attr("parameter_name", b.Ctx.Str("w")))
		}, pairs: [][2]string{{"r", "r"}}, unmatched: []string{`set_parameter "w" of after has no counterpart before`,
			`shadow_output "w" of after has no counterpart before`}},
		{name: "a publication removed", before: publish,
			pairs: [][2]string{{"r", "r"}}, unmatched: []string{`shadow_output "w" of before has no counterpart after`}},
		{name: "a model output removed", before: func(b *progtest.Builder, x, _ *ir.Value) { b.Fetch(b.V("pd_op.tanh", x), "t", 1) },
			after: publish, pairs: [][2]string{{"r", "r"}}, unmatched: []string{`fetch "t" of before has no counterpart after`},
			published: []Publication{published}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Programs(build(tc.before), build(tc.after), Options{Runs: 1})
			require.NotNil(t, rep, "%v", err)
			var pairs [][2]string
			for _, o := range rep.Outputs {
				pairs = append(pairs, [2]string{o.Name, o.AfterName})
			}
			assert.Equal(t, tc.pairs, pairs)
			assert.Equal(t, tc.unmatched, rep.Unmatched)
			assert.Equal(t, tc.published, rep.Published)
			assert.Equal(t, tc.ok, rep.OK())
			for _, p := range tc.published {
				assert.Contains(t, rep.String(), "not compared: "+p.String())
			}
			if tc.ok {
				assert.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, ErrMismatch)
		})
	}
}

// TestComparePublishedInOrder: outputs matched in order (no name in common, as many outputs) still are when after
// also publishes a dead parameter.
func TestComparePublishedInOrder(t *testing.T) {
	before := outputsProgram(t, func(b *progtest.Builder, x *ir.Value) {
		b.Param("w", 2, 3)
		b.Fetch(b.V("pd_op.relu", x), "r", 0)
	})
	after := outputsProgram(t, func(b *progtest.Builder, x *ir.Value) {
		b.Shadow(b.Param("w", 2, 3), "w")
		b.Shadow(b.V("pd_op.relu", x), "out")
	})
	rep, err := Programs(before, after, Options{Runs: 1})
	require.NoError(t, err)
	require.Len(t, rep.Outputs, 1)
	assert.Equal(t, [2]string{"r", "out"}, [2]string{rep.Outputs[0].Name, rep.Outputs[0].AfterName})
	assert.Equal(t, []Publication{{Name: "w", Param: "w"}}, rep.Published)
	assert.Equal(t, `shadow_output "w" publishes parameter "w" unchanged`, rep.Published[0].String())
}

// TestCompareDrawsOnlyWeightsItReads: a parameter nothing reads and a publication of after are not evaluated, so
// their weights are never drawn (a GraphNet graph cut from LLaMA-7b lists all 6.7 billion weights; drawing them ran
// out of memory), and the comparison is what it was.
func TestCompareDrawsOnlyWeightsItReads(t *testing.T) {
	build := func(publish bool) *ir.Program {
		b := progtest.New(t)
		x := b.Data("x", 2, 3)
		w := b.Param("w", 2, 3)
		b.Param("unused", 2, 3)
		dead := b.Param("dead", 2, 3)
		if publish {
			b.Shadow(dead, "dead")
		}
		b.Fetch(b.V("pd_op.add", x, w), "r", 0)
		b.P.CollectParams()
		return b.P
	}
	var mu sync.Mutex
	drawn := map[string]int{}
	opts := Options{Runs: 2}
	opts.ParamRange = func(p feeds.ParamInfo) (float64, float64) {
		mu.Lock()
		defer mu.Unlock()
		drawn[p.Name]++
		return feeds.DefaultParamRange(p)
	}
	rep, err := Programs(build(false), build(true), opts)
	require.NoError(t, err)
	assert.Equal(t, []Publication{{Name: "dead", Param: "dead"}}, rep.Published)
	assert.Equal(t, map[string]int{"w": 4}, drawn, "w is drawn by both programs in both runs, nothing else is")
}
