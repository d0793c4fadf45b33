package drrcli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// growRule rewrites relu into two relus: it fires at every relu it creates, forever.
const growRule = "rule relu_grow { match { %y = pd_op.relu(%x) } rewrite { replace %y with pd_op.relu(pd_op.relu(%x)) } }\n"

// TestApplyRewriteLimit: a rule pass that reaches the rewrite limit, the default or -max-rewrites, fails: exit 1,
// nothing written, the rule that kept firing named; -keep-going writes the result with a warning (issue 26 item 4).
func TestApplyRewriteLimit(t *testing.T) {
	dir := t.TempDir()
	rules := write(t, dir, "grow.drr", growRule)
	prog := write(t, dir, "p.pir", plainReluProgram)
	out := filepath.Join(dir, "out.pir")
	for _, limit := range [][]string{nil, {"-max-rewrites", "100"}, {"-max-iterations", "1"}} {
		args := append(append([]string{"apply", "-rules", rules}, limit...), prog, "-o", out)
		code, _, errs := run(t, "", args...)
		assert.Equal(t, exitFailure, code, errs)
		assert.Regexp(t, `pass rules stopped at max (rewrites|iterations) \(\d+\) before converging: rule relu_grow kept firing; `+
			`the program is not written`, errs)
		assert.NoFileExists(t, out)
	}
	// The result is judged while it is printed: an output file that exists stays as it was, and the printed
	// temporary file is gone.
	write(t, dir, "out.pir", "old\n")
	code, _, errs := run(t, "", "apply", "-max-rewrites", "100", "-rules", rules, prog, "-o", out)
	assert.Equal(t, exitFailure, code, errs)
	old, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, "old\n", string(old))
	left, err := filepath.Glob(filepath.Join(dir, ".out.pir*"))
	require.NoError(t, err)
	assert.Empty(t, left, "no temporary file is left")
	code, _, errs = run(t, "", "apply", "-keep-going", "-max-rewrites", "100", "-rules", rules, prog, "-o", out)
	assert.Equal(t, exitOK, code, errs)
	assert.Contains(t, errs, "warning: pass rules stopped at max rewrites (100) before converging: rule relu_grow kept firing; written anyway (-keep-going)")
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Contains(t, string(got), `"pd_op.relu"`)
}
