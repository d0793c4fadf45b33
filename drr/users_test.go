package drr

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
)

// usersSrc is a users group: the matmuls of one value by weights, fused into one matmul and split back.
const usersSrc = `
rule proj {
  match {
    %y = pd_op.matmul(each(3, 64) %x, %w) {transpose_x: false, transpose_y: false}
  }
  where {
    rank(%w) == 2 && dim(%w, 0) == dim(%x, -1)
    rank(%x) >= 2
  }
  rewrite {
    %p = pd_op.matmul(%x, pd_op.concat([%w...], pd_op.full() {shape: [1], value: 1.0})) {transpose_x: false,
        transpose_y: false}
    %parts... = builtin.split(pd_op.split(%p, pd_op.full_int_array() {value: [dim(%w, 1)...]},
        pd_op.full() {shape: [1], value: -1.0}))
    replace %y... with %parts...
  }
}
`

// TestUsersGroupCheck: a users group is one rule (no instances), whose pattern says which value's users it
// collects, at which operand, how many; the other values are per element; a constraint naming one holds per
// element; the rewrite's spreads, list results and pairwise replace are checked into their rule forms.
func TestUsersGroupCheck(t *testing.T) {
	set, msgs := checkSrc(t, usersSrc, CheckOptions{})
	require.Empty(t, msgs)
	require.Len(t, set.Rules, 1)
	r := set.Rules[0]
	assert.Equal(t, "proj", r.ID())
	g := r.Pattern.Users
	require.NotNil(t, g)
	p := r.Pattern
	assert.Equal(t, "x", p.Values[g.Value].Name)
	assert.Equal(t, 0, g.Operand)
	assert.Equal(t, [2]int{3, 64}, [2]int{g.Min, g.Max})
	var elems []string
	for _, h := range g.Elems {
		elems = append(elems, p.Values[h].Name)
	}
	assert.ElementsMatch(t, []string{"y", "w"}, elems)
	assert.Equal(t, []int{0}, g.ElemWhere, "the first constraint names %%w: per element; the second is the group's")
	var spread *rule.Spread
	var list, each bool
	for _, a := range r.Actions {
		switch a := a.(type) {
		case *rule.Create:
			for _, s := range a.Attrs {
				if sp, ok := s.Value.(*rule.Spread); ok {
					spread = sp
				}
			}
			for _, k := range a.Results {
				list = list || k >= 0 && r.NewValues[k].List
			}
		case *rule.Replace:
			each = a.Each
		}
	}
	require.NotNil(t, spread)
	assert.Equal(t, "dim(%w, 1)...", rule.FormatExpr(r, spread))
	assert.True(t, list, "%%parts... binds every result of builtin.split")
	assert.True(t, each, "replace %%y... is pairwise")
}

