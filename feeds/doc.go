// Package feeds draws the inputs and weights a program is evaluated on (package interp's Feed): deterministically
// from a seed, one stream per tensor name, so that a weight gets the same values in every program that reads it,
// and two programs — before and after a rewrite — are fed alike. Package compare evaluates programs on such feeds;
// drrc verify, the playground and the tests of the rule sets use both.
//
// # Random data
//
// Random draws inputs and weights; a tensor is drawn in chunks of tensor.DrawChunk elements, each from its own
// xoshiro256++ generator (normal values from the ziggurat of stream.go), so the numbers do not depend on the
// machine or the number of goroutines. A float16 number is the float32 number drawn in its place, rounded to
// float16 (roundDraw). On AVX-512 (with the avx512 kernel path of package tensor in use) float32 and float16 normal
// draws (into float32 buffers, or widened into the float64 ones of a float64 evaluation) run eight chunks at once
// in assembly, one per vector lane, computing the same numbers in the same float64 operations (lanes.go), float16
// ones then rounded by the F16C conversions; the portable loop remains the reference and the path elsewhere. A
// program carrying recorded statistics (ir.Variable.Stats on parameters,
// ir.Program.Feeds for inputs: what a GraphNet capture records) is fed values drawn from them — floats normal with
// the recorded mean and deviation, clipped to the recorded range; integers such as token ids uniform over their
// recorded range; recorded input data as is. Otherwise dynamic input dims take Options.Batch (dim 0, default 1)
// and Options.DynamicSize (default 32), and weights come from Options.ParamRange (DefaultParamRange: variances —
// parameters feeding a batch norm's variance, or a sqrt/rsqrt/log through add and reshape-like ops, as in a folded
// batch norm — from [0.5, 1.5], the abs-max scales of quantize_linear/dequantize_linear from [1, 2) (above the
// inputs, so that quantizing does not clip), conv/matmul weights ±sqrt(3/fan_in), the rest from [-1, 1)). An
// integer input or parameter the programs index with (embedding ids, gather indices, …) is drawn within the range
// it indexes (indexrange.go). FillRandomWeights stores such weights in ir.Variable.Data.
//
// # Drawing weights when they are read
//
// Lazy returns a feed whose random weights are not drawn up front but by the evaluation, when a program first
// reads them (interp.Feed.Drawer): the same numbers, straight into the evaluation's precision, so that a model
// whose weights do not fit in memory (a 7-billion-parameter graph drawn from statistics) is evaluated holding only
// the weights of the ops in flight. The draws of the first program evaluated on the feed are kept, up to a bound,
// for the second, which borrows them (the evaluation copies a borrowed buffer before writing it).
//
// # Rebatching
//
// GraphNet captured vision models at their training batch with fully static types; CapturedBatch finds that batch
// and RebatchPrograms makes copies of two programs at a smaller one (inputs, the constants that carry the batch,
// recorded inputs that hold it), which package compare evaluates first (rebatch.go).
package feeds
