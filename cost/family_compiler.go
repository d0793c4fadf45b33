package cost

// compilerFamily holds the ops of Paddle's CINN compiler, which programs carry between its stages: its
// element-wise, broadcast and reduction ops cost what their pd_op counterparts do; a cinn_op.group (fusedRegions)
// is one kernel whose operations are those of the ops it holds and whose bytes are the values it reads from outside
// and the results it yields; a cinn_runtime.jit_kernel is such a group compiled, whose body the program no longer
// holds: its bytes come from its types, and its operations are counted as one per element written, the least a
// kernel of fused element-wise and reduction ops does (a lower bound, said in the package documentation).
var compilerFamily = family{
	name: "compiler",
	doc:  "CINN's ops: as their pd_op counterparts; a group is one kernel; a compiled jit_kernel one operation per element written",
	ops: map[string]formula{
		"cinn_op.reduce_sum":      reduce(1),
		"cinn_op.reduce_max":      reduce(1),
		"cinn_op.reduce_min":      reduce(1),
		"cinn_op.reduce_prod":     reduce(1),
		"cinn_op.broadcast":       copyAll,
		"cinn_op.concat":          copyAll,
		"cinn_op.split":           copyAll,
		"cinn_op.slice":           gatherLike(0),
		"cinn_op.gather":          gatherLike(0),
		"cinn_op.scale":           elementwise(2),
		"cinn_op.reshape":         view,
		"cinn_op.generate_shape":  view,
		"cinn_op.uniform_random":  fill(1),
		"cinn_runtime.jit_kernel": jitKernel,
	},
}

// fusedRegions names the ops whose region is compiled into one kernel.
var fusedRegions = map[string]bool{"cinn_op.group": true, "cinn_op.fusion": true}

// jitKernel: bytes from the types, one operation per element written.
func jitKernel(v *opView) (Work, error) {
	elems := int64(0)
	for i := 0; i < v.op.NumResults(); i++ {
		for _, s := range v.typeList(v.op.Result(i).Type()) {
			elems += s.elems()
		}
	}
	return Work{FLOPs: elems, Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Vector, DType: computeType(v)}, nil
}
