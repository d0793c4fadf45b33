package drrcli

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pirdrr/drr/internal/shard"
)

// shardFlags are the flags of the commands that run many programs as shards of one run (drrc verify, drrc apply):
// -shard, -balance and -results.
type shardFlags struct {
	shard   string
	balance listFlag
	results string
}

func (s *shardFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.shard, "shard", "", "run shard `K/N` (K counted from 1) of the programs: each program is in exactly one of N shards (default: the Bazel or Kubernetes Indexed Job variables, else every program; docs/verify.md)")
	fs.Var(&s.balance, "balance", "balance the shards by the durations the results `file` of a previous run recorded for this command (repeatable)")
	fs.StringVar(&s.results, "results", "", "append one JSON line per program to `file`, and skip the programs it already has a record of (resumable; drrc report merges such files)")
}

// used reports whether any of the flags was given.
func (s *shardFlags) used() bool { return s.shard != "" || len(s.balance) > 0 || s.results != "" }

// programRef is one program of a run: its path, and its path relative to the folder it was found in.
type programRef struct {
	path, rel string
}

// shardPlan is what one process of a sharded run does: the programs of its shard that have no record yet.
type shardPlan struct {
	spec shard.Spec
	// run are the programs to run now, with their keys; total counts the programs of every shard, inShard those of
	// this one (run and those the results file already has).
	run            []programRef
	keys           map[string]string // program path → key
	total, inShard int
	out            *resultsWriter
}

// getenv reads an environment variable through the CLI (tests set Getenv).
func (c *CLI) getenv(name string) string {
	if c.Getenv != nil {
		return c.Getenv(name)
	}
	return os.Getenv(name)
}

// spec returns the shard to run: -shard, else the engines' variables (shard.FromEnv), else every program. Errors
// are usage errors.
func (s *shardFlags) spec(c *CLI) (shard.Spec, string, error) {
	if s.shard != "" {
		sp, err := shard.Parse(s.shard)
		if err != nil {
			return sp, "", fmt.Errorf("-shard: %v", err)
		}
		return sp, "-shard", nil
	}
	return shard.FromEnv(c.getenv)
}

// plan chooses the programs this process runs, and opens the results file. After an error, printed, the plan is
// nil and code the exit code to return.
func (s *shardFlags) plan(c *CLI, cmd string, progs []programRef) (_ *shardPlan, code int) {
	sp, from, err := s.spec(c)
	if err != nil {
		return nil, c.usageErrorf(cmd, "%v", err)
	}
	if err := shard.AckBazel(c.getenv); err != nil {
		return nil, c.errorf(cmd, "%v", err)
	}
	durations := map[string]time.Duration{}
	for _, file := range s.balance {
		recs, err := readResults(file, c.programLimit())
		if err != nil {
			return nil, c.errorf(cmd, "-balance: %v", err)
		}
		for _, r := range recs {
			if r.Command == cmd && r.Key != "" && r.WallNS > 0 { // apply's times say nothing of verify's
				durations[r.Key] = time.Duration(r.WallNS)
			}
		}
	}
	p := &shardPlan{spec: sp, keys: map[string]string{}, total: len(progs)}
	items := make([]shard.Item, len(progs))
	for i, prog := range progs {
		key := shard.Key(prog.path, prog.rel)
		p.keys[prog.path] = key
		items[i] = shard.Item{Key: key, Duration: durations[key]}
	}
	selected := shard.Select(items, sp)
	p.inShard = len(selected)
	done := map[string]bool{}
	if s.results != "" {
		if _, err := os.Stat(s.results); err == nil {
			recs, err := readResults(s.results, c.programLimit())
			if err != nil {
				return nil, c.errorf(cmd, "-results: %v", err)
			}
			for _, r := range recs {
				if r.Command == cmd {
					done[r.Program] = true
				}
			}
		}
	}
	for _, i := range selected {
		if !done[progs[i].path] {
			p.run = append(p.run, progs[i])
		}
	}
	if !sp.All() || s.used() {
		fmt.Fprintf(c.Stderr, "drrc %s: shard %s", cmd, sp)
		if from != "" && from != "-shard" {
			fmt.Fprintf(c.Stderr, " (from %s)", from)
		}
		fmt.Fprintf(c.Stderr, ": %d of %d program(s)", p.inShard, p.total)
		if len(durations) > 0 {
			fmt.Fprintf(c.Stderr, ", balanced by %d recorded duration(s)", len(durations))
		}
		if skipped := p.inShard - len(p.run); skipped > 0 {
			fmt.Fprintf(c.Stderr, "; %d already recorded in %s, %d to run", skipped, s.results, len(p.run))
		}
		fmt.Fprintln(c.Stderr)
	}
	if s.results != "" {
		if p.out, err = openResults(s.results); err != nil {
			return nil, c.errorf(cmd, "-results: %v", err)
		}
	}
	return p, exitOK
}

// record returns a new record of program path for this plan.
func (p *shardPlan) record(cmd, path string) *resultRecord {
	return &resultRecord{Schema: resultsSchema, Command: cmd, Program: path, Key: p.keys[path], Shard: p.spec.String(),
		ShardPrograms: p.inShard, Programs: p.total}
}

// write appends a record to the results file, if any.
func (p *shardPlan) write(c *CLI, cmd string, r *resultRecord) bool {
	if p.out == nil {
		return true
	}
	if err := p.out.write(r); err != nil {
		c.errorf(cmd, "-results: %v", err)
		return false
	}
	return true
}

// close closes the results file.
func (p *shardPlan) close(c *CLI, cmd string) bool {
	if p.out == nil {
		return true
	}
	if err := p.out.close(); err != nil {
		c.errorf(cmd, "-results: %v", err)
		return false
	}
	return true
}

// jobRefs returns the programs of apply's jobs.
func jobRefs(jobs []*applyJob) []programRef {
	refs := make([]programRef, len(jobs))
	for i, j := range jobs {
		rel := j.in
		if j.sub != "" {
			rel = j.sub + filepath.Ext(j.in)
		}
		refs[i] = programRef{path: j.in, rel: rel}
	}
	return refs
}

// jobs returns the jobs of the programs the plan runs, in order.
func (p *shardPlan) jobs(jobs []*applyJob) []*applyJob {
	run := map[string]bool{}
	for _, r := range p.run {
		run[r.path] = true
	}
	var out []*applyJob
	for _, j := range jobs {
		if run[j.in] {
			out = append(out, j)
		}
	}
	return out
}

// applyRecord is the record of an apply job that took wall. Apply runs its programs in parallel (-j), so neither
// CPU time nor peak memory can be attributed to one of them: the record has neither.
func (p *shardPlan) applyRecord(j *applyJob, wall time.Duration) *resultRecord {
	r := p.record("apply", j.in)
	res := j.res
	r.WallNS = wall.Nanoseconds()
	r.ParseNS, r.RewriteNS, r.PrintNS = res.Parse.Nanoseconds(), res.Rewrite.Nanoseconds(), res.Print.Nanoseconds()
	r.CheckNS = res.Check.Nanoseconds()
	r.Status = statusOK
	if res.Error != "" {
		r.Status = statusError
		r.Error, _, _ = strings.Cut(strings.TrimSpace(res.Error), "\n")
	}
	if res.Before != nil {
		st := res.Program
		r.Stats = &st
	}
	return r
}
