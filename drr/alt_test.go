package drr

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
)

// TestAlternativesChecked: alternatives become an AltGroup read at an OperandAlt (a value branch names the value,
// an op branch lists its ops), optional ops are the op and its first operand, the benefit counts the largest way
// through them, and rule.Paths gives one rule without alternatives per way, in the order they are tried.
func TestAlternativesChecked(t *testing.T) {
	tests := []struct {
		name, match string
		branches    [][]string // per group: each branch's value name, and its ops' names after ':'
		benefit     int
		paths       []string // per path: its ops' names
	}{
		{"value or op", `
    %d = pd_op.subtract(%x, %m)
    %n = pd_op.divide(%d | pd_op.subtract(%x, %m), %s)`,
			[][]string{{"%d", "%_2:pd_op.subtract"}}, 3,
			[]string{"pd_op.subtract pd_op.divide", "pd_op.subtract pd_op.subtract pd_op.divide"}},
		{"optional", `
    %y = pd_op.relu(pd_op.cast(%x)?)`,
			[][]string{{"%_2:pd_op.cast", "%x"}}, 2,
			[]string{"pd_op.cast pd_op.relu", "pd_op.relu"}},
		{"nested", `
    %y = pd_op.sqrt(pd_op.abs(pd_op.cast(%x)?) | %x)`,
			[][]string{{"%_3:pd_op.cast", "%x"}, {"%_4:pd_op.cast pd_op.abs", "%x"}}, 3,
			[]string{"pd_op.cast pd_op.abs pd_op.sqrt", "pd_op.abs pd_op.sqrt", "pd_op.sqrt"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "rule r {\n  match {" + tc.match + "\n  }\n  rewrite { erase @nothing }\n}\n"
			src = strings.Replace(src, "erase @nothing", "replace "+lastResult(tc.match)+" with %x", 1)
			set, msgs := checkSrc(t, src, CheckOptions{})
			require.Empty(t, msgs)
			r := set.Rules[0]
			p := r.Pattern
			var got [][]string
			for _, a := range p.Alts {
				require.Equal(t, rule.OperandAlt, p.Ops[a.Op].Operands[a.Operand].Kind)
				var bs []string
				for _, br := range a.Branches {
					s := rule.ValueName(p, br.Value)
					var names []string
					for _, k := range br.Ops {
						names = append(names, p.Ops[k].Name)
					}
					if len(names) > 0 {
						s += ":" + strings.Join(names, " ")
					}
					bs = append(bs, s)
				}
				got = append(got, bs)
			}
			assert.Equal(t, tc.branches, got)
			assert.Equal(t, tc.benefit, r.Benefit)
			var paths []string
			for _, pr := range rule.Paths(r) {
				require.Empty(t, pr.Pattern.Alts)
				var names []string
				for _, op := range pr.Pattern.Ops {
					names = append(names, op.Name)
				}
				paths = append(paths, strings.Join(names, " "))
			}
			assert.Equal(t, tc.paths, paths)
			assert.Equal(t, len(paths), rule.PathCount(p))
		})
	}
}

// lastResult returns the result named by the last statement of a match block.
func lastResult(match string) string {
	lines := strings.Split(strings.TrimSpace(match), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	return strings.TrimSpace(strings.SplitN(last, "=", 2)[0])
}

// TestAlternativesErrors: what only some alternatives bind cannot be used, an alternative is a value or an op
// pattern, and the ways through a pattern's alternatives are bounded.
func TestAlternativesErrors(t *testing.T) {
	var many strings.Builder
	many.WriteString("rule r {\n  match {\n")
	prev := "%x"
	for i := range 7 {
		many.WriteString("    %s" + string(rune('0'+i)) + " = pd_op.add(pd_op.relu(%a" + string(rune('0'+i)) + ") | %b" +
			string(rune('0'+i)) + ", " + prev + ")\n")
		prev = "%s" + string(rune('0'+i))
	}
	many.WriteString("  }\n  rewrite { replace %s6 with %x }\n}\n")
	// Optional ops nested in one another's first operand: each level matches the rest twice.
	deep := "%x"
	for range 40 {
		deep = "pd_op.relu(pd_op.abs(" + deep + ")?)"
	}
	tests := []struct{ name, src, want string }{
		{"value of one alternative", `
rule r {
  match { %y = pd_op.relu(pd_op.scale(%x, %f) | %x) }
  rewrite { replace %y with pd_op.abs(%f) }
}`, "t.drr:4:39: error: %f is bound in some alternatives only"},
		{"hole of one alternative", `
rule r {
  match { %y = pd_op.relu(pd_op.scale(%x, %f) {bias: $b} | %x) }
  where { $b > 0.0 }
  rewrite { replace %y with %x }
}`, "t.drr:4:11: error: $b is bound in some alternatives only"},
		{"in every alternative", `
rule r {
  match { %y = pd_op.relu(pd_op.scale(%x, %f) | pd_op.divide(%x, %f)) }
  rewrite { replace %y with pd_op.abs(%f) }
}`, ""},
		{"wildcard alternative", `
rule r {
  match { %y = pd_op.relu(%x | _) }
  rewrite { replace %y with %x }
}`, "t.drr:3:32: error: an alternative is a value like %x or an op pattern, not '_'"},
		{"too many ways", many.String(), "t.drr:2:3: error: the alternatives of this pattern make more than 64 ways"},
		{"optional ops doubling", "rule r {\n  match {\n    %y = pd_op.abs(" + deep + ")\n  }\n  rewrite { replace %y with %x }\n}\n",
			"t.drr:2:3: error: the alternatives of this pattern make more than 64 ways"},
		{"optional of alternatives", `
rule r {
  match { %y = pd_op.relu(pd_op.abs(pd_op.cast(%x)?)?) }
  rewrite { replace %y with %x }
}`, "t.drr:3:27: error: the first operand of optional pd_op.abs has alternatives itself"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, msgs := checkSrc(t, tc.src, CheckOptions{})
			if tc.want == "" {
				assert.Empty(t, msgs)
				return
			}
			require.NotEmpty(t, msgs)
			assert.Contains(t, msgs[0], tc.want)
		})
	}
}

