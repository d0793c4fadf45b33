package drrcli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// overflowRule computes an attribute that does not fit its kind (i32): every rewrite of it fails.
const overflowRule = `rule relu_to_softmax {
  match { %y = pd_op.relu(%x) }
  rewrite { replace %y with pd_op.softmax(%x) {axis: rank(%x) * 3000000000} }
}
`

// plainReluProgram is reluProgram with relu for relu_.
var plainReluProgram = strings.Replace(reluProgram, `"pd_op.relu_"`, `"pd_op.relu"`, 1)

// TestFailedRewrites: a run whose rewrites failed exits 1 and writes nothing, unless -keep-going (issue 20 item 4).
func TestFailedRewrites(t *testing.T) {
	dir := t.TempDir()
	rules := write(t, dir, "overflow.drr", overflowRule)
	prog := write(t, dir, "p.pir", plainReluProgram)
	out := filepath.Join(dir, "out.pir")
	code, _, errs := run(t, "", "apply", "-rules", rules, prog, "-o", out)
	assert.Equal(t, exitFailure, code, errs)
	assert.Contains(t, errs, prog+": 1 rewrite failed (first: rule relu_to_softmax: pd_op.softmax: attribute axis: "+
		"3000000000 does not fit in i32")
	assert.Contains(t, errs, "-keep-going writes it anyway")
	assert.Contains(t, errs, "relu_to_softmax  applied 0 of 1 matched (1 tried), 1 failed")
	assert.NoFileExists(t, out)

	code, _, errs = run(t, "", "apply", "-keep-going", "-rules", rules, prog, "-o", out)
	assert.Equal(t, exitOK, code, errs)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Contains(t, string(got), `"pd_op.relu"`, "the program is written unchanged")
	assert.Contains(t, errs, "1 failed")

	// JSON statistics count the failures; in a batch the failing program is FAILED and the others are written.
	code, _, errs = run(t, "", "apply", "-stats", "json", "-rules", rules, prog, "-o", out)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, `"failed_rewrites": 1`)
	write(t, dir, "in/a.pir", plainReluProgram)
	write(t, dir, "in/b.pir", `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[true]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.fetch" (%0) {col:(Int32)0,name:"out",persistable:[true],stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
}
`)
	code, _, errs = run(t, "", "apply", "-rules", rules, filepath.Join(dir, "in"), "-o", filepath.Join(dir, "out"))
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "1 of 2 programs ok")
	assert.NoFileExists(t, filepath.Join(dir, "out", "a.pir"))
	assert.FileExists(t, filepath.Join(dir, "out", "b.pir"))
}
