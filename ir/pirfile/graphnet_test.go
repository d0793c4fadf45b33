package pirfile

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// A graph folder's files: matmul then relu, the relu's result returned.
var graphFiles = map[string]string{
	"model.py": `import paddle


class GraphModule(paddle.nn.Layer):
    def __init__(self):
        super().__init__()

    def forward(self, parameter_0, data_0):
        # pd_op.matmul: (2x4xf32) <- (2x3xf32, 3x4xf32)
        matmul_0 = paddle._C_ops.matmul(data_0, parameter_0, False, False)
        del data_0, parameter_0

        # pd_op.relu: (2x4xf32) <- (2x4xf32)
        relu_0 = paddle._C_ops.relu(matmul_0)
        del matmul_0

        return relu_0
`,
	"weight_meta.py": "class Program_weight_tensor_parameter_0:\n    name = \"parameter_0\"\n    shape = [3, 4]\n    dtype = \"float32\"\n    data = None\n",
	"input_meta.py":  "class Program_weight_tensor_data_0:\n    name = \"data_0\"\n    shape = [2, 3]\n    dtype = \"float32\"\n    data = None\n",
}

func writeGraph(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
}

func TestGraphNetFormat(t *testing.T) {
	dir := t.TempDir()
	sample := filepath.Join(dir, "bert")
	for _, sub := range []string{"subgraph_0", "subgraph_2", "subgraph_10"} {
		writeGraph(t, filepath.Join(sample, sub), graphFiles)
	}
	r := Standard()
	f, err := r.Detect(filepath.Join(sample, "subgraph_2"))
	require.NoError(t, err)
	assert.Same(t, GraphNet, f, "a folder holding model.py is a GraphNet graph")
	_, err = r.Detect(sample)
	assert.ErrorContains(t, err, "a folder, and not a program of any format (folder formats: graphnet)", "a sample is not one program")
	graphs, err := r.Expand(sample)
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(sample, "subgraph_0"), filepath.Join(sample, "subgraph_2"),
		filepath.Join(sample, "subgraph_10")}, graphs, "a sample's graphs, in the order of N")

	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p, warns, err := r.Load(ctx, graphs[0])
	require.NoError(t, err)
	assert.Empty(t, warns)
	assert.Equal(t, filepath.Join(graphs[0], "model.py"), p.File, "positions are in model.py")
	assert.Empty(t, ir.Verify(p))

	// As PIR JSON and back, then as a graph folder again, named after the output when the program has no file.
	js, err := Marshal(p, PIRJSON, Options{})
	require.NoError(t, err)
	q, _, err := PIRJSON.Read(ctx, "g.json", js)
	require.NoError(t, err)
	q.File = ""
	out := filepath.Join(dir, "out", "my-graph")
	require.NoError(t, os.MkdirAll(filepath.Dir(out), 0o755))
	require.NoError(t, Save(q, out, GraphNet, Options{}))
	meta, err := os.ReadFile(filepath.Join(out, "graph_net.json"))
	require.NoError(t, err)
	assert.Contains(t, string(meta), `"model_name": "my-graph"`)
	back, _, err := r.Load(ctx, out)
	require.NoError(t, err)
	require.NoError(t, ir.Equal(p, back, ir.EqualOptions{}))

	// A malformed graph is a positioned error that renders with its source line.
	bad := filepath.Join(dir, "bad")
	files := map[string]string{}
	for k, v := range graphFiles {
		files[k] = v
	}
	files["model.py"] = files["model.py"][:len(files["model.py"])-len("        return relu_0\n")] + "        return relu_0 +\n"
	writeGraph(t, bad, files)
	_, _, err = r.Load(ctx, bad)
	require.Error(t, err)
	ds, ok := DiagnosticsOf(err)
	require.True(t, ok, "graphnet errors carry diagnostics")
	text := r.Render(ds, Sources(nil))
	assert.Contains(t, text, filepath.Join(bad, "model.py")+":17:")
	assert.Contains(t, text, "        return relu_0 +\n")
}

