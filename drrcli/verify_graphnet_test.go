package drrcli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
)

// verifyGraphNetStride samples the GraphNet graphs for TestVerifyGraphNet: every 160th graph in path order (6 of
// 811: ALBERT, Co-DINO, Mask-RT-DETR, PP-OCRv3 rec, PicoDet, SVTRv2; about 25 s), every 400th under the race
// detector, which slows the interpreter's kernels about tenfold (3: ALBERT, MobileNetV4, SVTRv2). Verification is
// the costliest thing a test can do with a graph (two evaluations, at the captured batch size when the graph bakes
// it in); PIRDRR_CORPUS=full verifies all 811.
var verifyGraphNetStride = 160

func init() {
	if raceEnabled {
		verifyGraphNetStride = 400
	}
}

// TestVerifyGraphNet is issue 14's done-when test over the GraphNet graphs: drrc verify with the default pipeline
// (weights drawn from weight_meta.py's statistics, inputs from input_meta.py, one run) passes on at least 95% of
// them. Every graph that does not pass is logged with its reason, one line each.
func TestVerifyGraphNet(t *testing.T) {
	graphs := corpus.RequireGraphs(t, verifyGraphNetStride)
	start := time.Now()
	var failures []string
	for _, g := range graphs {
		code, out, errs := run(t, "", "verify", "-runs", "1", g.Dir)
		if code != exitOK {
			failures = append(failures, fmt.Sprintf("%s: %s", g.Rel, verifyFailure(out, errs)))
		}
	}
	passed := len(graphs) - len(failures)
	t.Logf("drrc verify passed on %d of %d GraphNet graphs (%.1f%%) in %v", passed, len(graphs),
		100*float64(passed)/float64(len(graphs)), time.Since(start).Round(time.Second))
	for _, f := range failures {
		t.Log(f)
	}
	assert.GreaterOrEqual(t, float64(passed), 0.95*float64(len(graphs)), "drrc verify passes on 95%% of the graphs")
}

// verifyFailure returns the line of drrc verify's output that says why a program did not verify: the first
// error, or the first output row that is not ok.
func verifyFailure(out, errs string) string {
	for _, line := range strings.Split(errs, "\n") {
		if strings.Contains(line, "error") {
			return strings.TrimSpace(line)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "FAIL") {
			return strings.TrimSpace(line)
		}
	}
	if s := strings.TrimSpace(errs); s != "" {
		return strings.SplitN(s, "\n", 2)[0]
	}
	return "exit status without a reason printed"
}

// TestVerifyRebatchLines: a graph captured at batch 2 is compared at batch 1 and drrc says so; when the rebatched
// programs cannot be evaluated (a reshape to [-1, 8] of what is one row of 4 at batch 1), drrc says why the
// captured batch decided.
func TestVerifyRebatchLines(t *testing.T) {
	graph := filepath.Join(tinySample(t), "subgraph_10")
	code, out, errs := run(t, "", "verify", "-runs", "1", graph)
	assert.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, "  at batch 1 instead of the captured 2: 1 input(s) and 0 constant(s) rebatched\n")
	assert.NotContains(t, out, "did not stand")

	model, err := os.ReadFile(filepath.Join(graph, "model.py"))
	require.NoError(t, err)
	reshaped := strings.Replace(string(model), "        return relu_0", `        # pd_op.full_int_array: (2xi64) <- ()
        full_int_array_0 = [-1, 8]

        # pd_op.reshape: (1x8xf32) <- (2x4xf32, 2xi64)
        reshape_0 = paddle._C_ops.reshape(relu_0, full_int_array_0)
        del relu_0, full_int_array_0

        return reshape_0`, 1)
	require.NotEqual(t, string(model), reshaped)
	write(t, graph, "model.py", reshaped)
	code, out, errs = run(t, "", "verify", "-runs", "1", graph)
	assert.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, "  at the captured batch 2; at batch 1 the comparison did not stand: before: evaluating "+
		"pd_op.reshape at "+filepath.Join(graph, "model.py")+":25: tensor: reshape: cannot reshape [1 4] (4 elements) to [-1 8]\n")
	assert.Contains(t, out, "fetch_name_0  [1 8]")
}
