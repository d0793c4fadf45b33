// Package matcher compiles a rule set (package rule) into one decision automaton and finds, for an op, the
// matches of every rule rooted there. It is the matching half of pirdrr's rewrite engine: the driver calls
// Automaton.Match (or Matcher.MatchInto in its loop) on each op it pops, picks a match and hands it to the
// rewriter. Explain says why a rule does or does not match at an op, for drrc explain.
//
// # Matching semantics
//
// The automaton, Explain and the reference matcher of the tests implement exactly these rules.
//
// Match(op) considers every rule whose root op pattern (Pattern.Ops[Pattern.Root]) can match op: its Name is
// op's name, or "" (any op). For each such rule it returns at most one match: the first complete binding in
// exploration order (below) that passes every check, closure and where-constraint. Matches are ordered by
// Rule.Benefit, higher first, then by Rule.Index.
//
// Binding op pattern P to op O requires:
//
//   - Name: P.Name == O's name, unless P.Name is "".
//   - Operands: O has exactly len(P.Operands) operands; if the last operand pattern is an OperandList, at least
//     len−1, and the list binds the rest (possibly none; a bound list is never nil).
//   - Results: O has exactly len(P.Results) results; with P.MoreResults at least that many, and the extra results
//     must have no uses. A `_` result (Value −1) must have no uses; a result with a hole binds it.
//   - Attributes, in order: AttrBind reads O.AttrOrDefault(name) (the op's attribute or its schema default), fails
//     if there is none, and binds the $hole or requires the very attribute the hole holds (attributes are
//     interned: pointer equality). AttrEquals requires O.AttrOrDefault(name) to be the Literal. AttrPresent
//     requires O to carry the attribute itself (a default does not count). RestAttrs binds O's attributes that
//     P.Attrs does not name, in O's order, as an []ir.NamedAttr.
//   - Distinctness: two pattern ops never bind the same op, unless both are constant-like (OpPattern.Constant):
//     constants match by value, so two of them may bind one program op.
//
// Operands:
//
//   - OperandValue requires a present operand. If its value hole is bound, the operand must be that value (for
//     the result of a constant-like op pattern: that value or one SameConstant accepts, the result of an equal
//     constant op); otherwise the hole binds it. If the hole is a result of a pattern op (ValueHole.Def >= 0), the value must be
//     result ValueHole.Result of an op (not a block argument), and that op binds to Ops[Def] (recursively).
//   - OperandNull requires an absent operand; OperandAny accepts anything, present or absent.
//   - Type patterns (ValueHole.Type) are checked when the value hole is bound (for a list hole: on every element,
//     each of which must be present). Forms, tried in this order: Exact (pointer equality); Tensor (a tensor type
//     whose spelling is in Spellings, when given, whose dimensions match DimExact, DimAny, DimHole and at most one
//     DimRest, dimensions after the * counting from the end, and whose element type is DType, binds DTypeHole, or
//     anything with AnyDType); Hole (binds the whole type). Dimension, dtype and type holes bind on first sight
//     and require equality afterwards.
//
// Commutative op patterns try operands 0 and 1 as written first, then swapped.
//
// Closure: a value hole that a pattern op defines and another pattern op uses is internal. Unless it is Shared
// or a constant-like op pattern defines it,
// every use of its value must be an operand of an op of the match (a use-set check, not a count). Values the
// pattern only outputs, and inputs, may have any uses.
//
// Where-constraints are evaluated with rule.Eval after the structural match (closure included), in order; an
// error or a non-bool result counts as false. Holes, values and lists come from the match; program builtins and
// native constraints go to the caller's Oracle (nil: they are unavailable, hence false). Oracle functions must be
// pure, because the automaton decides some constraints itself: `uses(%v) cmp n` (with an integer literal) is
// compiled to a direct check, and may be decided before the structural match completes.
//
// # Exploration order
//
// A rule's pattern ops are bound in a fixed plan (Plan, plan.go: NewPlan builds it, the only code here that walks a
// pattern):
//
//  1. The root, then its checks, results and operands in order; an operand whose hole is defined by an unbound
//     pattern op binds that op and visits it at once (depth first), before the next operand. A commutative op
//     chooses its operand order (as written, then swapped) after its own checks, before its operands. A value's
//     type pattern and the constraints `uses(%v) cmp n` on it are checked as soon as it is bound. An operand with
//     alternatives (rule.AltGroup, `a | b` in the language) binds its value, then tries its branches in order,
//     each with the rest of the plan: a branch that names a value bound already checks the operand is it, one
//     that names an unbound value binds it (and, if a pattern op of the branch defines it, binds and visits that
//     op). The ops of the branches not taken stay unbound (nil in the match) and are not required by 2.
//  2. Then, while pattern ops remain unbound, the one with the smallest index that has a single-value operand
//     whose hole is bound is reached through the users of that value (its first such operand; a result of a
//     constant-like op pattern only when the op has no other): each distinct user
//     in program order (a pre-order walk of the program: by position within a block, an op before the ops nested
//     in its regions, regions and blocks by index) is tried in turn as that op, which is then visited as in 1.
//  3. Closure, then the other where-constraints, in order.
//
// The choices (operand orders, users, alternatives) nest in plan order; the first alternative that passes everything is the
// match. A pattern op that this plan cannot reach makes the rule invalid (NewPlan and Compile fail). ChooseRoot
// picks roots that keep the number of user searches (ChooseUser instructions) small.
//
// # One plan, three consumers
//
// The plan is the one exported form of matching, as MLIR lowers PDL to PDLInterp: a sequence of instructions
// (Instr: BindRoot, CheckName, CheckOperands, BindOperand, CheckConst, BindDef, ChooseSwap, ChooseUser, ChooseAlt,
// CollectUsers, CheckClosure, CheckUses, CheckWhere, Success, …) that bind and check, with choice points. Its consumers interpret or print it
// and never look at the pattern again:
//
//   - The automaton (program.go, exec.go, tree.go) derives from each plan the predicates of its decision tree —
//     the checks the plan makes at positions no choice precedes, hash-consed across rules — and runs the rest of
//     the plan, lowered and fused, at success nodes.
//   - Explain (explain.go) interprets a plan with recursive backtracking, one message per instruction.
//   - drrc gen (package rulegen) prints a plan as Go, a term per instruction.
//
// A new construct of the language is a new instruction (or a new use of one) built by NewPlan, and a case in each
// consumer's switch. A choice among alternative sub-patterns is a ChooseAlt whose branches are instruction
// sequences, laid out after it, each continuing with the rest of the plan to its own Success, or, where the paths
// go on alike after the branches, ending with a Jump to that code, planned once (the branches join); nothing after
// it is a tree predicate. A constraint per alternative (one that calls bound) is decided for each path as it is
// planned (rule.PathBinds.Fold): the CheckWhere of a path holds the folded constraint and the PathBinds it was
// folded with, one that folds to true is left out, and a branch whose paths one folds to false ends at once with
// it; after a join, which serves several paths, it is evaluated on the match (what a branch not taken binds is
// unbound there). A users group (rule.UsersGroup) is one CollectUsers: its element code (Instr.Sub, the op's
// checks with its per-element values bound) runs on the root, which binds the shared $holes, then on each later user
// of the group's value in the root's block, in program order; those that pass are the elements, up to Max, and a
// user before the root that passes fails the match (it is rooted there). It is no choice point: the users are
// collected, not searched. A list group (`[each(…) …]`) is written out per count by the checker.
//
// # The automaton
//
// Compile turns each rule's plan into a program for a small backtracking executor (the plan's instructions with
// op kinds resolved and runs of checks on one op fused; program.go, exec.go) and into predicates: the checks the
// plan makes before any choice, at fixed positions relative to the root (the root, the op defining operand j of
// a fixed op, an attribute or result of a fixed op…), such as "operand 0 of the root is defined by an op named
// pd_op.conv2d", "attribute groups of that op is (Int32)1", "operand 1 of the root is the same value as result 0
// of …", "uses(root.operand[0]) is 1". Positions and questions are hash-consed across rules.
//
// The predicates of all rules with the same root name (and of the any-op rules) are merged into one decision tree
// as MLIR's PDL→PDLInterp lowering does (tree.go): questions asked by more rules come first (primary and
// secondary scores, then deterministic tie-breaks), each rule descends along its answers, and a switch over op
// names or attribute literals is a single lookup, so a question common to many rules is asked once per op and n
// rules that differ in one literal cost one map lookup. Switches that serve a single rule are then collapsed into
// its success node: a success node runs the rule's remainder, the full program minus the checks its path already
// made (it still makes their bindings), with the choices, closure and constraints.
//
// Match dispatches on the root's name through an array indexed by ir.OpInfo.ID (ops of other Contexts, and names
// no rule roots at, get the any-op tree), walks the tree, and runs remainders at the success nodes it reaches.
// Options.NoTree runs every candidate rule's full program instead. Everything is deterministic: compilation,
// exploration and output order. Rules must be compiled against the Context of the programs they match:
// attributes, types and op kinds are compared by identity.
//
// Dump prints each rule's plan, then the trees and remainders; Dot draws the trees. Explain interprets the plan
// and reports the first check that failed, in the user's terms.
package matcher
