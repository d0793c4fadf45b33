// Package interp is pirdrr's reference interpreter: it evaluates a Paddle PIR program (an *ir.Program) on the CPU
// with real numbers, so that a rewrite can be checked by running the program before and after it on the same
// random inputs and weights (Compare). A rewrite that changes what a model computes is the worst bug a rewrite
// engine can have; this package is the check that catches it. It also folds weight math into new weights with real
// numbers (FoldConstants).
//
// # Evaluation
//
// Evaluate runs a program with a Feed (inputs by the name of their pd_op.data / pd_op.feed op, parameters by
// name; parameters missing from the feed are decoded from ir.Variable.Data) and returns its outputs: pd_op.fetch
// and builtin.set_parameter operands (copied when they run), builtin.shadow_output operands (read at the end), or,
// for programs with none of those (such as the GraphNet captures), the results of top-level ops none of whose
// results is used (sinks).
// pd_op.if and pd_op.while evaluate their regions; ops in a region see the values of enclosing regions. The numeric
// kernels are those of package interp/tensor (conv2d by im2col + GEMM, pool2d, batch norm, matmul, …) plus the
// element-wise, comparison, shape and reduction kernels of this package.
//
// Arithmetic is float64 by default (Options.Precision selects float32): every floating-point element type is
// computed in that precision, so that a mathematically equivalent rewrite agrees to ~1e-12 and the 1e-5 tolerance
// only catches real changes. Integer and boolean tensors (shapes, loop counters, conditions) are held exactly —
// results declared integer are truncated toward zero, booleans are 0 or 1 — up to 2^53 (2^24 in float32 mode).
// Casts between floating-point types therefore do not lose precision.
//
// An op the interpreter cannot evaluate — no kernel, or an attribute combination it does not implement
// (nearest_interp with bilinear method, fused_conv2d_add_act with split_channels, …) — stops evaluation with an
// *OpError "cannot evaluate pd_op.X at FILE:LINE" ("(new op)" for ops without a source position) wrapping
// ErrUnsupported. The interpreter never guesses a number and never panics (a panic in a kernel would be reported
// as an internal error).
//
// Every computed result is checked against the static dims of its declared type (Options.IgnoreDeclaredShapes
// turns this off when Options.InputShapes shrinks a fully static model), which catches rewrites that produce
// values of the wrong shape even when the outputs happen to agree. Tensors above Options.MaxElements and
// convolutions or matmuls above Options.MaxMACs are errors, not out-of-memory crashes or apparent hangs.
//
// # Buffers and aliasing
//
// Values live in buffers. Every op result gets a fresh buffer, except:
//
//   - views: reshape, flatten, squeeze and unsqueeze results (schema view(x -> out)), builtin.combine / split /
//     slice elements, and the results of pd_op.if / pd_op.while (the yielded values) share the buffer of the value
//     they come from, as in Paddle;
//   - inplace results: for an op with an inplace map (relu_, add_, scale_, sigmoid_, batch_norm_'s statistics, …),
//     the kernel of the non-inplace op computes the result, which is then WRITTEN into the buffer of the inplace
//     operand, and the result shares that buffer;
//   - parameters: all reads of one parameter name share one buffer for the whole run (and builtin.set_parameter
//     replaces it).
//
// So a write through any value is seen through every value sharing its buffer: after y = reshape(x) and
// relu_(x), y reads the new values — and a rewrite that breaks or invents aliasing (turning relu_ into relu while a
// view of its operand is read later) produces different numbers, which Compare reports. Views that also write
// (batch_norm in training updates its running statistics through mean_out/variance_out) write into the operand
// before sharing. transpose, concat, split, slice and expand copy, as Paddle's kernels do.
//
// batch_norm / batch_norm_ follow Paddle's CPU kernel: with global statistics (is_test && !trainable_statistics, or
// use_global_stats) they normalise with the running mean and variance; otherwise (training) with the batch's own
// mean and biased variance, and they update the running statistics in place. A conv+batch_norm fold that ignores
// is_test therefore changes the numbers of a training-mode program.
//
// # Random data
//
// RandomFeed draws inputs and weights deterministically from a seed, one generator per tensor name, so a weight
// gets the same values in every program that reads it. Dynamic input dims take Options.Batch (dim 0, default 1)
// and Options.DynamicSize (default 32). Weights come from Options.ParamRange (DefaultParamRange: variances —
// parameters feeding a batch norm's variance, or a sqrt/rsqrt/log through add and reshape-like ops, as in a folded
// batch norm — from [0.5, 1.5], conv/matmul weights ±sqrt(3/fan_in), the rest from [-1, 1)). FillRandomWeights
// stores such weights in ir.Variable.Data.
//
// # Comparing programs
//
// Compare runs two programs on K random sets (the same seeds for both; inputs and parameters matched by name, so
// weights kept by a rewrite get the same data and weights a rewrite computes as ops on parameters are computed from
// it), matches their outputs (fetch by name or column, shadow_output by output_name, sinks in order) and reports,
// per output, the largest absolute error max|a−b| and the relative error max|a−b| / max(max|a|, Tiny): relative to
// the scale of the before output, not element by element, so outputs near zero do not produce huge ratios from
// rounding. An output fails above CompareOptions.RelTol (default 1e-5, the atol = rtol = 1e-5 of Paddle's
// check_pass_correct) and Compare then returns the report with an error wrapping ErrMismatch.
//
// # Constant folding
//
// FoldConstants evaluates ops whose operands are all constants (immutable parameters with data, full,
// full_int_array, and ops of those) and replaces their results by new parameters carrying the computed data, all
// through one *ir.Rewriter, so that a fused model has no sqrt/divide/multiply left on its weights.
package interp
