// Package paddle is drrc gen -lang paddle: it writes a checked rule set out as a C++ file for Paddle's own DRR
// engine (paddle/fluid/pir/drr), one paddle::drr::DrrPatternBase per rule and a pir::PatternRewritePass that
// registers them under the rule set's name. Like package rulegen it is a printer of matching plans: the source
// pattern of each class is read off the rule's matcher.Plan (pattern.go), one case per instruction, and nothing
// here walks a rule pattern of its own. The where constraints and computed attributes become C++ lambdas over
// paddle::drr::MatchContext (expr.go; a builtin call is written from the builtin's own rule.PaddleForm, so this
// package knows no builtin by name), the rewrite a ResultPattern (result.go).
//
// Paddle's DRR matches differently from pirdrr, and what it cannot express is refused with the rule's position:
// a commutative op becomes one class per operand order (Paddle has no commutativity), an internal value with
// readers outside the match that the rule allows is refused (Paddle counts uses), and so are any-op patterns,
// variadic operand lists, type patterns, native rewrites and natives without C++ (Config.NativeCPP). The
// attribute types of every Attr<T> read and every result attribute come from one table derived from the op
// catalog (attrtypes.go). docs/paddle-export.md lists which shipped rule sets export and every difference.
package paddle
