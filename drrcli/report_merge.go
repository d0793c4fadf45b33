package drrcli

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// mergedReport is the merge of result files: every record once, with the totals drrc report prints.
type mergedReport struct {
	Schema  string          `json:"schema"`
	Records []*resultRecord `json:"records"`
	Totals  reportTotals    `json:"totals"`
	// Slowest are the programs of the longest wall times, longest first (up to ten).
	Slowest []string `json:"slowest"`
}

// reportTotals are the sums over the records.
type reportTotals struct {
	Programs int            `json:"programs"`
	Statuses map[string]int `json:"statuses"`
	// WallNS and CPUNS are summed over the programs; Shards is the shard count of the run, LongestShardNS the wall
	// time of the slowest shard (the run's wall time when the shards ran at once).
	WallNS         int64  `json:"wall_ns"`
	CPUNS          int64  `json:"cpu_ns"`
	Shards         int    `json:"shards"`
	LongestShard   string `json:"longest_shard,omitempty"`
	LongestShardNS int64  `json:"longest_shard_ns"`
	// PeakRSS is the largest peak resident set of a program, PeakRSSProgram the program.
	PeakRSS        int64  `json:"peak_rss_bytes,omitempty"`
	PeakRSSProgram string `json:"peak_rss_program,omitempty"`
}

// reportSchema is the version of drrc report -json's output.
const reportSchema = "pirdrr-report/1"

// mergeRecords merges the records of result files. The errors name positions: a program recorded twice (for the
// same command), records of runs with different shard counts, and gaps: a shard with fewer records than
// programs, shards absent (their programs never recorded), and, with expect, programs without a record or records
// of programs not expected.
func mergeRecords(recs []*recordAt, expect []string) (*mergedReport, []string) {
	var errs []string
	type id struct{ cmd, program string }
	first := map[id]*recordAt{}
	var kept []*recordAt
	for _, r := range recs {
		k := id{r.Command, r.Program}
		if f, dup := first[k]; dup {
			errs = append(errs, fmt.Sprintf("%s: duplicate record: %s %s is also recorded at %s", r.pos(), r.Command, r.Program, f.pos()))
			continue
		}
		first[k] = r
		kept = append(kept, r)
	}
	errs = append(errs, shardGaps(kept)...)
	if expect != nil {
		want := map[string]bool{}
		for _, p := range expect {
			want[p] = true
		}
		got := map[string]bool{}
		for _, r := range kept {
			got[r.Program] = true
			if !want[r.Program] {
				errs = append(errs, fmt.Sprintf("%s: %s is not one of the expected programs", r.pos(), r.Program))
			}
		}
		var missing []string
		for _, p := range expect {
			if !got[p] {
				missing = append(missing, p)
			}
		}
		if len(missing) > 0 {
			errs = append(errs, fmt.Sprintf("gap: %d of %d expected program(s) have no record: %s", len(missing), len(expect), listSome(missing, 10)))
		}
	}
	sort.SliceStable(kept, func(i, j int) bool {
		if kept[i].Program != kept[j].Program {
			return kept[i].Program < kept[j].Program
		}
		return kept[i].Command < kept[j].Command
	})
	m := &mergedReport{Schema: reportSchema, Records: []*resultRecord{}}
	m.Totals.Statuses = map[string]int{}
	shardWall := map[string]int64{}
	for _, r := range kept {
		m.Records = append(m.Records, &r.resultRecord)
		t := &m.Totals
		t.Programs++
		t.Statuses[r.Status]++
		t.WallNS += r.WallNS
		t.CPUNS += r.CPUNS
		shardWall[r.Shard] += r.WallNS
		if r.PeakRSS > t.PeakRSS {
			t.PeakRSS, t.PeakRSSProgram = r.PeakRSS, r.Program
		}
	}
	for s, w := range shardWall {
		if _, n, ok := parseShard(s); ok {
			m.Totals.Shards = max(m.Totals.Shards, n)
		}
		if w > m.Totals.LongestShardNS || w == m.Totals.LongestShardNS && s < m.Totals.LongestShard {
			m.Totals.LongestShard, m.Totals.LongestShardNS = s, w
		}
	}
	slow := append([]*resultRecord(nil), m.Records...)
	sort.SliceStable(slow, func(i, j int) bool { return slow[i].WallNS > slow[j].WallNS })
	m.Slowest = []string{}
	for i := 0; i < len(slow) && i < 10; i++ {
		m.Slowest = append(m.Slowest, slow[i].Program)
	}
	return m, errs
}

