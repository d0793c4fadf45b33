package cost

// collectiveFamily holds the communication ops of distributed programs, one kernel each: the bytes they read from
// and write to the device's memory (the network transfer is not modeled), and for reductions one operation per
// element received.
var collectiveFamily = family{
	name: "collective",
	doc:  "collectives: local bytes read and written (the network is not modeled), reductions one operation per element",
	ops: map[string]formula{
		"pd_op.c_allreduce_sum_":  reduceCollective,
		"pd_op.c_allreduce_sum":   reduceCollective,
		"pd_op.c_allreduce_max":   reduceCollective,
		"pd_op.c_allreduce_min":   reduceCollective,
		"pd_op.c_allreduce_prod":  reduceCollective,
		"pd_op.c_allreduce_avg":   reduceCollective,
		"pd_op.all_reduce":        reduceCollective,
		"pd_op.all_reduce_":       reduceCollective,
		"pd_op.c_reduce_sum":      reduceCollective,
		"pd_op.c_reduce_max":      reduceCollective,
		"pd_op.c_reduce_min":      reduceCollective,
		"pd_op.c_reduce_prod":     reduceCollective,
		"pd_op.c_reduce_avg":      reduceCollective,
		"pd_op.c_reducescatter":   reduceCollective,
		"pd_op.reduce_scatter":    reduceCollective,
		"pd_op.mp_allreduce_sum":  reduceCollective,
		"pd_op.c_allgather":       copyAll,
		"pd_op.all_gather":        copyAll,
		"pd_op.c_broadcast":       copyAll,
		"pd_op.c_concat":          copyAll,
		"pd_op.c_split":           copyAll,
		"pd_op.c_scatter":         copyAll,
		"pd_op.partial_allgather": copyAll,
		"pd_op.partial_concat":    copyAll,
		"pd_op.partial_sum":       copyAll,
		"pd_op.send_v2":           copyAll,
		"pd_op.recv_v2":           copyAll,
		"pd_op.partial_send":      copyAll,
		"pd_op.partial_recv":      copyAll,
		"pd_op.global_gather":     copyAll,
		"pd_op.global_scatter":    copyAll,
	},
}

// reduceCollective: one operation per element of the operand.
func reduceCollective(v *opView) (Work, error) {
	x, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	return Work{FLOPs: x.elems(), Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Vector, DType: x.dt}, nil
}
