package rewriter

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

func TestRegistry(t *testing.T) {
	reg := NewRegistry()
	require.NoError(t, RegisterBuiltinPasses(reg))
	require.NoError(t, reg.RegisterConstraint("even", func(args []any) (bool, error) { return args[0].(int64)%2 == 0, nil }))
	assert.EqualError(t, reg.RegisterConstraint("even", nil), "native constraint even is already registered")
	require.NoError(t, reg.RegisterRewrite("noop", func(*ir.Rewriter, []any) ([]*ir.Value, error) { return nil, nil }))
	assert.EqualError(t, reg.RegisterRewrite("noop", nil), "native rewrite noop is already registered")
	assert.True(t, reg.HasNative("even", false) && reg.HasNative("noop", true) && !reg.HasNative("even", true))
	require.NoError(t, reg.RegisterPipeline("cleanup", "dce twice", "dce", "dce"))
	assert.EqualError(t, reg.RegisterPass("cleanup", "", nil), "pass cleanup is already registered")
	require.NoError(t, reg.RegisterPipeline("loop", "", "loop"))

	c, err := ir.NewDefaultContext()
	require.NoError(t, err)
	pl, err := reg.Pipeline(c, "cleanup", "dce")
	require.NoError(t, err)
	assert.Len(t, pl, 3)
	_, err = reg.Pipeline(c, "nosuch")
	assert.EqualError(t, err, `unknown pass "nosuch" (registered: cleanup, dce, loop)`)
	_, err = reg.Pipeline(c, "loop")
	assert.EqualError(t, err, "pipeline loop nests too deeply (a cycle?)")
	var names []string
	for _, p := range reg.Passes() {
		names = append(names, p.Name)
	}
	assert.Equal(t, []string{"cleanup", "dce", "loop"}, names)
}

func TestPipelineRunsRuleAndGoPasses(t *testing.T) {
	x := newPB(t)
	in := x.data()
	x.op("pd_op.relu", 1, nil, in) // dead
	r := x.op("pd_op.relu_", 1, nil, in)
	x.fetch(r.Result(0))
	set := setOf(x.c, unaryRule("deinplace", "pd_op.relu_", "pd_op.relu", 0))
	rp := &RulePass{PassName: "deinplace", Set: set, Compile: func(s *rule.Set, _ Oracle) (MatchFunc, error) { return simpleMatch(s), nil }}
	pl := Pipeline{&GoPass{PassName: "dce", Fn: DCE}, rp}
	res, err := pl.Run(x.p, &Env{})
	require.NoError(t, err)
	require.Len(t, res, 2)
	assert.Equal(t, 1, res[0].Changes)
	assert.Equal(t, 1, res[1].Stats.Rewrites)
	assert.Equal(t, []string{"pd_op.data", "pd_op.relu", "pd_op.fetch"}, x.names())
}

func TestOracleNatives(t *testing.T) {
	x := newPB(t)
	reg := NewRegistry()
	require.NoError(t, reg.RegisterConstraint("even", func(args []any) (bool, error) { return args[0].(int64)%2 == 0, nil }))
	o := NewOracle(x.p, reg)
	v, err := o.Native("even", []any{int64(4)})
	require.NoError(t, err)
	assert.Equal(t, true, v)
	_, err = o.Native("odd", nil)
	assert.EqualError(t, err, rule.UnregisteredNative("constraint", "odd"))
	assert.Contains(t, err.Error(), "docs/plugins.md", "the message says how to register one")
	got, ok, err := o.Builtin("is_input", []any{x.data()})
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, true, got)
}
