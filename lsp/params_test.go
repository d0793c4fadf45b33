package lsp

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/lsp/protocol"
)

// paramRules declares a rule-set parameter and reads it in a where clause and a rewrite attribute.
const paramRules = `/// The GPU's compute capability; 0 is none.
param sm: i64 = 0

rule r {
  match {
    %y = pd_op.scale(%x, %f) {bias: $b}
  }
  where {
    $sm in [70, 80] && $b == 0.0
  }
  rewrite {
    replace %y with pd_op.multiply(%x, pd_op.full() {shape: [1], value: $sm + $b, dtype: float32})
  }
}
`

func TestParamFeatures(t *testing.T) {
	c := startServer(t, Options{})
	uri := c.open("p.drr", paramRules)
	require.Empty(t, diagStrings(c.diagnostics(uri, 1)))

	var h *protocol.Hover
	c.call(protocol.MethodHover, textDoc(t, uri, paramRules, "$sm in", 2), &h)
	require.NotNil(t, h)
	require.Contains(t, h.Contents.Value, "parameter `$sm`: `param sm: i64 = 0`")
	require.Contains(t, h.Contents.Value, "The GPU's compute capability; 0 is none.")
	require.Contains(t, h.Contents.Value, "drrc apply -param sm=VALUE")

	var defs []protocol.Location
	c.call(protocol.MethodDefinition, textDoc(t, uri, paramRules, "$sm +", 1), &defs)
	require.Len(t, defs, 1)
	require.Equal(t, protocol.Position{Line: 1, Character: 6}, defs[0].Range.Start)

	var refs []protocol.Location
	c.call(protocol.MethodReferences, protocol.ReferenceParams{TextDocumentPositionParams: textDoc(t, uri, paramRules, "param sm", 7),
		Context: struct {
			IncludeDeclaration bool `json:"includeDeclaration"`
		}{true}}, &refs)
	require.Len(t, refs, 3, "the declaration and two reads")

	var we protocol.WorkspaceEdit
	c.call(protocol.MethodRename, protocol.RenameParams{TextDocumentPositionParams: textDoc(t, uri, paramRules, "$sm in", 1), NewName: "sm_version"}, &we)
	require.Equal(t, strings.ReplaceAll(strings.ReplaceAll(paramRules, "param sm:", "param sm_version:"), "$sm ", "$sm_version "),
		applyEdits(t, paramRules, we.Changes[uri]))

	// $ completes the holes of the rule and the parameters, in where and rewrite, not in the match.
	labels := complete(t, c, "c1.drr", strings.Replace(paramRules, "$sm in", "$‸ in", 1))
	require.Contains(t, labels, "sm")
	require.Contains(t, labels, "b")
	labels = complete(t, c, "c2.drr", strings.Replace(paramRules, "{bias: $b}\n  }\n  where", "{bias: $‸}\n  }\n  where", 1))
	require.NotContains(t, labels, "sm")
	labels = complete(t, c, "c3.drr", "‸\n"+paramRules)
	require.Contains(t, labels, "param")

	// Semantic tokens: the declaration's keyword, name and kind; the reads as read-only variables, the hole as a
	// parameter.
	var st protocol.SemanticTokens
	c.call(protocol.MethodSemanticTokensFull, protocol.SemanticTokensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &st)
	li := newLineIndex(paramRules, protocol.UTF16)
	got := map[string]string{}
	var line, char uint32
	for i := 0; i < len(st.Data); i += 5 {
		if st.Data[i] > 0 {
			char = 0
		}
		line += st.Data[i]
		char += st.Data[i+1]
		start := li.offset(protocol.Position{Line: line, Character: char})
		text := paramRules[start : start+int(st.Data[i+2])]
		typ := tokenTypes[st.Data[i+3]]
		for b, m := range tokenModifiers {
			if st.Data[i+4]&(1<<b) != 0 {
				typ += "+" + m
			}
		}
		if _, ok := got[text]; !ok {
			got[text] = typ
		}
	}
	for text, want := range map[string]string{
		"param": "keyword",
		"sm":    "variable+declaration+readonly",
		"i64":   "type",
		"$sm":   "variable+readonly",
		"$b":    "parameter+declaration",
	} {
		require.Equal(t, want, got[text], "token %q", text)
	}
}

// TestParamInImport: a parameter declared in an imported file is hovered and found there.
func TestParamInImport(t *testing.T) {
	c := startServer(t, Options{})
	c.write("params.drr", "/// Turns the rule on.\nparam on: bool = false\n")
	text := "import \"params.drr\"\n\nrule r {\n  match { %y = pd_op.relu(%x) }\n  where { $on }\n  rewrite { replace %y with %x }\n}\n"
	uri := c.open("main.drr", text)
	require.Empty(t, c.diagnostics(uri, 1))
	var defs []protocol.Location
	c.call(protocol.MethodDefinition, textDoc(t, uri, text, "$on", 1), &defs)
	require.Equal(t, []protocol.Location{{URI: c.uri("params.drr"), Range: protocol.Range{
		Start: protocol.Position{Line: 1, Character: 6}, End: protocol.Position{Line: 1, Character: 8}}}}, defs)
	var h *protocol.Hover
	c.call(protocol.MethodHover, textDoc(t, uri, text, "$on", 1), &h)
	require.Contains(t, h.Contents.Value, "Turns the rule on.")
	var we protocol.WorkspaceEdit
	err := c.callErr(protocol.MethodRename, protocol.RenameParams{TextDocumentPositionParams: textDoc(t, uri, text, "$on", 1), NewName: "off"}, &we)
	require.ErrorContains(t, err, "parameter on is not declared in this file")
}
