package cost

// viewFamily holds the ops that run no kernel: views and metadata. A view's result aliases its operand's buffer
// with new dims (the catalog's view(x -> out) map: reshape, flatten, squeeze, unsqueeze, share_data, view_shape,
// view_dtype, as_strided, depend, tensor_unfold, index_select_strided); on contiguous data — every tensor of a
// program but an as_strided result is — Paddle changes the meta and shares the allocation. shape, shape64 and numel
// read the dims, which the host knows, and write a small host tensor. full_int_array is a host constant.
var viewFamily = family{
	name: "view",
	doc:  "views and metadata: no kernel, no bytes (the result shares its operand's buffer, or the host knows it)",
	ops: map[string]formula{
		"pd_op.reshape":              view,
		"pd_op.flatten":              view,
		"pd_op.squeeze":              view,
		"pd_op.unsqueeze":            view,
		"pd_op.share_data":           view,
		"pd_op.view_shape":           view,
		"pd_op.view_dtype":           view,
		"pd_op.as_strided":           view,
		"pd_op.depend":               view,
		"pd_op.tensor_unfold":        view,
		"pd_op.index_select_strided": view,
		"pd_op.shape":                view,
		"pd_op.shape64":              view,
		"pd_op.numel":                view,
		"pd_op.full_int_array":       view,
		"pd_op.c_identity":           view,
	},
}

func view(*opView) (Work, error) { return none, nil }
