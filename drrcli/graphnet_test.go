package drrcli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
)

// tinySample extracts testdata/graphnet/tiny.txtar, a GraphNet sample of two graphs (subgraph_2: conv2d →
// batch_norm_ → relu and a concat; subgraph_10: matmul → add → relu), into a new folder and returns its path.
func tinySample(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "graphnet", "tiny.txtar"))
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), "tiny")
	for _, f := range txtar.Parse(data).Files {
		write(t, dir, f.Name, string(f.Data))
	}
	return dir
}

// signatures returns the signature comments of a model.py, in order: the op sequence of a graph.
func signatures(t *testing.T, modelPy string) []string {
	t.Helper()
	data, err := os.ReadFile(modelPy)
	require.NoError(t, err)
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if s := strings.TrimSpace(l); strings.HasPrefix(s, "# ") && strings.Contains(s, ") <- (") {
			out = append(out, s)
		}
	}
	return out
}

func TestGraphNetCheck(t *testing.T) {
	sample := tinySample(t)
	code, _, errs := run(t, "", "check", sample)
	assert.Equal(t, exitOK, code, errs)
	assert.Equal(t, sample+": 2 programs checked, 0 with errors\n", errs)
	code, _, errs = run(t, "", "check", filepath.Join(sample, "subgraph_10"))
	assert.Equal(t, exitOK, code, errs)
	assert.Empty(t, errs, "one graph checks as one program does")

	code, _, errs = run(t, "", "check", t.TempDir())
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "no programs in this folder")
}

// TestGraphNetConvert: a graph to PIR JSON and back to a graph reproduces the op sequence, signature comment for
// signature comment; a sample converts graph by graph into a folder, in either format; standard output gets PIR
// text.
func TestGraphNetConvert(t *testing.T) {
	sample := tinySample(t)
	out := t.TempDir()
	for _, g := range []string{"subgraph_2", "subgraph_10"} {
		js := filepath.Join(out, g+".json")
		code, _, errs := run(t, "", "convert", filepath.Join(sample, g), "-o", js)
		require.Equal(t, exitOK, code, errs)
		back := filepath.Join(out, g+"_back")
		code, _, errs = run(t, "", "convert", "-format", "graphnet", js, "-o", back)
		require.Equal(t, exitOK, code, errs)
		assert.Equal(t, signatures(t, filepath.Join(sample, g, "model.py")), signatures(t, filepath.Join(back, "model.py")))
		assert.NotEmpty(t, signatures(t, filepath.Join(back, "model.py")))
	}

	code, _, errs := run(t, "", "convert", sample, "-o", filepath.Join(out, "copy"))
	require.Equal(t, exitOK, code, errs)
	for _, g := range []string{"subgraph_2", "subgraph_10"} {
		assert.Equal(t, signatures(t, filepath.Join(sample, g, "model.py")), signatures(t, filepath.Join(out, "copy", g, "model.py")))
	}
	code, _, errs = run(t, "", "convert", "-format", "json", sample, "-o", filepath.Join(out, "js"))
	require.Equal(t, exitOK, code, errs)
	assert.FileExists(t, filepath.Join(out, "js", "subgraph_2.json"))
	assert.FileExists(t, filepath.Join(out, "js", "subgraph_10.json"))

	code, text, errs := run(t, "", "convert", filepath.Join(sample, "subgraph_10"), "-o", "-")
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, text, `"pd_op.fetch"`)
	assert.True(t, strings.HasPrefix(text, "{\n"), "PIR text")

	code, _, errs = run(t, "", "convert", sample, "-o", filepath.Join(out, "one.json"))
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errs, "holds 2 programs: -o names the folder to write them into")
}

// TestGraphNetErrors: a malformed graph is an error at its model.py line and column, with the source line, and
// nothing is written — not even the sample's other graphs.
func TestGraphNetErrors(t *testing.T) {
	sample := tinySample(t)
	model := filepath.Join(sample, "subgraph_10", "model.py")
	data, err := os.ReadFile(model)
	require.NoError(t, err)
	bad := strings.Replace(string(data), "relu_0 = paddle._C_ops.relu(add_0)", "relu_0 = paddle._C_ops.relu(add_0, True)", 1)
	require.NotEqual(t, string(data), bad)
	require.NoError(t, os.WriteFile(model, []byte(bad), 0o644))

	out := filepath.Join(t.TempDir(), "out")
	for _, args := range [][]string{
		{"convert", filepath.Join(sample, "subgraph_10"), "-o", out + ".json"},
		{"convert", sample, "-o", out},
		{"check", sample},
		{"apply", sample, "-o", out},
	} {
		code, _, errs := run(t, "", args...)
		assert.Equal(t, exitFailure, code, "%v", args)
		assert.Contains(t, errs, model+":18:36: error: pd_op.relu takes 1 arguments (x), the call gives 2\n"+
			"        relu_0 = paddle._C_ops.relu(add_0, True)\n                                   ^\n", "%v", args)
		assert.NoFileExists(t, out+".json")
		if args[0] != "apply" {
			assert.NoDirExists(t, out, "convert reads every graph before it writes one")
		}
	}
	// apply processes each graph on its own, as it does the programs of any folder: the good one is written.
	assert.NoDirExists(t, filepath.Join(out, "subgraph_10"))
	assert.DirExists(t, filepath.Join(out, "subgraph_2"))
}

