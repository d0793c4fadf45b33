// Package difftest compares rule passes compiled by drrc gen with the interpreted automaton: a pipeline is run
// as given and with every compiled rule pass replaced by its interpreted twin (the same checked set, matched by
// the automaton), and the outcomes — the program as PIR text, every statistic of every pass, the error — must be
// identical. The generator's tests, the compiled shipped sets and the example plugin use it.
package difftest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pirdrr/drr/internal/textdiff"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
	"github.com/pirdrr/drr/rewriter"
)

// Outcome is what a pipeline run produced.
type Outcome struct {
	// Program is the program afterwards, as PIR text.
	Program string
	// Stats renders every pass result: changes, stop reason, iterations, rewrites, dead ops erased, cycle,
	// warnings, and per rule the ops tried, matches, rewrites applied and failed and the first failure. Durations
	// are left out.
	Stats string
	// Err is the run's error ("" if none).
	Err string
	// Rewrites counts the rewrites of every rule pass.
	Rewrites int
}

// Run runs pl on p with env and returns the outcome.
func Run(p *ir.Program, pl rewriter.Pipeline, env *rewriter.Env) Outcome {
	results, err := pl.Run(p, env)
	out := Outcome{Program: string(pirtext.Print(p, pirtext.WriteOptions{})), Stats: Stats(results)}
	for _, r := range results {
		if r.Stats != nil {
			out.Rewrites += r.Stats.Rewrites
		}
	}
	if err != nil {
		out.Err = err.Error()
	}
	return out
}

// Stats renders pass results without their durations.
func Stats(results []*rewriter.PassResult) string {
	var b strings.Builder
	for _, r := range results {
		fmt.Fprintf(&b, "%s: changes %d, warnings %q\n", r.Pass, r.Changes, r.Warnings)
		st := r.Stats
		if st == nil {
			continue
		}
		fmt.Fprintf(&b, "  converged %v (%s), %d iterations, %d rewrites, %d erased, cycle %q\n", st.Converged,
			st.StopReason, st.Iterations, st.Rewrites, st.Erased, st.Cycle)
		for _, rs := range st.Rules {
			fmt.Fprintf(&b, "  %s: tried %d, matched %d, applied %d, failed %d", rs.Name, rs.Tried, rs.Matched,
				rs.Applied, rs.Failed)
			if rs.FirstFailure != "" {
				fmt.Fprintf(&b, ", first failure %q", rs.FirstFailure)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// Interpreted returns pl with every compiled rule pass (a RulePass with a Compile function) replaced by a rule
// pass of the same name and set, matched by the automaton.
func Interpreted(pl rewriter.Pipeline) rewriter.Pipeline {
	out := make(rewriter.Pipeline, len(pl))
	for i, pass := range pl {
		if rp, ok := pass.(*rewriter.RulePass); ok && rp.Compile != nil {
			pass = rewriter.NewRulePass(rp.PassName, rp.Set)
		}
		out[i] = pass
	}
	return out
}

// Compiled counts the compiled rule passes of pl.
func Compiled(pl rewriter.Pipeline) int {
	n := 0
	for _, pass := range pl {
		if rp, ok := pass.(*rewriter.RulePass); ok && rp.Compile != nil {
			n++
		}
	}
	return n
}

// Compare runs pl (which must hold a compiled rule pass) and its interpreted twin on programs load returns (a new
// one each call) and fails tb unless the outcomes are identical.
func Compare(tb testing.TB, load func() *ir.Program, pl rewriter.Pipeline, env *rewriter.Env) Outcome {
	tb.Helper()
	if Compiled(pl) == 0 {
		tb.Fatal("the pipeline has no compiled rule pass")
	}
	want := Run(load(), Interpreted(pl), env)
	got := Run(load(), pl, env)
	if want.Err != got.Err {
		tb.Fatalf("errors differ:\ninterpreted: %s\ncompiled:    %s", want.Err, got.Err)
	}
	if want.Stats != got.Stats {
		tb.Fatalf("statistics differ:\n%s", diff(want.Stats, got.Stats))
	}
	if want.Program != got.Program {
		tb.Fatalf("programs differ:\n%s", diff(want.Program, got.Program))
	}
	return got
}

// diff shows how two texts differ: a unified diff, or for long texts the first line that differs.
func diff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(la) < 2000 && len(lb) < 2000 {
		return textdiff.Unified("interpreted", "compiled", a, b)
	}
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\ninterpreted: %s\ncompiled:    %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("%d lines against %d", len(la), len(lb))
}
