package lsp

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/lsp/protocol"
)

// eachRule has a variadic group (language.md §4.9).
const eachRule = `/// A concat of relus is the relu of the concat.
rule concat_of_relus {
  match {
    %y = pd_op.concat([each(2, 8) pd_op.relu(%x)], %axis)
  }
  where {
    dtype(%x) == dtype(%x[0])
  }
  rewrite {
    replace %y with pd_op.relu(pd_op.concat([%x...], %axis))
  }
}
`

// TestGroupsInTheEditor: a rule with a group checks cleanly in the server; 'each' is a keyword to semantic tokens;
// hover on each(…) says what the group matches, and on its element's op and value what they are; completion in a
// match block's list proposes each.
func TestGroupsInTheEditor(t *testing.T) {
	c := startServer(t, Options{})
	uri := c.open("each.drr", eachRule)
	require.Empty(t, diagStrings(c.diagnostics(uri, 1)))

	got := firstTokenTypes(t, c, uri, eachRule)
	require.Equal(t, "keyword", got["each"])
	require.Equal(t, "number", got["2"])
	require.Equal(t, "function", got["pd_op.relu"])

	for _, tt := range []struct {
		marker string
		delta  int
		want   string
	}{
		{"each(2, 8)", 1, "`each(2, 8)`: a variadic group: the list holds 2 to 8 elements"},
		{"pd_op.relu(%x)]", 0, "pd_op.relu(x) -> (out)"},
		{"%x)]", 1, "value `%x`: operand 0 (`x`) of `pd_op.relu`"},
	} {
		var h *protocol.Hover
		c.call(protocol.MethodHover, textDoc(t, uri, eachRule, tt.marker, tt.delta), &h)
		require.NotNil(t, h, "no hover at %s", tt.marker)
		require.Contains(t, h.Contents.Value, tt.want)
	}

	at := func(old, new string) string {
		require.Contains(t, eachRule, old)
		return strings.Replace(eachRule, old, new, 1)
	}
	labels := complete(t, c, "c1.drr", at("[each(2, 8) pd_op.relu(%x)]", "[ea‸]"))
	require.Contains(t, labels, "each")
}

// usersRule has a users group (language.md §4.10).
const usersRule = `/// Three or more matmuls of one value by parameters: one matmul, split.
rule proj {
  match {
    %y = pd_op.matmul(each(3, 64) %x, %w) {transpose_x: false, transpose_y: false}
  }
  where {
    defined_by(%w, "builtin.parameter") && rank(%w) == 2 && dim(%w, 0) == dim(%x, -1)
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

// TestUsersGroupsInTheEditor: a users group checks cleanly in the server, hover on its each(…) says it collects the
// value's users, and completion among an op's operands proposes each.
func TestUsersGroupsInTheEditor(t *testing.T) {
	c := startServer(t, Options{})
	uri := c.open("users.drr", usersRule)
	require.Empty(t, diagStrings(c.diagnostics(uri, 1)))
	var h *protocol.Hover
	c.call(protocol.MethodHover, textDoc(t, uri, usersRule, "each(3, 64)", 1), &h)
	require.NotNil(t, h)
	require.Contains(t, h.Contents.Value, "`each(3, 64) %x`: a users group: the op is each of 3 to 64 users of `%x`")
	labels := complete(t, c, "c2.drr", strings.Replace(usersRule, "each(3, 64) %x, %w)", "ea‸", 1))
	require.Contains(t, labels, "each")
}
