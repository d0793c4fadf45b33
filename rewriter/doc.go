// Package rewriter applies rule sets to programs: it is the driver half of pirdrr's rewrite engine, after the
// matcher (package matcher) has said which rules match at an op.
//
// A Driver (driver.go, worklist.go, seed.go, cycle.go) runs one rule set greedily, with the semantics of MLIR's
// GreedyPatternRewriteDriver: a worklist seeded with every op in program order (BottomUp, Shuffle and Seed change
// the order), at each op popped the matches a MatchFunc returns, best first, and the first that applies; every
// change goes through one ir.Rewriter whose listener puts the ops it touched back on the worklist; sweeps repeat
// until one changes nothing, a limit is hit (MaxIterations, MaxRewrites) or a rewrite cycle is detected. Stats
// count per rule the ops tried, matches, rewrites applied and failed.
//
// The Applier (apply.go, build.go, plan.go) carries out one match in two phases: it builds every op the rule
// creates, detached, with operands, attributes and result types worked out, then commits (inserts them, runs
// native rewrites, replaces values, erases what the rule erases and the matched ops left without uses), so that a
// rewrite that cannot be carried out leaves the program as it was.
//
// Passes (pipeline.go) are what pipelines run: a RulePass (a checked rule set and the driver; its matcher is the
// automaton, or the code drrc gen wrote: RulePass.Compile), a GoPass (a function over the program and a
// rewriter), and Pipeline, a list of them. A Registry (registry.go) names native constraints and rewrites, pass
// factories and pipelines, for drrc and plugins (Default is the one plugins register into from init);
// ReplacePass lets a faster implementation of a pass (a compiled rule set) take its place. NewOracle is the
// rule.Oracle of a program: its facts (package analysis) and a registry's native constraints. DCE is the dead code
// pass.
package rewriter
