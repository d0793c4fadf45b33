package drrcli

import (
	"encoding/json"
	"flag"
	"fmt"
	"html/template"
	"io"
	"path"
	"strings"

	"github.com/pirdrr/drr/internal/fileio"
)

func init() {
	register(&command{
		name:    "report",
		usage:   "report [flags] RESULTS.jsonl...",
		summary: "merge the result files of sharded verify and apply runs into one table",
		help: `
Report reads the result files drrc verify -results and drrc apply -results write (JSON lines, one record per
program, schema ` + resultsSchema + `), merges them and prints one table: each program's status, largest relative
error, wall and CPU time, peak resident set and op count before → after; then the totals (programs per status,
wall and CPU time summed, the shard count and the slowest shard's wall time), the ten slowest programs and the
largest peak RSS. -json writes the merged records and the totals as one JSON object (schema ` + reportSchema + `),
-html a self-contained page.

The merge is checked: a program recorded twice (for the same command) is an error naming both lines, and so are
gaps. Each record carries its shard (K/N), the programs of its shard and those of the whole run, so a shard that
stopped early (fewer records than programs) and a shard with no record at all are found without more input;
-expect DIR (or a program, repeatable) also names every program without a record and every record of a program
not expected, comparing the paths as drrc verify DIR finds them. A line that is not a record of this schema
version is an error at its file:line. The exit status is 1 on any of these errors (the table is still printed),
0 otherwise, whatever the programs' statuses: the table shows them.

Examples:
  drrc verify -shard 1/2 -results shard1.jsonl corpus/graphnet_samples
  drrc verify -shard 2/2 -results shard2.jsonl corpus/graphnet_samples
  drrc report -expect corpus/graphnet_samples shard1.jsonl shard2.jsonl
  drrc report -html shard*.jsonl > report.html`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			r := &reportFlags{}
			fs.BoolVar(&r.json, "json", false, "write the merged records and totals as JSON")
			fs.BoolVar(&r.html, "html", false, "write the table as an HTML page")
			fs.Var(&r.expect, "expect", "fail unless the records are exactly the programs of `dir` (or program; repeatable), as drrc verify finds them")
			return r.run
		},
	})
}

type reportFlags struct {
	json, html bool
	expect     listFlag
}

func (r *reportFlags) run(c *CLI, args []string) int {
	if r.json && r.html {
		return c.usageErrorf("report", "-json and -html exclude each other")
	}
	if len(args) == 0 {
		return c.usageErrorf("report", "no result files to merge")
	}
	var expect []string
	if len(r.expect) > 0 {
		expect = []string{}
		for _, arg := range r.expect {
			progs, err := c.programsOf(arg)
			if err != nil {
				return c.errorf("report", "-expect: %v", err)
			}
			expect = append(expect, progs...)
		}
	}
	seen := map[string]bool{}
	for _, file := range args {
		if seen[file] {
			return c.usageErrorf("report", "%s is given twice: its records would all be duplicates", file)
		}
		seen[file] = true
	}
	var recs []*recordAt
	for _, file := range args {
		rs, err := readResults(file, c.programLimit())
		if err != nil {
			return c.errorf("report", "%v", err)
		}
		recs = append(recs, rs...)
	}
	m, errs := mergeRecords(recs, expect)
	var err error
	switch {
	case r.json:
		enc := json.NewEncoder(c.Stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(m)
	case r.html:
		err = reportPage.Execute(c.Stdout, pageData(m, errs))
	default:
		writeReport(c.Stdout, m)
	}
	if err != nil {
		return c.errorf("report", "%v", err)
	}
	for _, e := range errs {
		fmt.Fprintf(c.Stderr, "drrc report: %s\n", e)
	}
	if len(errs) > 0 {
		return exitFailure
	}
	return exitOK
}

// commonDir returns the folder all programs are under ("" for none), with a trailing slash.
func commonDir(recs []*resultRecord) string {
	if len(recs) == 0 {
		return ""
	}
	prefix := path.Dir(recs[0].Program) + "/"
	for _, r := range recs[1:] {
		for !strings.HasPrefix(r.Program, prefix) {
			parent := path.Dir(strings.TrimSuffix(prefix, "/"))
			if parent == "." || parent == "/" || parent+"/" == prefix {
				return ""
			}
			prefix = parent + "/"
		}
	}
	if prefix == "./" {
		return ""
	}
	return prefix
}

// reportRow is one record as the table shows it.
type reportRow struct {
	Program, Command, Status, MaxRel, Wall, CPU, RSS, Ops, Error string
}

// rows formats the records, their programs relative to dir.
func rows(m *mergedReport, dir string) []reportRow {
	var out []reportRow
	for _, r := range m.Records {
		row := reportRow{Program: strings.TrimPrefix(r.Program, dir), Command: r.Command, Status: statusWord(r.Status),
			Wall: seconds(r.WallNS), CPU: seconds(r.CPUNS), Error: r.Error}
		if r.Command == "verify" && r.Outputs > 0 {
			row.MaxRel = fmt.Sprintf("%.3g", r.MaxRel)
		}
		if r.PeakRSS > 0 {
			row.RSS = fileio.FormatSize(r.PeakRSS)
		}
		if s := r.Stats; s != nil && s.Before != nil && s.After != nil {
			row.Ops = fmt.Sprintf("%d → %d", s.Before.Ops, s.After.Ops)
		}
		out = append(out, row)
	}
	return out
}

// totalsLine is the totals in one sentence.
func totalsLine(m *mergedReport) string {
	t := m.Totals
	var parts []string
	for _, s := range []string{statusOK, statusFailed, statusError} {
		if n := t.Statuses[s]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, statusWord(s)))
		}
	}
	for s, n := range t.Statuses {
		if s != statusOK && s != statusFailed && s != statusError {
			parts = append(parts, fmt.Sprintf("%d %s", n, s))
		}
	}
	line := fmt.Sprintf("%d program(s): %s; wall %s summed", t.Programs, strings.Join(parts, ", "), orZero(seconds(t.WallNS)))
	if t.CPUNS > 0 {
		line += fmt.Sprintf(", CPU %s", seconds(t.CPUNS))
	}
	if t.Shards > 0 {
		line += fmt.Sprintf("; %d shard(s), the slowest %s (shard %s)", t.Shards, orZero(seconds(t.LongestShardNS)), t.LongestShard)
	}
	return line
}