// shardGaps checks the records of each command against the shard counts they carry: one shard count and one
// program count per command, each shard with as many records as it had programs, and the programs of the shards
// present adding up to the run's (else the missing shards are named).
func shardGaps(recs []*recordAt) []string {
	var errs []string
	byCmd := map[string][]*recordAt{}
	var cmds []string
	for _, r := range recs {
		if byCmd[r.Command] == nil {
			cmds = append(cmds, r.Command)
		}
		byCmd[r.Command] = append(byCmd[r.Command], r)
	}
	sort.Strings(cmds)
	for _, cmd := range cmds {
		rs := byCmd[cmd]
		base := rs[0]
		_, total, ok := parseShard(base.Shard)
		if !ok {
			errs = append(errs, fmt.Sprintf("%s: shard %q: want K/N", base.pos(), base.Shard))
			continue
		}
		consistent := true
		type shardCount struct {
			first          *recordAt
			records, progs int
		}
		shards := map[int]*shardCount{}
		for _, r := range rs {
			k, n, ok := parseShard(r.Shard)
			if !ok {
				errs = append(errs, fmt.Sprintf("%s: shard %q: want K/N", r.pos(), r.Shard))
				consistent = false
				continue
			}
			if n != total || r.Programs != base.Programs {
				errs = append(errs, fmt.Sprintf("%s: a record of another run: shard %s of %d program(s), where %s has shard %s of %d",
					r.pos(), r.Shard, r.Programs, base.pos(), base.Shard, base.Programs))
				consistent = false
				continue
			}
			sc := shards[k]
			if sc == nil {
				sc = &shardCount{first: r, progs: r.ShardPrograms}
				shards[k] = sc
			} else if r.ShardPrograms != sc.progs {
				errs = append(errs, fmt.Sprintf("%s: shard %s had %d program(s), where %s says %d", r.pos(), r.Shard, r.ShardPrograms, sc.first.pos(), sc.progs))
				consistent = false
			}
			sc.records++
		}
		if !consistent {
			continue
		}
		sum := 0
		var absent []string
		for k := 1; k <= total; k++ {
			sc := shards[k]
			if sc == nil {
				absent = append(absent, fmt.Sprintf("%d/%d", k, total))
				continue
			}
			sum += sc.progs
			if sc.records < sc.progs {
				errs = append(errs, fmt.Sprintf("gap: %s shard %d/%d has %d record(s) of its %d program(s) (it stopped early: rerun it with the same -results file to resume)",
					cmd, k, total, sc.records, sc.progs))
			}
		}
		if sum < base.Programs {
			errs = append(errs, fmt.Sprintf("gap: %s: the shards recorded account for %d of the run's %d program(s); no record of shard(s) %s",
				cmd, sum, base.Programs, listSome(absent, 10)))
		}
	}
	return errs
}

// parseShard reads K/N (K from 1).
func parseShard(s string) (k, n int, ok bool) {
	ks, ns, found := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if !found || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return 0, 0, false
	}
	return k, n, true
}

// listSome lists up to n items, then how many more.
func listSome(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:n], ", ") + fmt.Sprintf(", … %d more", len(items)-n)
}

// seconds writes nanoseconds as a rounded duration.
func seconds(ns int64) string {
	if ns == 0 {
		return ""
	}
	return round(time.Duration(ns)).String()
}
