{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)int64,name:"x1",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1,30],stop_gradient:[true]} : () -> builtin.tensor<1x30xi64>
    (%1) = "pd_op.data" () {dtype:(pd_op.DataType)int64,name:"x2",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1,30],stop_gradient:[true]} : () -> builtin.tensor<1x30xi64>
    (%2) = "builtin.parameter" () {parameter_name:"embedding_0.w_0"} : () -> builtin.tensor<512x768xf32>
    (%3) = "builtin.parameter" () {parameter_name:"embedding_1.w_0"} : () -> builtin.tensor<30522x768xf32>
    (%4) = "builtin.parameter" () {parameter_name:"embedding_2.w_0"} : () -> builtin.tensor<2x768xf32>
    (%5) = "builtin.parameter" () {parameter_name:"layer_norm_0.w_0"} : () -> builtin.tensor<768xf32>
    (%6) = "builtin.parameter" () {parameter_name:"layer_norm_0.b_0"} : () -> builtin.tensor<768xf32>
    (%7) = "pd_op.embedding" (%0, %2) {padding_idx:(Int64)-1,sparse:false} : (builtin.tensor<1x30xi64>, builtin.tensor<512x768xf32>) -> builtin.tensor<1x30x768xf32>
    (%8) = "pd_op.embedding" (%0, %3) {padding_idx:(Int64)-1,sparse:false} : (builtin.tensor<1x30xi64>, builtin.tensor<30522x768xf32>) -> builtin.tensor<1x30x768xf32>
    (%9) = "pd_op.add" (%7, %8) {} : (builtin.tensor<1x30x768xf32>, builtin.tensor<1x30x768xf32>) -> builtin.tensor<1x30x768xf32>
    (%10) = "pd_op.embedding" (%1, %4) {padding_idx:(Int64)-1,sparse:false} : (builtin.tensor<1x30xi64>, builtin.tensor<2x768xf32>) -> builtin.tensor<1x30x768xf32>
    (%11) = "pd_op.add" (%9, %10) {} : (builtin.tensor<1x30x768xf32>, builtin.tensor<1x30x768xf32>) -> builtin.tensor<1x30x768xf32>
    (%12, %13, %14) = "pd_op.layer_norm" (%11, %5, %6) {begin_norm_axis:(Int32)2,epsilon:(Float)1e-05} : (builtin.tensor<1x30x768xf32>, builtin.tensor<768xf32>, builtin.tensor<768xf32>) -> builtin.tensor<1x30x768xf32>, builtin.tensor<1x30xf32>, builtin.tensor<1x30xf32>
    (%15) = "pd_op.assign" (%12) {} : (builtin.tensor<1x30x768xf32>) -> builtin.tensor<1x30x768xf32>
    (%16) = "pd_op.fetch" (%15) {col:(Int32)0,name:"fetch_name_0"} : (builtin.tensor<1x30x768xf32>) -> builtin.tensor<1x30x768xf32>
}
