// Package compare checks that two programs — a program before and after a rewrite — compute the same thing: it
// evaluates both with package interp on the same random inputs and weights (package feeds) and compares their
// outputs with a tolerance that accounts for floating-point rounding. A rewrite that changes what a model computes
// is the worst bug a rewrite engine can have; package verify drives this check over pipelines and rules.
//
// # Comparing programs
//
// Programs runs two programs on K random sets (the same seeds for both; inputs and parameters matched by name, so
// weights kept by a rewrite get the same data and weights a rewrite computes as ops on parameters are computed
// from it), matches their outputs (fetch by name or column, shadow_output by output_name, sinks in order; a
// shadow_output of after that only publishes an unwritten parameter before does not publish is no model output and
// is left out, see Programs) and reports, per output, the largest absolute error max|a−b| and the relative error
// max|a−b| / max(max|a|, Tiny): relative to the scale of the before output, not element by element, so outputs
// near zero do not produce huge ratios from rounding. An output fails above its tolerance — the larger of
// Options.RelTol (default 1e-5, the atol = rtol = 1e-5 of Paddle's check_pass_correct) and its error budget — and
// Programs then returns the report with an error wrapping ErrMismatch.
//
// # Error budgets
//
// The error budget accounts for floating-point rounding, which grows with the length of the reductions an output
// went through. The evaluator gives each output a rounding variance V in units of u² (interp.Output.Rounding, u the
// unit roundoff, 2⁻²⁴ in float32): an op adds to the largest variance of its operands n for a reduction of n
// terms (the contraction length of a matmul or convolution, the row length of a softmax or a norm), 1 for an
// element-wise op, 0 for data movement; quantize_linear adds the variance of a rounding to its grid, (Δ/max|x|)²/12
// in units of u² (Δ = scale/qmax), so that a rewrite removing a quantize/dequantize pair passes while one that
// loses the scale does not. Modelling the roundings as independent (Higham and Mary's probabilistic error
// analysis), an output then differs from its exact value by about √V·u of its scale, and the tolerance is
// BudgetFactor·u·√(Vbefore + Vafter) with DefaultBudgetFactor 4. In float64 the budget is far below 1e-5; in
// float32 it is what lets a fused float32 model differ from its unfused self by reassociation, while a wrong
// rewrite (an error of the order of the values) still fails by orders of magnitude. Measured float32-against-
// float64 errors of real models stay below a sixth of √V·u (docs/verify.md).
//
// # Shared computations
//
// The ops of after that a rewrite did not touch — the same op, attributes and result types on operands that are
// the same values, by induction from the same inputs and parameters — are not evaluated again: after takes the
// values before's evaluation computed (interp.Options.Reuse). Evaluated on the same feed with deterministic
// kernels they would give the same bits, so every report is the one evaluating both programs whole gives
// (Options.NoShare does that); only ops that read and write no buffer a live write changes are shared, and a value
// of after that an inplace op writes where it dies is computed again when its value of before stands for another
// of after's too (they would share one buffer). Programs' documentation and docs/verify.md give the argument.
//
// A float32 mismatch found with the precision chosen automatically is confirmed in float64, on the runs that
// failed, before it is reported;
// programs whose static inputs bake a large captured batch in are first compared rebatched (feeds.RebatchPrograms);
// programs that cannot be evaluated at the default batch are evaluated at the recorded sample's shapes. Programs'
// documentation gives the details.
package compare
