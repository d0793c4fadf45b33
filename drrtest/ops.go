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
//	pd_op.scale + pd_op.scale_: 1
//
// Ops are counted in the program's top-level block, as Paddle counts program.global_block().ops; names the
// section does not list are not checked. Names joined by + are counted together (an op and its inplace form, which
// a pipeline's reinplace pass may have made of it). The section is the test's requirement: a run that differs
// fails, and -update leaves the section as it is.

// opCount is one line of an ops section: the ops counted together, and how many there must be.
type opCount struct {
	names []string
	want  int
}

func (c opCount) String() string { return strings.Join(c.names, " + ") }

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
		ops, n, ok := strings.Cut(l, ":")
		want, err := strconv.Atoi(strings.TrimSpace(n))
		c := opCount{want: want}
		for _, op := range strings.Split(ops, "+") {
			op = strings.TrimSpace(op)
			if op == "" || strings.ContainsAny(op, " \t") {
				ok = false
			}
			c.names = append(c.names, op)
		}
		if !ok || err != nil || want < 0 {
			return nil, fmt.Errorf("section %s, line %d: want \"OP_NAME: COUNT\" or \"OP_NAME + OP_NAME: COUNT\" (a count of 0 or more), got %q", name, i+1, l)
		}
		for _, op := range c.names {
			if seen[op] {
				return nil, fmt.Errorf("section %s, line %d: %s is counted twice", name, i+1, op)
			}
			seen[op] = true
		}
		out = append(out, c)
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
		n := 0
		for _, op := range c.names {
			n += got[op]
		}
		if n != c.want {
			wrong = append(wrong, fmt.Sprintf("  %s: want %d, got %d", c, c.want, n))
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
