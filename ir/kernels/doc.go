// Package kernels says whether Paddle has a kernel for every op of a program on a target (ir.Target): the kernel
// tables of ir/catalog (kernels_gpu.kernels, kernels_cpu.kernels) as data, and the check that reads them (drrc
// check -target, and the kernel_check pass).
//
// A table lists, per op, the kernels Paddle registers for the target, in the order Paddle's kernel selection
// tries them (a kernel with an if(…) is chosen when its condition holds: fused_conv2d_add_act runs its cutlass
// kernel when force_backend is "gpu", its cuDNN kernel otherwise), the data types each kernel registers
// (PD_REGISTER_KERNEL), which tensor's data type selects the kernel (key(%x); by default the first tensor
// operand, as Paddle's kernel key), and the conditions the kernel checks of the attribute values, shapes and the
// GPU's compute capability (require NAME: EXPR "message"). Every entry cites the Paddle source it comes from.
//
//	kernels gpu
//
//	/// fused_conv2d_add_act: conv2d + bias (+ residual) + activation.
//	op pd_op.fused_conv2d_add_act
//	    source "paddle/phi/kernels/fusion/gpu/fused_conv2d_add_act_kernel.cu"
//	    kernel cutlass if($force_backend == "gpu")
//	        dtypes(float32, float16, bfloat16)
//	        source "paddle/phi/kernels/fusion/cutlass/fused_conv2d_add_act_kernel.cu"
//	        require cutlass_arch: sm >= 75 "cutlass needs sm 75 or newer, not sm {sm}"
//	    kernel cudnn
//	        dtypes(float32, float64, float16)
//	        require cudnn_activation: $activation in ["identity", "relu"] "cuDNN fuses no {$activation}"
//
// Expressions read the op's attributes ($name, its schema default when the op does not carry it), its operands
// and results by schema name through functions (dtype(%x), rank(%x), dim(%x, 1), present(%residual)), the
// target's compute capability (sm) and literals (numbers, strings, data types, lists); they have ! && || ?: ==
// != < <= > >= in + - * / % and indexing. A value the program does not know — a dynamic dimension, an attribute
// that is absent without a default — makes a condition unknown: the check reports only what it knows fails. The
// braces of a message hold expressions that are printed with the finding.
//
// Ops the executor runs itself (builtin.combine, pd_op.data, …) are "instruction", ops with no kernel on the
// target "unsupported"; an op the table does not list is reported as unchecked (a warning), never as fine.
package kernels
