package drrcli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"
)

// TestGroupRuleCommands: a rule with a variadic group through the commands: check counts its instances, explain
// reports per instance (the count that does not fit the list, the element that is no relu), apply fires the
// instances whose count fits, and verify passes every instance. The program is the gentest archive's.
func TestGroupRuleCommands(t *testing.T) {
	rules, prog := gentestArchive(t, "groups")

	code, out, errs := run(t, "", "check", rules)
	require.Equal(t, exitOK, code, errs+out)

	code, out, errs = run(t, "", "explain", "-rules", rules, "-op", "%19", prog)
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, "rule concat_of_relus[n=2] (")
	assert.Contains(t, out, "builtin.combine %17 has 3 operands; the rule wants 2")
	assert.Contains(t, out, "operand 1 of builtin.combine %17 is defined by pd_op.abs; the rule wants pd_op.relu")

	outFile := filepath.Join(filepath.Dir(prog), "out.pir")
	code, _, errs = run(t, "", "apply", "-rules", rules, "-o", outFile, prog)
	require.Equal(t, exitOK, code, errs)
	assert.Regexp(t, `concat_of_relus +applied 2 of 2 matched`, errs)
	got, err := os.ReadFile(outFile)
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(got), `= "pd_op.relu" (%5)`)+strings.Count(string(got), `= "pd_op.relu" (%9)`),
		"the relus of the two concats that fired:\n%s", got)

	code, out, errs = run(t, "", "verify", "-rules", rules)
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, "3 ok, 0 FAILED, 0 SKIPPED")
}

// gentestArchive writes the rule file and the input program of rulegen/internal/gentest/testdata/NAME.txtar to a
// temporary directory and returns their paths (NAME.drr and in.pir).
func gentestArchive(t *testing.T, name string) (rules, prog string) {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("..", "rulegen", "internal", "gentest", "testdata", name+".txtar"))
	require.NoError(t, err)
	dir := t.TempDir()
	for _, f := range ar.Files {
		switch f.Name {
		case "rules.drr":
			rules = write(t, dir, name+".drr", string(f.Data))
		case "input.pir":
			prog = write(t, dir, "in.pir", string(f.Data))
		}
	}
	require.NotEmpty(t, rules)
	require.NotEmpty(t, prog)
	return rules, prog
}
