// Package analysis answers what rules and passes need to know of a program's buffers: which ops write which
// operands (Writes), which values may share a buffer (Buffer, Aliased), which parameters the program can change
// (Immutable, Constant), whether a value is an input or a parameter, and where a value dies (DiesAt).
//
// Every answer is a local query: it walks the use-def graph around the values asked about, so it is always
// current while the driver rewrites the program, needs no cache to invalidate, and costs time proportional to the
// neighbourhood, not to the program. Facts bundles the queries for the program builtins of the constraint
// language (rule.Facts), which rule.NewOracle evaluates with.
//
// Two whole-program queries serve passes that fold weights: MutableParams (the parameters a program may change)
// and WeightValues (the values computed from weights and constants only), which package rules' fold_constants
// and verify's report of what folding left read.
package analysis
