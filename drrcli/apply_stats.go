package drrcli

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/stats"
)

// deviceNames lists the built-in device profiles for flag help texts: "a100|cpu-avx2|h100|t4|v100".
func deviceNames() string {
	var names []string
	for _, d := range cost.Devices() {
		names = append(names, d.Name)
	}
	return strings.Join(names, "|")
}

// groupSamples returns the records to report for jobs: one per job, but one per GraphNet sample folder for the
// jobs of its graphs, whose figures and counts are their sums and whose Subgraphs are theirs.
func groupSamples(jobs []*applyJob) []*applyResult {
	var out []*applyResult
	for i := 0; i < len(jobs); i++ {
		j := jobs[i]
		if j.sample == "" {
			out = append(out, j.res)
			continue
		}
		k := i
		for k < len(jobs) && jobs[k].sample == j.sample {
			k++
		}
		out = append(out, sampleResult(j.sample, jobs[i:k]))
		i = k - 1
	}
	return out
}

// sampleResult sums the results of a sample's graphs.
func sampleResult(name string, jobs []*applyJob) *applyResult {
	var parts []stats.Program
	r := &applyResult{}
	for _, j := range jobs {
		parts = append(parts, j.res.Program)
		r.Subgraphs = append(r.Subgraphs, j.res)
		r.OpsIn += j.res.OpsIn
		r.OpsOut += j.res.OpsOut
		r.FailedRewrites += j.res.FailedRewrites
		r.Parse += j.res.Parse
		r.Rewrite += j.res.Rewrite
		r.Check += j.res.Check
		r.Print += j.res.Print
		r.output += j.res.output
	}
	r.Program = stats.Sum(name, parts)
	r.Program.Subgraphs = nil // listed as apply results, with their outputs and errors
	return r
}

// printRecord prints a result's statistics; a sample's graphs first, then their sums.
func (a *applyFlags) printRecord(w io.Writer, r *applyResult, withName bool) {
	if len(r.Subgraphs) == 0 {
		a.printStats(w, r, withName)
		return
	}
	for _, sub := range r.Subgraphs {
		a.printStats(w, sub, true)
	}
	if r.Before == nil || r.After == nil {
		return
	}
	fmt.Fprintf(w, "%s: the sum of its %d graphs\n", r.Program.Program, len(r.Subgraphs))
	fmt.Fprintf(w, "  %s:\n", stats.Heading(r.Before))
	stats.WriteChange(w, "      ", r.Before, r.After)
}

// printStats prints what the passes did to one program: a line per pass (and per rule that fired, with the cost
// figures the pass changed), then the program's figures before and after.
func (a *applyFlags) printStats(w io.Writer, r *applyResult, withName bool) {
	if r.Error != "" && len(r.Passes) == 0 {
		return // the program did not load: its error is printed already
	}
	if withName {
		fmt.Fprintf(w, "%s:\n", r.Program.Program)
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
	before := r.Before
	for i, pr := range r.Passes {
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
		if i < len(r.Program.Passes) {
			after := r.Program.Passes[i].After
			if line := stats.ChangeLine(before, after); line != "" {
				fmt.Fprintf(w, "      → %s\n", line)
			}
			if after != nil {
				before = after
			}
		}
	}
	if r.Before != nil && r.After != nil {
		fmt.Fprintf(w, "  %s:\n", stats.Heading(r.Before))
		stats.WriteChange(w, "      ", r.Before, r.After)
	} else {
		fmt.Fprintf(w, "  ops: %d → %d\n", r.OpsIn, r.OpsOut)
	}
	if a.timing {
		fmt.Fprintf(w, "  timing: %s\n", r.timing())
	}
}

// timing renders the record's phases for -timing.
func (r *applyResult) timing() string {
	return fmt.Sprintf("parse %s, rewrite %s, check %s, print %s", round(r.Parse), round(r.Rewrite), round(r.Check), round(r.Print))
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

// printSummary prints one line per program of a batch: ops and runtime ops before and after, rewrites, the upper
// end of the estimated time after, the time apply took.
func printSummary(w io.Writer, jobs []*applyJob) {
	fmt.Fprintf(w, "\n%-40s %8s %8s %8s %8s %9s %10s %10s  %s\n", "program", "ops in", "ops out", "rt in", "rt out", "rewrites",
		"est. out", "time", "status")
	ok := 0
	for _, j := range jobs {
		r := j.res
		n := 0
		for _, pr := range r.Passes {
			if pr.Stats != nil {
				n += pr.Stats.Rewrites
			}
		}
		status := "ok"
		if r.Error != "" {
			status = "FAILED"
		} else {
			ok++
		}
		rtIn, rtOut, est := "-", "-", "-"
		if r.Before != nil && r.After != nil {
			rtIn, rtOut, est = strconv.Itoa(r.Before.RuntimeOps), strconv.Itoa(r.After.RuntimeOps), stats.Seconds(r.After.Time.High)
		}
		fmt.Fprintf(w, "%-40s %8d %8d %8s %8s %9d %10s %10s  %s\n", trimLeft(r.Program.Program, 40), r.OpsIn, r.OpsOut, rtIn, rtOut, n,
			est, round(r.Parse+r.Rewrite+r.output), status)
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
