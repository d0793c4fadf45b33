package interp

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// TestComparePublishedParameters: a shadow output of after that publishes a parameter unchanged, and that before
// does not have, is no model output (Compare's doc): add_shadow_output_after_dead_parameter's output passes. Every
// other difference in the outputs still fails, whichever direction: an added output of a computed value, an added
// fetch of a parameter, a shadow output of a parameter the program writes, a removed model output, a removed
// publication.
func TestComparePublishedParameters(t *testing.T) {
	// Every program: relu(x) fetched as "r", and a parameter w [2, 3] (read by nothing unless emit uses it).
	build := func(emit func(b *builder, x, w *ir.Value)) *ir.Program {
		b := newBuilder(t)
		x := b.data("x", 2, 3)
		w := b.param("w", 2, 3)
		b.fetch(b.v("pd_op.relu", x), "r", 0)
		if emit != nil {
			emit(b, x, w)
		}
		b.p.CollectParams()
		return b.p
	}
	publish := func(b *builder, _, w *ir.Value) { b.shadow(w, "w") }
	published := Publication{Name: "w", Param: "w"}
	tests := []struct {
		name          string
		before, after func(b *builder, x, w *ir.Value)
		ok            bool
		pairs         [][2]string
		unmatched     []string
		published     []Publication
	}{
		{name: "dead parameter published after", after: publish, ok: true,
			pairs: [][2]string{{"r", "r"}}, published: []Publication{published}},
		{name: "published under another name", after: func(b *builder, _, w *ir.Value) { b.shadow(w, "keep_w") }, ok: true,
			pairs: [][2]string{{"r", "r"}}, published: []Publication{{Name: "keep_w", Param: "w"}}},
		{name: "published by both", before: publish, after: publish, ok: true,
			pairs: [][2]string{{"r", "r"}, {"w", "w"}}},
		{name: "nothing published", ok: true, pairs: [][2]string{{"r", "r"}}},
		{name: "a computed value of the parameter", after: func(b *builder, _, w *ir.Value) { b.shadow(b.v("pd_op.relu", w), "w") },
			pairs: [][2]string{{"r", "r"}}, unmatched: []string{`shadow_output "w" of after has no counterpart before`}},
		{name: "a computed value", after: func(b *builder, x, _ *ir.Value) { b.shadow(b.v("pd_op.tanh", x), "t") },
			pairs: [][2]string{{"r", "r"}}, unmatched: []string{`shadow_output "t" of after has no counterpart before`}},
		{name: "a fetch of the parameter", after: func(b *builder, _, w *ir.Value) { b.fetch(w, "w", 1) },
			pairs: [][2]string{{"r", "r"}}, unmatched: []string{`fetch "w" of after has no counterpart before`}},
		{name: "a parameter written in place", after: func(b *builder, _, w *ir.Value) {
			b.v("pd_op.relu_", w)
			b.shadow(w, "w")
		}, pairs: [][2]string{{"r", "r"}}, unmatched: []string{`shadow_output "w" of after has no counterpart before`}},
		{name: "a parameter replaced by set_parameter", after: func(b *builder, x, w *ir.Value) {
			b.shadow(w, "w")
			b.op(ir.SetParameterOpName, []*ir.Value{b.v("pd_op.tanh", x)}, attr("parameter_name", b.ctx.Str("w")))
		}, pairs: [][2]string{{"r", "r"}}, unmatched: []string{`set_parameter "w" of after has no counterpart before`,
			`shadow_output "w" of after has no counterpart before`}},
		{name: "a publication removed", before: publish,
			pairs: [][2]string{{"r", "r"}}, unmatched: []string{`shadow_output "w" of before has no counterpart after`}},
		{name: "a model output removed", before: func(b *builder, x, _ *ir.Value) { b.fetch(b.v("pd_op.tanh", x), "t", 1) },
			after: publish, pairs: [][2]string{{"r", "r"}}, unmatched: []string{`fetch "t" of before has no counterpart after`},
			published: []Publication{published}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Compare(build(tc.before), build(tc.after), CompareOptions{Runs: 1})
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
	before := outputsProgram(t, func(b *builder, x *ir.Value) {
		b.param("w", 2, 3)
		b.fetch(b.v("pd_op.relu", x), "r", 0)
	})
	after := outputsProgram(t, func(b *builder, x *ir.Value) {
		b.shadow(b.param("w", 2, 3), "w")
		b.shadow(b.v("pd_op.relu", x), "out")
	})
	rep, err := Compare(before, after, CompareOptions{Runs: 1})
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
		b := newBuilder(t)
		x := b.data("x", 2, 3)
		w := b.param("w", 2, 3)
		b.param("unused", 2, 3)
		dead := b.param("dead", 2, 3)
		if publish {
			b.shadow(dead, "dead")
		}
		b.fetch(b.v("pd_op.add", x, w), "r", 0)
		b.p.CollectParams()
		return b.p
	}
	var mu sync.Mutex
	drawn := map[string]int{}
	opts := CompareOptions{Runs: 2}
	opts.ParamRange = func(p ParamInfo) (float64, float64) {
		mu.Lock()
		defer mu.Unlock()
		drawn[p.Name]++
		return DefaultParamRange(p)
	}
	rep, err := Compare(build(false), build(true), opts)
	require.NoError(t, err)
	assert.Equal(t, []Publication{{Name: "dead", Param: "dead"}}, rep.Published)
	assert.Equal(t, map[string]int{"w": 4}, drawn, "w is drawn by both programs in both runs, nothing else is")
}
