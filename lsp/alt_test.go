package lsp

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/lsp/protocol"
)

// altRule has alternatives and an optional op (language.md §4.8).
const altRule = `/// The layer norm's numerator, x − mean(x) reused or recomputed, over an optional cast of x.
rule alt {
  match {
    %d = pd_op.subtract(pd_op.cast(%x)?, %m)
    %n = pd_op.divide(%d | pd_op.subtract(%x, %m), %s)
  }
  rewrite {
    replace %n with pd_op.multiply(%d, %s)
  }
}
`

// TestAlternativesInTheEditor: a rule with alternatives checks cleanly in the server; its '|' and '?' are
// operators to semantic tokens; hover knows an op written as an alternative and a value bound in every alternative;
// completion after '|' proposes the values and ops an operand can be.
func TestAlternativesInTheEditor(t *testing.T) {
	c := startServer(t, Options{})
	uri := c.open("alt.drr", altRule)
	require.Empty(t, diagStrings(c.diagnostics(uri, 1)))

	got := firstTokenTypes(t, c, uri, altRule)
	require.Equal(t, "operator", got["|"])
	require.Equal(t, "operator", got["?"])
	require.Equal(t, "function", got["pd_op.cast"])

	for _, tt := range []struct {
		marker string
		delta  int
		want   string
	}{
		{"pd_op.cast", 0, "pd_op.cast(x) -> (out)"},
		{"| pd_op.subtract", 2, "pd_op.subtract(x, y) -> (out)"},
		{"%x)?", 1, "value `%x`: operand 0 (`x`) of `pd_op.cast`"},
	} {
		var h *protocol.Hover
		c.call(protocol.MethodHover, textDoc(t, uri, altRule, tt.marker, tt.delta), &h)
		require.NotNil(t, h, "no hover at %s", tt.marker)
		require.Contains(t, h.Contents.Value, tt.want)
	}

	at := func(old, new string) string {
		require.Contains(t, altRule, old)
		return strings.Replace(altRule, old, new, 1)
	}
	labels := complete(t, c, "c1.drr", at("%d | pd_op.subtract(%x, %m)", "%d | %‸"))
	for _, w := range []string{"d", "x", "m", "s"} {
		require.Contains(t, labels, w)
	}
	labels = complete(t, c, "c2.drr", at("%d | pd_op.subtract(%x, %m)", "%d | pd_op.subtr‸"))
	require.Contains(t, labels, "pd_op.subtract")
}

// optRule has an optional statement (language.md §4.8).
const optRule = `/// x·x is square(x), for x or x cast to float32.
rule opt {
  match {
    %c = pd_op.cast(%x) {dtype: float32}?
    %y = pd_op.multiply(%c, %c)
  }
  rewrite {
    replace %y with pd_op.square(%c)
  }
}
`

// TestOptionalStatementInTheEditor: a rule with an optional statement checks cleanly, its '?' is an operator, hover
// on the statement's value says what it stands for when the op is absent, and formatting keeps the '?'.
func TestOptionalStatementInTheEditor(t *testing.T) {
	c := startServer(t, Options{})
	uri := c.open("opt.drr", optRule)
	require.Empty(t, diagStrings(c.diagnostics(uri, 1)))

	require.Equal(t, "operator", firstTokenTypes(t, c, uri, optRule)["?"])

	var h *protocol.Hover
	c.call(protocol.MethodHover, textDoc(t, uri, optRule, "%c, %c", 1), &h)
	require.NotNil(t, h)
	require.Contains(t, h.Contents.Value, "value `%c`: result 0 (`out`) of `pd_op.cast` (line 4), or `%x` where the op is absent (an optional statement)")

	var edits []protocol.TextEdit
	c.call(protocol.MethodFormatting, protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &edits)
	require.Empty(t, edits, "the canonical layout keeps the optional statement as written")
}

// firstTokenTypes asks the server for the semantic tokens of the open document uri (text src) and returns, for each
// token text, the type of its first occurrence.
func firstTokenTypes(t *testing.T, c *client, uri protocol.DocumentURI, src string) map[string]string {
	t.Helper()
	var st protocol.SemanticTokens
	c.call(protocol.MethodSemanticTokensFull, protocol.SemanticTokensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &st)
	li := newLineIndex(src, protocol.UTF16)
	got := map[string]string{}
	var line, char uint32
	for i := 0; i+4 < len(st.Data); i += 5 {
		if st.Data[i] > 0 {
			char = 0
		}
		line += st.Data[i]
		char += st.Data[i+1]
		start := li.offset(protocol.Position{Line: line, Character: char})
		text := src[start : start+int(st.Data[i+2])]
		if _, ok := got[text]; !ok {
			got[text] = tokenTypes[st.Data[i+3]]
		}
	}
	return got
}
