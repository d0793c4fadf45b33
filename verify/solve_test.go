package verify_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/verify"
)

// TestSolveSeveralDims: a conjunct over several dimensions of one value (a query length that divides by the rows
// a block takes, which depend on the key length) is solved one dimension at a time, the others as already chosen.
func TestSolveSeveralDims(t *testing.T) {
	set := loadRules(t, newCtx(t), `
rule rows {
  match { %y = pd_op.softmax(%s) {axis: -1} }
  where {
    rank(%s) == 4 && dim(%s, 3) >= 32 && dim(%s, 2) > 1
    dim(%s, 2) % (dim(%s, 3) <= 128 ? 8 : 4) == 0
  }
  rewrite { replace %y with pd_op.softmax(%s) {axis: 3} }
}`)
	res := verifyAll(t, set, nil)["rows"]
	require.NotNil(t, res)
	assert.Equal(t, verify.RuleOK, res.Status, res.Reason)
	require.NotEmpty(t, res.Variants)
	assert.Contains(t, res.Variants[0].Instance.String(), "x8x32xf32>", "the query length solved to 8 for 32 keys")
}
