// Package rt is the runtime support of the rule passes drrc gen writes (package rulegen): what generated code
// calls, kept small so that a generated file reads as plain Go and a change here is a regeneration.
//
// A generated file declares a Program: the rule set's sources (embedded, or an fs.FS a package has them in), the
// fingerprint of the checked set the code was generated from, and its Rules: per rule, the generated function that
// prints the rule's matching plan (matcher.Plan) and, for a family, the instances it serves. Program.Pass loads
// and checks the sources against the programs' Context exactly as drr.Load does for the interpreted automaton,
// refuses a set whose fingerprint differs from the generated one (ErrStale: another catalog, where a family over a
// trait gained members or a constraint the catalog decides changed its answer; another version of pirdrr),
// resolves each instance's constants once (Instance: op kinds, literal attributes, schema defaults, exact types,
// the constant subexpressions of its constraints), sorts the instances by the op kind of their root, best first,
// and returns a rewriter.RulePass whose Compile is a Matcher. The pass therefore runs under the same Driver,
// worklist, statistics, listeners and Applier as an interpreted rule pass, and finds the same matches in the same
// order: the rewrites, outputs and statistics are the same, only faster.
//
// Matcher is the state of one pass run: the matches emitted at the current op, the users and operand lists of the
// current attempt, the oracle of program builtins. The functions of instr.go are the plan instructions a generated
// condition cannot write as a plain comparison (a binding and its check at once), the runs of instructions one call
// checks (Is, IsAtLeast, Arity) and the reads of an attribute through its slot in the Instance (BindAttrAt, AttrEq,
// AttrIs), each small enough for the Go compiler to inline, so that a plan prints short; users.go runs a users
// group's CollectUsers (Matcher.Collect, Elem, Agree: the element code is the generated function literal); those of
// expr.go evaluate the operators of where constraints with rule's own operations (rule.Equal, rule.Compare,
// rule.Arith, rule.AttrVal, rule.PureBuiltin), Fail standing for a failed evaluation, so that a compiled constraint
// is true exactly when rule.Eval says it is; where only a true value counts (a constraint and its connectives'
// operands), True, False, TrueOr and TrueCond are the same test as a Go bool. Constraints and Fold say what the
// generated code evaluates of a rule's constraints, the same way at generation time and when a pass is built.
package rt
