package graphnet

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

func parsePIR(t *testing.T, ctx *ir.Context, src string) *ir.Program {
	t.Helper()
	p, _, err := pirtext.Parse(ctx, "t.pir", []byte(src), pirtext.ReadOptions{})
	require.NoError(t, err)
	return p
}

// A program that did not come from GraphNet: parameters named as Paddle names them, a dynamic input, a fused op a
// rewrite created, and outputs given by shadow_output.
const exported = `{
    (%0) = "builtin.parameter" () {parameter_name:"conv2d_0.w_0"} : () -> builtin.tensor<8x3x3x3xf32>
    (%1) = "builtin.parameter" () {parameter_name:"conv2d_0.b_0"} : () -> builtin.tensor<8xf32>
    (%2) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[-1,3,32,32]} : () -> builtin.tensor<-1x3x32x32xf32>
    (%3) = "pd_op.fused_conv2d_add_act" (%2, %0, %1, <<NULL VALUE>>) {activation:"relu",data_format:"NCHW",dilations:[(Int32)1,(Int32)1],exhaustive_search:false,fuse_alpha:(Float)0,groups:(Int32)1,padding_algorithm:"EXPLICIT",paddings:[(Int32)1,(Int32)1],split_channels:[],strides:[(Int32)1,(Int32)1],workspace_size_MB:(Int32)32} : (builtin.tensor<-1x3x32x32xf32>, builtin.tensor<8x3x3x3xf32>, builtin.tensor<8xf32>, <<NULL TYPE>>) -> builtin.tensor<-1x8x32x32xf32>
    (%4) = "pd_op.full_int_array" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),value:[(Int64)2,(Int64)3]} : () -> builtin.tensor<2xi64>
    (%5) = "pd_op.mean" (%3, %4) {keepdim:false} : (builtin.tensor<-1x8x32x32xf32>, builtin.tensor<2xi64>) -> builtin.tensor<-1x8xf32>
    () = "builtin.shadow_output" (%5) {output_name:"pooled"} : (builtin.tensor<-1x8xf32>) ->
    () = "builtin.shadow_output" (%3) {output_name:"features"} : (builtin.tensor<-1x8x32x32xf32>) ->
}
`

func TestEncodeExported(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p := parsePIR(t, ctx, exported)
	p.CollectParams()
	src, err := Encode(p, WriteOptions{ModelName: "exported"})
	require.NoError(t, err)
	model := string(src.Model)
	assert.Contains(t, model, "    def forward(self, parameter_0, parameter_1, x):\n")
	assert.Contains(t, model, `        # pd_op.fused_conv2d_add_act: (-1x8x32x32xf32) <- (-1x3x32x32xf32, 8x3x3x3xf32, 8xf32, None)
        fused_conv2d_add_act_0 = paddle._C_ops.fused_conv2d_add_act(
            x,
            parameter_0,
            parameter_1,
            None,
            [1, 1],
            [1, 1],
            "EXPLICIT",
            [1, 1],
            1,
            "NCHW",
            "relu",
            [],
            False,
            32,
            float("0"),
        )
        del parameter_0, parameter_1, x
`, "a fused op written from its schema's argument order, one argument per line when they do not fit on one")
	assert.Contains(t, model, "        return mean_0, fused_conv2d_add_act_0\n", "outputs in the order of the output ops")
	assert.Contains(t, string(src.WeightMeta), "class Program_weight_tensor_parameter_0:\n    name = \"parameter_0\"\n    original_name = \"conv2d_0.w_0\"\n    shape = [8, 3, 3, 3]\n")
	assert.Contains(t, string(src.InputMeta), "    shape = [None, 3, 32, 32]\n", "dynamic dims become None")
	assert.Contains(t, string(src.JSON), `"model_name": "exported"`)

	// Read back, the program has the GraphNet names and marks the outputs with fetch ops.
	q, err := Decode(ctx, src)
	require.NoError(t, err)
	require.Empty(t, ir.Verify(q))
	assert.Equal(t, "conv2d_0.w_0", q.Params["parameter_0"].OriginalName)
	assert.Equal(t, []int64{-1, 3, 32, 32}, q.Feeds["x"].Type.(*ir.TensorType).Dims)
	var fetched []string
	for op := range q.Walk() {
		if op.Name() == opFetch {
			n, _ := ir.AsString(op.Attr("name"))
			fetched = append(fetched, n)
		}
	}
	assert.Equal(t, []string{"fetch_name_0", "fetch_name_1"}, fetched)
}