func TestLoadable(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p, _, err := PIRText.Read(ctx, "v.pir", []byte(`{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[true]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.to_vtensor" (%0) {} : (builtin.tensor<4xf32>) -> pd_op.v_tensor<4xf32>
    (%2) = "builtin.combine" (%1, %1) {} : (pd_op.v_tensor<4xf32>, pd_op.v_tensor<4xf32>) -> vec[pd_op.v_tensor<4xf32>,pd_op.v_tensor<4xf32>]
    (%3) = "pd_op.full" () {dtype:(pd_op.DataType)int32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Double)0} : () -> builtin.tensor<1xi32>
    (%4) = "pd_op.concat" (%2, %3) {} : (vec[pd_op.v_tensor<4xf32>,pd_op.v_tensor<4xf32>], builtin.tensor<1xi32>) -> builtin.tensor<8xf32>
    (%5) = "pd_op.fetch" (%4) {col:(Int32)0,name:"out",persistable:[true],stop_gradient:[false]} : (builtin.tensor<8xf32>) -> builtin.tensor<8xf32>
}
`))
	require.NoError(t, err)
	var ife *InternalFormsError
	err = Loadable(p)
	require.ErrorAs(t, err, &ife)
	assert.Equal(t, 2, ife.Values, "the v_tensor and the vector holding them")
	assert.Equal(t, 1, ife.Ops)
	assert.Equal(t, "%1 = pd_op.to_vtensor at v.pir:3:5", ife.First)

	_, err = Marshal(p, PIRJSON, Options{})
	assert.True(t, errors.As(err, &ife), "PIR JSON, which Paddle loads, refuses them: %v", err)
	assert.ErrorContains(t, err, "-internal")
	_, err = Marshal(p, PIRJSON, Options{Internal: true})
	assert.NoError(t, err, "unless asked for the internal form")
	_, err = Marshal(p, PIRText, Options{})
	assert.NoError(t, err, "PIR text prints everything pirdrr has")
	out := filepath.Join(t.TempDir(), "g")
	err = Save(p, out, GraphNet, Options{Internal: true})
	assert.ErrorContains(t, err, "GraphNet has no spelling for them")
	_, statErr := os.Stat(out)
	assert.True(t, os.IsNotExist(statErr), "nothing is written")

	assert.False(t, HoldsValueTensor(ctx.Vector(ctx.Tensor(ir.DenseTensor, []int64{2}, ctx.Scalar(ir.DTypeFloat32)))))
}

func TestNaturalLess(t *testing.T) {
	got := []string{"s/subgraph_10", "s/subgraph_2", "s/subgraph_1", "a10b", "a2c", "a02", "a2", "b", "a", "s/subgraph_1x"}
	sort.Slice(got, func(i, j int) bool { return NaturalLess(got[i], got[j]) })
	assert.Equal(t, []string{"a", "a2", "a2c", "a02", "a10b", "b", "s/subgraph_1", "s/subgraph_1x", "s/subgraph_2",
		"s/subgraph_10"}, got)
	assert.False(t, NaturalLess("x", "x"))
}

// TestGraphNetWriteKeepsUserFiles: writing a graph into an existing graph folder replaces only GraphNet's four files,
// each keeping its mode (new ones get 0644), and keeps the user's files and folders (issue 26 item 2).
func TestGraphNetWriteKeepsUserFiles(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	src := filepath.Join(t.TempDir(), "g")
	writeGraph(t, src, graphFiles)
	p, _, err := Load(ctx, src)
	require.NoError(t, err)

	out := filepath.Join(t.TempDir(), "out")
	writeGraph(t, out, graphFiles)
	user := map[string]string{"NOTES.txt": "my notes", "graph_hash.txt": "abc123", "results/run1.log": "ok"}
	for name, text := range user {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(out, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(out, name), []byte(text), 0o600))
	}
	require.NoError(t, os.Chmod(filepath.Join(out, "model.py"), 0o640))
	require.NoError(t, Save(p, out, GraphNet, Options{}))
	for name, text := range user {
		data, err := os.ReadFile(filepath.Join(out, name))
		require.NoError(t, err, name)
		assert.Equal(t, text, string(data), name)
	}
	modes := map[string]os.FileMode{}
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
		info, err := e.Info()
		require.NoError(t, err)
		modes[e.Name()] = info.Mode().Perm()
	}
	assert.Equal(t, []string{"NOTES.txt", "graph_hash.txt", "graph_net.json", "input_meta.py", "model.py", "results", "weight_meta.py"}, names)
	assert.Equal(t, os.FileMode(0o640), modes["model.py"], "a replaced file keeps its mode")
	assert.Equal(t, os.FileMode(0o644), modes["graph_net.json"], "a new file")
	q, _, err := Load(ctx, out)
	require.NoError(t, err)
	assert.Equal(t, p.NumOps(), q.NumOps())
}
