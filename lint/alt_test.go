package lint_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/lint"
)

// TestAlternatives: the lint reads an operand with alternatives as any value (what the rule may match is a superset
// of each alternative's), and an op of an unknown dialect in one alternative leaves the rule alive.
func TestAlternatives(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	set, diags := drr.LoadSource(ctx, drr.LoadOptions{}, "t.drr", []byte(`
rule alt {
  match { %y = pd_op.relu(pd_op.cast(%x) | %x) }
  rewrite { replace %y with pd_op.tanh(%x) }
}
rule plain {
  match { %y = pd_op.relu(pd_op.abs(%x)) }
  rewrite { replace %y with pd_op.sigmoid(%x) }
}
`))
	require.False(t, diags.HasErrors(), "%v", diags)
	var msgs []string
	for _, f := range lint.Run(set) {
		msgs = append(msgs, f.String())
	}
	// relu(abs(x)) is relu(%x) for the second alternative: the two rules overlap at benefit 2.
	require.Len(t, msgs, 1)
	assert.Contains(t, msgs[0], "rules alt and plain can both match the same pd_op.relu op with benefit 2")
	assert.Empty(t, lint.DeadInstances(set))

	// An op pd_op does not have (a rule set built as data) kills the rule outside alternatives only.
	alt := set.Rules[0].Pattern
	for k, op := range alt.Ops {
		if alt.InAlt(k) {
			op.Name = "pd_op.no_such_op"
		}
	}
	assert.Empty(t, lint.DeadInstances(set))
	alt.Ops[alt.Root].Name = "pd_op.no_such_root"
	assert.Len(t, lint.DeadInstances(set), 1)
}
