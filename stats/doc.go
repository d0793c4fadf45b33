// Package stats is the one statistics schema of pirdrr: what a pipeline run did to a program, as every report
// shows it — drrc apply -stats (text and JSON), drrc verify, drrc cost, the playground's run answer. Later reports
// (verify's sharded result files, drrc mine) use it too, so that one count means one thing everywhere.
//
// A Program record holds the program's cost figures before and after the run (cost.Summary: ops, runtime and
// load-time ops, kernels, FLOPs, bytes, estimated time), and one Pass record per pass: the driver's outcome and,
// for a rule pass, one Rule record per rule declaration, with one Instance record per instance of a family rule,
// and the figures after the pass. A GraphNet sample folder is one Program whose Subgraphs are its graphs' records;
// its figures and counts are their sums (Sum).
//
// # The counts
//
// Defined once (rewriter.RuleStats), for a rule instance in a pass:
//
//   - tried: the visits of an op of the instance's root kind, where the driver asked the automaton for matches;
//   - matched: the matches the driver then considered, best first, up to and including the one it applied (a
//     match ranked below the applied one at the same visit is not counted; an op visited again counts again);
//   - applied: the rewrites carried out;
//   - failed: the matches whose rewrite could not be carried out (the driver went on to the next match).
//
// A rule declaration's counts are the sums of its instances'. The playground also counts, for the editor's rules,
// the matches each instance has in the program the rules pass starts from (before any rewrite): that is a
// different quantity, and it is named so (matchesInInput), never "matched".
//
// Use Instrument to measure a pipeline while it runs:
//
//	pl, rec := stats.Instrument(pipeline, model)
//	results, err := pl.Run(p, env)
//	record := rec.Program(name, results, p)
//
// The cost model reads the whole program, so a caller with other read-only work on it can schedule the two, as
// drrc apply does: NewRecorder, StartBefore while the input is checked, MeasureLastAtEnd so that the figures after
// the last pass are measured once the result is checked and written, then Instrument and Program (which waits for
// the first and makes the last).
package stats