// TestGraphNetApply: the default pipeline on a sample writes each graph as a GraphNet folder (or PIR JSON) that
// checks, holds no value tensor, folds the batch norm and keeps the returned value.
func TestGraphNetApply(t *testing.T) {
	sample := tinySample(t)
	out := filepath.Join(t.TempDir(), "fused")
	code, _, errs := run(t, "", "apply", sample, "-o", out)
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, errs, "2 of 2 programs ok")
	fused := filepath.Join(out, "subgraph_2")
	code, _, errs = run(t, "", "check", fused)
	require.Equal(t, exitOK, code, errs)
	model, err := os.ReadFile(filepath.Join(fused, "model.py"))
	require.NoError(t, err)
	assert.Contains(t, string(model), "paddle._C_ops.fused_conv2d_add_act(")
	assert.NotContains(t, string(model), "batch_norm")
	assert.Contains(t, string(model), "return concat_0")

	js := filepath.Join(t.TempDir(), "js")
	code, _, errs = run(t, "", "apply", "-format", "json", sample, "-o", js)
	require.Equal(t, exitOK, code, errs)
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	for _, g := range []string{"subgraph_2.json", "subgraph_10.json"} {
		p, _, err := pirfile.Load(ctx, filepath.Join(js, g))
		require.NoError(t, err)
		assert.Empty(t, ir.Verify(p).Errors())
		assert.NoError(t, pirfile.Loadable(p))
	}

	// One graph to standard output: PIR text.
	code, text, errs := run(t, "", "apply", filepath.Join(sample, "subgraph_10"))
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, text, `"pd_op.fetch"`)
}

// TestApplyRefusesInvalidPrograms: a program that fails checking is not rewritten and nothing is written; before,
// apply printed nothing about it, exited 0 and wrote what the passes made of it.
func TestApplyRefusesInvalidPrograms(t *testing.T) {
	dir := t.TempDir()
	bad := write(t, dir, "in/bad.pir", strings.Replace(reluProgram, `"pd_op.relu_" (%0) {stop_gradient:[false]} : (builtin.tensor<4xf32>)`,
		`"pd_op.relu_" (%0, %0) {stop_gradient:[false]} : (builtin.tensor<4xf32>, builtin.tensor<4xf32>)`, 1))
	write(t, dir, "in/good.pir", reluProgram)
	out := filepath.Join(dir, "bad_out.pir")
	code, _, errs := run(t, "", "apply", bad, "-o", out)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, bad+":3:5: error: %1 = pd_op.relu_: has 2 operands; pd_op.relu_ takes 1 operand\n")
	assert.Contains(t, errs, bad+": the program fails checking (1 error): not rewritten, nothing written\n")
	assert.NoFileExists(t, out)

	// In a folder, the others are written.
	code, _, errs = run(t, "", "apply", filepath.Join(dir, "in"), "-o", filepath.Join(dir, "out"))
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "1 of 2 programs ok")
	assert.FileExists(t, filepath.Join(dir, "out", "good.pir"))
	assert.NoFileExists(t, filepath.Join(dir, "out", "bad.pir"))
}

// TestApplyNoOutputs: a program without fetch ops is not emptied by the default pipeline; the passes that would
// have erased its ops say why they keep them.
func TestApplyNoOutputs(t *testing.T) {
	dir := t.TempDir()
	in := write(t, dir, "p.pir", `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[true]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.exp" (%0) {stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%2) = "pd_op.assign" (%1) {stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%3) = "pd_op.tanh" (%0) {stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
}
`)
	code, text, errs := run(t, "", "apply", in)
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, errs, in+": warning: pass dce: no outputs (pd_op.fetch, builtin.shadow_output or builtin.set_parameter): dce keeps every op\n")
	assert.Contains(t, errs, in+": warning: passes inplace, value_semantics, conv_bn_relu, reinplace: no outputs")
	assert.Contains(t, text, `"pd_op.exp"`, "the copy's source is the result now")
	assert.Contains(t, text, `"pd_op.tanh"`)
}

