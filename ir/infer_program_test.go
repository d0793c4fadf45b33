package ir_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

// The rules of the ops whose types come from their program or regions (weights, feeds, control flow, stacks,
// vectors) are tested on a program: every op's types must be what CheckResultTypes infers again.
const inferProgram = `{
    (%0) = "builtin.parameter" () {parameter_name:"w"} : () -> builtin.tensor<4x3xf32>
    (%1) = "builtin.get_parameter" () {parameter_name:"w"} : () -> builtin.tensor<4x3xf32>
    (%2) = "builtin.constant" () {value:(TensorName)"w"} : () -> builtin.tensor<4x3xf32>
    (%3) = "pd_op.feed" () {name:"x",col:(Int32)0} : () -> builtin.tensor<2x4xf32>
    (%4) = "pd_op.matmul" (%3, %0) {transpose_x:false,transpose_y:false} : (builtin.tensor<2x4xf32>, builtin.tensor<4x3xf32>) -> builtin.tensor<2x3xf32>
    (%5) = "pd_op.full" () {shape:(pd_op.IntArray)[1],value:(Double)1,dtype:(pd_op.DataType)bool,place:(pd_op.Place)Place(cpu)} : () -> builtin.tensor<1xb>
    (%6, %27) = "pd_op.if" (%5) {stop_gradient:[true,true]} -> builtin.tensor<2x3xf32>, builtin.tensor<1xb> {
        (%7) = "pd_op.relu" (%4) {} : (builtin.tensor<2x3xf32>) -> builtin.tensor<2x3xf32>
        () = "cf.yield" (%7, %5) {} : (builtin.tensor<2x3xf32>, builtin.tensor<1xb>) ->
    } else {
        () = "cf.yield" (%4, %5) {} : (builtin.tensor<2x3xf32>, builtin.tensor<1xb>) ->
    }
    (%8, %9) = "pd_op.while" (cond=%5, inputs=%4, %5) {stop_gradient:[true,true]} -> builtin.tensor<2x3xf32>, builtin.tensor<1xb> {
    ^%arg_0, %arg_1
        (%10) = "pd_op.tanh" (%arg_0) {} : (builtin.tensor<2x3xf32>) -> builtin.tensor<2x3xf32>
        () = "cf.yield" (%arg_1, %10, %arg_1) {} : (builtin.tensor<1xb>, builtin.tensor<2x3xf32>, builtin.tensor<1xb>) ->
    }
    (%11, %12, %13) = "cf.stack_create" () {} : () -> cf.stack, cf.inlet, cf.outlet
    () = "cf.tuple_push" (%12, %4, %5) {} : (cf.inlet, builtin.tensor<2x3xf32>, builtin.tensor<1xb>) ->
    (%14, %15) = "cf.tuple_pop" (%13) {} : (cf.outlet) -> builtin.tensor<2x3xf32>, builtin.tensor<1xb>
    (%16) = "cf.has_elements" (%11) {} : (cf.stack) -> builtin.tensor<1xb>
    (%17) = "pd_op.to_vtensor" (%4) {} : (builtin.tensor<2x3xf32>) -> pd_op.v_tensor<2x3xf32>
    (%18) = "pd_op.to_tensor" (%17) {} : (pd_op.v_tensor<2x3xf32>) -> builtin.tensor<2x3xf32>
    (%19) = "builtin.combine" (%4, %5) {} : (builtin.tensor<2x3xf32>, builtin.tensor<1xb>) -> vec[builtin.tensor<2x3xf32>,builtin.tensor<1xb>]
    (%20, %21) = "builtin.split" (%19) {} : (vec[builtin.tensor<2x3xf32>,builtin.tensor<1xb>]) -> builtin.tensor<2x3xf32>, builtin.tensor<1xb>
    (%22) = "builtin.slice" (%19) {index:(Int32)1} : (vec[builtin.tensor<2x3xf32>,builtin.tensor<1xb>]) -> builtin.tensor<1xb>
    (%23) = "pd_op.full" () {shape:(pd_op.IntArray)[1],value:(Double)0,dtype:(pd_op.DataType)int32,place:(pd_op.Place)Place(cpu)} : () -> builtin.tensor<1xi32>
    (%24, %25) = "pd_op.select_output" (%23, %4) {} : (builtin.tensor<1xi32>, builtin.tensor<2x3xf32>) -> builtin.tensor<2x3xf32>, builtin.tensor<2x3xf32>
    (%26) = "pd_op.select_input" (%23, %24, %25) {} : (builtin.tensor<1xi32>, builtin.tensor<2x3xf32>, builtin.tensor<2x3xf32>) -> builtin.tensor<2x3xf32>
}
`

func TestInferProgramRules(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p, _, err := pirtext.Parse(ctx, "infer.pir", []byte(inferProgram), pirtext.ReadOptions{})
	require.NoError(t, err)
	p.Feeds = map[string]*ir.Variable{"x": {Name: "x", Type: ctx.Tensor("builtin.tensor", []int64{2, 4},
		ctx.Scalar(ir.DTypeFloat32))}}
	checked := map[string]bool{}
	for op := range p.Walk() {
		if op.Schema() == nil || op.Schema().Infer == "" {
			continue
		}
		assert.NoError(t, ctx.CheckResultTypes(op, p), op.Name())
		checked[op.Name()] = true
	}
	for op := range goTestedOps {
		assert.True(t, checked[op], "%s is not in the program", op)
	}

	// A type the program gives is checked, not taken: a wrong one is reported.
	bad, _, err := pirtext.Parse(ctx, "bad.pir", []byte(`{
    (%0) = "builtin.parameter" () {parameter_name:"w"} : () -> builtin.tensor<4x3xf32>
    (%1) = "pd_op.full" () {shape:(pd_op.IntArray)[1],value:(Double)1,dtype:(pd_op.DataType)bool,place:(pd_op.Place)Place(cpu)} : () -> builtin.tensor<1xb>
    (%2) = "pd_op.if" (%1) {stop_gradient:[true]} -> builtin.tensor<4x4xf32> {
        () = "cf.yield" (%0) {} : (builtin.tensor<4x3xf32>) ->
    } else {
        () = "cf.yield" (%0) {} : (builtin.tensor<4x3xf32>) ->
    }
}
`), pirtext.ReadOptions{})
	require.NoError(t, err)
	var errs []string
	for op := range bad.Walk() {
		if err := ctx.CheckResultTypes(op, bad); err != nil {
			errs = append(errs, err.Error())
		}
	}
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0], "4x3xf32")

	// Without its program, a weight's or a feed's type cannot be known.
	for _, name := range []string{"builtin.parameter", "pd_op.feed"} {
		_, err := ctx.InferResultTypes(ctx.Schema(name), nil, nil)
		assert.Error(t, err, name)
	}
}
