package lsp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/lsp/protocol"
)

func TestDiagnostics(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"clean", reluRule, nil},
		{"unknown op", strings.Replace(reluRule, "pd_op.relu", "pd_op.rleu", 1),
			[]string{"3:10-3:20 error: unknown op pd_op.rleu (did you mean pd_op.relu?)"}},
		{"syntax errors only", "rule r {\n  match {\n    %y = pd_op.rleu(%x\n  }\n  rewrite { replace %y with %x }\n}\n",
			[]string{"3:23-3:23 error: expected ')' after operands of pd_op.rleu, found end of line"}},
		{"unused hole", strings.Replace(reluRule, "pd_op.relu(%x)", "pd_op.scale(%x, %s) {bias: $b}", 1),
			[]string{"3:37-3:39 warning: $b is bound but never used (write _ to only require the attribute)"}},
		{"unused dimension hole", strings.Replace(reluRule, "pd_op.relu(%x)", "pd_op.relu(%x: tensor<$n x f32>)", 1),
			[]string{"3:32-3:34 warning: $n is bound but never used (write ? to match any size)"}},
		{"mistyped hole", strings.Replace(reluRule, "pd_op.relu(%x)", "pd_op.scale(%x, %s) {bias: $bias}\n  }\n  where { $bais > 0.0", 1),
			[]string{"5:11-5:16 error: $bais is not bound in the match (did you mean $bias?)"}},
		{"shadowed", reluRule + strings.Replace(reluRule, "drop_relu", "drop_relu2", 1) + "\n",
			[]string{"9:6-9:16 error: rule drop_relu2 is shadowed by rule drop_relu at " + "X" + ":1:6: same pattern, constraints and benefit, so it can never fire"}},
		{"lint", strings.Replace(reluRule, "  rewrite", "  where { is_param(%x) }\n  rewrite", 1) +
			strings.Replace(reluRule, "drop_relu", "drop_relu2", 1), []string{"10:6-10:16 warning: rule drop_relu2: rules drop_relu and drop_relu2 can both match the same pd_op.relu op " +
			"with benefit 1, e.g. pd_op.relu(_); the one earlier in the set (drop_relu, X:1:6) wins by order alone. " +
			"Give one a higher benefit, or make their patterns exclude each other"}},
		{"non-ASCII before the error", "// é 𝔸\nrule r { match { %y = pd_op.rleu(%x) }\n  rewrite { replace %y with %x } }\n",
			[]string{"2:23-2:33 error: unknown op pd_op.rleu (did you mean pd_op.relu?)"}},
	}
	c := startServer(t, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			name := strings.ReplaceAll(tt.name, " ", "_") + ".drr"
			uri := c.open(name, tt.text)
			var want []string
			for _, w := range tt.want {
				want = append(want, strings.ReplaceAll(w, "X", c.path(name)))
			}
			require.Equal(t, want, diagStrings(c.diagnostics(uri, 1)))
		})
	}
}

// TestDiagnosticsFollowChanges: the diagnostics of every version come after its change; a fix clears them;
// changes typed faster than the debounce are checked once, the last.
func TestDiagnosticsFollowChanges(t *testing.T) {
	c := startServer(t, Options{})
	bad := strings.Replace(reluRule, "pd_op.relu", "pd_op.rleu", 1)
	uri := c.open("a.drr", bad)
	d := c.diagnostics(uri, 1)
	require.Len(t, d, 1)
	require.Equal(t, protocol.SeverityError, d[0].Severity)
	require.Equal(t, "drrc", d[0].Source)
	var data diagnosticData
	require.NoError(t, json.Unmarshal(d[0].Data, &data))
	require.Equal(t, "pd_op.relu", data.Replace)

	// An incremental edit fixes it: rleu → relu.
	c.edit(uri, 2, protocol.Range{Start: pos(t, bad, "rleu", 0, 1), End: pos(t, bad, "rleu", 0, 3)}, "el")
	require.Empty(t, c.diagnostics(uri, 2))

	// Versions 3..6 in quick succession (within the debounce): only version 6 is published.
	slow := startServer(t, Options{Debounce: 300e6})
	uri = slow.open("b.drr", reluRule)
	require.Empty(t, slow.diagnostics(uri, 1))
	for v := int32(3); v <= 6; v++ {
		slow.replace(uri, v, strings.Replace(reluRule, "%x", "%x"+strings.Repeat("x", int(v)), 2))
	}
	slow.replace(uri, 7, bad)
	require.Len(t, slow.diagnostics(uri, 7), 1)
	slow.mu.Lock()
	defer slow.mu.Unlock()
	var versions []int32
	for _, p := range slow.diags[uri] {
		versions = append(versions, *p.Version)
	}
	require.Equal(t, []int32{1, 7}, versions)
}

// TestDiagnosticsOfImports: a problem in an imported file is shown at the import, with its place in that file.
func TestDiagnosticsOfImports(t *testing.T) {
	c := startServer(t, Options{})
	c.write("fams.drr", "family acts = [pd_op.relu, pd_op.sigmoidd]\n")
	text := "import \"fams.drr\"\n\nrule r {\n  for A in acts\n  match { %y = A(%x) }\n  rewrite { replace %y with %x }\n}\n"
	uri := c.open("main.drr", text)
	d := c.diagnostics(uri, 1)
	require.Equal(t, []string{"1:1-1:18 error: in " + c.path("fams.drr") + ":1:28: error: unknown op pd_op.sigmoidd (did you mean pd_op.sigmoid?)"}, diagStrings(d))
	require.Len(t, d[0].RelatedInformation, 1)
	require.Equal(t, c.uri("fams.drr"), d[0].RelatedInformation[0].Location.URI)
	require.Equal(t, protocol.Position{Line: 0, Character: 27}, d[0].RelatedInformation[0].Location.Range.Start)

	// Fixed and saved, the import is read again.
	c.write("fams.drr", "family acts = [pd_op.relu, pd_op.sigmoid]\n")
	c.notify(protocol.MethodDidSave, protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("fams.drr")}})
	require.Eventually(t, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		ps := c.diags[uri]
		return len(ps) == 2 && len(ps[1].Diagnostics) == 0
	}, 10e9, 10e6)
}
