package drrcli

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// convProgram is a convolution, a batch norm and a relu on an input of 1x3x8x8 (a weight-only batch norm fold
// target).
const convProgram = `{
    (%0) = "builtin.parameter" () {parameter_name:"w"} : () -> builtin.tensor<4x3x3x3xf32>
    (%1) = "builtin.parameter" () {parameter_name:"mean"} : () -> builtin.tensor<4xf32>
    (%2) = "builtin.parameter" () {parameter_name:"var"} : () -> builtin.tensor<4xf32>
    (%3) = "builtin.parameter" () {parameter_name:"scale"} : () -> builtin.tensor<4xf32>
    (%4) = "builtin.parameter" () {parameter_name:"bias"} : () -> builtin.tensor<4xf32>
    (%5) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1,3,8,8],stop_gradient:[true]} : () -> builtin.tensor<1x3x8x8xf32>
    (%6) = "pd_op.conv2d" (%5, %0) {data_format:"NCHW",dilations:[(Int32)1,(Int32)1],groups:(Int32)1,padding_algorithm:"EXPLICIT",paddings:[(Int32)1,(Int32)1],stop_gradient:[false],strides:[(Int32)1,(Int32)1]} : (builtin.tensor<1x3x8x8xf32>, builtin.tensor<4x3x3x3xf32>) -> builtin.tensor<1x4x8x8xf32>
    (%7, %8, %9, %10, %11, %12) = "pd_op.batch_norm_" (%6, %1, %2, %3, %4) {data_format:"NCHW",epsilon:(Float)1e-05,is_test:true,momentum:(Float)0.9,stop_gradient:[false,false,false,false,false,false],trainable_statistics:false,use_global_stats:true} : (builtin.tensor<1x4x8x8xf32>, builtin.tensor<4xf32>, builtin.tensor<4xf32>, builtin.tensor<4xf32>, builtin.tensor<4xf32>) -> builtin.tensor<1x4x8x8xf32>, builtin.tensor<4xf32>, builtin.tensor<4xf32>, builtin.tensor<4xf32>, builtin.tensor<4xf32>, builtin.tensor<-1xu8>
    (%13) = "pd_op.relu" (%7) {stop_gradient:[false]} : (builtin.tensor<1x4x8x8xf32>) -> builtin.tensor<1x4x8x8xf32>
    (%14) = "pd_op.fetch" (%13) {col:(Int32)0,name:"out",persistable:[true],stop_gradient:[false]} : (builtin.tensor<1x4x8x8xf32>) -> builtin.tensor<1x4x8x8xf32>
}
`

// TestCostProgram: the figures and the per-op-type table of one program; -json carries the same.
func TestCostProgram(t *testing.T) {
	dir := t.TempDir()
	prog := write(t, dir, "conv.pir", convProgram)
	code, out, errs := run(t, "", "cost", prog)
	require.Equal(t, exitOK, code, errs)
	// conv2d: 2·(4·8·8)·3·3·3 = 13,824; batch norm 4 per element of 256; relu 256.
	for _, want := range []string{
		prog + ": cost per inference on a100 (dynamic dims as 1)",
		"runtime ops    3\n", "kernels        3\n", "FLOPs          15.1 kFLOP\n",
		"pd_op.conv2d ", "pd_op.batch_norm_ ", "pd_op.relu ",
	} {
		assert.Contains(t, out, want)
	}
	code, out, errs = run(t, "", "cost", "-json", prog)
	require.Equal(t, exitOK, code, errs)
	var res costResult
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	require.NotNil(t, res.After)
	assert.Nil(t, res.Before, "no passes: the program's figures are After")
	assert.Equal(t, int64(13824+1024+256), res.After.FLOPs)
	assert.Equal(t, 3, res.After.Kernels)
	require.NotEmpty(t, res.TypesAfter)
	assert.Equal(t, "pd_op.conv2d", res.TypesAfter[0].Op, "the costliest kind first")
}

