package lsp

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/lsp/protocol"
)

// editor is a scripted editor: it keeps the text of one document as the client does, sends every change as an
// incremental edit, and applies the edits the server proposes.
type editor struct {
	t       *testing.T
	c       *client
	uri     protocol.DocumentURI
	text    string
	version int32
}

func (e *editor) at(marker string, delta int) protocol.Position {
	return pos(e.t, e.text, marker, 0, delta)
}

// apply applies edits to the text and sends them to the server as one change each.
func (e *editor) apply(edits []protocol.TextEdit) {
	e.t.Helper()
	for _, ed := range edits {
		e.version++
		e.text = applyEdits(e.t, e.text, []protocol.TextEdit{ed})
		e.c.edit(e.uri, e.version, ed.Range, ed.NewText)
	}
}

// typeAt inserts text at a position, as typing does.
func (e *editor) typeAt(p protocol.Position, s string) {
	e.apply([]protocol.TextEdit{{Range: protocol.Range{Start: p, End: p}, NewText: s}})
}

func (e *editor) diagnostics() []string { return diagStrings(e.c.diagnostics(e.uri, e.version)) }

// TestEditorSession is the scenario of the issue: open a rule file with an error, fix it with the quick fix, hover
// an op, complete an attribute, format; each answer is checked, and the file ends formatted and clean.
func TestEditorSession(t *testing.T) {
	c := startServer(t, Options{})
	e := &editor{t: t, c: c, version: 1, text: "/// A scale without bias is a multiplication.\nrule scale_to_multiply {\n  match {\n" +
		"    %y =  pd_op.scale(%x, %s)\n  }\n  rewrite {\n    replace %y with pd_op.multipy(%x, %s)\n  }\n}\n"}
	e.uri = c.open("session.drr", e.text)

	// 1. The error is reported, with a quick fix.
	require.Equal(t, []string{"7:21-7:34 error: unknown op pd_op.multipy (did you mean pd_op.multiply?)"}, e.diagnostics())
	diags := c.diagnostics(e.uri, e.version)
	var actions []protocol.CodeAction
	c.call(protocol.MethodCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: e.uri},
		Range: diags[0].Range, Context: protocol.CodeActionContext{Diagnostics: diags}}, &actions)
	require.Len(t, actions, 1)
	e.apply(actions[0].Edit.Changes[e.uri])
	require.Empty(t, e.diagnostics())

	// 2. Hover the op: its schema.
	var h protocol.Hover
	c.call(protocol.MethodHover, protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: e.uri},
		Position: e.at("pd_op.scale(%x", 8)}, &h)
	require.Contains(t, h.Contents.Value, "pd_op.scale(x, scale: Scalar) -> (out)")
	require.Contains(t, h.Contents.Value, "| `bias` | f32 | `0.0` |")

	// 3. Type an attribute map after the second scale and complete an attribute name in it.
	e.typeAt(e.at("%s)\n", 3), " {bi")
	var list protocol.CompletionList
	c.call(protocol.MethodCompletion, protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: e.uri}, Position: e.at(" {bi", 4)}}, &list)
	var labels []string
	var chosen *protocol.CompletionItem
	for i, it := range list.Items {
		labels = append(labels, it.Label)
		if it.Label == "bias" {
			chosen = &list.Items[i]
		}
	}
	require.Equal(t, []string{"bias", "bias_after_scale"}, labels)
	e.apply([]protocol.TextEdit{*chosen.TextEdit})
	e.typeAt(e.at("bias: ", 6), "0.0}")
	require.Contains(t, e.text, "%y =  pd_op.scale(%x, %s) {bias: 0.0}\n")
	require.Empty(t, e.diagnostics())

	// 4. Format: the canonical layout, and still clean.
	var edits []protocol.TextEdit
	c.call(protocol.MethodFormatting, protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: e.uri}}, &edits)
	e.apply(edits)
	require.Equal(t, "/// A scale without bias is a multiplication.\nrule scale_to_multiply {\n  match {\n"+
		"    %y = pd_op.scale(%x, %s) {bias: 0.0}\n  }\n  rewrite {\n    replace %y with pd_op.multiply(%x, %s)\n  }\n}\n", e.text)
	require.Empty(t, e.diagnostics())
	c.call(protocol.MethodFormatting, protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: e.uri}}, &edits)
	require.Empty(t, edits)
	require.False(t, strings.Contains(c.log(), "panic"), c.log())
}
