package drr

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// rewritePathMatch has an optional add whose second operand, %m, is bound on one path only.
const rewritePathMatch = `
rule r {
  match {
    %p = pd_op.softmax(pd_op.add(%s, %m)?) {axis: -1}
  }
  rewrite {
    REWRITE
  }
}`

// TestRewritePerPath: a rewrite may choose an operand per path (`bound(%m) ? %m : null`) and compute an attribute
// with bound(…); rule.Paths decides both for each path, and ActionsOnPath does for the path a match took (PathOf).
func TestRewritePerPath(t *testing.T) {
	src := strings.Replace(rewritePathMatch, "REWRITE",
		"replace %p with pd_op.softmax(pd_op.add(%s, bound(%m) ? %m : %s)) {axis: bound(%m) ? -1 : 1 - 2}", 1)
	set, msgs := checkSrc(t, src, CheckOptions{})
	require.Empty(t, msgs)
	r := set.Rules[0]
	assert.True(t, rule.RewriteCallsBound(r))
	var forms []string
	for _, pr := range rule.Paths(r) {
		assert.False(t, rule.RewriteCallsBound(pr), "a path's rewrite has bound decided")
		var s []string
		for _, a := range pr.Actions {
			s = append(s, rule.FormatAction(pr, a))
		}
		forms = append(forms, strings.Join(s, "; "))
	}
	assert.Equal(t, []string{
		"%_3 = pd_op.add(%s, %m); %_4 = pd_op.softmax(%_3) {axis: -1}; replace %p with %_4",
		"%_3 = pd_op.add(%s, %s); %_4 = pd_op.softmax(%_3) {axis: 1 - 2}; replace %p with %_4",
	}, forms)

	// PathOf reads the path from the ops a match binds: the add is bound on the first path only.
	p := r.Pattern
	m := rule.NewMatch(r)
	assert.Equal(t, []int{1}, p.PathOf(m), "no add bound: the path without it")
	for k, op := range p.Ops {
		if op.Name == "pd_op.add" {
			m.Ops[k] = set.Ctx.NewOp(ir.OpSpec{Name: "pd_op.add"})
		}
	}
	assert.Equal(t, []int{0}, p.PathOf(m), "the add bound: the path with it")
	acts := rule.ActionsOnPath(r, rule.BindsOnPath(p, p.PathOf(m)))
	assert.Equal(t, "%_3 = pd_op.add(%s, %m)", rule.FormatAction(r, acts[0]))
}

// TestRewritePerPathErrors: an operand chosen per path has a condition of bound(…) calls only, branches that are
// values, lists or null (ops are created on every path), each using only what its side of the condition guards.
func TestRewritePerPathErrors(t *testing.T) {
	tests := []struct{ name, rewrite, want string }{
		{"not a path condition", "replace %p with pd_op.softmax(pd_op.add(%s, rank(%s) > 1 ? %s : %s)) {axis: -1}",
			"t.drr:7:49: error: an operand chosen per path is `bound(…) ? A : B`: its condition is made of bound(…) calls"},
		{"an op in a branch", "replace %p with pd_op.softmax(pd_op.add(%s, bound(%m) ? pd_op.abs(%m) : %s)) {axis: -1}",
			"t.drr:7:61: error: an operand chosen per path is a value, a list %x... or null: create the op in a statement of its own"},
		{"else unguarded", "replace %p with pd_op.softmax(pd_op.add(%s, bound(%m) ? %s : %m)) {axis: -1}",
			"t.drr:7:66: error: %m is bound in some alternatives only"},
		{"null where not optional", "replace %p with pd_op.softmax(pd_op.add(%s, bound(%m) ? %m : null)) {axis: -1}",
			"t.drr:7:66: error: operand 1 (y) of pd_op.add is not optional"},
		{"unguarded use", "replace %p with pd_op.softmax(pd_op.add(%s, %m)) {axis: -1}",
			"t.drr:7:49: error: %m is bound in some alternatives only"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, msgs := checkSrc(t, strings.Replace(rewritePathMatch, "REWRITE", tc.rewrite, 1), CheckOptions{})
			require.NotEmpty(t, msgs)
			assert.Contains(t, msgs[0], tc.want)
		})
	}
}

// FuzzCheckAlternatives: checking a rule with alternatives, optional statements and rewrites per path never panics,
// and neither do the per-path forms of the rules it accepts (rule.Paths, ActionsOnPath, PathOf).
func FuzzCheckAlternatives(f *testing.F) {
	f.Add(strings.Replace(rewritePathMatch, "REWRITE",
		"replace %p with pd_op.softmax(pd_op.add(%s, bound(%m) ? %m : %s)) {axis: bound(%m) ? -1 : 1 - 2}", 1))
	f.Add("rule r {\n  match {\n    %c = pd_op.cast(%x) {dtype: $d}?\n    %y = pd_op.multiply(%c, pd_op.abs(%c))\n  }\n" +
		"  where {\n    !bound($d) || $d == float32\n  }\n  rewrite {\n    replace %y with pd_op.square(bound($d) ? %c : %x)\n  }\n}\n")
	ctx := defaultCtx(f)
	f.Fuzz(func(t *testing.T, src string) {
		set, diags := LoadSource(ctx, LoadOptions{}, "t.drr", []byte(src))
		if diags.HasErrors() || set == nil {
			return
		}
		for _, r := range set.Rules {
			for _, pr := range rule.Paths(r) {
				if pr.Path != nil {
					rule.ActionsOnPath(r, rule.BindsOnPath(r.Pattern, pr.Path))
				}
			}
			r.Pattern.PathOf(rule.NewMatch(r))
		}
	})
}
