package matcher

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// usersProg has five projections r.conv(%x, %w_i) of one value: three with groups 1 (%a, %c, %e), one with
// groups 2 (%b), one reading %x second (%d); %w5 is no t.src result (the per-element constraint immutable fails).
const usersProg = `
%x = t.src()
%w1 = t.src()
%w2 = t.src()
%w3 = t.src()
%a = r.conv(%x, %w1) {groups: 1}
%b = r.conv(%x, %w2) {groups: 2}
%c = r.conv(%x, %w3) {groups: 1}
%d = r.conv(%w1, %x) {groups: 1}
%w4 = t.src()
%e = r.conv(%x, %w4) {groups: 1}
%w5 = t.other()
%f = r.conv(%x, %w5) {groups: 1}
%g = r.conv(%x, %w2) {groups: 2}
%h = t.relu(%a, %b, %c, %d, %e, %f, %g)`

// usersRule is r.conv(%x, %w) {groups: $g} as a users group of %x, min to max elements, each %w immutable.
func usersRule(ctx *ir.Context, name string, min, max int) *rule.Rule {
	b := rule.NewBuilder(ctx, name)
	b.Users("%x", min, max, 0)
	b.Op("r.conv", "%x", "%w").Results("%y").Attr("groups", "$g")
	b.Where(rule.Fn("immutable", b.V("%w")))
	return b.MustBuild()
}

func TestUsersGroup(t *testing.T) {
	cases := []struct {
		name     string
		at       string
		min, max int
		want     []string
		why      string // what Explain says when there is no match
	}{
		{"the first user collects its class", "%a", 2, 8,
			[]string{"u{op0=%a group=[%a %c %e] %x=%x %w...=[%w1 %w3 %w4] %y...=[%a %c %e] $g=(Int32)1}"}, ""},
		{"at most max, the first ones", "%a", 2, 2,
			[]string{"u{op0=%a group=[%a %c] %x=%x %w...=[%w1 %w3] %y...=[%a %c] $g=(Int32)1}"}, ""},
		{"another class", "%b", 2, 8,
			[]string{"u{op0=%b group=[%b %g] %x=%x %w...=[%w2 %w2] %y...=[%b %g] $g=(Int32)2}"}, ""},
		{"too few", "%b", 3, 8, []string{},
			"2 users of %x (%0) in this block agree with this op; the group wants at least 3; r.conv %4: " +
				"attribute groups of r.conv %4 is (Int32)1; the rule wants $g = (Int32)2"},
		{"an earlier user agrees: rooted there", "%c", 1, 8, []string{},
			"%x (%0) is also used by r.conv %4, before this op, which agrees with it: the group is matched at its " +
				"first element"},
		{"the root fails the per-element constraint", "%f", 1, 8, []string{}, "immutable(%w) is false"},
		{"the group's value is elsewhere", "%d", 1, 8,
			[]string{"u{op0=%d group=[%d] %x=%w1 %w...=[%x] %y...=[%d] $g=(Int32)1}"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := semCtx(t)
			tp := parseProg(t, ctx, usersProg)
			set := &rule.Set{Ctx: ctx, Rules: []*rule.Rule{usersRule(ctx, "u", tc.min, tc.max)}}
			for _, opts := range []Options{{}, {NoTree: true}} {
				a, err := Compile(set, opts)
				require.NoError(t, err)
				require.Equal(t, tc.want, tp.showAll(a.Match(tp.ops[tc.at], testOracle)), "automaton %+v", opts)
			}
			ref := newRef()
			require.Equal(t, tc.want, tp.showAll(ref.match(set, tp.ops[tc.at], testOracle)), "reference")
			var ex []*rule.Match
			for _, e := range Explain(set, "", tp.ops[tc.at], testOracle, nil) {
				if e.Match != nil {
					ex = append(ex, e.Match)
				} else {
					require.NotNil(t, e.Failure)
					require.Contains(t, e.Failure.Message, tc.why)
				}
			}
			require.Equal(t, tc.want, tp.showAll(ex), "explain")
		})
	}
}