// TestCostPasses: with -passes the figures before → after and what each pass changed; the batch-norm fold moves
// the weight arithmetic to load time and the runtime ops and kernels fall.
func TestCostPasses(t *testing.T) {
	dir := t.TempDir()
	prog := write(t, dir, "conv.pir", convProgram)
	code, out, errs := run(t, "", "cost", "-passes", "conv_bn_relu", prog)
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, "conv_bn_relu  3 rewrites: runtime ops 3 → 1, load-time ops 0 → 8, kernels 3 → 1,")
	assert.Contains(t, out, "  runtime ops             3 → 1\n")
	assert.Contains(t, out, "pd_op.fused_conv2d_add_act")

	code, out, errs = run(t, "", "cost", "-json", "-passes", "conv_bn_relu", prog)
	require.Equal(t, exitOK, code, errs)
	var res costResult
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	require.NotNil(t, res.Before)
	require.Len(t, res.Passes, 1)
	assert.Equal(t, 3, res.Before.RuntimeOps)
	assert.Equal(t, 1, res.After.RuntimeOps)
	assert.Equal(t, res.After, res.Passes[0].After)
	var fold bool
	for _, r := range res.Passes[0].Rules {
		if r.Rule == "conv2d_bn_fold" {
			fold = true
			assert.Equal(t, 1, r.Applied)
			require.NotEmpty(t, r.Instances, "a family rule lists its instances")
			sum := 0
			for _, inst := range r.Instances {
				sum += inst.Applied
			}
			assert.Equal(t, 1, sum)
		}
	}
	assert.True(t, fold)
}

// TestCostDiff: two programs compared, the time saved as an interval (launches alone – launches and bytes).
func TestCostDiff(t *testing.T) {
	dir := t.TempDir()
	before := write(t, dir, "conv.pir", convProgram)
	after := filepath.Join(dir, "fused.pir")
	code, _, errs := run(t, "", "apply", "-stats", "none", "-set", "conv_bn_relu", before, "-o", after)
	require.Equal(t, exitOK, code, errs)
	code, out, errs := run(t, "", "cost", "-diff", before, after)
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, before+" → "+after+": cost per inference on a100")
	assert.Contains(t, out, "  kernels                 3 → 1\n")
	assert.Contains(t, out, "est. time saved per inference: ")
	assert.Contains(t, out, "pd_op.batch_norm_")

	code, out, errs = run(t, "", "cost", "-diff", "-json", before, after)
	require.Equal(t, exitOK, code, errs)
	var res costResult
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	require.NotNil(t, res.Saved)
	// Two launches saved (1 µs each on the A100 profile) at least; the bytes of the intermediates on top at the
	// upper end.
	assert.InDelta(t, 2e-6, res.Saved.Low, 1e-7)
	assert.Greater(t, res.Saved.High, res.Saved.Low)
}

// TestCostSample: a GraphNet sample's figures are its graphs' sums, each listed.
func TestCostSample(t *testing.T) {
	s := tinySample(t)
	code, out, errs := run(t, "", "cost", s)
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, s+": 2 programs")
	assert.Contains(t, out, "subgraph_2")
	assert.Contains(t, out, "subgraph_10")
	assert.Contains(t, out, "the sum of its 2 programs, cost per inference on a100")

	code, out, errs = run(t, "", "cost", "-json", s)
	require.Equal(t, exitOK, code, errs)
	var res costResult
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	require.Len(t, res.Subgraphs, 2)
	sum := res.Subgraphs[0].After.Add(*res.Subgraphs[1].After)
	assert.Equal(t, sum, *res.After)
}

// TestCostErrors: bad flags are usage errors; a program that does not read is an error with its position and
// nothing else is printed for it.
func TestCostErrors(t *testing.T) {
	dir := t.TempDir()
	prog := write(t, dir, "conv.pir", convProgram)
	for _, args := range [][]string{
		{"cost"},
		{"cost", "-device", "a200", prog},
		{"cost", "-dim", "0", prog},
		{"cost", "-diff", prog},
		{"cost", "-diff", "-passes", "inference", prog, prog},
		{"cost", "-passes", "nosuch", prog},
	} {
		code, _, errs := run(t, "", args...)
		assert.NotEqual(t, exitOK, code, "%v", args)
		assert.NotEmpty(t, errs, "%v", args)
	}
	bad := write(t, dir, "bad.pir", "{\n    (%0) = \"pd_op.relu\" (%9) {} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>\n}\n")
	code, out, errs := run(t, "", "cost", bad)
	assert.Equal(t, exitFailure, code)
	assert.Empty(t, out)
	assert.Contains(t, errs, bad+":2:")
}

// TestCostFamilies lists the families with their ops.
func TestCostFamilies(t *testing.T) {
	code, out, _ := run(t, "", "cost", "-families")
	require.Equal(t, exitOK, code)
	for _, want := range []string{"conv: ", "pd_op.fused_conv2d_add_act", "attention: ", "pd_op.flash_attn", "view: ", "pd_op.reshape"} {
		assert.Contains(t, out, want)
	}
}

