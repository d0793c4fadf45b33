package drrcli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPrintIR: mlir-opt's IR printing flags, to standard error or to numbered files (issue 20 item 8).
func TestPrintIR(t *testing.T) {
	dir := t.TempDir()
	prog := write(t, dir, "p.pir", reluProgram)
	rules := write(t, dir, "r.drr", deinplaceRule)
	out := filepath.Join(dir, "out.pir")
	headers := func(errs string) []string {
		var h []string
		for _, l := range strings.Split(errs, "\n") {
			if strings.HasPrefix(l, "// -----// IR Dump") {
				h = append(h, l)
			}
		}
		return h
	}
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"after all", []string{"-print-ir-after-all"}, []string{
			"// -----// IR Dump After rules (pass 1 of 3) //----- //",
			"// -----// IR Dump After dce (pass 2 of 3) //----- //",
			"// -----// IR Dump After inplace (pass 3 of 3) //----- //"}},
		{"after one", []string{"-print-ir-after", "dce"}, []string{
			"// -----// IR Dump After dce (pass 2 of 3) //----- //"}},
		{"before two", []string{"-print-ir-before", "rules,inplace"}, []string{
			"// -----// IR Dump Before rules (pass 1 of 3) //----- //",
			"// -----// IR Dump Before inplace (pass 3 of 3) //----- //"}},
		// Only the rules change the program: relu_ becomes relu; dce finds nothing dead and inplace nothing to do.
		{"after change", []string{"-print-ir-after-change"}, []string{
			"// -----// IR Dump After rules (pass 1 of 3) //----- //"}},
		{"after all that changed", []string{"-print-ir-after-all", "-print-ir-after-change"}, []string{
			"// -----// IR Dump After rules (pass 1 of 3) //----- //"}},
		{"after one that did not change", []string{"-print-ir-after", "dce", "-print-ir-after-change"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"apply", "-rules", rules, "-passes", "rules,dce,inplace", "-stats", "none"}, tt.args...)
			code, _, errs := run(t, "", append(args, prog, "-o", out)...)
			require.Equal(t, exitOK, code, errs)
			assert.Equal(t, tt.want, headers(errs))
		})
	}
	// The dump after the rules is the rewritten program.
	code, _, errs := run(t, "", "apply", "-rules", rules, "-stats", "none", "-print-ir-before", "rules", "-print-ir-after", "rules", prog, "-o", out)
	require.Equal(t, exitOK, code, errs)
	before, after, ok := strings.Cut(errs, "// -----// IR Dump After rules (pass 1 of 1) //----- //\n")
	require.True(t, ok, errs)
	assert.Contains(t, before, `"pd_op.relu_" (%0)`)
	assert.Contains(t, after, `"pd_op.relu" (%0)`)

	// To a folder of numbered files; several programs get a subfolder each.
	dumps := filepath.Join(dir, "dumps")
	code, _, errs = run(t, "", "apply", "-rules", rules, "-passes", "rules,dce", "-print-ir-after-all", "-print-ir-dir", dumps, prog, "-o", out)
	require.Equal(t, exitOK, code, errs)
	assert.Equal(t, []string{"01-after-rules.pir", "02-after-dce.pir"}, mustReadDir(t, dumps))
	data, err := os.ReadFile(filepath.Join(dumps, "01-after-rules.pir"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(data), "// -----// IR Dump After rules (pass 1 of 2) //----- //\n{\n"))
	assert.NotContains(t, errs, "IR Dump")

	write(t, dir, "in/a.pir", reluProgram)
	write(t, dir, "in/sub/b.pir", reluProgram)
	batch := filepath.Join(dir, "batch")
	code, _, errs = run(t, "", "apply", "-rules", rules, "-print-ir-after-all", "-print-ir-dir", batch, filepath.Join(dir, "in"), "-o", filepath.Join(dir, "out"))
	require.Equal(t, exitOK, code, errs)
	assert.FileExists(t, filepath.Join(batch, "a", "01-after-rules.pir"))
	assert.FileExists(t, filepath.Join(batch, "sub", "b", "01-after-rules.pir"))

	code, _, errs = run(t, "", "apply", "-print-ir-dir", batch, prog, "-o", out)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "-print-ir-dir needs -print-ir-after-all")
}
