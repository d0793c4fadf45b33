// Package lint is the rule-set lint of drrc check and the language server: analyzers over checked rule sets
// (rule.Set) that find what the checker cannot call an error but a rule author wants to know before a program
// shows it:
//
//   - Overlap: two rules with the same root op and the same benefit whose patterns can match the same op — which
//     one rewrites it depends on their order in the set alone;
//   - Loop: a rule whose result matches its own pattern again (or two rules each matching what the other
//     creates) — the driver can rewrite forever;
//   - NeverFires: a rule no program can make fire (a where clause that is always false, where clauses that
//     contradict each other, an op name its dialect does not have).
//
// Everything is decided statically and conservatively: patterns are compared structurally (op names along shared
// structure, attribute literals, the literal values where clauses allow an attribute), and whatever depends on a
// program (types of inputs, uses, immutability, native constraints) is assumed to be satisfiable. So Overlap
// and Loop report what may happen; NeverFires reports only what cannot.
//
// A rule over an op family is checked instance by instance. Instances that can never fire are expected (a family
// over every inplace op, narrowed by a where clause, leaves many), so NeverFires reports a family rule only when
// none of its instances can fire, and the other analyzers skip dead instances.
package lint
