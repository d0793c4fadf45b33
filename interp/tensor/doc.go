// Package tensor is the numeric kernel library of pirdrr's reference
// interpreter: a dense row-major tensor type generic over float32 and
// float64, plus the operator kernels needed to execute Paddle PIR programs
// before and after a rewrite and compare the results.
//
// # Semantics
//
// Every kernel follows the semantics of the Paddle operator of the same name
// (phi kernels and InferMeta functions), including the less obvious corners:
// conv2d's "SAME" padding (ceil(in/stride) outputs, the odd padding element
// on the bottom/right, dilation forced to 1), 2- or 4-element paddings
// ([top, bottom, left, right]), pool2d's use of only the top/left paddings
// for window placement, reshape's "0 copies the input dimension", squeeze's
// silent skipping of non-unit axes, sequential unsqueeze, and matmul's rules
// for 1-D operands. Where Paddle's behaviour would be surprising or
// ill-defined the kernel returns an error instead (documented per kernel).
//
// # Errors
//
// Kernels never panic on bad input: nil tensors, inconsistent Shape/Data,
// incompatible shapes and invalid attributes are reported as errors whose
// text names the operator (a randomized test hammers every kernel with
// malformed arguments). Attributes such as strides and paddings are limited
// to 2^30 and output element counts must fit in an int; a valid but
// enormous output can still exhaust memory. Inputs are never modified;
// results are freshly allocated (only the Tensor.Reshape method returns a
// view).
//
// # Numerics and performance
//
// Matrix products and convolutions run on a cache-blocked, register-tiled
// GEMM (Goto/BLIS: packed panels of A and B, an mr×nr micro-kernel),
// accumulating in the tensor's element type, like BLAS. The micro-kernels
// come in kernel paths: Go assembly for AVX-512 and for AVX2 with FMA on
// amd64, and portable Go on every platform (the fallback, and the
// reference the others are tested against). The fastest path the CPU
// supports is chosen when the process starts (golang.org/x/sys/cpu);
// PIRDRR_KERNELS=go|avx2|avx512 forces one, and Kernels names the path in
// use. The purego build tag leaves the assembly out. The avx512 path also
// takes exponentials eight at a time (ExpInPlace, under softmax, exp,
// sigmoid and swish) and error functions eight at a time (ErfInPlace, under
// gelu and erf): the operations of the standard library's math.Exp and
// math.Erf in vector lanes, so the same bits on every path. (ErfInPlace
// repeats math.Erf as compiled below GOAMD64=v3; built for v3 or above, where
// the compiler fuses math.Erf's multiply-adds, it calls math.Erf.)
//
// A product whose y is one matrix for every batch of a row-major x (a linear
// layer on [batch…, rows, k]) is one GEMM with the batches as its rows, so y
// is packed once; each element is summed as in the product of its batch.
//
// A convolution multiplies its filter by the im2col matrix of the input
// without building that matrix: the panels the micro-kernel reads are
// packed straight from the input, copied once into phase planes with the
// padding written out (conv_shift.go), or read with bounds when that would
// throw much away (conv_pack.go). Groups with fewer than four output
// channels (depthwise convolutions) run as row AXPYs over im2col bands.
//
// Determinism: every element of a product is summed in k order, one chain
// per block of kc terms started from zero and then added to the element,
// and work is split across GOMAXPROCS goroutines (ParallelFor) only between
// output elements, so results are bit-identical for every GOMAXPROCS and
// every split, on each path. The two assembly paths compute the same
// chains (one FMA per term, blocks of 256 terms) and give the same bits.
// The portable path agrees with them within rounding, not to the bit: it
// rounds the product and then the sum where FMA rounds once (on arm64 the
// Go compiler fuses them too), and blocks the sums alike. An element of
// C = A·B (k terms) on any two paths differs by at most
// 2·γ(k)·Σ|a_ip|·|b_pj|, γ(k) = k·u/(1-k·u) with u the unit roundoff (2^-24
// in float32, 2^-53 in float64): twice the classical bound of a dot
// product's rounding error (Higham, Accuracy and Stability of Numerical
// Algorithms, §3.1), which TestGemmDeterministic checks. Measured
// differences stay below a twentieth of √k·u·Σ|a_ip|·|b_pj| (float32 with
// k = 512 to 4608), far inside it.
//
// Reductions, batch-norm folding and element-wise functions are evaluated
// in float64 and rounded once. For bit-level comparisons prefer float64:
// float32 convolution outputs near zero carry absolute, not relative,
// rounding error, so an element-wise relative tolerance of 1e-5 is only
// meaningful in float64.
//
// # Randomness
//
// NewRand, RandUniform, RandNormal and the Fill methods use math/rand/v2's
// PCG with an explicit seed and no global state, so test inputs are
// reproducible.
package tensor
