package main

import "os"

// Example runs the pipeline "plugin" on the sample model: the shipped inference pipeline, then the plugin's Go pass
// (dedup_constants merges the eps and reshape constants the batch-norm folds created) and its rules (tuning, which
// calls the native constraint is_channel_multiple: the first convolution, with 3 input channels, is left alone).
func Example() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// inplace                  converged, rewrites: 1
	//     deinplace                          applied 1 of 1 matched
	// value_semantics.wrap     changes: 21
	// value_semantics          converged, rewrites: 20
	//     snapshot_of_copy                   applied 20 of 20 matched
	// value_semantics.maximize changes: 1
	// conv_bn_relu             converged, rewrites: 12
	//     conv2d_bn_fold                     applied 5 of 5 matched
	//     conv2d_add                         applied 4 of 4 matched
	//     fused_conv2d_add_then_act          applied 2 of 2 matched
	//     fused_conv2d_add_residual_then_act applied 1 of 1 matched
	// value_semantics          converged, rewrites: 0
	// value_semantics.maximize changes: 0
	// value_semantics.lower    changes: 111
	// value_semantics          converged, rewrites: 29
	//     drop_copy                          applied 29 of 29 matched
	// dce                      changes: 0
	// reinplace                converged, rewrites: 7
	//     reinplace                          applied 7 of 7 matched
	// fold_constants           changes: 0
	// dedup_constants          changes: 11
	// tuning                   converged, rewrites: 3
	//     exhaustive_search_aligned          applied 2 of 2 matched
	//     exhaustive_search_aligned_residual applied 1 of 1 matched
	// ops: 51 -> 87
	//     pd_op.full                    0 -> 2
	//     pd_op.full_int_array          1 -> 3
	//     pd_op.fused_conv2d_add_act    0 -> 4
	// %39: channels 3 -> 16, exhaustive_search false
	// %49: channels 16 -> 16, exhaustive_search true
	// %59: channels 16 -> 16, exhaustive_search true
	// %81: channels 16 -> 32, exhaustive_search true
}
