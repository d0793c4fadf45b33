package drrcli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPerAlternativeCommands: a rule with constraints per alternative (bound) through the commands, on the gentest
// archive's program: explain says which path a constraint rules out and why the others fail, verify passes
// the paths that can match (those with one cast are left out), and gen joins the branches (the code after each
// group of alternatives is written once) and decides bound(…) on the match.
func TestPerAlternativeCommands(t *testing.T) {
	rules, prog := gentestArchive(t, "per_alternative")

	code, out, errs := run(t, "", "explain", "-rules", rules, "-op", "%17", prog) // the first cast alone
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, "rule softmax_mask_casts (")
	assert.Contains(t, out, "constraint bound($up) == bound($down) is false on this path through the alternatives")
	code, out, errs = run(t, "", "explain", "-rules", rules, "-op", "%22", prog) // a pair through float16
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, "$up is (pd_op.DataType)float16; the rule wants float32")
	code, out, errs = run(t, "", "explain", "-rules", rules, "-op", "%13", prog) // no casts
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, "rule softmax_mask_casts ("+rules+":5:6): match")

	code, out, errs = run(t, "", "verify", "-rules", rules) // the two paths that can match, two programs each
	require.Equal(t, exitOK, code, errs+out)
	assert.Regexp(t, `softmax_mask_casts +ok +\S+ +4 *\n`, out)
	code, out, errs = run(t, "", "verify", "-set", "fused_flash_attn")
	require.Equal(t, exitOK, code, errs+out)
	assert.Contains(t, out, "flash_attn_qscale_mask ")
	assert.Contains(t, out, "4 ok, 0 FAILED, 0 SKIPPED")

	code, out, errs = run(t, "", "gen", "-rules", rules, "-pkg", "pa")
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, "switch alt1 {", "the casts around the matmul's operand: straight branches, the code after them inline")
	assert.Regexp(t, `join0 := func\(\) bool \{`, out, "the casts around the softmax's operand: branches with loops call it")
	assert.Contains(t, out, "rt.True(rt.Equal((up != nil), (down != nil))) && // where bound($up) == bound($down)")
	assert.Equal(t, 1, strings.Count(out, "// where bound($up) == bound($down)"), "the constraint is written once")
}
