package rewriter

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// dropCopyRule replaces %y = pd_op.assign(%x) with %x, as value_semantics' drop_copy does.
func dropCopyRule() *rule.Rule {
	return &rule.Rule{
		Name: "drop_copy",
		Pattern: &rule.Pattern{
			Ops:    []*rule.OpPattern{{Name: "pd_op.assign", Operands: []rule.OperandPattern{{Value: 0}}, Results: []rule.ResultPattern{{Value: 1}}, RestAttrs: -1}},
			Values: []*rule.ValueHole{{Name: "x", Def: -1}, {Name: "y", Def: 0}},
		},
		Actions: []rule.Action{&rule.Replace{Value: rule.Ref{Index: 1}, With: rule.Ref{Index: 0}}},
	}
}

func TestHasOutputs(t *testing.T) {
	x := newPB(t)
	r := x.op("pd_op.relu", 1, nil, x.data())
	assert.False(t, HasOutputs(x.p))
	x.fetch(r.Result(0))
	assert.True(t, HasOutputs(x.p))
	y := newPB(t)
	y.op("builtin.shadow_output", 0, []ir.NamedAttr{{Name: "output_name", Value: y.c.Str("out")}}, y.data())
	assert.True(t, HasOutputs(y.p))
}

// TestNoOutputsKeepsEveryOp: a program without outputs (a hand-written text program) is not emptied. The dce pass
// keeps it whole and says why; a rule pass keeps what its rewrites leave without uses: here drop_copy replaces the
// sink y = assign(exp(x)) by exp(x), which becomes the program's result and must stay.
func TestNoOutputsKeepsEveryOp(t *testing.T) {
	tests := []struct {
		name    string
		fetch   bool
		want    []string
		warning string
	}{
		{"no outputs", false, []string{"pd_op.data", "pd_op.exp", "pd_op.tanh"}, NoOutputsDriverWarning},
		{"fetched", true, []string{"pd_op.data", "pd_op.tanh", "pd_op.fetch"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := newPB(t)
			in := x.data()
			e := x.op("pd_op.exp", 1, nil, in).Result(0)
			x.op("pd_op.assign", 1, nil, e)
			tanh := x.op("pd_op.tanh", 1, nil, in)
			if tt.fetch {
				x.fetch(tanh.Result(0))
			}
			env := &Env{Registry: NewRegistry()}
			res, err := NewRulePass("copies", setOf(x.c, dropCopyRule())).Run(x.p, env)
			require.NoError(t, err)
			assert.Equal(t, 1, res.Stats.Rewrites)
			if tt.warning != "" {
				assert.Equal(t, []string{tt.warning}, res.Warnings)
				assert.Zero(t, res.Stats.Erased, "exp(x) is the program's result now")
			} else {
				assert.Empty(t, res.Warnings)
				assert.Equal(t, 1, res.Stats.Erased, "the exp nothing reads any more")
			}

			reg := NewRegistry()
			require.NoError(t, RegisterBuiltinPasses(reg))
			pl, err := reg.Pipeline(x.c, "dce")
			require.NoError(t, err)
			results, err := pl.Run(x.p, env)
			require.NoError(t, err)
			if !tt.fetch {
				assert.Equal(t, []string{NoOutputsWarning}, results[0].Warnings, "the dce pass says why it keeps everything")
				assert.Zero(t, results[0].Changes)
			} else {
				assert.Empty(t, results[0].Warnings)
			}
			assert.Equal(t, tt.want, x.names())
			n, err := DCE(x.p, ir.NewRewriter(x.c, nil))
			require.NoError(t, err)
			assert.Zero(t, n, "DCE itself keeps a program without outputs as well")
		})
	}
}