func TestEncodeData(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p := parsePIR(t, ctx, `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)int32,name:"ids",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[3]} : () -> builtin.tensor<3xi32>
    (%1) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"in put",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[3]} : () -> builtin.tensor<3xf32>
    (%2) = "pd_op.cast" (%0) {dtype:(pd_op.DataType)float32} : (builtin.tensor<3xi32>) -> builtin.tensor<3xf32>
    (%3) = "pd_op.add" (%2, %1) {} : (builtin.tensor<3xf32>, builtin.tensor<3xf32>) -> builtin.tensor<3xf32>
    (%4) = "pd_op.fetch" (%3) {col:(Int32)0,name:"out"} : (builtin.tensor<3xf32>) -> builtin.tensor<3xf32>
}
`)
	i32 := p.Body().First().Result(0).Type()
	f32 := p.Body().First().Next().Result(0).Type()
	p.Feeds = map[string]*ir.Variable{
		"ids":    {Name: "ids", Type: i32, Data: []byte{1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 7, 0, 0, 0}},
		"in put": {Name: "in put", Type: f32, Data: []byte{0, 0, 0x80, 0x3f, 0, 0, 0, 0xbf, 0xcd, 0xcc, 0xcc, 0x3d}},
	}
	src, err := Encode(p, WriteOptions{})
	require.NoError(t, err)
	in := string(src.InputMeta)
	assert.Contains(t, in, "    data = [1, -2, 7]\n")
	assert.Contains(t, in, "class Program_weight_tensor_data_0:\n    name = \"data_0\"\n    original_name = \"in put\"\n", "names that are not identifiers become data_N")
	assert.Contains(t, in, "    data = [1.0, -0.5, 0.1]\n", "float32 data as Python writes the shortest float32 digits")
	assert.Contains(t, string(src.Model), "    def forward(self, ids, data_0):\n")
	assert.Contains(t, string(src.JSON), `"model_name": "t"`, "named after the file the program was read from")
	q, err := Decode(ctx, src)
	require.NoError(t, err)
	assert.Equal(t, p.Feeds["ids"].Data, q.Feeds["ids"].Data)
	assert.Equal(t, p.Feeds["in put"].Data, q.Feeds["data_0"].Data)
}

