package verify_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/verify"
)

// TestVerifyEveryPath: each path through a rule's alternatives is instantiated — a value an op reads twice
// (multiply(%x, %x)) is one input — and a path no program could be built for is named in an ok verdict's reason
// rather than passing unseen. Paths a bound(…) constraint rules out are not paths at all.
func TestVerifyEveryPath(t *testing.T) {
	tests := []struct {
		name, src, reason string
		programs          int
	}{
		{"same value twice", `
rule r {
  match {
    %v = pd_op.scale(pd_op.multiply(%x, %x) | pd_op.pow(%x) {y: 2.0}, pd_op.full() {value: 1.0}) {bias: 1.0,
        bias_after_scale: true}
    %y = pd_op.exp(pd_op.log(%v))
  }
  where { dtype(%x) == float32 }
  rewrite { replace %y with %v }
}`, "", 4},
		{"a path without programs", `
rule r {
  match { %y = pd_op.sqrt(pd_op.square(pd_op.cast(%x) {dtype: $d}?)) }
  where {
    dtype(%x) == float32
    !bound($d) || $d == float32 && rank(%x) == 2 && rank(%x) == 3
  }
  rewrite { replace %y with pd_op.abs(%x) }
}`, "1 of 2 paths through the alternatives not instantiated (1): could not satisfy", 2},
		{"bound rules paths out", `
rule r {
  match { %y = pd_op.sqrt(pd_op.square(pd_op.cast(%x) {dtype: $d}?)) }
  where {
    dtype(%x) == float32
    !bound($d) || $d == float32
  }
  rewrite { replace %y with pd_op.abs(%x) }
}`, "", 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			set := loadRules(t, newCtx(t), tc.src)
			res := verifyAll(t, set, nil)["r"]
			require.NotNil(t, res)
			assert.Equal(t, verify.RuleOK, res.Status, res.Reason)
			if tc.reason == "" {
				assert.Empty(t, res.Reason)
			} else {
				assert.Contains(t, res.Reason, tc.reason)
			}
			var paths []string
			for _, v := range res.Variants {
				paths = append(paths, v.Instance.String())
			}
			assert.Len(t, res.Variants, tc.programs, "%v", paths)
		})
	}
}
