package drr

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
)

// TestEachInstances: a rule with a group is one instance per element count, named n=N; each instance's list holds
// N copies of the element with its own values (x[i]), the holes shared; a where constraint naming a group value is
// repeated per element, %x... spreads the values and %x[k] picks one, in the where clause and the rewrite.
func TestEachInstances(t *testing.T) {
	src := `
rule tfc {
  match {
    %o = pd_op.concat([each(2, 4) pd_op.relu(pd_op.transpose(%x) {perm: $p})], %axis)
  }
  where {
    rank(%x) == 4
    !aliased(%x...)
    rank(%x[1]) > 0
  }
  rewrite {
    replace %o with pd_op.concat([%x...], %axis) {}
  }
}
`
	set, msgs := checkSrc(t, src, CheckOptions{})
	require.Empty(t, msgs)
	require.Len(t, set.Rules, 3)
	for i, r := range set.Rules {
		n := i + 2
		assert.Equal(t, "tfc[n="+string(rune('0'+n))+"]", r.ID())
		var names []string
		for _, v := range r.Pattern.Values {
			if strings.HasPrefix(v.Name, "x[") {
				names = append(names, v.Name)
			}
		}
		want := []string{}
		for k := range n {
			want = append(want, "x["+string(rune('0'+k))+"]")
		}
		assert.ElementsMatch(t, want, names)
		assert.Len(t, r.Where, n+2, "rank(%%x) == 4 once per element, the other two once")
		assert.Len(t, r.Pattern.Holes, 1, "$p is shared")
		ops := 0
		for _, op := range r.Pattern.Ops {
			if op.Name == "pd_op.relu" {
				ops++
			}
		}
		assert.Equal(t, n, ops)
		where := rule.FormatExpr(r, r.Where[0])
		assert.Contains(t, where, "%x[0]")
	}
}

