package drrcli

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOptionalStatementCommands: a rule with an optional statement (`%c = pd_op.cast(%x)?`) through the commands, on
// the gentest archive's program: explain says a reader of %c read another value, verify passes both forms, the Paddle
// export reads the cast's result wherever the rule reads %c on the path with the cast, and -partial writes the paths
// Paddle can express.
func TestOptionalStatementCommands(t *testing.T) {
	rules, prog := gentestArchive(t, "optional_statements")

	code, out, errs := run(t, "", "explain", "-rules", rules, "-op", "%31", prog) // the numerator reads x, not the cast
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, "operand 1 of pd_op.multiply %29 is %1; the rule wants %c = %22")
	code, out, errs = run(t, "", "explain", "-rules", rules, "-op", "%11", prog) // the float32 form
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, "rule rms_norm ("+rules+":3:6): match")

	code, out, errs = run(t, "", "verify", "-rules", rules)
	require.Equal(t, exitOK, code, errs+out)
	assert.Regexp(t, `rms_norm +ok +\S+ +4 *\n`, out)
	assert.Contains(t, out, "3 ok, 0 FAILED, 0 SKIPPED")

	code, out, errs = run(t, "", "gen", "-lang", "paddle", "-partial", "-rules", rules, "-o", "-")
	require.Equal(t, exitOK, code, errs)
	// square_cast's path with the cast reads the cast twice, which Paddle's matcher never matches; its path without
	// it is written.
	assert.Contains(t, errs, "rule square_cast (path 1 through its alternatives) cannot be exported to Paddle: pd_op.multiply reads the inner value")
	assert.Contains(t, out, "class SquareCastAlt2Pattern")
	assert.NotContains(t, out, "class SquareCastAlt1Pattern")
	assert.Contains(t, out, `pat.Tensor("n") = multiply_7(pat.Tensor("r"), pat.Tensor("cast_0_out"));`)
	assert.Contains(t, out, `pat.Tensor("n") = multiply_6(pat.Tensor("r"), pat.Tensor("x"));`)
}