func orZero(s string) string {
	if s == "" {
		return "0s"
	}
	return s
}

// writeReport writes the text table.
func writeReport(w io.Writer, m *mergedReport) {
	dir := commonDir(m.Records)
	if dir != "" {
		fmt.Fprintf(w, "programs under %s\n", dir)
	}
	rs := rows(m, dir)
	width := len("program")
	for _, r := range rs {
		width = max(width, len(r.Program))
	}
	fmt.Fprintf(w, "%-*s  %-7s %-7s %9s %10s %10s %10s  %s\n", width, "program", "command", "status", "max rel", "wall", "cpu", "peak RSS", "ops")
	for _, r := range rs {
		line := fmt.Sprintf("%-*s  %-7s %-7s %9s %10s %10s %10s  %s", width, r.Program, r.Command, r.Status, r.MaxRel, r.Wall, r.CPU, r.RSS, r.Ops)
		if r.Error != "" {
			line += "  " + r.Error
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	fmt.Fprintf(w, "totals: %s\n", totalsLine(m))
	if len(m.Slowest) > 0 {
		fmt.Fprintf(w, "slowest %d:\n", len(m.Slowest))
		walls := map[string]int64{}
		for _, r := range m.Records {
			walls[r.Program] = max(walls[r.Program], r.WallNS)
		}
		for _, p := range m.Slowest {
			fmt.Fprintf(w, "  %10s  %s\n", orZero(seconds(walls[p])), strings.TrimPrefix(p, dir))
		}
	}
	if t := m.Totals; t.PeakRSS > 0 {
		fmt.Fprintf(w, "peak RSS: %s (%s)\n", fileio.FormatSize(t.PeakRSS), strings.TrimPrefix(t.PeakRSSProgram, dir))
	}
}

// reportPageData is what the HTML page shows.
type reportPageData struct {
	Dir     string
	Rows    []reportRow
	Totals  string
	Slowest []string
	PeakRSS string
	Errors  []string
}

func pageData(m *mergedReport, errs []string) reportPageData {
	dir := commonDir(m.Records)
	d := reportPageData{Dir: dir, Rows: rows(m, dir), Totals: totalsLine(m), Errors: errs}
	for _, p := range m.Slowest {
		d.Slowest = append(d.Slowest, strings.TrimPrefix(p, dir))
	}
	if t := m.Totals; t.PeakRSS > 0 {
		d.PeakRSS = fmt.Sprintf("%s (%s)", fileio.FormatSize(t.PeakRSS), strings.TrimPrefix(t.PeakRSSProgram, dir))
	}
	return d
}

var reportPage = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>drrc report</title>
<style>
body{font:14px system-ui,sans-serif;margin:1.5em}
table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}.FAILED,.ERROR{color:#b00;font-weight:bold}.errors{color:#b00}
</style></head><body>
<h1>drrc report</h1>
{{if .Errors}}<ul class="errors">{{range .Errors}}<li>{{.}}</li>{{end}}</ul>{{end}}
<p>Totals: {{.Totals}}</p>
{{if .PeakRSS}}<p>Peak RSS: {{.PeakRSS}}</p>{{end}}
{{if .Slowest}}<p>Slowest:</p><ol>{{range .Slowest}}<li>{{.}}</li>{{end}}</ol>{{end}}
{{if .Dir}}<p>Programs under {{.Dir}}</p>{{end}}
<table><thead><tr><th>program</th><th>command</th><th>status</th><th>max rel</th><th>wall</th><th>cpu</th><th>peak RSS</th><th>ops</th><th>error</th></tr></thead><tbody>
{{range .Rows}}<tr><td>{{.Program}}</td><td>{{.Command}}</td><td class="{{.Status}}">{{.Status}}</td><td class="n">{{.MaxRel}}</td><td class="n">{{.Wall}}</td><td class="n">{{.CPU}}</td><td class="n">{{.RSS}}</td><td class="n">{{.Ops}}</td><td>{{.Error}}</td></tr>
{{end}}</tbody></table>
</body></html>
`))
