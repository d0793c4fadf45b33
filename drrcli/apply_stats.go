package drrcli

import (
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/pirdrr/drr/rewriter"
)

func toPassStats(pr *rewriter.PassResult) passStats {
	ps := passStats{Pass: pr.Pass, Changes: pr.Changes, Duration: pr.Duration.Nanoseconds()}
	if st := pr.Stats; st != nil {
		ps.Converged, ps.StopReason, ps.Iterations, ps.Rewrites, ps.Erased = st.Converged, st.StopReason, st.Iterations, st.Rewrites, st.Erased
		for _, rs := range st.Rules {
			ps.Rules = append(ps.Rules, ruleStats{Rule: rs.Name, Tried: rs.Tried, Matched: rs.Matched, Applied: rs.Applied,
				Failed: rs.Failed, FirstFailure: rs.FirstFailure, TimeNS: rs.Time.Nanoseconds(), MatchTimeNS: rs.MatchTime.Nanoseconds()})
		}
	}
	return ps
}

func (a *applyFlags) printStats(w io.Writer, r *applyResult, withName bool) {
	if r.Error != "" && len(r.Passes) == 0 {
		return // the program did not load: its error is printed already
	}
	if withName {
		fmt.Fprintf(w, "%s:\n", r.Input)
	}
	// Columns as wide as the longest pass and rule names.
	passW, ruleW := 0, 0
	for _, pr := range r.Passes {
		passW = max(passW, len(pr.Pass))
		if pr.Stats != nil {
			for _, rs := range pr.Stats.Rules {
				ruleW = max(ruleW, len(rs.Name))
			}
		}
	}
	for _, pr := range r.Passes {
		if st := pr.Stats; st != nil {
			fmt.Fprintf(w, "  %-*s  %s, %s, %s erased, %s\n", passW, pr.Pass, st.StopReason, nouns(st.Rewrites, "rewrite"),
				nouns(st.Erased, "dead op"), round(pr.Duration))
			for _, rs := range st.Rules {
				if rs.Applied == 0 && rs.Failed == 0 && !(a.timing && rs.Tried > 0) {
					continue
				}
				fmt.Fprintf(w, "      %-*s  applied %d of %d matched (%d tried)", ruleW, rs.Name, rs.Applied, rs.Matched, rs.Tried)
				if rs.Failed > 0 {
					fmt.Fprintf(w, ", %d failed", rs.Failed)
				}
				if a.timing {
					fmt.Fprintf(w, "; match %s, rewrite %s", round(rs.MatchTime), round(rs.Time))
				}
				fmt.Fprintln(w)
				if rs.FirstFailure != "" {
					fmt.Fprintf(w, "      %-*s  first failure: %s\n", ruleW, "", rs.FirstFailure)
				}
			}
		} else {
			fmt.Fprintf(w, "  %-*s  %s, %s\n", passW, pr.Pass, nouns(pr.Changes, "change"), round(pr.Duration))
		}
	}
	fmt.Fprintf(w, "  ops: %d → %d\n", r.OpsIn, r.OpsOut)
	if a.timing {
		fmt.Fprintf(w, "  timing: parse %s, rewrite %s, print %s\n", round(r.Parse), round(r.Rewrite), round(r.Print))
	}
}

func round(d time.Duration) time.Duration {
	switch {
	case d > time.Second:
		return d.Round(time.Millisecond)
	case d > time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// printSummary prints one line per program of a batch.
func printSummary(w io.Writer, jobs []*applyJob) {
	fmt.Fprintf(w, "\n%-40s %8s %8s %9s %10s  %s\n", "program", "ops in", "ops out", "rewrites", "time", "status")
	ok := 0
	for _, j := range jobs {
		r := j.res
		n := 0
		for _, s := range r.Stats {
			n += s.Rewrites
		}
		status := "ok"
		if r.Error != "" {
			status = "FAILED"
		} else {
			ok++
		}
		fmt.Fprintf(w, "%-40s %8d %8d %9d %10s  %s\n", trimLeft(r.Input, 40), r.OpsIn, r.OpsOut, n, round(r.Parse+r.Rewrite+r.Print), status)
	}
	fmt.Fprintf(w, "%d of %d programs ok\n", ok, len(jobs))
}

func trimLeft(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n+1:]
}

// runParallel processes jobs on n workers, drawing a progress line when standard error is a terminal.
func runParallel(c *CLI, jobs []*applyJob, n int, process func(*applyJob)) {
	if n <= 0 {
		n = numCPU()
	}
	var mu sync.Mutex
	done := 0
	next := make(chan *applyJob)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				process(j)
				mu.Lock()
				done++
				if c.IsTerminal {
					fmt.Fprintf(c.Stderr, "\r\033[K[%d/%d] %s", done, len(jobs), j.in)
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
	if c.IsTerminal {
		fmt.Fprint(c.Stderr, "\r\033[K")
	}
}

// nouns renders a count with its noun, singular or plural: "1 rewrite", "2 rewrites".
func nouns(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
