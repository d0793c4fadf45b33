package graphnet_test

import (
	"fmt"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/graphnet"
)

func ExampleDecode() {
	ctx, err := ir.NewDefaultContext()
	if err != nil {
		panic(err)
	}
	src := graphnet.Source{
		Dir: "matmul",
		Model: []byte(`import paddle


class GraphModule(paddle.nn.Layer):
    def __init__(self):
        super().__init__()

    def forward(self, parameter_0, data_0):
        # pd_op.matmul: (2x4xf32) <- (2x3xf32, 3x4xf32)
        matmul_0 = paddle._C_ops.matmul(data_0, parameter_0, False, False)
        del data_0, parameter_0

        return matmul_0
`),
		WeightMeta: []byte(`class Program_weight_tensor_parameter_0:
    name = "parameter_0"
    original_name = "linear_0.w_0"
    shape = [3, 4]
    dtype = "float32"
    min_val = float("-0.5")
    max_val = float("0.5")
    data = None
`),
		InputMeta: []byte(`class Program_weight_tensor_data_0:
    name = "data_0"
    shape = [2, 3]
    dtype = "float32"
    data = None
`),
	}
	p, err := graphnet.Decode(ctx, src)
	if err != nil {
		panic(err)
	}
	for op := range p.Walk() {
		fmt.Println(op.Name())
	}
	w := p.Params["parameter_0"]
	fmt.Println(w.OriginalName, w.Type, w.Stats.Min, w.Stats.Max, w.Stats.Has(ir.StatMean))
	// Output:
	// builtin.parameter
	// pd_op.data
	// pd_op.matmul
	// pd_op.fetch
	// linear_0.w_0 builtin.tensor<3x4xf32> -0.5 0.5 false
}
