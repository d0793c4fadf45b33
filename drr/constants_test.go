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

// TestUnregisteredNativePointsToPlugins: a native the binary has no Go function for is an error at its declaration
// that says where natives come from (issue 29 item 4).
func TestUnregisteredNativePointsToPlugins(t *testing.T) {
	const src = `
native constraint is_channel_multiple(%v: value, $n: i64)

/// A relu of a tensor whose channels are a multiple of 8.
rule relu8 {
  match {
    %y = pd_op.relu(%x)
  }
  where {
    is_channel_multiple(%x, 8)
  }
  rewrite {
    replace %y with %x
  }
}
`
	_, msgs := checkSrc(t, src, CheckOptions{Natives: func(string, bool) bool { return false }})
	require.Len(t, msgs, 1)
	assert.Contains(t, msgs[0], "t.drr:2:19: error: native constraint is_channel_multiple is not registered")
	assert.Contains(t, msgs[0], "docs/plugins.md")
	_, msgs = checkSrc(t, src, CheckOptions{Natives: func(name string, _ bool) bool { return name == "is_channel_multiple" }})
	assert.Empty(t, msgs)
}