// TestApplyStatsCost: apply's statistics carry the figures before → after, per pass; a sample folder's JSON record
// sums its graphs and lists them.
func TestApplyStatsCost(t *testing.T) {
	dir := t.TempDir()
	prog := write(t, dir, "conv.pir", convProgram)
	code, _, errs := run(t, "", "apply", "-set", "conv_bn_relu", prog, "-o", filepath.Join(dir, "out.pir"))
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, errs, "      → runtime ops 3 → 1, load-time ops 0 → 8, kernels 3 → 1,")
	assert.Contains(t, errs, "  cost per inference on a100 (dynamic dims as 1):\n")
	assert.Contains(t, errs, "      kernels                 3 → 1\n")

	code, _, errs = run(t, "", "apply", "-device", "t4", "-set", "conv_bn_relu", prog, "-o", filepath.Join(dir, "out.pir"))
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, errs, "cost per inference on t4")
	code, _, errs = run(t, "", "apply", "-device", "nosuch", prog)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errs, `unknown device "nosuch"`)

	s := tinySample(t)
	out := filepath.Join(dir, "sample-out")
	code, _, errs = run(t, "", "apply", "-stats", "json", "-set", "inplace", s, "-o", out)
	require.Equal(t, exitOK, code, errs)
	var res applyResult
	require.NoError(t, json.Unmarshal([]byte(errs[strings.Index(errs, "{"):]), &res), errs)
	assert.Equal(t, s, res.Program.Program)
	require.Len(t, res.Subgraphs, 2)
	require.NotNil(t, res.Before)
	assert.Equal(t, res.Subgraphs[0].Before.Ops+res.Subgraphs[1].Before.Ops, res.Before.Ops)
	assert.Equal(t, res.Subgraphs[0].After.RuntimeOps+res.Subgraphs[1].After.RuntimeOps, res.After.RuntimeOps)
	assert.Contains(t, res.Subgraphs[0].Program.Program, "subgraph_")
	assert.NotEmpty(t, res.Subgraphs[0].Output)

	code, _, errs = run(t, "", "apply", "-set", "inplace", s, "-o", filepath.Join(dir, "sample-out2"))
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, errs, s+": the sum of its 2 graphs\n")
}

// TestVerifyCost: verify prints the figures beside the verdict.
func TestVerifyCost(t *testing.T) {
	dir := t.TempDir()
	prog := write(t, dir, "conv.pir", convProgram)
	code, out, errs := run(t, "", "verify", "-passes", "conv_bn_relu", "-runs", "1", prog)
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, "  cost per inference on a100 (dynamic dims as 1): ops 10 → 19, runtime ops 3 → 1, load-time ops 0 → 8, kernels 3 → 1,")
	assert.Contains(t, out, "ok: 1 output(s) agree")
}

// TestDefaultRunCost: drrc without arguments shows the sample's runtime ops and estimated time falling, and the
// program no longer growing (issue 32): with the sample's weights the inference pipeline folds the batch-norm
// arithmetic.
func TestDefaultRunCost(t *testing.T) {
	code, _, errs := run(t, "")
	require.Equal(t, exitOK, code, errs)
	i := strings.Index(errs, "cost per inference on a100")
	require.GreaterOrEqual(t, i, 0, errs)
	var in, out, rtIn, rtOut int
	var tIn, tOut float64
	for _, l := range strings.Split(errs[i:], "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 4 && f[0] == "ops":
			in, out = atoi(t, f[1]), atoi(t, f[3])
		case len(f) == 5 && f[0] == "runtime" && f[1] == "ops":
			rtIn, rtOut = atoi(t, f[2]), atoi(t, f[4])
		case len(f) == 7 && f[0] == "est." && f[4] == "→":
			// est. time A–B µs → C–D µs: compare the upper ends (both in µs for the sample).
			require.Equal(t, "µs", f[3], l)
			require.Equal(t, "µs", f[6], l)
			tIn, tOut = upper(t, f[2]), upper(t, f[5])
		}
	}
	require.Equal(t, 51, in, "TinyResNet's ops")
	assert.LessOrEqual(t, out, in, "the program does not grow")
	assert.Less(t, rtOut, rtIn, "the runtime ops fall")
	assert.Less(t, tOut, tIn, "the estimated time falls")
	assert.Contains(t, errs, "      load-time ops             0 → 0\n", "the batch-norm arithmetic is folded")
}

// upper returns the upper end of a rendered interval "A–B" (or "A").
func upper(t *testing.T, s string) float64 {
	t.Helper()
	if i := strings.LastIndex(s, "–"); i >= 0 {
		s = s[i+len("–"):]
	}
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err, s)
	return v
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range strings.ReplaceAll(s, ",", "") {
		require.True(t, c >= '0' && c <= '9', "not a count: %q", s)
		n = n*10 + int(c-'0')
	}
	return n
}
