// Package interp is pirdrr's reference interpreter: it evaluates a Paddle PIR program (an *ir.Program) on the CPU
// with real numbers, so that a rewrite can be checked by running the program before and after it on the same
// random inputs and weights. This package is the evaluator only: package feeds draws the inputs and weights
// (Feed), package compare runs two programs on them and compares their outputs within an error budget, and package
// verify drives both over pipelines and rules. Passes that compute with real numbers while they rewrite (package
// rules' fold_constants) evaluate single ops with an OpEvaluator.
//
// # Evaluation
//
// Evaluate runs a program with a Feed (inputs by the name of their pd_op.data / pd_op.feed op, parameters by
// name; parameters missing from the feed are given by its Drawer, else decoded from ir.Variable.Data) and returns
// its outputs: pd_op.fetch
// and builtin.set_parameter operands (copied when they run), builtin.shadow_output operands (read at the end), or,
// for programs with none of those (such as the GraphNet captures), the results of the sinks of the top-level block
// (ir.IsSink: ops none of whose results is used, inputs, parameters and constants aside).
// pd_op.if and pd_op.while evaluate their regions; ops in a region see the values of enclosing regions. The numeric
// kernels are those of package interp/tensor (conv2d as an implicit GEMM, matmul, pool2d, batch norm, …; products
// on assembly micro-kernels chosen by CPU feature, see Kernels) plus the element-wise, comparison, shape and
// reduction kernels of this package.
//
// Arithmetic is float64 by default (Options.Precision): every floating-point element type is computed in that
// precision, so that a mathematically equivalent rewrite agrees to ~1e-12 and the 1e-5 tolerance only catches real
// changes. Float32 computes in float32, and Auto in the precision of the program's types (float32 unless some
// tensor of more than one element is float64): a float32 model is then computed as Paddle computes it, in half the
// memory, and package compare widens each output's tolerance to its error budget (see Rounding). Integer and boolean tensors
// (shapes, loop counters, conditions) are held exactly — results declared integer are truncated toward zero,
// booleans are 0 or 1 — up to 2^53 (2^24 in float32 mode). Complex tensors (the results of fft_r2c) are held as
// interleaved real and imaginary parts; only the ops that know it (real, imag, abs, assign, share_data and the
// outputs) accept them, the others stop with ErrUnsupported rather than compute on the parts.
//
// An op the interpreter cannot evaluate — no kernel, or an attribute combination it does not implement
// (nearest_interp with bilinear method, fused_conv2d_add_act with split_channels, …) — stops evaluation with an
// *OpError "cannot evaluate pd_op.X at FILE:LINE" ("(new op)" for ops without a source position) wrapping
// ErrUnsupported. The interpreter never guesses a number and never panics (a panic in a kernel would be reported
// as an internal error).
//
// Every computed result is checked against the static dims of its declared type (Options.IgnoreDeclaredShapes
// turns this off when feeds.Options.InputShapes shrinks a fully static model), which catches rewrites that produce
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
// view of its operand is read later) produces different numbers, which a comparison reports. Views that also write
// (batch_norm in training updates its running statistics through mean_out/variance_out) write into the operand
// before sharing. transpose, concat, split, slice and expand copy, as Paddle's kernels do.
//
// batch_norm / batch_norm_ follow Paddle's CPU kernel: with global statistics (is_test && !trainable_statistics, or
// use_global_stats) they normalise with the running mean and variance; otherwise (training) with the batch's own
// mean and biased variance, and they update the running statistics in place. A conv+batch_norm fold that ignores
// is_test therefore changes the numbers of a training-mode program.
//
// # Parallelism and memory
//
// Matrix products, convolutions and element-wise maps are split across GOMAXPROCS goroutines at fixed boundaries
// (rows of micro-tiles, chunks of elements): every element is computed by the same sequence of operations whatever
// the split, so results are bit-identical for every GOMAXPROCS. A value is dropped right after the top-level op
// that reads it last (a parameter's buffer too), and a feed's Drawer gives parameters when they are first read
// (package feeds draws random weights so): a model whose weights do not fit in memory (a 7-billion-parameter graph
// drawn from statistics) is evaluated holding only the weights and activations of the ops in flight. A drawer may
// lend its buffers (Drawn.Borrowed: the draws a comparison keeps for its second program); the evaluation copies a
// borrowed buffer before it writes it. An evaluation may also keep values for a later one and take over values an
// earlier one kept (Options.Keep, Reuse and Carry: package compare's shared computations); the Carry holds kept
// values in buffers of its own, so that a later write of the keeping evaluation does not reach them, and taken
// values are borrowed too.
//
// # Random ops
//
// Random ops (uniform, gaussian, randint, bernoulli, randperm, dropout in training, …) draw from per-op streams
// seeded by Feed.Seed and the op's kind and rank among the random ops of that kind (or by the op's fixed seed
// attribute), so two programs running the same random ops in the same order draw the same numbers and are compared
// exactly. Outputs that depend on a random op are flagged (Output.Random, and compare.OutputDiff.Random): when a rewrite adds,
// removes or reorders random ops a difference may be a different draw, not a wrong rewrite.
//
// Collective ops (c_allreduce_sum, c_allgather, c_broadcast, …) run as in a world of one rank: what a single
// process computes.
//
// # Rounding
//
// Every output carries an estimate of its rounding error (Output.Rounding): a variance V in units of u² (u the unit
// roundoff of the evaluation's precision, Precision.UnitRoundoff). An op adds to the largest variance of its
// operands n for a reduction of n terms (the contraction length of a matmul or convolution, the row length of a
// softmax or a norm), 1 for an element-wise op, 0 for data movement; quantize_linear adds the variance of a
// rounding to its grid, (Δ/max|x|)²/12 in units of u² (Δ = scale/qmax). Package compare turns it into an error
// budget.
//
// # Evaluating single ops
//
// An OpEvaluator evaluates a program's ops one at a time in float64, each on the values earlier evaluations gave its
// operands, with the kernels and buffer semantics of Evaluate: package rules' fold_constants (FoldConstants) uses it
// to evaluate weight arithmetic into new parameters.
package interp
