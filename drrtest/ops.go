package drrtest

import (
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/ir"
)

// An ops section states how many ops of each name the output of a run must have, as the valid_op_map of Paddle's
// pass tests does (test/ir/pir/fused_pass/pass_test.py, check_fused_ops):
//
//	-- ops --
//	# Paddle's valid_op_map
//	pd_op.fused_rotary_position_embedding: 1
//	pd_op.multiply: 0
//
// Ops are counted in the program's top-level block, as Paddle counts program.global_block().ops; names the
// section does not list are not checked. The section is the test's requirement: a run that differs fails, and
// -update leaves the section as it is.

// opCount is one line of an ops section.
type opCount struct {
	name string
	want int
	line int
}

// parseOps parses an ops section; errors name the section and the line.
func parseOps(name, text string) ([]opCount, error) {
	var out []opCount
	seen := map[string]bool{}
	for i, l := range strings.Split(text, "\n") {
		if c := strings.IndexByte(l, '#'); c >= 0 {
			l = l[:c]
		}
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		op, n, ok := strings.Cut(l, ":")
		op, n = strings.TrimSpace(op), strings.TrimSpace(n)
		want, err := strconv.Atoi(n)
		if !ok || op == "" || strings.ContainsAny(op, " \t") || err != nil || want < 0 {
			return nil, fmt.Errorf("section %s, line %d: want \"OP_NAME: COUNT\" (a count of 0 or more), got %q", name, i+1, l)
		}
		if seen[op] {
			return nil, fmt.Errorf("section %s, line %d: %s is counted twice", name, i+1, op)
		}
		seen[op] = true
		out = append(out, opCount{name: op, want: want, line: i + 1})
	}
	return out, nil
}

// checkOps checks the run's ops section, if any, against p: one failure message per count that differs.
func checkOps(ar *txtar.Archive, run string, p *ir.Program) ([]string, error) {
	name := run + "ops"
	text, ok := section(ar, name)
	if !ok {
		return nil, nil
	}
	want, err := parseOps(name, text)
	if err != nil {
		return nil, err
	}
	got := TopLevelOpCounts(p)
	var wrong []string
	for _, c := range want {
		if got[c.name] != c.want {
			wrong = append(wrong, fmt.Sprintf("  %s: want %d, got %d", c.name, c.want, got[c.name]))
		}
	}
	if len(wrong) == 0 {
		return nil, nil
	}
	return []string{fmt.Sprintf("%s: the output's op counts differ (-update does not change this section):\n%s",
		name, strings.Join(wrong, "\n"))}, nil
}

// TopLevelOpCounts counts the ops of p's top-level block by name (ops in the regions of if and while are not
// counted, as Paddle's pass tests count the global block).
func TopLevelOpCounts(p *ir.Program) map[string]int {
	counts := map[string]int{}
	for op := p.Body().First(); op != nil; op = op.Next() {
		counts[op.Name()]++
	}
	return counts
}