// TestUsersGroupErrors: misuses of users groups, their spreads and pairwise replaces are positioned errors.
func TestUsersGroupErrors(t *testing.T) {
	rule1 := func(match, rewrite string) string {
		return "rule r {\n  match {\n    " + match + "\n  }\n  rewrite {\n    " + rewrite + "\n  }\n}\n"
	}
	const m = `%y = pd_op.matmul(each(3, 8) %x, %w)`
	const parts = `%parts... = builtin.split(pd_op.split(%x, pd_op.full_int_array() {value: [dim(%w, 1)...]}, %x))`
	tests := []struct{ name, src, want string }{
		{"not the only statement", "rule r {\n  match {\n    %a = pd_op.relu(%z)\n    " + m + "\n  }\n  rewrite {\n    replace %a with %z\n  }\n}\n",
			"t.drr:4:23: error: a users group's op must be the only statement of the match"},
		{"two users groups", rule1(`%y = pd_op.add(each(1, 2) %x, each(1, 2) %z)`, `replace %y with %x`),
			"t.drr:3:35: error: a rule has at most one group"},
		{"with a list group", rule1(`%y = pd_op.concat([each(1, 2) pd_op.relu(%a)], each(1, 2) %x)`, `replace %y with %x`),
			"t.drr:3:24: error: a rule has at most one group: this one and a users group"},
		{"no result", rule1(`pd_op.matmul(each(3, 8) %x, %w)`, `erase %x`),
			"t.drr:3:18: error: a users group's op names its result"},
		{"too many users", rule1(`%y = pd_op.matmul(each(3, 5000) %x, %w)`, `replace %y with %x`),
			"t.drr:3:28: error: each(3, 5000): at most 4096 elements"},
		{"list group over 16", rule1(`%y = pd_op.concat([each(1, 17) pd_op.relu(%x)], %a)`, `replace %y with %a`),
			"t.drr:3:24: error: each(1, 17): at most 16 elements (the rule is checked once per count)"},
		{"per-element value as an operand", rule1(m, "%q = pd_op.relu(%w)\n    "+parts+"\n    replace %y... with %parts..."),
			"t.drr:6:21: error: %w binds a list of values; spread it with %w..."},
		{"per-element value replaced alone", rule1(m, `replace %y with %x`),
			"t.drr:6:13: error: %y is bound per element of the users group: replace %y... with %parts..., pairwise"},
		{"pairwise with no list", rule1(m, "%p = pd_op.relu(%x)\n    replace %y... with %p..."),
			"t.drr:7:24: error: %p is not a list the rewrite defines"},
		{"pairwise with no spread", rule1(m, "replace %y... with %x"),
			"t.drr:6:24: error: replace %y... with %parts..., every result of an op the rewrite creates"},
		{"pairwise of the group's value", rule1(m, parts+"\n    replace %x... with %parts..."),
			"t.drr:7:13: error: replace %x... replaces the values of every element of a users group; %x is not bound per element of one"},
		{"list results without a group", rule1(`%y = pd_op.relu(%x)`, `%parts... = builtin.split(%x)`+"\n    replace %y with %x"),
			"t.drr:6:5: error: %parts... (every result of the op, as a list) is for the pieces of a users group; this rule has none"},
		{"list results in a match", rule1(`%y... = pd_op.relu(%x)`, `replace %y with %x`),
			"t.drr:3:5: error: %y... binds every result of an op the rewrite creates; a match names its results one by one"},
		{"spread of no per-element value", rule1(m, `%parts... = builtin.split(pd_op.split(%x, pd_op.full_int_array() {value: [dim(%x, 1)...]}, %x))`+"\n    replace %y... with %parts..."),
			"t.drr:6:79: error: [x...] needs x to name a per-element value of the users group"},
		{"bare spread", rule1(m, `%parts... = builtin.split(pd_op.split(%x, pd_op.full_int_array() {value: dim(%w, 1)...}, %x))`+"\n    replace %y... with %parts..."),
			"t.drr:6:78: error: x... is the list of x per element of the users group: write it as the only element of a list, [x...]"},
		{"spread without a group", rule1(`%y = pd_op.relu(%x)`, `replace %y with pd_op.full_int_array() {value: [dim(%x, 1)...]}`),
			"t.drr:6:53: error: ... spreads a value list into operands; it is not an expression value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, msgs := checkSrc(t, tc.src, CheckOptions{})
			require.NotEmpty(t, msgs)
			found := false
			for _, m := range msgs {
				found = found || strings.Contains(m, tc.want)
			}
			assert.True(t, found, "want %q in %v", tc.want, msgs)
		})
	}
}

// FuzzCheckUsers: checking a rule with a users group never panics, whatever its element, constraints and rewrite.
func FuzzCheckUsers(f *testing.F) {
	f.Add(usersSrc)
	f.Add("rule r {\n  match {\n    %y = pd_op.fc(each(1, 2) %x, %w, %b) {activation_type: $a}\n  }\n  where {\n    rank(%b) == 1\n  }\n" +
		"  rewrite {\n    %q... = builtin.split(%x)\n    replace %y... with %q...\n  }\n}\n")
	ctx := defaultCtx(f)
	f.Fuzz(func(t *testing.T, src string) {
		_, _ = LoadSource(ctx, LoadOptions{}, "t.drr", []byte(src))
	})
}