// TestBoundConstraints: bound(…) guards what only some alternatives bind, on the right of `bound && …` and
// `!bound || …` and in the matching branch of `?:`; it must name something some alternatives leave unbound, stays
// in where clauses, and a rule whose constraints are false on every path is an error. rule.Paths decides bound per
// path and leaves out the paths on which a constraint is false.
func TestBoundConstraints(t *testing.T) {
	const match = "  match { %y = pd_op.relu(pd_op.scale(%x, %f) {bias: $b} | pd_op.cast(%x) {dtype: $d}) }\n"
	tests := []struct {
		name, where, rewrite, want string
		paths                      []string // per path: its where clause after bound is decided
	}{
		{"and", "bound($b) && $b > 0.0", "", "",
			[]string{"$b > 0.0", "false"}},
		{"implies", "!bound($b, %f) || $b > 0.0 && dtype(%f) == float32", "", "",
			[]string{"$b > 0.0 && dtype(%f) == float32", "true"}},
		{"implies one", "!bound($b) || $b > 0.0 && dtype(%f) == float32", "", "t.drr:3:43: error: %f is bound in some alternatives only", nil},
		{"cond", "bound($b) ? $b > 0.0 : bound($d) && $d == float32", "", "",
			[]string{"$b > 0.0", "$d == float32"}},
		{"else unguarded", "bound($b) ? $b > 0.0 : $d == float32", "", "t.drr:3:34: error: $d is bound in some alternatives only", nil},
		{"negated cond", "!bound($d) ? dtype(%x) == float16 : $d == float32", "", "",
			[]string{"dtype(%x) == float16", "$d == float32"}},
		{"several", "bound(%f, $b) && $b > 0.0 && rank(%f) == 0", "", "",
			[]string{"$b > 0.0 && rank(%f) == 0", "false"}},
		{"equal", "bound($b) == bound(%f)", "", "",
			[]string{"true", "true"}},
		{"unguarded", "bound($b) || $b > 0.0", "", "t.drr:3:24: error: $b is bound in some alternatives only", nil},
		{"guard on the right", "$b > 0.0 && bound($b)", "", "t.drr:3:11: error: $b is bound in some alternatives only", nil},
		{"always true", "bound(%x)", "", "t.drr:3:17: error: bound(%x) is always true: every path through the alternatives binds %x", nil},
		{"not a name", "bound(1)", "", "t.drr:3:17: error: bound: an argument is a %value or a $hole of the pattern", nil},
		{"unknown name", "bound($nope)", "", "t.drr:3:17: error: $nope is not bound in the match", nil},
		{"never", "bound($b) && bound($d)", "", "error: the rule never matches: its bound(…) constraints are false on every path", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "rule r {\n" + match
			if tc.where != "" {
				src += "  where { " + tc.where + " }\n"
			} else {
				src += "\n"
			}
			with := "%x"
			if tc.rewrite != "" {
				with = tc.rewrite
			}
			src += "  rewrite { replace %y with " + with + " }\n}\n"
			set, all := checkSrc(t, src, CheckOptions{})
			var msgs []string
			for _, m := range all {
				if strings.Contains(m, ": error: ") {
					msgs = append(msgs, m)
				}
			}
			if tc.want != "" {
				require.NotEmpty(t, msgs)
				assert.Contains(t, msgs[0], tc.want)
				return
			}
			require.Empty(t, msgs)
			r := set.Rules[0]
			var got []string
			for _, pr := range rule.Paths(r) {
				got = append(got, rule.FormatExpr(pr, pr.Where[0]))
			}
			var live []string
			for _, w := range tc.paths {
				if w != "false" {
					live = append(live, w)
				}
			}
			assert.Equal(t, live, got, "the paths' constraints, false ones left out")
		})
	}
}
