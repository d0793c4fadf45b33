// Package rulegen is drrc gen: it writes a checked rule set out as Go, a rule pass that finds the same matches as
// the interpreted automaton (package matcher) and runs under the same Driver and Applier (package rewriter),
// faster. It is a printer of matching plans: for every rule instance, matcher.NewPlan gives the plan the automaton
// runs and Explain interprets, and the generator prints it as one Go function (plan.go), an instruction a term of
// a chain of && (the commonest runs of instructions one call of a small rt function the compiler inlines), a
// choice point a for loop, the where constraints as Go bools over the operators of package rt (expr.go), the type
// patterns as comparisons on the matched types (types.go). Nothing here walks a pattern: a change of the language
// is a change of the planner and of this printer's case for the new instruction.
//
// The instances of a family that print to the same function (they differ only in op kinds, literal attributes,
// schema defaults and constants, which the function reads from its rt.Instance) share it, listed in the file's
// table; constraints the op catalog decides (rt.Fold: inplace_op of a member, has_trait of a matched op's kind) are
// decided while the file is written, and an instance they make impossible gets no code. The instances of a
// variadic group (the rule written out per element count) differ in their ops: each has its own function. A users
// group is one instruction, CollectUsers, printed as one term: the call of rt.Matcher.Collect with the element code
// as a function literal, so one function serves every element count.
//
// Generate (and GenerateFile, for files on disk) writes one pass; GeneratePackage (GenerateDir) writes a package
// of passes, one per rule file, and Index the list of them. In a package a rule's function is written once, in
// the pass of the file that declares it, and the passes importing that file name it (Shared). The generated code embeds its rule files, or reads them from an fs.FS (Config.FS), and checks
// them again when its pass is built (rt.Program): code generated for another catalog or another version of pirdrr
// refuses to run rather than match differently. docs/plugins.md ("Compiled rules") shows a generated file.
package rulegen
