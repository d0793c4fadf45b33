package paddle

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConstantsByValue: a constant op whose attributes the rule reads as scalars is left out of Paddle's pattern
// (its result an input, checked by a first constraint on its defining op), so that Paddle, which counts the uses
// of inner values, matches it when other ops read it too, as drrc does; one whose shape the rule copies stays in
// the pattern, with the narrowing noted on the class.
func TestConstantsByValue(t *testing.T) {
	code, _, diags := generateSource(t, `
rule by_value {
  match {
    %y = pd_op.scale(%x, pd_op.full() {value: $v}) {bias: 0.0}
  }
  where {
    $v > 1.0
  }
  rewrite {
    replace %y with pd_op.scale(%x, pd_op.full() {shape: [1], value: $v * 2.0, dtype: float32}) {bias: 0.0}
  }
}

rule kept {
  match {
    %y = pd_op.scale(%x, pd_op.full() {shape: $sh, value: $v}) {bias: 0.0}
  }
  rewrite {
    replace %y with pd_op.scale(%x, pd_op.full() {shape: $sh, value: $v, dtype: float32}) {bias: 1.0}
  }
}`, Config{})
	require.False(t, diags.HasErrors(), "%v", diags)
	src := string(code)
	byValue := src[:len(src)/2]
	for _, want := range []string{
		`pat.Tensor("y") = scale(pat.Tensor("x"), pat.Tensor("full_out"));`,
		`const pir::Operation *def = match_ctx.Tensor("full_out").defining_op();`,
		`def->name() == "pd_op.full"`,
		`def->attribute("value").isa<pir::DoubleAttribute>()`,
		`return match_ctx.Tensor("full_out").defining_op()->attribute<pir::DoubleAttribute>("value").data() >`,
		`#include "paddle/pir/include/core/builtin_attribute.h"`,
	} {
		assert.Contains(t, src, want)
	}
	assert.NotContains(t, byValue[:indexOf(byValue, "class KeptPattern")], `pat.Op("pd_op.full"`)
	kept := src[indexOf(src, "class KeptPattern")-400:]
	assert.Contains(t, kept, `pat.Op("pd_op.full"`)
	assert.Contains(t, kept, `Paddle: matches only where nothing outside the pattern reads the pd_op.full "full_out"`)
	include, gxx := headers(t)
	out, err := syntaxCheck(t, gxx, include, code)
	require.NoError(t, err, "%s", out)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return len(s)
}
