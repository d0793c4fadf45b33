package pipecheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
)

func registry(t *testing.T) *rewriter.Registry {
	reg := rewriter.NewRegistry()
	for _, name := range []string{"inplace", "dce", "conv_bn_relu"} {
		require.NoError(t, reg.RegisterPass(name, "", nil))
	}
	require.NoError(t, reg.RegisterPipeline("inference", "", "conv_bn_relu", "dce"))
	return reg
}

func TestPasses(t *testing.T) {
	reg := registry(t)
	tests := []struct {
		names     []string
		haveRules bool
		err       string
	}{
		{[]string{"inplace", "inference"}, false, ""},
		{[]string{"rules", "dce"}, true, ""},
		{[]string{"inplce"}, false, `-passes: unknown pass "inplce" (did you mean inplace?)`},
		{[]string{"rules"}, false, `-passes: unknown pass "rules" (known: conv_bn_relu, dce, inference, inplace); "rules" stands for the rule files, and there are none`},
		{nil, false, ""},
	}
	for _, tt := range tests {
		err := Passes(reg, tt.names, tt.haveRules, "-passes")
		if tt.err == "" {
			assert.NoError(t, err, "%v", tt.names)
		} else {
			assert.EqualError(t, err, tt.err)
		}
	}
}

func TestLabels(t *testing.T) {
	set := &rule.Set{Ctx: ir.NewContext(), Rules: []*rule.Rule{
		{Name: "deinplace_relu", Labels: []string{"activation", "inplace"}},
		{Name: "fold", Labels: []string{"weights"}},
	}}
	pl := rewriter.Pipeline{rewriter.NewRulePass("rules", set)}
	assert.NoError(t, Labels(pl, nil, nil))
	assert.NoError(t, Labels(pl, []string{"fold"}, []string{"activation", "weights"}))
	assert.EqualError(t, Labels(pl, nil, []string{"activaton"}), `-disable: unknown rule name or label "activaton" (did you mean activation?)`)
	assert.EqualError(t, Labels(pl, []string{"zzzzzz"}, nil),
		`-enable: unknown rule name or label "zzzzzz" (known: activation, deinplace_relu, fold, inplace, weights)`)
	assert.EqualError(t, Labels(nil, nil, []string{"x"}), `-disable: unknown rule name or label "x" (there are none)`)
}

func TestPassesOf(t *testing.T) {
	set := &rule.Set{Ctx: ir.NewContext()}
	pl := rewriter.Pipeline{rewriter.NewRulePass("rules", set), rewriter.NewRulePass("dce", set), rewriter.NewRulePass("dce", set)}
	assert.NoError(t, PassesOf(pl, []string{"dce", "rules"}, "-print-ir-after"))
	assert.EqualError(t, PassesOf(pl, []string{"dec"}, "-print-ir-after"), `-print-ir-after: unknown pass "dec" (did you mean dce?) in this pipeline`)
	assert.Len(t, RuleSets(pl), 3)
}