func TestGraphNetVerifyGraphExplain(t *testing.T) {
	sample := tinySample(t)
	code, text, errs := run(t, "", "verify", "-runs", "1", sample)
	require.Equal(t, exitOK, code, errs)
	assert.Equal(t, 2, strings.Count(text, "\nok: ")+boolInt(strings.HasPrefix(text, "ok: ")), text)
	assert.Contains(t, text, "verify "+filepath.Join(sample, "subgraph_2")+": ")
	assert.Less(t, strings.Index(text, "subgraph_2"), strings.Index(text, "subgraph_10"), "graphs in the order of N")

	html := filepath.Join(t.TempDir(), "tiny.html")
	code, _, errs = run(t, "", "graph", "-o", html, sample)
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, errs, "subgraph_2: ")
	assert.Contains(t, errs, "subgraph_10: ")
	code, _, errs = run(t, "", "graph", "-focus", "%3", sample)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errs, "draw one program")

	// The batch_norm_ of subgraph_2 starts on line 24 of its model.py; subgraph_10 has no op there.
	code, text, errs = run(t, "", "explain", "-set", "conv_bn_relu", "-rule", "conv2d_bn_fold", "-op", "@24", sample)
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, text, "== subgraph_2\n")
	assert.Contains(t, text, "pd_op.batch_norm_ at "+filepath.Join(sample, "subgraph_2", "model.py")+":24:9\n")
	assert.Contains(t, text, "rule conv2d_bn_fold[pd_op.conv2d,pd_op.batch_norm_] (conv2d_bn_fuse.drr:")
	assert.Contains(t, text, "== subgraph_10\nno op starts on line 24\n")
	code, _, errs = run(t, "", "explain", "-op", "@999", sample)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "none of its 2 programs has the op @999")
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestGraphNetCorpusThroughCommand runs corpus graphs (every 40th; all with PIRDRR_CORPUS=full) through drrc:
// check, convert to PIR JSON and back to a graph, which reproduces the op sequence.
func TestGraphNetCorpusThroughCommand(t *testing.T) {
	graphs := corpus.RequireGraphs(t, 40)
	for _, g := range graphs {
		t.Run(g.Rel, func(t *testing.T) {
			code, _, errs := run(t, "", "check", g.Dir)
			require.Equal(t, exitOK, code, errs)
			dir := t.TempDir()
			js := filepath.Join(dir, "g.json")
			code, _, errs = run(t, "", "convert", g.Dir, "-o", js)
			require.Equal(t, exitOK, code, errs)
			back := filepath.Join(dir, "back")
			code, _, errs = run(t, "", "convert", "-format", "graphnet", js, "-o", back)
			require.Equal(t, exitOK, code, errs)
			want := signatures(t, filepath.Join(g.Dir, "model.py"))
			if len(want) == 0 {
				t.Skip("not a capture (the program is in graph_net.json)")
			}
			assert.Equal(t, want, signatures(t, filepath.Join(back, "model.py")))
		})
	}
}

// TestInternalForms: a program holding value tensors (here inside a vector) is refused by the formats Paddle
// loads, and nothing is written; -internal writes it into PIR JSON; PIR text prints it.
func TestInternalForms(t *testing.T) {
	dir := t.TempDir()
	in := write(t, dir, "v.pir", `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[true]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.to_vtensor" (%0) {} : (builtin.tensor<4xf32>) -> pd_op.v_tensor<4xf32>
    (%2) = "builtin.combine" (%1, %1) {} : (pd_op.v_tensor<4xf32>, pd_op.v_tensor<4xf32>) -> vec[pd_op.v_tensor<4xf32>,pd_op.v_tensor<4xf32>]
    (%3) = "pd_op.full" () {dtype:(pd_op.DataType)int32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Double)0} : () -> builtin.tensor<1xi32>
    (%4) = "pd_op.concat" (%2, %3) {} : (vec[pd_op.v_tensor<4xf32>,pd_op.v_tensor<4xf32>], builtin.tensor<1xi32>) -> builtin.tensor<8xf32>
    (%5) = "pd_op.fetch" (%4) {col:(Int32)0,name:"out",persistable:[true],stop_gradient:[false]} : (builtin.tensor<8xf32>) -> builtin.tensor<8xf32>
}
`)
	js := filepath.Join(dir, "v.json")
	code, _, errs := run(t, "", "convert", in, "-o", js)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "the program holds pirdrr's internal forms, which Paddle cannot load: 2 values of type pd_op.v_tensor and 1 pd_op.to_tensor/pd_op.to_vtensor copy (the first: %1 = pd_op.to_vtensor at "+in+":3:5)")
	assert.NoFileExists(t, js)
	code, _, errs = run(t, "", "convert", "-format", "graphnet", in, "-o", filepath.Join(dir, "g"))
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "GraphNet has no spelling for them")
	assert.NoDirExists(t, filepath.Join(dir, "g"))

	code, _, errs = run(t, "", "convert", "-internal", in, "-o", js)
	require.Equal(t, exitOK, code, errs)
	assert.FileExists(t, js)
	code, text, errs := run(t, "", "convert", in, "-o", "-")
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, text, "vec[pd_op.v_tensor<4xf32>,pd_op.v_tensor<4xf32>]")

	// apply: the passes named leave the value tensors; the output is refused, and written with -internal.
	out := filepath.Join(dir, "out.json")
	code, _, errs = run(t, "", "apply", "-passes", "inplace", in, "-o", out)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "which Paddle cannot load")
	assert.NoFileExists(t, out)
	code, _, errs = run(t, "", "apply", "-internal", "-passes", "inplace", in, "-o", out)
	require.Equal(t, exitOK, code, errs)
	assert.FileExists(t, out)
}
