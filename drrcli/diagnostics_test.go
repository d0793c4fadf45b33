package drrcli

import (
	"fmt"
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

// TestDiagnosticLimit: a program with an error in every op prints -max-diagnostics of them (50 by default), then
// how many more there are; -max-diagnostics 0 prints all. Rule files are limited the same way.
func TestDiagnosticLimit(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(strings.SplitAfter(reluProgram, "\n")[0] + strings.SplitAfter(reluProgram, "\n")[1])
	for i := range 120 { // relu takes one operand: each of these is an error of the verifier
		fmt.Fprintf(&b, "    (%%r%d) = \"pd_op.relu\" (%%0, %%0) {} : (builtin.tensor<4xf32>, builtin.tensor<4xf32>) -> builtin.tensor<4xf32>\n", i)
	}
	b.WriteString("}\n")
	bad := write(t, dir, "bad.pir", b.String())
	count := func(errs string) int { return strings.Count(errs, ": error: ") }
	tests := []struct {
		args  []string
		shown int
		more  string
	}{
		{[]string{"check", bad}, 50, "drrc: 70 more diagnostics not shown (-max-diagnostics 0 shows all)\n"},
		{[]string{"check", "-max-diagnostics", "3", bad}, 3, "drrc: 117 more diagnostics not shown (-max-diagnostics 0 shows all)\n"},
		{[]string{"check", "-max-diagnostics", "0", bad}, 120, ""},
	}
	for _, tt := range tests {
		code, _, errs := run(t, "", tt.args...)
		assert.Equal(t, exitFailure, code, tt.args)
		assert.Equal(t, tt.shown, count(errs), tt.args)
		if tt.more == "" {
			assert.NotContains(t, errs, "more diagnostics", tt.args)
		} else {
			assert.True(t, strings.HasSuffix(errs, tt.more), "%v: %s", tt.args, errs[max(0, len(errs)-200):])
		}
	}

	var rules strings.Builder
	for i := range 80 {
		fmt.Fprintf(&rules, "rule r%d {\n  match { %%y = pd_op.nosuch%d(%%x) }\n  rewrite { replace %%y with %%x }\n}\n", i, i)
	}
	rf := write(t, dir, "bad.drr", rules.String())
	code, _, errs := run(t, "", "check", "-max-diagnostics", "10", rf)
	assert.Equal(t, exitFailure, code)
	assert.Equal(t, 10, count(errs), errs)
	assert.True(t, strings.HasSuffix(errs, "drrc: 70 more diagnostics not shown (-max-diagnostics 0 shows all)\n"), errs)
}
