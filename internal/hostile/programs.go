package hostile

import (
	"strings"
)

// The program inputs: PIR JSON, PIR text and GraphNet Python nested past their readers' limits.

// jsonProgram is a PIR JSON program of one op (1.foo) whose result type is typ and whose attribute a is attr.
func jsonProgram(typ, attr string) string {
	return `{"base_code":{"magic":"pir","trainable":true,"version":1},"program":{"regions":[{"#":"region_0","blocks":[` +
		`{"#":"block_0","args":[],"ops":[{"#":"1.foo","A":[{"AT":` + attr + `,"N":"a"}],"I":[],"O":[{"%":1,"TT":` + typ +
		`}],"OA":[]}]}]}]}}`
}

const jsonF32 = `{"#":"0.t_f32"}`

// DeepJSON returns a PIR JSON program whose one attribute is an array nested n deep.
func DeepJSON(n int) string {
	return jsonProgram(jsonF32, strings.Repeat(`{"#":"0.a_array","D":[`, n)+strings.Repeat("]}", n))
}

// DeepPIRText returns a PIR text program whose one attribute is a list nested n deep.
func DeepPIRText(n int) string {
	return "{\n    (%0) = \"pd_op.full\" () {a:" + strings.Repeat("[", n) + "(Int32)1" + strings.Repeat("]", n) +
		"} : () -> builtin.tensor<1xf32>\n}\n"
}

// DeepPython returns a GraphNet model.py whose forward holds an expression nested n parentheses deep.
func DeepPython(n int) string {
	return "import paddle\n\n\nclass GraphModule(paddle.nn.Layer):\n    def __init__(self):\n        super().__init__()\n\n" +
		"    def forward(self, data_0):\n        x = " + strings.Repeat("(", n) + "data_0" + strings.Repeat(")", n) +
		"\n        return x\n"
}

// GraphMeta are a graph folder's weight_meta.py and input_meta.py for DeepPython: one input data_0 of 2 floats.
var GraphMeta = map[string]string{
	"weight_meta.py": "",
	"input_meta.py":  "class Program_weight_tensor_data_0:\n    name = \"data_0\"\n    shape = [2]\n    dtype = \"float32\"\n    data = None\n",
}
