package rulegen_test

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rulegen"
)

// TestUsersGroupRefused: drrc gen does not print users groups yet (language.md §4.10); a rule file with one is a
// positioned error at the group, and no code.
func TestUsersGroupRefused(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	fsys := fstest.MapFS{"u.drr": {Data: []byte(`rule r {
  match {
    %y = pd_op.matmul(each(3, 8) %x, %w)
  }
  rewrite {
    %p = pd_op.matmul(%x, pd_op.concat([%w...], pd_op.full() {shape: [1], value: 1.0}))
    %parts... = builtin.split(pd_op.split(%p, pd_op.full_int_array() {value: [dim(%w, 1)...]},
        pd_op.full() {shape: [1], value: -1.0}))
    replace %y... with %parts...
  }
}
`)}}
	code, diags := rulegen.Generate(ctx, fsys, []string{"u.drr"}, rulegen.Config{Package: "p"})
	assert.Nil(t, code)
	require.True(t, diags.HasErrors())
	assert.Contains(t, diags.Error(), "u.drr:3:23: error: rule r: drrc gen does not print users groups (CollectUsers) yet")
}
