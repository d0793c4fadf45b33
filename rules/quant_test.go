package rules_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/ir"
)

// TestWeightDequantFoldsWithWeights: with weight data, gpu_inference turns a dequantized int8 filter (and a
// quantize/dequantize pair on the activation) into a conv2d reading one new float32 parameter: the weight ops
// delete_weight_dequant_linear builds are evaluated by fold_constants, as the conv+bn fold's are, and the program
// computes what it computed (up to the activation's quantization, which the pair removal drops on purpose).
func TestWeightDequantFoldsWithWeights(t *testing.T) {
	src := `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1,4,8,8],stop_gradient:[true]} : () -> builtin.tensor<1x4x8x8xf32>
    (%1) = "builtin.parameter" () {parameter_name:"x_scale"} : () -> builtin.tensor<1xf32>
    (%2) = "builtin.parameter" () {parameter_name:"zero_point"} : () -> builtin.tensor<1xf32>
    (%3, %4, %5, %6) = "pd_op.quantize_linear" (%0, %1, %2, <<NULL VALUE>>, <<NULL VALUE>>) {bit_length:(Int32)8,is_test:true,only_observer:false,qmax:(Int32)127,qmin:(Int32)-128,quant_axis:(Int32)-1,round_type:(Int32)0} : (builtin.tensor<1x4x8x8xf32>, builtin.tensor<1xf32>, builtin.tensor<1xf32>, <<NULL TYPE>>, <<NULL TYPE>>) -> builtin.tensor<1x4x8x8xf32>, <<NULL TYPE>>, <<NULL TYPE>>, builtin.tensor<1xf32>
    (%7, %8, %9, %10) = "pd_op.dequantize_linear" (%3, %1, %2, <<NULL VALUE>>, <<NULL VALUE>>) {bit_length:(Int32)8,is_test:true,only_observer:false,qmax:(Int32)127,qmin:(Int32)-128,quant_axis:(Int32)-1,round_type:(Int32)0} : (builtin.tensor<1x4x8x8xf32>, builtin.tensor<1xf32>, builtin.tensor<1xf32>, <<NULL TYPE>>, <<NULL TYPE>>) -> builtin.tensor<1x4x8x8xf32>, <<NULL TYPE>>, <<NULL TYPE>>, builtin.tensor<1xf32>
    (%11) = "builtin.parameter" () {parameter_name:"weight"} : () -> builtin.tensor<6x4x3x3xi8>
    (%12) = "builtin.parameter" () {parameter_name:"weight_scale"} : () -> builtin.tensor<6xf32>
    (%13, %14, %15, %16) = "pd_op.dequantize_linear" (%11, %12, %2, <<NULL VALUE>>, <<NULL VALUE>>) {bit_length:(Int32)8,is_test:true,only_observer:false,qmax:(Int32)127,qmin:(Int32)-128,quant_axis:(Int32)0,round_type:(Int32)0} : (builtin.tensor<6x4x3x3xi8>, builtin.tensor<6xf32>, builtin.tensor<1xf32>, <<NULL TYPE>>, <<NULL TYPE>>) -> builtin.tensor<6x4x3x3xf32>, <<NULL TYPE>>, <<NULL TYPE>>, builtin.tensor<6xf32>
    (%17) = "pd_op.conv2d" (%7, %13) {data_format:"NCHW",dilations:[(Int32)1,(Int32)1],groups:(Int32)1,padding_algorithm:"EXPLICIT",paddings:[(Int32)1,(Int32)1],strides:[(Int32)1,(Int32)1]} : (builtin.tensor<1x4x8x8xf32>, builtin.tensor<6x4x3x3xf32>) -> builtin.tensor<1x6x8x8xf32>
    (%18) = "pd_op.fetch" (%17) {col:(Int32)0,name:"out0"} : (builtin.tensor<1x6x8x8xf32>) -> builtin.tensor<1x6x8x8xf32>
}`
	before := parse(t, src)
	n, err := feeds.FillRandomWeights(before, 7, feeds.Options{})
	require.NoError(t, err)
	require.Equal(t, 4, n)
	after := before.Clone()
	runPasses(t, after, "gpu_inference")

	ops := map[string]int{}
	for op := range after.Walk() {
		ops[op.Name()]++
	}
	assert.Equal(t, map[string]int{"pd_op.data": 1, "builtin.parameter": 1, "pd_op.conv2d": 1, "pd_op.fetch": 1}, ops,
		"the dequantizations and the weight ops are gone")
	var filter *ir.Op
	for op := range after.Walk() {
		if op.Name() == "pd_op.conv2d" {
			filter = op.Operand(1).DefiningOp()
		}
	}
	require.Equal(t, ir.ParameterOpName, filter.Name())
	assert.Equal(t, "builtin.tensor<6x4x3x3xf32>", filter.Result(0).Type().String(), "a float32 filter")

	rep, err := compare.Programs(before, after, compare.Options{Runs: 2})
	require.NoError(t, err, "%v", rep)
	assert.Greater(t, rep.Outputs[0].MaxRel, 0.0, "the activation's quantization is dropped")
}
