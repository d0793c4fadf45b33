package drrcli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recLine is a result record line of program in shard K/N.
func recLine(program, shard string, shardPrograms, programs int, extra string) string {
	return fmt.Sprintf(`{"schema":"pirdrr-results/1","command":"verify","program":%q,"key":"path:%s","shard":%q,"shard_programs":%d,"programs":%d,"status":"ok","wall_ns":%d%s}`,
		program, program, shard, shardPrograms, programs, 1000000*len(program), extra) + "\n"
}

func TestReport(t *testing.T) {
	a1 := recLine("m/a.pir", "1/2", 2, 3, `,"peak_rss_bytes":1048576,"cpu_ns":5000000`)
	b1 := recLine("m/b.pir", "1/2", 2, 3, "")
	c2 := recLine("m/ccc.pir", "2/2", 1, 3, `,"max_rel":0.5,"outputs":1`)
	for _, tc := range []struct {
		name   string
		files  map[string]string // file name → content, given in name order
		flags  []string
		code   int
		stdout []string
		stderr []string
	}{
		{name: "complete", files: map[string]string{"s1.jsonl": a1 + b1, "s2.jsonl": c2}, code: exitOK,
			stdout: []string{"programs under m/", "a.pir", "ccc.pir  verify  ok", "0.5", "totals: 3 program(s): 3 ok; wall 23ms summed, CPU 5ms; 2 shard(s), the slowest 14ms (shard 1/2)",
				"slowest 3:\n         9ms  ccc.pir\n         7ms  a.pir\n         7ms  b.pir\n", "peak RSS: 1 MiB (a.pir)"}},
		{name: "duplicate", files: map[string]string{"s1.jsonl": a1 + b1, "s2.jsonl": c2 + a1}, code: exitFailure,
			stderr: []string{"s2.jsonl:2: duplicate record: verify m/a.pir is also recorded at ", "s1.jsonl:1"}},
		{name: "absent shard", files: map[string]string{"s1.jsonl": a1 + b1}, code: exitFailure,
			stderr: []string{"gap: verify: the shards recorded account for 2 of the run's 3 program(s); no record of shard(s) 2/2"}},
		{name: "shard stopped early", files: map[string]string{"s1.jsonl": a1, "s2.jsonl": c2}, code: exitFailure,
			stderr: []string{"gap: verify shard 1/2 has 1 record(s) of its 2 program(s)"}},
		{name: "another run", files: map[string]string{"s1.jsonl": a1 + b1, "s2.jsonl": recLine("m/ccc.pir", "2/3", 1, 3, "")}, code: exitFailure,
			stderr: []string{"s2.jsonl:1: a record of another run: shard 2/3 of 3 program(s), where ", "s1.jsonl:1 has shard 1/2 of 3"}},
		{name: "truncated line", files: map[string]string{"s1.jsonl": a1 + b1[:40] + "\n"}, code: exitFailure,
			stderr: []string{"s1.jsonl:2:41: not a result record: the line ends inside its record (a truncated write?)"}},
		{name: "other schema", files: map[string]string{"s1.jsonl": a1 + strings.Replace(b1, "pirdrr-results/1", "pirdrr-results/0", 1)}, code: exitFailure,
			stderr: []string{`s1.jsonl:2: a record of schema "pirdrr-results/0": this drrc reads "pirdrr-results/1"`}},
		{name: "unknown field", files: map[string]string{"s1.jsonl": strings.Replace(a1, `"status"`, `"verdict"`, 1)}, code: exitFailure,
			stderr: []string{`s1.jsonl:1:`, `unknown field "verdict"`}},
		{name: "not json", files: map[string]string{"s1.jsonl": "\n\nverify ok\n"}, code: exitFailure,
			stderr: []string{"s1.jsonl:3:1: not a result record: invalid character"}},
		{name: "no schema", files: map[string]string{"s1.jsonl": `{"program":"x"}` + "\n"}, code: exitFailure,
			stderr: []string{"s1.jsonl:1: a record without a schema: this is not a drrc results file"}},
		{name: "json", files: map[string]string{"s1.jsonl": a1 + b1, "s2.jsonl": c2}, flags: []string{"-json"}, code: exitOK,
			stdout: []string{`"schema": "pirdrr-report/1"`, `"programs": 3`, `"longest_shard": "1/2"`, `"peak_rss_program": "m/a.pir"`}},
		{name: "html", files: map[string]string{"s1.jsonl": a1 + b1, "s2.jsonl": recLine("m/<b>.pir", "2/2", 1, 3, `,"status":"error","error":"x < y"`)}, flags: []string{"-html"}, code: exitOK,
			stdout: []string{"<!DOCTYPE html>", "<td>&lt;b&gt;.pir</td>", `class="ERROR"`, "x &lt; y", "Totals: 3 program(s): 2 ok, 1 ERROR"}},
		{name: "json and html", files: map[string]string{"s1.jsonl": a1}, flags: []string{"-json", "-html"}, code: exitUsage,
			stderr: []string{"-json and -html exclude each other"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"report"}, tc.flags...)
			for _, name := range []string{"s1.jsonl", "s2.jsonl"} {
				if content, ok := tc.files[name]; ok {
					args = append(args, write(t, dir, name, content))
				}
			}
			code, stdout, stderr := run(t, "", args...)
			assert.Equal(t, tc.code, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
			for _, s := range tc.stdout {
				assert.Contains(t, stdout, s)
			}
			for _, s := range tc.stderr {
				assert.Contains(t, stderr, s)
			}
			if tc.code == exitOK && len(tc.flags) > 0 && tc.flags[0] == "-json" {
				var m mergedReport
				require.NoError(t, json.Unmarshal([]byte(stdout), &m))
				assert.Len(t, m.Records, 3)
			}
		})
	}
}

