package drr

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
)

// TestOptionalStatements: `%c = op(x)?` is a group of alternatives whose value is %c, read at the first operand
// outside alternatives that names %c (the others read %c as a value); rule.Paths substitutes the branch's value for
// %c in the pattern, the where clause and the rewrite of each path.
func TestOptionalStatements(t *testing.T) {
	src := `
rule r {
  match {
    %c = pd_op.cast(%x) {dtype: float32}?
    %p = pd_op.pow(%c) {y: 2.0}
    %y = pd_op.multiply(%p, %c)
  }
  where { dtype(%c) == float32 }
  rewrite { replace %y with pd_op.multiply(pd_op.square(%c), %c) }
}`
	set, msgs := checkSrc(t, src, CheckOptions{})
	require.Empty(t, msgs)
	r := set.Rules[0]
	p := r.Pattern
	require.Len(t, p.Alts, 1)
	a := p.Alts[0]
	assert.True(t, a.Statement)
	assert.Equal(t, "%c", rule.ValueName(p, a.Value))
	assert.Equal(t, "pd_op.pow", p.Ops[a.Op].Name, "the group is read at the first reader")
	assert.Equal(t, rule.OperandAlt, p.Ops[a.Op].Operands[a.Operand].Kind)
	assert.Equal(t, -1, p.Values[a.Value].Def, "no op defines %c: the branch taken does")
	mul := p.Ops[p.Root]
	assert.Equal(t, rule.OperandValue, mul.Operands[1].Kind)
	assert.Equal(t, a.Value, mul.Operands[1].Value)

	paths := rule.Paths(r)
	require.Len(t, paths, 2)
	for i, want := range []string{"%_1", "%x"} { // the cast's result, then x
		q := paths[i].Pattern
		require.Empty(t, q.Alts)
		pow, mul := q.Ops[len(q.Ops)-2], q.Ops[len(q.Ops)-1]
		assert.Equal(t, want, rule.ValueName(q, pow.Operands[0].Value), "path %d: pow reads the branch's value", i)
		assert.Equal(t, want, rule.ValueName(q, mul.Operands[1].Value), "path %d: so does the multiply", i)
		assert.True(t, q.Values[a.Value].Unbound, "path %d: %%c itself is no longer read", i)
		ref := paths[i].Where[0].(*rule.Binary).X.(*rule.Call).Args[0].(*rule.ValueRef)
		assert.Equal(t, want, rule.ValueName(q, ref.Ref.Index), "path %d: the where clause reads it", i)
		var reads []string
		for _, act := range paths[i].Actions {
			if c, ok := act.(*rule.Create); ok {
				for _, o := range c.Operands {
					if !o.Ref.New {
						reads = append(reads, rule.ValueName(q, o.Ref.Index))
					}
				}
			}
		}
		assert.Equal(t, []string{want, want}, reads, "path %d: the rewrite reads it", i)
	}
	// A type written on %c constrains, on each path, the value that stands for it.
	typed := strings.Replace(src, "pd_op.multiply(%p, %c)", "pd_op.multiply(%p, %c: tensor<2x8xf32>)", 1)
	set2, msgs := checkSrc(t, typed, CheckOptions{})
	require.Empty(t, msgs)
	for i, pr := range rule.Paths(set2.Rules[0]) {
		q := pr.Pattern
		mul := q.Ops[len(q.Ops)-1]
		require.NotNil(t, q.Values[mul.Operands[1].Value].Type, "path %d", i)
		assert.Equal(t, "tensor<2x8xf32>", rule.FormatType(q, q.Values[mul.Operands[1].Value].Type), "path %d", i)
	}
	// The rule as checked is unchanged by Paths.
	assert.Equal(t, "%c", rule.ValueName(p, r.Where[0].(*rule.Binary).X.(*rule.Call).Args[0].(*rule.ValueRef).Ref.Index))
}

// TestOptionalStatementErrors: an optional statement binds one value, has no label, stands for an operand (so its
// op has one, without alternatives), and its value is read by an op of the pattern outside alternatives.
func TestOptionalStatementErrors(t *testing.T) {
	tests := []struct{ name, match, want string }{
		{"label", `
    @c = pd_op.cast(%x)?
    %y = pd_op.relu(%x)`, "t.drr:4:5: error: an optional statement cannot have a label: its op may be absent"},
		{"two results", `
    %c, %d = pd_op.cast(%x)?
    %y = pd_op.relu(%c)`, "t.drr:4:5: error: an optional statement binds one value, %c = pd_op.cast(…)?"},
		{"no results", `
    pd_op.cast(%x)?
    %y = pd_op.relu(%x)`, "t.drr:4:5: error: an optional statement binds one value"},
		{"no operand", `
    %c = pd_op.full()?
    %y = pd_op.relu(%c)`, "t.drr:4:5: error: optional pd_op.full has no operand to stand for it when it is absent"},
		{"first operand has alternatives", `
    %c = pd_op.cast(%x | %z)?
    %y = pd_op.relu(%c)`, "t.drr:4:5: error: the first operand of optional pd_op.cast has alternatives itself"},
		{"not read", `
    %c = pd_op.cast(%x)?
    %y = pd_op.relu(%x)`, "t.drr:4:5: error: no op of the pattern reads %c; an optional statement stands for the operand its readers read"},
		{"read only in alternatives", `
    %c = pd_op.cast(%x)?
    %y = pd_op.relu(pd_op.abs(%c) | %x)`, "t.drr:4:5: error: %c is read only inside alternatives"},
		{"its own operand", `
    %c = pd_op.cast(%c)?
    %y = pd_op.relu(%c)`, "t.drr:4:10: error: the pattern is cyclic: pd_op.cast consumes its own result"},
		{"read only by another optional statement", `
    %c = pd_op.cast(%x)?
    %d = pd_op.scale(%c, %s)?
    %y = pd_op.relu(%d)`, "t.drr:4:5: error: %c is read only inside alternatives"},
		{"bound twice", `
    %c = pd_op.cast(%x)?
    %c = pd_op.relu(%x)
    %y = pd_op.relu(%c)`, "t.drr:5:5: error: %c is bound twice (also by statement 1)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "\nrule r {\n  match {" + tc.match + "\n  }\n  rewrite { replace %y with %x }\n}\n"
			_, msgs := checkSrc(t, src, CheckOptions{})
			require.NotEmpty(t, msgs)
			assert.Contains(t, msgs[0], tc.want)
		})
	}
}
