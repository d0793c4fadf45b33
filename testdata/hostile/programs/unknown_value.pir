{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[true]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.relu" (%9) {stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%2) = "pd_op.fetch" (%1) {col:(Int32)0,name:"out",persistable:[true],stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
}
