package verify_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/rules"
	"github.com/pirdrr/drr/verify"
)

// TestVerifyUsersGroups: the rules of horizontal_fuse (users groups, language.md §4.10) are instantiated with MIN
// elements, and with MIN+1, reading one shared value, each with weights of its own as parameters; the rule fuses
// all of them (the match's group) and every element's output is compared.
func TestVerifyUsersGroups(t *testing.T) {
	reg := shippedRegistry(t)
	set, err := rules.Load(newCtx(t), "horizontal_fuse")
	require.NoError(t, err)
	for _, extra := range []int{0, 1} {
		t.Run(fmt.Sprintf("min+%d", extra), func(t *testing.T) {
			res, err := verify.Rules(set, verify.RuleOptions{Registry: reg, GroupSize: 3 + extra})
			require.NoError(t, err)
			require.Len(t, res, 3)
			for _, r := range res {
				require.Equal(t, verify.RuleOK, r.Status, "%s: %s", r.Rule.ID(), r.Reason)
				assert.LessOrEqual(t, r.MaxRel, 1e-12, "%s: float64 evaluation of an exact rewrite", r.Rule.ID())
				checked := 0
				for _, v := range r.Variants {
					if v.Status != verify.RuleOK {
						continue
					}
					checked++
					assert.Len(t, v.Instance.Match.Group, 3+extra, r.Rule.ID())
					assert.Len(t, v.Report.Outputs, 3+extra+outputsRead(v), "%s: every element's output", r.Rule.ID())
					params := 0
					for op := range v.Instance.Program.Body().Ops() {
						if op.Name() == "builtin.parameter" {
							params++
						}
					}
					assert.GreaterOrEqual(t, params, 3+extra, "%s: the weights are parameters", r.Rule.ID())
				}
				assert.NotZero(t, checked, r.Rule.ID())
			}
		})
	}
}

// outputsRead counts the outputs of a variant that read the pattern's inputs again after its outputs are written.
func outputsRead(v *verify.RuleVariant) int {
	n := 0
	for _, o := range v.Report.Outputs {
		if strings.HasSuffix(o.Name, " after the outputs are written") {
			n++
		}
	}
	return n
}

// TestVerifyCatchesWrongUsersGroup: a users-group rule whose fused op computes something else (a relu before the
// split) fails on the instances' outputs.
func TestVerifyCatchesWrongUsersGroup(t *testing.T) {
	set := loadRules(t, newCtx(t), `
rule horizontal_matmul_relu {
  match {
    %y = pd_op.matmul(each(2, 8) %x, %w) {transpose_x: false, transpose_y: false}
  }
  where {
    defined_by(%w, "builtin.parameter") && rank(%w) == 2 && rank(%x) >= 2 && dim(%w, 0) == dim(%x, -1)
  }
  rewrite {
    %p = pd_op.relu(pd_op.matmul(%x, pd_op.concat([%w...], pd_op.full() {shape: [1], value: 1.0, dtype: int32})))
    %parts... = builtin.split(pd_op.split(%p, pd_op.full_int_array() {value: [dim(%w, 1)...], dtype: int64},
        pd_op.full() {shape: [1], value: -1.0, dtype: int32}))
    replace %y... with %parts...
  }
}
`)
	res := verifyAll(t, set, shippedRegistry(t))
	r := res["horizontal_matmul_relu"]
	require.NotNil(t, r)
	assert.Equal(t, verify.RuleFailed, r.Status, r.Reason)
	assert.Contains(t, r.Reason, "outputs differ: %y")
	assert.Len(t, r.Witness.Instance.Match.Group, 2)
}
