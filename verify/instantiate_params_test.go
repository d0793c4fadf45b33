package verify

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

func TestParamAssignments(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	const src = `param sm: i64 = 0
param algo: str = "int8"
param f: f64 = 2.0

rule two {
  match { %y = pd_op.relu(%x) }
  where { $sm in [70, 80] && $algo in ["int8", "int4"] }
  rewrite { replace %y with pd_op.tanh(%x) }
}
rule rewrite_only {
  match { %y = pd_op.relu(%x) }
  rewrite { replace %y with pd_op.scale(%x, pd_op.full() {shape: [1], value: $f, dtype: float32}) {bias: 0.0} }
}
rule none {
  match { %y = pd_op.sigmoid(%x) }
  where { $sm > 100 }
  rewrite { replace %y with %x }
}
`
	set, diags := drr.LoadSource(ctx, drr.LoadOptions{}, "p.drr", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	two, rewriteOnly, none := set.Rules[0], set.Rules[1], set.Rules[2]
	// The default 0 fails $sm in [70, 80]; the assignments, taken in order while they give a value not given
	// yet, cover every admissible value of each parameter.
	assert.Equal(t, []rule.Params{{"sm": int64(70), "algo": "int8"}, {"sm": int64(70), "algo": "int4"},
		{"sm": int64(80), "algo": "int8"}}, paramAssignments(two, nil))
	assert.Equal(t, []rule.Params{{"sm": int64(80), "algo": "int8"}, {"sm": int64(80), "algo": "int4"}},
		paramAssignments(two, rule.Params{"sm": int64(80)}))
	assert.Equal(t, []rule.Params{{"f": 2.0}}, paramAssignments(rewriteOnly, nil), "a parameter only the rewrite reads")
	assert.Empty(t, paramAssignments(none, nil), "no value compared with satisfies $sm > 100")
	assert.Equal(t, []rule.Params{{"sm": int64(200)}}, paramAssignments(none, rule.Params{"sm": int64(200)}),
		"a value the caller fixes is the only one tried")
}
