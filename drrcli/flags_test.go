package drrcli

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestBadCounts: negative counts and sizes, a zero batch and a shape for an input the program does not have are
// usage errors, not ignored (issue 26 items 7 and 10).
func TestBadCounts(t *testing.T) {
	dir := t.TempDir()
	prog := write(t, dir, "p.pir", reluProgram)
	out := filepath.Join(dir, "out.pir")
	for _, args := range [][]string{
		{"graph", "-depth", "-5", "-focus", "%1", prog},
		{"apply", "-max-rewrites", "-5", prog, "-o", out},
		{"apply", "-max-iterations", "-1", prog, "-o", out},
		{"apply", "-j", "-3", prog, "-o", out},
		{"verify", "-batch", "0", prog},
		{"verify", "-batch", "-5", prog},
		{"verify", "-size", "0", prog},
		{"verify", "-runs", "-1", prog},
		{"verify", "-j", "-2", "-set", "inplace"},
		{"verify", "-atol", "-1", prog},
		{"serve", "-run-time", "-1s"},
		{"serve", "-max-upload", "0"},
	} {
		code, _, errs := run(t, "", args...)
		assert.Equal(t, exitUsage, code, "%v: %s", args, errs)
		assert.NoFileExists(t, out)
	}
	code, stdout, errs := run(t, "", "verify", "-input", "nosuch=1x30", prog)
	assert.Equal(t, exitUsage, code, stdout+errs)
	assert.Contains(t, errs, "-input nosuch: no program has such an input (the inputs: x)")
	assert.Empty(t, stdout, "nothing verified")
	code, stdout, errs = run(t, "", "verify", "-input", "x=4", prog)
	assert.Equal(t, exitOK, code, stdout+errs)
	// Of several programs, one that has the input is enough; none is the same usage error, after the runs.
	write(t, dir, "more/a.pir", reluProgram)
	write(t, dir, "more/b.pir", reluProgram)
	code, stdout, errs = run(t, "", "verify", "-input", "x=4", filepath.Join(dir, "more"))
	assert.Equal(t, exitOK, code, stdout+errs)
	code, stdout, errs = run(t, "", "verify", "-input", "y=4", filepath.Join(dir, "more"))
	assert.Equal(t, exitUsage, code, stdout+errs)
	assert.Contains(t, errs, "-input y: no program has such an input (the inputs: x)")
}
