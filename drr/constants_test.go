package drr

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConstantsAreShared: the results of ConstantLike pattern ops (full, full_int_array) are exempt from closure
// (language.md §8.1), other internal values are not.
func TestConstantsAreShared(t *testing.T) {
	const src = `
/// scale(relu(x), v) with the factor named by value.
rule scaled_relu {
  match {
    %r = pd_op.relu(%x)
    %y = pd_op.scale(%r, pd_op.full() {value: $v}) {bias: 0.0}
    %z = pd_op.reshape(%y, pd_op.full_int_array() {value: $s})
  }
  where {
    $v > 0 && len($s) > 0
  }
  rewrite {
    replace %z with pd_op.reshape(pd_op.relu(pd_op.scale(%x, pd_op.full() {shape: [1], value: $v})),
        pd_op.full_int_array() {value: $s})
  }
}
`
	set, msgs := checkSrc(t, src, CheckOptions{})
	require.Empty(t, msgs)
	p := set.Rules[0].Pattern
	shared := map[string]bool{}
	for _, op := range p.Ops {
		for _, r := range op.Results {
			if r.Value >= 0 {
				shared[op.Name] = p.Values[r.Value].Shared
			}
		}
	}
	assert.Equal(t, map[string]bool{"pd_op.relu": false, "pd_op.full": true, "pd_op.full_int_array": true,
		"pd_op.scale": false, "pd_op.reshape": false}, shared)
}