// TestEachErrors: misuses of groups are positioned errors, reported once for all instances.
func TestEachErrors(t *testing.T) {
	rule1 := func(match, rewrite string) string {
		return "rule r {\n  match {\n    " + match + "\n  }\n  rewrite {\n    " + rewrite + "\n  }\n}\n"
	}
	tests := []struct{ name, src, want string }{
		{"not alone in the list", rule1(`%o = pd_op.concat([%a, each(1, 3) pd_op.relu(%x)], %axis)`, `replace %o with %a`),
			"t.drr:3:28: error: each(…) must be the only element of a list operand: [each(1, 3) …]"},
		{"not in a list", rule1(`%o = pd_op.relu(each(1, 3) pd_op.relu(%x))`, `replace %o with %o`),
			"t.drr:3:21: error: each(…) must be the only element of a list operand"},
		{"nested", rule1(`%o = pd_op.concat([each(1, 3) pd_op.concat([each(1, 2) pd_op.relu(%x)], %b)], %axis)`,
			`replace %o with %axis`), "t.drr:3:49: error: groups cannot nest"},
		{"in alternatives", rule1(`%o = pd_op.concat(pd_op.relu(%a) | [each(1, 2) pd_op.relu(%x)], %axis)`,
			`replace %o with %axis`), "t.drr:3:41: error: a group cannot be inside alternatives or either(…)"},
		{"two groups", rule1(`%o = pd_op.add(pd_op.concat([each(1, 2) pd_op.relu(%x)], %a), pd_op.concat([each(1, 2) pd_op.abs(%y)], %a))`,
			`replace %o with %a`), "t.drr:3:81: error: a rule has at most one group: another each(…) is at t.drr:3:34"},
		{"no op pattern", rule1(`%o = pd_op.concat([each(1, 2) %x], %axis)`, `replace %o with %axis`),
			"t.drr:3:35: error: the elements of each(…) need an op pattern (a list of any values is [%xs...])"},
		{"value list in the element", rule1(`%o = pd_op.concat([each(1, 2) pd_op.add_n(%xs...)], %axis)`, `replace %o with %axis`),
			"t.drr:3:47: error: %xs... cannot be in a group: each element is one value"},
		{"group value alone in the rewrite", rule1(`%o = pd_op.concat([each(1, 2) pd_op.relu(%x)], %axis)`,
			`replace %o with pd_op.relu(%x)`), "t.drr:6:32: error: %x is bound per element of the group at t.drr:3:24: spread the values with %x... or pick one with %x[0]"},
		{"index past the smallest count", rule1(`%o = pd_op.concat([each(2, 3) pd_op.relu(%x)], %axis)`,
			`replace %o with pd_op.relu(%x[2])`), "t.drr:6:35: error: %x[2]: the group has at least 2 elements (each(2, 3)), so the index must be below 2"},
		{"index not a literal", rule1(`%o = pd_op.concat([each(2, 3) pd_op.relu(%x)], %axis)`,
			`replace %o with pd_op.relu(%x[rank(%axis)])`), "t.drr:6:35: error: %x[…] picks an element of a group: the index must be an integer literal"},
		{"with a family", "family acts = [pd_op.relu, pd_op.abs]\nrule r {\n  for A in acts\n  match {\n    %o = pd_op.concat([each(1, 2) A(%x)], %axis)\n  }\n  rewrite {\n    replace %o with %axis\n  }\n}\n",
			"t.drr:5:24: error: a rule over a family cannot have a group"},
		{"written out too large", rule1(`%o = pd_op.concat([each(1, 16) `+strings.Repeat("pd_op.relu(", 17)+"%x"+strings.Repeat(")", 17)+`], %axis)`,
			`replace %o with %axis`), "t.drr:3:24: error: each(1, 16) of 17 op patterns is 272 op patterns for 16 elements: at most 256"},
		{"error of every instance reported once", rule1(`%o = pd_op.concat([each(1, 3) pd_op.rleu(%x)], %axis)`, `replace %o with pd_op.concat([%x...], %axis)`),
			"t.drr:3:35: error: unknown op pd_op.rleu (did you mean pd_op.relu?)"},
	}
	tests = append(tests, struct{ name, src, want string }{"a hole bound once warns once, without counts",
		rule1(`%o = pd_op.concat([each(1, 3) pd_op.scale(%x, %s) {bias: $b}], %axis)`, `replace %o with %axis`),
		"t.drr:3:62: warning: $b is bound but never used (write _ to only require the attribute)"})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, msgs := checkSrc(t, tc.src, CheckOptions{})
			require.NotEmpty(t, msgs)
			assert.Contains(t, msgs[0], tc.want)
			assert.NotContains(t, msgs[0], "(in n=")
			if strings.Contains(tc.name, "once") {
				assert.Len(t, msgs, 1, "%v", msgs)
			}
		})
	}
}

// FuzzCheckGroups: checking a rule with a group never panics, whatever the element, its uses and the counts (the
// group is written out by a reflective copy of the syntax tree; every misuse must be a diagnostic).
func FuzzCheckGroups(f *testing.F) {
	for _, src := range []string{
		"rule r {\n  match {\n    %o = pd_op.concat([each(1, 3) pd_op.relu(pd_op.abs(%x) {}) : (?) -> tensor<?x?>], %a)\n  }\n" +
			"  where {\n    rank(%x) == 2 && !aliased(%x...)\n  }\n  rewrite {\n    replace %o with pd_op.concat([%x...], %a)\n  }\n}\n",
		"rule r {\n  match {\n    %o = pd_op.concat([each(2, 2) pd_op.scale(%x, %s) {bias: $b}], %a)\n  }\n" +
			"  rewrite {\n    replace %o with pd_op.scale(%x[1], %s) {bias: $b}\n  }\n}\n",
		"rule r {\n  match {\n    %o = pd_op.add_n([each(1, 16) pd_op.cast(%x: tensor<*x$t>) {dtype: $t}])\n  }\n" +
			"  where {\n    dtype(%x[0]) == $t\n  }\n  rewrite {\n    replace %o with pd_op.add_n([%x..., %x[0]])\n  }\n}\n",
	} {
		f.Add(src)
	}
	ctx := defaultCtx(f)
	f.Fuzz(func(t *testing.T, src string) {
		_, _ = LoadSource(ctx, LoadOptions{}, "t.drr", []byte(src))
	})
}
