package graphnet

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

const testHeader = "import paddle\n\n\nclass GraphModule(paddle.nn.Layer):\n    def __init__(self):\n        super().__init__()\n\n"

// graph returns a Source whose forward takes parameter_0 (3x4xf32) and data_0 (2x3xf32) and has body as its
// statements (indented by the caller's 8 spaces).
func graph(body string) Source {
	return Source{
		Dir:   "g",
		Model: []byte(testHeader + "    def forward(self, parameter_0, data_0):\n" + body),
		WeightMeta: []byte("class Program_weight_tensor_parameter_0:\n    name = \"parameter_0\"\n    shape = [3, 4]\n" +
			"    dtype = \"float32\"\n    data = None\n"),
		InputMeta: []byte("class Program_weight_tensor_data_0:\n    name = \"data_0\"\n    shape = [2, 3]\n" +
			"    dtype = \"float32\"\n    data = None\n"),
	}
}

const matmul = "        # pd_op.matmul: (2x4xf32) <- (2x3xf32, 3x4xf32)\n"

func TestDecodeErrors(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	tests := []struct {
		name string
		src  Source
		want string
	}{
		{"no comment", graph("        x = paddle._C_ops.matmul(data_0, parameter_0, False, False)\n        return x\n"),
			"g/model.py:9:9: error: no '# dialect.op: (result types) <- (operand types)' comment before this statement"},
		{"unknown op", graph("        # pd_op.nosuch: (2x4xf32) <- (2x3xf32)\n        x = paddle._C_ops.nosuch(data_0)\n        return x\n"),
			"g/model.py:9:11: error: op pd_op.nosuch is not in the catalog"},
		{"bad type", graph("        # pd_op.relu: (2x4xq7) <- (2x3xf32)\n        x = paddle._C_ops.relu(data_0)\n        return x\n"),
			"g/model.py:9:28: error: unknown element type \"q7\""},
		{"bad comment", graph("        # pd_op.relu: (2x3xf32) (2x3xf32)\n        x = paddle._C_ops.relu(data_0)\n        return x\n"),
			"g/model.py:9:33: error: expected '<-' between the result and operand types"},
		{"call of another op", graph(matmul + "        x = paddle._C_ops.relu(data_0)\n        return x\n"),
			"g/model.py:10:13: error: the call does not match the comment's op pd_op.matmul (expected paddle._C_ops.matmul)"},
		{"too many arguments", graph(matmul + "        x = paddle._C_ops.matmul(data_0, parameter_0, False, False, 1)\n        return x\n"),
			"g/model.py:10:33: error: pd_op.matmul takes 4 arguments (x, y, transpose_x, transpose_y), the call gives 5"},
		{"missing operand", graph(matmul + "        x = paddle._C_ops.matmul(data_0)\n        return x\n"),
			"g/model.py:10:33: error: pd_op.matmul: missing operand y"},
		{"attribute kind", graph(matmul + "        x = paddle._C_ops.matmul(data_0, parameter_0, 1, False)\n        return x\n"),
			"g/model.py:10:55: error: pd_op.matmul: argument transpose_x: expected True or False, not an int"},
		{"float as int", graph("        # pd_op.full: (1xf32) <- ()\n        x = paddle._C_ops.full([1], 1, paddle.float32, paddle.core.CPUPlace())\n        return x\n"),
			"g/model.py:10:37: error: pd_op.full: argument value: expected a number (f64), not an int"},
		{"literal as operand", graph(matmul + "        x = paddle._C_ops.matmul(data_0, [1], False, False)\n        return x\n"),
			"g/model.py:10:42: error: pd_op.matmul: argument y is an operand: expected the name of a value"},
		{"unknown keyword", graph(matmul + "        x = paddle._C_ops.matmul(data_0, parameter_0, False, trans=False)\n        return x\n"),
			"g/model.py:10:62: error: pd_op.matmul has no argument trans (arguments: x, y, transpose_x, transpose_y)"},
		{"undefined name", graph(matmul + "        x = paddle._C_ops.matmul(data_9, parameter_0, False, False)\n        return x\n"),
			"g/model.py:10:34: error: pd_op.matmul: argument x is an operand: data_9 is not defined"},
		{"deleted name", graph("        del data_0\n" + matmul + "        x = paddle._C_ops.matmul(data_0, parameter_0, False, False)\n        return x\n"),
			"g/model.py:11:34: error: pd_op.matmul: argument x is an operand: data_0 was deleted at line 9"},
		{"operand type", graph("        # pd_op.matmul: (2x4xf32) <- (2x3xf32, 3x5xf32)\n        x = paddle._C_ops.matmul(data_0, parameter_0, False, False)\n        return x\n"),
			"g/model.py:9:11: error: pd_op.matmul: operand 1 is 3x4xf32, the comment says 3x5xf32"},
		{"operand count", graph("        # pd_op.matmul: (2x4xf32) <- (2x3xf32)\n        x = paddle._C_ops.matmul(data_0, parameter_0, False, False)\n        return x\n"),
			"g/model.py:9:11: error: the comment gives pd_op.matmul 1 operands, the statement 2"},
		{"result count", graph("        # pd_op.matmul: (2x4xf32, 2x4xf32) <- (2x3xf32, 3x4xf32)\n        x, y = paddle._C_ops.matmul(data_0, parameter_0, False, False)\n        return x\n"),
			"g/model.py:9:11: error: pd_op.matmul has 2 results in the comment; the catalog's pd_op.matmul has 1"},
		{"targets", graph("        # pd_op.layer_norm: (2x3xf32, 2xf32, 2xf32) <- (2x3xf32, None, None)\n        x = paddle._C_ops.layer_norm(data_0, None, None, float(\"1e-05\"), 1)\n        return x\n"),
			"g/model.py:10:9: error: the statement binds 1 names to the 3 results of pd_op.layer_norm"},
		{"not optional", graph(matmul + "        x = paddle._C_ops.matmul(None, parameter_0, False, False)\n        return x\n"),
			"g/model.py:10:34: error: pd_op.matmul: operand x is not optional"},
		{"plain name", graph(matmul + "        x = data_0\n        return x\n"),
			"g/model.py:10:13: error: a plain name is pd_op.assign or builtin.split, not pd_op.matmul"},
		{"list of the wrong op", graph(matmul + "        x = [data_0]\n        return x\n"),
			"g/model.py:10:13: error: a list is builtin.combine or pd_op.full_int_array, not pd_op.matmul"},
		{"no return", graph("        pass\n"), "g/model.py:8:5: error: forward has no return statement, so the graph has no outputs"},
		{"return nothing", graph("        return\n"), "g/model.py:9:9: error: forward returns nothing, so the graph has no outputs"},
		{"statement after return", graph("        return data_0\n        del data_0\n"), "g/model.py:10:9: error: statement after return"},
		{"expression statement", graph("        paddle._C_ops.relu(data_0)\n        return data_0\n"),
			"g/model.py:9:9: error: an expression statement is not an op (GraphNet assigns every op's results)"},
		{"del undefined", graph("        del data_9\n        return data_0\n"), "g/model.py:9:13: error: data_9 is not defined"},
		{"python syntax", graph("        x = (\n"), "g/model.py:10:1: error: unexpected end of file inside brackets"},
		{"no class", Source{Dir: "g", Model: []byte("import paddle\n")}, "g/model.py: error: no class GraphModule"},
		{"no forward", Source{Dir: "g", Model: []byte("class GraphModule:\n    pass\n")},
			"g/model.py:1:1: error: class GraphModule has no forward method"},
		{"forward without self", Source{Dir: "g", Model: []byte("class GraphModule:\n    def forward(x):\n        return x\n")},
			"g/model.py:2:5: error: forward must take self first"},
		{"top-level code", Source{Dir: "g", Model: []byte("x = 1\n")},
			"g/model.py:1:1: error: unexpected top-level statement (a GraphNet model.py holds imports and class GraphModule)"},
		{"parameter without metadata", func() Source {
			s := graph("        return data_0\n")
			s.WeightMeta = nil
			return s
		}(), "g/model.py:8:23: error: forward parameter parameter_0 is described in neither weight_meta.py nor input_meta.py"},
		{"metadata without parameter", func() Source {
			s := graph("        return data_0\n")
			s.InputMeta = append(s.InputMeta, []byte("\n\nclass Program_weight_tensor_data_1:\n    name = \"data_1\"\n    shape = [1]\n    dtype = \"float32\"\n    data = None\n")...)
			return s
		}(), "g/input_meta.py:8:1: error: data_1 is not a parameter of forward in model.py"},
		{"both metas", func() Source {
			s := graph("        return data_0\n")
			s.WeightMeta = append(s.WeightMeta, []byte("\n\nclass Program_weight_tensor_data_0:\n    name = \"data_0\"\n    shape = [1]\n    dtype = \"float32\"\n    data = None\n")...)
			return s
		}(), "g/input_meta.py:1:1: error: data_0 is described in both weight_meta.py and input_meta.py"},
		{"input type", graph("        # pd_op.relu: (2x4xf32) <- (2x4xf32)\n        x = paddle._C_ops.relu(data_0)\n        return x\n"),
			"g/model.py:9:11: error: pd_op.relu: operand 0 is 2x3xf32, the comment says 2x4xf32"},
		{"bad graph_net.json", func() Source {
			s := graph("        return data_0\n")
			s.JSON = []byte("{")
			return s
		}(), "g/graph_net.json: error: not valid JSON: unexpected end of JSON input"},
		{"another framework", func() Source {
			s := graph("        return data_0\n")
			s.JSON = []byte(`{"framework": "torch"}`)
			return s
		}(), "g/graph_net.json: error: the graph is for framework \"torch\", not paddle"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Decode(ctx, tt.src)
			require.Error(t, err)
			assert.Nil(t, p)
			assert.Equal(t, tt.want, err.Error())
			var ge *Error
			assert.ErrorAs(t, err, &ge)
		})
	}
}

func TestMetaErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"x = 1\n", "m.py:1:1: error: expected a class describing a tensor"},
		{"class A:\n    name = \"a\"\n    dtype = \"float32\"\n", "m.py:1:1: error: class A has no shape"},
		{"class A:\n    shape = [1]\n    dtype = \"float32\"\n", "m.py:1:1: error: class A has no name"},
		{"class A:\n    name = \"a\"\n    shape = [1]\n    dtype = \"float99\"\n", "m.py:4:13: error: unknown dtype \"float99\""},
		{"class A:\n    name = \"a\"\n    shape = [1]\n    dtype = \"float32\"\n    colour = 1\n",
			"m.py:5:5: error: unknown field colour (fields: name, original_name, shape, dtype, min_val, max_val, mean, std, data)"},
		{"class A:\n    name = \"a\"\n    name = \"b\"\n", "m.py:3:5: error: field name set twice"},
		{"class A:\n    name = 1\n", "m.py:2:12: error: name must be a string, not an int"},
		{"class A:\n    name = \"a\"\n    shape = [1, -2]\n    dtype = \"float32\"\n",
			"m.py:3:17: error: shape must be a list of dimensions (ints >= -1, or None)"},
		{"class A:\n    name = \"a\"\n    shape = [2]\n    dtype = \"float32\"\n    data = [1.0]\n",
			"m.py:5:12: error: data has 1 elements; shape [2] holds 2"},
		{"class A:\n    name = \"a\"\n    shape = [1]\n    dtype = \"int32\"\n    data = [1.5]\n",
			"m.py:5:13: error: a float in the data of a int32 tensor"},
		{"class A:\n    name = \"a\"\n    shape = [1]\n    dtype = \"uint8\"\n    data = [300]\n",
			"m.py:5:13: error: 300 does not fit in uint8"},
		{"class A:\n    name = \"a\"\n    shape = [1]\n    dtype = \"float32\"\n    min_val = \"x\"\n",
			"m.py:5:15: error: min_val must be a number, not a string"},
		{"class A:\n    name = \"a\"\n    shape = [1]\n    dtype = \"float32\"\n    data = 3\n",
			"m.py:5:12: error: data must be None or a list, not an int"},
		{"class A:\n    name = \"a\"\n    shape = [1]\n    dtype = \"float32\"\n\n\nclass B:\n    name = \"a\"\n    shape = [1]\n    dtype = \"float32\"\n",
			"m.py:7:1: error: tensor a is described twice (first at line 1)"},
		{"class A:\n    def f(self):\n        pass\n", "m.py:2:5: error: expected a field assignment (name = value) in class A"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			_, err := parseMeta("m.py", []byte(tt.src))
			require.NotNil(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestMetaData(t *testing.T) {
	src := `class A:
    name = "a"
    shape = [2]
    dtype = "float16"
    min_val = 0
    max_val = 2
    data = [1.0, -0.5]


class B:
    name = "b"
    original_name = "x.w_0"
    shape = [3]
    dtype = "bool"
    data = [True, False, 1]


class C:
    name = "c"
    shape = []
    dtype = "int64"
    data = [-7]
`
	ms, err := parseMeta("m.py", []byte(src))
	require.Nil(t, err)
	require.Len(t, ms, 3)
	assert.Equal(t, []byte{0x00, 0x3c, 0x00, 0xb8}, ms[0].data, "float16 1.0 and -0.5")
	assert.Equal(t, &ir.TensorStats{Min: 0, Max: 2, Missing: ir.StatMean | ir.StatStd}, ms[0].stats)
	assert.Equal(t, []byte{1, 0, 1}, ms[1].data)
	assert.Equal(t, "x.w_0", ms[1].originalName)
	assert.Nil(t, ms[1].stats)
	assert.Equal(t, []int64{}, ms[2].shape)
	assert.Equal(t, []byte{0xf9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, ms[2].data)

	for _, f := range []float32{0, 1, -2, 0.1, 65504, 1e-7, 6e-8, 70000} {
		assert.Equal(t, float64(f16Round(f)), float64(float16Value(float16Bits(f))), "%g", f)
	}
	assert.Equal(t, float32(1.5), bfloat16Value(bfloat16Bits(1.5)))
}

// f16Round is what float16 keeps of f: the nearest representable value, inf beyond the range.
func f16Round(f float32) float32 {
	switch f {
	case 0.1:
		return 0.0999755859375
	case 1e-7:
		return 1.1920928955078125e-07
	case 6e-8:
		return 5.960464477539063e-08
	case 70000:
		return float32(inf32())
	}
	return f
}

func inf32() float32 {
	var zero float32
	return 1 / zero
}

func TestGraphs(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"subgraph_10", "subgraph_2", "subgraph_0", "subgraph_x", "other"} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, sub), 0o755))
		if sub != "other" && sub != "subgraph_x" {
			require.NoError(t, os.WriteFile(filepath.Join(dir, sub, ModelFile), nil, 0o644))
		}
	}
	got, err := Graphs(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(dir, "subgraph_0"), filepath.Join(dir, "subgraph_2"), filepath.Join(dir, "subgraph_10")}, got)
	assert.True(t, IsSample(dir))
	assert.False(t, IsGraph(dir))
	assert.True(t, IsGraph(got[0]))
	one, err := Graphs(got[1])
	require.NoError(t, err)
	assert.Equal(t, got[1:2], one, "a graph folder is its own only graph")

	_, err = Graphs(filepath.Join(dir, "other"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a GraphNet graph (no model.py) nor a sample (no subgraph_N folders holding one)")
	assert.False(t, IsSample(filepath.Join(dir, "nowhere")))
}

func TestReadMissingFile(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, ModelFile), []byte(testHeader), 0o644))
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	_, err = Read(ctx, dir)
	require.Error(t, err)
	assert.Equal(t, filepath.Join(dir, WeightMetaFile)+": error: no such file or directory", err.Error())
}

