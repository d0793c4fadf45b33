// Package verify proves with the reference interpreter (package interp, through package compare) that rewrites
// preserve what a program computes; drrc verify is its command line.
//
// # Verifying pipelines
//
// Pipeline runs a pipeline on a copy of a program and compares the program before and after with
// compare.Programs, on the inputs and weights the options give (drawn from a seed, or from the statistics a capture
// recorded). A program without outputs gets fetch ops for its sinks first (AnchorSinks), so that dead-code
// elimination does not erase it and there is something to compare.
//
// # Verifying rules
//
// RuleVerifier instantiates every rule — every instance of a family rule — as small programs its pattern and
// where clause accept, applies the rule alone and compares the programs (float64 by default). A rule whose where
// clause the pattern alone makes false for every program (lint.DeadInstances: a family member the rule itself
// excludes) is reported as never firing, with nothing to verify; a rule no program could be built for is SKIPPED,
// which drrc verify treats as an error. One more instance writes every pattern output after the pattern and reads
// the pattern's inputs again, so that a rewrite that makes an output share an input's buffer is caught.
//
// Instantiate builds those programs: it binds the pattern's holes to values the where clause accepts (the
// literals it names, the defaults of the op schemas, a sample when there are too many combinations), chooses for
// each input a producer its constraints want (a parameter for immutable(%w), a data op otherwise) and gives
// values shapes that the ops' type rules accept.
package verify
