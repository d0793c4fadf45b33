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

	var st protocol.SemanticTokens
	c.call(protocol.MethodSemanticTokensFull, protocol.SemanticTokensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &st)
	li := newLineIndex(eachRule, protocol.UTF16)
	got := map[string]string{}
	var line, char uint32
	for i := 0; i+4 < len(st.Data); i += 5 {
		if st.Data[i] > 0 {
			char = 0
		}
		line += st.Data[i]
		char += st.Data[i+1]
		start := li.offset(protocol.Position{Line: line, Character: char})
		text := eachRule[start : start+int(st.Data[i+2])]
		if _, ok := got[text]; !ok {
			got[text] = tokenTypes[st.Data[i+3]]
		}
	}
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
