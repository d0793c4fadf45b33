package rulegen_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rulegen"
)

// TestUsersGroupPrinted: a users group (language.md §4.10) is one function, whatever its counts: the checks before
// the group (uses(%x), as soon as %x is bound), then m.Collect with the element code as a function literal (the shared $hole bound on the first
// element and compared on the others, the per-element constraint inside it, m.Elem with the per-element values
// last), then the group's constraints and the Emit, which gives the per-element values as the group's lists.
func TestUsersGroupPrinted(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	fsys := fstest.MapFS{"u.drr": {Data: []byte(`rule r {
  match {
    %y = pd_op.matmul(each(3, 8) %x, %w) {transpose_x: $tx}
  }
  where {
    rank(%w) == 2
    uses(%x) >= 3
  }
  rewrite {
    %p = pd_op.matmul(%x, pd_op.concat([%w...], pd_op.full() {shape: [1], value: 1.0})) {transpose_x: $tx}
    %parts... = builtin.split(pd_op.split(%p, pd_op.full_int_array() {value: [dim(%w, 1)...]},
        pd_op.full() {shape: [1], value: -1.0}))
    replace %y... with %parts...
  }
}
`)}}
	code, diags := rulegen.Generate(ctx, fsys, []string{"u.drr"}, rulegen.Config{Package: "p"})
	require.False(t, diags.HasErrors(), "%v", diags)
	src := string(code)
	assert.Equal(t, 1, strings.Count(src, "\nfunc "), "one function for every count from 3 to 8")
	for _, want := range []string{
		"return op0.NumOperands() == 2 && rt.Operand(&x, op0, 0) && x.NumUses() >= 3 &&\n\t\tm.Collect(in, op0, x, func(op0 *ir.Op, first bool) bool {",
		"return rt.Is(op0, in.Ops[0], 2, 1) && ", // a later user's kind is checked, not only the dispatched root's
		"rt.AgreeAttr(first, &tx, rt.AttrOr(op0, \"transpose_x\", in.Defaults[0]))",
		"rt.True(rt.Equal(m.Pure(\"rank\", w), int64(2))) && // where rank(%w) == 2\n\t\t\t\tm.Elem(y, w)\n\t\t}) &&",
		"m.Emit(in, append(m.Ops(), op0), append(m.Values(), nil, x, nil), append(m.Holes(), tx))",
	} {
		assert.Contains(t, src, want)
	}
}