func TestReportExpect(t *testing.T) {
	dir := t.TempDir()
	models := reluPrograms(t, dir, 4)
	results := filepath.Join(dir, "r.jsonl")
	code, _, stderr := run(t, "", "verify", "-shard", "1/1", "-results", results, models)
	require.Equal(t, exitOK, code, stderr)
	code, _, stderr = run(t, "", "report", "-expect", models, results)
	assert.Equal(t, exitOK, code, stderr)

	// A program added since the run has no record; a program of another folder is not expected.
	write(t, models, "new.pir", reluProgram)
	other := reluPrograms(t, filepath.Join(dir, "other"), 1)
	code, _, stderr = run(t, "", "report", "-expect", models, "-expect", other, results)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, "gap: 2 of 6 expected program(s) have no record: "+filepath.Join(models, "new.pir")+", "+filepath.Join(other, "m00.pir"))
	code, _, stderr = run(t, "", "report", "-expect", other, results)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, results+":1: "+filepath.Join(models, "m00.pir")+" is not one of the expected programs")

	code, _, stderr = run(t, "", "report", results, results)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "is given twice")
	code, _, stderr = run(t, "", "report")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "no result files")
	code, _, stderr = run(t, "", "report", filepath.Join(dir, "missing.jsonl"))
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, "missing.jsonl")
	_, err := os.Stat(filepath.Join(dir, "missing.jsonl"))
	assert.True(t, os.IsNotExist(err))
}

// FuzzParseResults: any content either parses into records that write back to the same records, or is an error
// that names its file and line; it never panics.
func FuzzParseResults(f *testing.F) {
	f.Add([]byte(recLine("m/a.pir", "1/2", 2, 3, `,"peak_rss_bytes":1048576`)))
	f.Add([]byte(recLine("m/a.pir", "1/1", 1, 1, "")[:50]))
	f.Add([]byte("\n{}\n[1]\n"))
	f.Add([]byte(`{"schema":"pirdrr-results/1","command":"verify","program":"p","status":"ok","stats":{"program":"p","passes":[]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := parseResults("f.jsonl", data)
		if err != nil {
			assert.True(t, strings.HasPrefix(err.Error(), "f.jsonl:"), "an error without its position: %v", err)
			return
		}
		var again []byte
		for _, r := range recs {
			line, err := json.Marshal(&r.resultRecord)
			require.NoError(t, err)
			again = append(append(again, line...), '\n')
		}
		recs2, err := parseResults("g.jsonl", again)
		require.NoError(t, err)
		require.Len(t, recs2, len(recs))
		for i := range recs {
			assert.Equal(t, recs[i].resultRecord, recs2[i].resultRecord)
		}
	})
}

// TestVerifyTimeout: -timeout stops each program's evaluation at its limit; the program's record says so with
// status error, the others still run, and a negative limit is a usage error.
func TestVerifyTimeout(t *testing.T) {
	dir := t.TempDir()
	models := reluPrograms(t, dir, 2)
	results := filepath.Join(dir, "r.jsonl")
	code, stdout, _ := run(t, "", "verify", "-timeout", "1ns", "-results", results, models)
	assert.Equal(t, exitFailure, code)
	assert.Equal(t, 2, strings.Count(stdout, "the program's -timeout of 1ns ran out"), stdout)
	recs, err := readResults(results, 1<<20)
	require.NoError(t, err)
	require.Len(t, recs, 2, "every program has its record")
	for _, r := range recs {
		assert.Equal(t, statusError, r.Status)
		assert.Contains(t, r.Error, "interp: stopped before ")
	}
	code, _, _ = run(t, "", "verify", "-timeout", "1h", models)
	assert.Equal(t, exitOK, code, "a limit the programs stay within changes nothing")
	code, _, stderr := run(t, "", "verify", "-timeout", "-1s", models)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "-timeout must not be negative")
}
