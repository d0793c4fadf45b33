package drrcli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/internal/sample"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pdiparams"
	"github.com/pirdrr/drr/ir/pirfile"
)

// TestApplyWeights: a model and its .pdiparams go in, the inference pipeline and fold_constants run, and the fused
// model comes out with the parameter file that goes with it: no arithmetic left on weights, and the pair computes
// what the original pair computes.
func TestApplyWeights(t *testing.T) {
	dir := t.TempDir()
	model := write(t, dir, "in/inference.json", string(sample.JSON()))
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	orig, _, err := pirfile.Load(ctx, model)
	require.NoError(t, err)
	_, err = feeds.FillRandomWeights(orig, 7, feeds.Options{})
	require.NoError(t, err)
	require.NoError(t, pdiparams.WriteFile(filepath.Join(dir, "in/inference.pdiparams"), orig))

	out := filepath.Join(dir, "out/inference.json")
	code, _, errs := run(t, "", "apply", "-passes", "inference,fold_constants", "-weights", "auto", "-weights-out", "auto", model, "-o", out)
	require.Equal(t, exitOK, code, errs)
	assert.Regexp(t, `fold_constants +[1-9][0-9]* changes`, errs)

	fused, _, err := pirfile.Load(ctx, out)
	require.NoError(t, err)
	require.NoError(t, pdiparams.ReadFile(filepath.Join(dir, "out/inference.pdiparams"), fused))
	for op := range fused.Walk() {
		switch op.Name() {
		case "pd_op.sqrt", "pd_op.sqrt_", "pd_op.divide", "pd_op.batch_norm", "pd_op.batch_norm_":
			t.Errorf("%s left in the fused model", op.Name())
		}
	}
	rep, err := compare.Programs(orig, fused, compare.Options{Runs: 2, RelTol: 1e-5})
	require.NoError(t, err, "%v", rep)

	// verify reads the same files.
	code, stdout, errs := run(t, "", "verify", "-passes", "inference,fold_constants", "-weights", "auto", "-runs", "1", model)
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, stdout, "weight arithmetic left after the passes: none")

	// Weights that do not fit the model: a clear error, no output.
	bad := write(t, dir, "bad.pdiparams", "not weights")
	out2 := filepath.Join(dir, "out2/inference.json")
	code, _, errs = run(t, "", "apply", "-weights", bad, model, "-o", out2)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, bad+": offset 0: parameter ")
	_, err = os.Stat(out2)
	assert.True(t, os.IsNotExist(err))

	// One weights file cannot serve several programs.
	code, _, errs = run(t, "", "apply", "-weights", bad, model, model, "-o", filepath.Join(dir, "several"))
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errs, "-weights auto")
}