func TestReadWriteFolder(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	src := graph(matmul + "        x = paddle._C_ops.matmul(data_0, parameter_0, False, False)\n        return x\n")
	p, err := Decode(ctx, src)
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "my-model", "subgraph_3")
	require.NoError(t, Write(p, out, WriteOptions{}))
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{GraphNetJSON, InputMetaFile, ModelFile, WeightMetaFile}, names, "no temporary files left")
	js, err := os.ReadFile(filepath.Join(out, GraphNetJSON))
	require.NoError(t, err)
	assert.Contains(t, string(js), `"model_name": "g"`, "the name of the sample the program was read from")
	q, err := Read(ctx, out)
	require.NoError(t, err)
	require.NoError(t, ir.Equal(p, q, ir.EqualOptions{AttrOrder: true}))
	assert.Equal(t, filepath.Join(out, ModelFile), q.File, "positions are in model.py")

	assert.Equal(t, "ernie-3.0-base-zh", modelName("samples/ernie-3.0-base-zh/subgraph_1"))
	assert.Equal(t, "ernie-3.0-base-zh", modelName("samples/ernie-3.0-base-zh/subgraph_1/model.py"))
	assert.Equal(t, "bert", modelName("samples/bert/model.py"))
	assert.Equal(t, "ernie-3.0-base-zh", modelName("samples/ernie-3.0-base-zh"))
	assert.Equal(t, "inference", modelName("models/det/inference.json"))

	q.File = ""
	require.NoError(t, Write(q, out, WriteOptions{}))
	js, err = os.ReadFile(filepath.Join(out, GraphNetJSON))
	require.NoError(t, err)
	assert.True(t, strings.Contains(string(js), `"model_name": "my-model"`), "named after the folder written: %s", js)
}

