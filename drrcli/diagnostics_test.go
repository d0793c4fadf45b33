package drrcli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/sample"
)

// TestProgramDiagnostics: program errors print as rule errors do, file:line:col: error:, the source line and a
// caret; errors about an op of a one-line JSON file name its JSON path (issue 20 item 7).
func TestProgramDiagnostics(t *testing.T) {
	dir := t.TempDir()
	bad := write(t, dir, "bad.pir", strings.Replace(reluProgram, `"pd_op.relu_" (%0)`, `"pd_op.relu_" (%7)`, 1))
	want := bad + ":3:27: error: undefined value %7\n" +
		`    (%1) = "pd_op.relu_" (%7) {stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>` + "\n" +
		"                          ^\n"
	for _, cmd := range [][]string{{"check", bad}, {"convert", bad, "-o", "-"}, {"apply", bad}, {"graph", bad}} {
		code, _, errs := run(t, "", cmd...)
		assert.Equal(t, exitFailure, code, cmd)
		assert.Equal(t, want, errs, cmd)
	}
	// Standard input is quoted too.
	code, _, errs := run(t, strings.Replace(reluProgram, `"pd_op.relu_" (%0)`, `"pd_op.relu_" (%7)`, 1), "convert", "-", "-o", "-")
	assert.Equal(t, exitFailure, code)
	assert.Equal(t, strings.Replace(want, bad, "<stdin>", 1), errs)

	// A verifier error about an op of a one-line JSON file: the op's JSON path and a caret under its object.
	js := string(sample.JSON())
	i := strings.Index(js, `{"#":"1.relu"`)
	require.Greater(t, i, 0, "the sample has a relu")
	j := i + strings.Index(js[i:], `"I":[`) + len(`"I":[`)
	broken := js[:j] + `{"%":1},` + js[j:] // relu gets a second operand
	model := write(t, dir, "model.json", broken)
	code, _, errs = run(t, "", "check", model)
	assert.Equal(t, exitFailure, code)
	lines := strings.Split(errs, "\n")
	require.GreaterOrEqual(t, len(lines), 3, errs)
	assert.Regexp(t, `^`+model+`:1:\d+: error: /program/regions/0/blocks/0/ops/\d+: %\d+ = pd_op\.relu: `, lines[0])
	caret := strings.IndexRune(lines[2], '^')
	require.GreaterOrEqual(t, caret, 0)
	assert.True(t, strings.HasPrefix(string([]rune(lines[1])[caret:]), `{"#":"1.relu"`), "the caret is under the op: %s", errs)
}
