// Package rt is the runtime support of the rule passes drrc gen writes (package rulegen): what generated code
// calls, kept small so that a generated file reads as plain Go and a change here is a regeneration.
//
// A generated file holds a rule set's sources, the fingerprint of the checked set they were compiled from, and a
// matcher written out as Go: one function per root op kind, a block per rule with its guards. Program ties them
// together. Its Pass loads and checks the sources against the programs' Context exactly as drr.Load does for the
// interpreted automaton, refuses a set whose fingerprint differs from the generated one (another catalog: a family
// over a trait that gained members, an attribute default that changed; another version of pirdrr), binds the
// generated matcher to the set (op kinds, literal attributes, native constraints resolved once) and returns a
// rewriter.RulePass whose Compile is the generated matcher. The pass therefore runs under the same Driver,
// worklist, statistics, listeners and Applier as an interpreted rule pass, and finds the same matches in the same
// order: the rewrites, outputs and statistics are the same, only faster.
//
// Matcher is the scratch state of one generated matcher during one pass run: the matches it emits, the users and
// operand lists of the current attempt, the oracle of program builtins. The functions of expr.go evaluate the
// operators of where-constraints with rule's own operations (rule.Equal, rule.Compare, rule.Arith, rule.AttrVal,
// rule.PureBuiltin), so a compiled constraint is true exactly when rule.Eval says it is.
package rt