func TestEncodeErrors(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	head := `    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[3]} : () -> builtin.tensor<3xf32>
`
	tests := []struct{ name, body, want string }{
		{"no outputs", `    (%1) = "pd_op.relu" (%0) {} : (builtin.tensor<3xf32>) -> builtin.tensor<3xf32>
`, "t.pir: error: the program has no outputs (pd_op.fetch or builtin.shadow_output), so its forward would return nothing"},
		{"unregistered op", `    (%1) = "my.op" (%0) {} : (builtin.tensor<3xf32>) -> builtin.tensor<3xf32>
    (%2) = "pd_op.fetch" (%1) {col:(Int32)0,name:"out"} : (builtin.tensor<3xf32>) -> builtin.tensor<3xf32>
`, "t.pir:3:5: error: my.op: the op is not in the catalog, so its Python call is unknown"},
		{"legacy mean", `    (%1) = "pd_op.mean" (%0) {axis:(pd_op.IntArray)[0],keepdim:false} : (builtin.tensor<3xf32>) -> builtin.tensor<f32>
    (%2) = "pd_op.fetch" (%1) {col:(Int32)0,name:"out"} : (builtin.tensor<f32>) -> builtin.tensor<f32>
`, "t.pir:3:5: error: pd_op.mean: has the older form where axis is an attribute; GraphNet passes it as an operand"},
		{"regions", `    (%1) = "pd_op.full" () {dtype:(pd_op.DataType)bool,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],value:(Double)1} : () -> builtin.tensor<1xb>
    (%2) = "pd_op.if" (%1) {} -> builtin.tensor<3xf32> {
        () = "cf.yield" (%0) {} : (builtin.tensor<3xf32>) ->
    } else {
        () = "cf.yield" (%0) {} : (builtin.tensor<3xf32>) ->
    }
    (%3) = "pd_op.fetch" (%2) {col:(Int32)0,name:"out"} : (builtin.tensor<3xf32>) -> builtin.tensor<3xf32>
`, "t.pir:4:5: error: pd_op.if: ops with regions (control flow) cannot be written as a GraphNet graph"},
		{"malformed assign", `    (%1) = "pd_op.assign" () {} : () -> builtin.tensor<3xf32>
    (%2) = "pd_op.fetch" (%1) {col:(Int32)0,name:"out"} : (builtin.tensor<3xf32>) -> builtin.tensor<3xf32>
`, "t.pir:3:5: error: pd_op.assign: has 0 operands; GraphNet's statement for it takes 1"},
		{"input without result", `    () = "builtin.parameter" () {parameter_name:"w"} : () ->
    (%1) = "pd_op.fetch" (%0) {col:(Int32)0,name:"out"} : (builtin.tensor<3xf32>) -> builtin.tensor<3xf32>
`, "t.pir:3:5: error: builtin.parameter: an input op needs one result and no operands"},
		{"value tensors", `    (%1) = "pd_op.to_vtensor" (%0) {} : (builtin.tensor<3xf32>) -> pd_op.v_tensor<3xf32>
    (%2) = "pd_op.to_tensor" (%1) {} : (pd_op.v_tensor<3xf32>) -> builtin.tensor<3xf32>
    (%3) = "pd_op.fetch" (%2) {col:(Int32)0,name:"out"} : (builtin.tensor<3xf32>) -> builtin.tensor<3xf32>
`, "t.pir:3:5: error: pd_op.to_vtensor: result 0 has type pd_op.v_tensor<3xf32>, which a GraphNet comment cannot spell"},
		{"internal op", `    (%1) = "pd_op.to_tensor" (%0) {} : (builtin.tensor<3xf32>) -> builtin.tensor<3xf32>
    (%2) = "pd_op.fetch" (%1) {col:(Int32)0,name:"out"} : (builtin.tensor<3xf32>) -> builtin.tensor<3xf32>
`, "t.pir:3:5: error: pd_op.to_tensor: pirdrr's own op has no paddle._C_ops function (lower value tensors before writing)"},
		{"missing attribute", `    (%1) = "pd_op.cast" (%0) {} : (builtin.tensor<3xf32>) -> builtin.tensor<3xi32>
    (%2) = "pd_op.fetch" (%1) {col:(Int32)0,name:"out"} : (builtin.tensor<3xi32>) -> builtin.tensor<3xi32>
`, "t.pir:3:5: error: pd_op.cast: has no attribute dtype and the catalog gives no default"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := parsePIR(t, ctx, "{\n"+head+tt.body+"}\n")
			p.File = "t.pir"
			_, err := Encode(p, WriteOptions{})
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestPythonFormatting(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		bits int
		g, r string
	}{
		{1, 64, "1", "1.0"},
		{-10000, 64, "-10000", "-10000.0"},
		{0.1, 64, "0.1", "0.1"},
		{2.1163e-05, 64, "2.1163e-05", "2.1163e-05"},
		{1e16, 64, "1e+16", "1e+16"},
		{123456789012345, 64, "1.23456789012345e+14", "123456789012345.0"},
		{0.0001, 64, "0.0001", "0.0001"},
		{float64(float32(0.224629)), 32, "0.224629", "0.224629"},
		{float64(float32(1e-12)), 32, "1e-12", "1e-12"},
		{0.123456789, 64, "0.123456789", "0.123456789"},
		{float64(float32(3.40282e+38)), 32, "3.40282e+38", "3.40282e+38"},
	} {
		assert.Equal(t, tt.g, floatText(tt.v, tt.bits), "%v", tt.v)
		assert.Equal(t, tt.r, pyRepr(tt.v, tt.bits), "%v", tt.v)
	}
	assert.Equal(t, `float("nan")`, pyFloat(nan(), 64))
	assert.Equal(t, `"a\"b\\c\n\x01é"`, pyString("a\"b\\c\n\x01é"))

	var b strings.Builder
	call("paddle._C_ops.f", list(atom("1"), atom("2")), atom(strings.Repeat("y", 60))).layout(&b, 8, "        x = ", "\n")
	assert.Equal(t, "paddle._C_ops.f(\n            [1, 2], "+strings.Repeat("y", 60)+"\n        )\n", b.String(),
		"the arguments on one line when they fit there")
	b.Reset()
	call("paddle._C_ops.f", list(atom("1"), atom("2")), atom(strings.Repeat("y", 70))).layout(&b, 8, "        x = ", "\n")
	assert.Equal(t, "paddle._C_ops.f(\n            [1, 2],\n            "+strings.Repeat("y", 70)+",\n        )\n", b.String(),
		"else one per line with a trailing comma")
}

func nan() float64 {
	var zero float64
	return zero / zero
}
