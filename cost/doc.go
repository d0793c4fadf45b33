// Package cost estimates what a program costs per inference: which ops run on every inference and which only once
// at load time, how many kernels the runtime ones launch, the operations they do and the bytes they move, and the
// time that takes on a device. It is what "a rewrite is worth" means in every report of pirdrr (package stats):
// drrc cost, drrc apply -stats, drrc verify and the playground.
//
//	m, _ := cost.NewModel("a100")
//	r := m.Analyze(p)        // every op's cost, and r.Summary
//	table := r.ByType()      // the per-op-type table, costliest first
//
// # Runtime and load time
//
// A forward dataflow over the program, nested regions included, marks the values computed per inference: the
// program's inputs (pd_op.data, pd_op.feed), the results of ops with side effects that are not outputs (random
// ops, collectives) and of unregistered ops without operands, and everything computed from them. A runtime op that
// writes an operand in place (an inplace twin, set_value_) makes that buffer a runtime value from then on. A region's
// arguments are runtime when its op's operands are, and an op with regions is runtime when an op inside it is. Every
// other op computes from weights and constants only: Paddle's constant_folding_pass evaluates it once, into a new
// parameter, and so does pirdrr's fold_constants when the weights have data.
//
// Ops have roles (Role): compute ops are counted as runtime or load-time ops; sources (inputs, parameters,
// constants), sinks (fetch, shadow_output, set_parameter) and plumbing (builtin.combine, split and slice, the cf
// dialect, if and while themselves) are not, since they move no data.
//
// # Kernels
//
// A compute op is one kernel — a fused op too, which is the point of fusing — except the ops that move no data:
// views (the catalog's view(x -> out) ops: reshape, flatten, squeeze, unsqueeze, share_data, view_shape, …, whose
// result shares its operand's allocation with new dims, which is how Paddle runs them on contiguous data, and every
// tensor of a program but an as_strided result is contiguous), metadata the host knows (shape, shape64, numel) and
// host constants (full_int_array); empty and empty_like allocate without a kernel. A region CINN compiles
// (cinn_op.group) is one kernel holding its ops.
//
// # Operations and bytes
//
// Each op family has one file, family_NAME.go, holding the formulas of its ops, fused ones included, with a
// comment saying what they count: view, elementwise, movement, reduce, matmul, conv, attention, norm, image,
// sequence, collective, compiler (Families lists them with their ops). A multiply-add is two operations, as in XLA's
// cost analysis. Bytes are element counts times element sizes of the operand and result types; an op reads its
// operands and writes its results once, a gather only what it gathers. An inplace twin (relu_) costs what its
// non-inplace op does; a kernel-dialect op ("add(phi_kernel)") what the op its op_name names does. A dynamic (-1)
// dim counts as Model.DynamicDim, 1 by default: one sample per inference. An op without a formula, or whose types
// its formula cannot read, is uncosted: counted in Summary.Uncosted and named, its figures missing from the sums,
// never silently zero. cinn_runtime.jit_kernel, whose body the program does not hold, counts one operation per
// element written: a lower bound.
//
// # Time
//
// Devices (Device, devices.json) are data: peak rates per element type for the vector and the matrix units,
// memory bandwidth and launch overhead, each figure with its source (vendor datasheets; XLA's GPU performance model
// for the 1 µs launch). Each runtime kernel takes, as XLA's gpu_performance_model estimates a kernel, the longer of
// its compute time (operations over the rate of its unit and type) and its memory time (bytes over the bandwidth),
// plus the launch overhead; if ops take the costlier branch, while bodies count one iteration. The estimate is an
// Interval: the upper end moves every byte through device memory (XLA's estimate), the lower end only the bytes
// that must move whatever is fused — weights, constants and inputs read, program outputs written. A fusion thus
// lowers the lower end by the launches it saves alone, and the upper end by the launches and the bytes.
package cost
