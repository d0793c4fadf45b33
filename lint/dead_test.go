package lint_test

import (
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/lint"
)

func TestDeadInstances(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	src := `
// A view's operand is always aliased by the view itself.
rule through_view {
  match { %b = pd_op.flatten(%a) }
  where { !aliased(%a) }
  rewrite { replace %b with pd_op.flatten(%a) }
}

// ... unless the view is excepted.
rule view_excepted {
  match { %b = pd_op.flatten(%a) }
  where { !aliased(%a, %b) }
  rewrite { replace %b with pd_op.flatten(%a) }
}

family ops = [pd_op.relu, pd_op.c_identity]

rule members {
  for X in ops
  match { %b = X(%a) {$attrs...} }
  where { !has_trait(%b, SideEffects) }
  rewrite { replace %b with X(%a) {$attrs...} }
}
`
	set, diags := drr.LoadSource(ctx, drr.LoadOptions{}, "dead.drr", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	dead := lint.DeadInstances(set)
	var got []string
	for r, f := range dead {
		got = append(got, r.ID()+": "+f.Pos.String()+": "+f.Message)
	}
	sort.Strings(got)
	assert.Equal(t, []string{
		"members[pd_op.c_identity]: dead.drr:21:11: can never fire: its where clause `!has_trait(%b, \"SideEffects\")` is always false",
		"through_view: dead.drr:5:11: can never fire: its where clause `!aliased(%a)` is always false",
	}, got)
}