// wrapper is the model.py of a sample that is not a capture: forward calls a model built in __init__.
const wrapper = `import paddle
from paddle.vision.models import squeezenet1_1


class GraphModule(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.model = squeezenet1_1(pretrained=False)

    def forward(self, *args, **kwargs):
        if args:
            x = args[0]
        else:
            raise ValueError(f"no input: {list(kwargs.keys())}")
        return self.model(x)
`

func TestWrapsModel(t *testing.T) {
	tests := []struct {
		name, src string
		want      bool
	}{
		{"wrapper", wrapper, true},
		{"kwargs only", "class G:\n    def forward(self, x, **kw):\n        pass\n", true},
		{"capture", testHeader + "    def forward(self, parameter_0, data_0):\n        return data_0\n", false},
		{"star in a default", "class G:\n    def forward(self, x=f(*a)):\n        pass\n", false},
		{"no forward", "class G:\n    def other(self, *args):\n        pass\n", false},
		{"unreadable", "class G:\n    def forward(self, 'x\n", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, wrapsModel([]byte(tt.src)), tt.name)
	}
}

func TestProgramDesc(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	desc := `{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"linear_0.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<3x4xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
    (%2) = "pd_op.matmul" (%1, %0) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    (%3) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%4, %5) = "pd_op.dropout" (%2, <<NULL VALUE>>, %3) {fix_seed:false,is_test:false,mode:"downgrade_in_infer",seed:0,stop_gradient:[false,false]} : (tensor<2x4xf32>, <<NULL TYPE>>, tensor<1xf32>) -> tensor<2x4xf32>, tensor<2x4xu8>
    (%6) = "pd_op.relu" (%4) {stop_gradient:[false]} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    (%7) = "pd_op.sigmoid" (%4) {stop_gradient:[false]} : (tensor<2x4xf32>) -> tensor<2x4xf32>
}`
	js, err := json.Marshal(map[string]string{"protocol": "PIR", "program_desc": desc})
	require.NoError(t, err)
	src := Source{
		Dir:        "sq",
		Model:      []byte(wrapper),
		WeightMeta: []byte("weight_meta = {}\n"),
		InputMeta: []byte("class Program_input_tensor_image:\n    name = \"x\"\n    shape = [2, 3]\n    dtype = \"float32\"\n" +
			"    data = None\n\n\ninput_meta = {\"x\": {\"shape\": [2, 3], \"dtype\": \"float32\"}}\n"),
		JSON: js,
	}
	p, err := Decode(ctx, src)
	require.NoError(t, err)
	assert.Empty(t, ir.Verify(p))
	assert.Equal(t, filepath.Join("sq", "graph_net.json#program_desc"), p.File)
	var fetched []string
	for op := range p.Body().Ops() {
		if op.Name() == opFetch {
			name, _ := ir.AsString(op.Attr("name"))
			fetched = append(fetched, name+"="+op.Operand(0).DefiningOp().Name())
		}
	}
	assert.Equal(t, []string{"fetch_name_0=pd_op.relu", "fetch_name_1=pd_op.sigmoid"}, fetched,
		"the sinks, in order; dropout's mask is no output, nor are the constants")
	require.Contains(t, p.Feeds, "x")
	assert.Equal(t, "tensor<2x3xf32>", p.Feeds["x"].Type.String())
	assert.Contains(t, p.Params, "linear_0.w_0")

	// A capture's model.py wins over a program_desc: it is read as usual.
	capture := graph(matmul + "        matmul_0 = paddle._C_ops.matmul(data_0, parameter_0, False, False)\n        return matmul_0\n")
	capture.JSON = js
	q, err := Decode(ctx, capture)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join("g", "model.py"), q.File)

	// Errors in the program text point into it.
	bad := src
	bad.JSON, err = json.Marshal(map[string]string{"protocol": "PIR", "program_desc": "{\n    (%0) = \"pd_op.relu\" (%9) {} : (tensor<2xf32>) -> tensor<2xf32>\n}"})
	require.NoError(t, err)
	_, err = Decode(ctx, bad)
	require.Error(t, err)
	assert.Contains(t, err.Error(), filepath.Join("sq", "graph_net.json#program_desc")+":2:")
	bad.JSON = []byte(`{"protocol": "PIR", "program_desc": "{\n}"}`)
	_, err = Decode(ctx, bad)
	assert.ErrorContains(t, err, "program_desc holds no ops")
	bad.JSON = js
	bad.InputMeta = []byte("input_meta = {\"x\": [1, 2}\n")
	_, err = Decode(ctx, bad)
	assert.ErrorContains(t, err, "input_meta.py:1:")
}
