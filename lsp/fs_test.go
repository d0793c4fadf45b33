package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/lsp/protocol"
)

// TestOptionsFS checks that a server with Options.FS reads imports from it and nothing from disk: a document's
// imports of files outside the FS (.., absolute paths, files that exist on disk) fail to read, and what the server
// quotes from imported files (hover, diagnostics) comes from the FS.
func TestOptionsFS(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.drr")
	require.NoError(t, os.WriteFile(secret, []byte("/// The secret family.\nfamily secret = [pd_op.relu]\n"), 0o644))
	lib := "/// Convolutions, from the FS.\nfamily conv = [pd_op.conv2d, pd_op.depthwise_conv2d]\n"
	c := startServer(t, Options{FS: fstest.MapFS{
		"lib.drr":        {Data: []byte(lib)},
		"broken/bad.drr": {Data: []byte("family bad = [pd_op.nosuchop]\n")},
	}})
	open := func(uri protocol.DocumentURI, text string) {
		c.notify(protocol.MethodDidOpen, protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: uri, LanguageID: "drr", Version: 1, Text: text}})
	}
	const rule = `
rule fold {
  for C in conv
  match {
    %y = C(%x, %w)
    %z = pd_op.relu(%y)
  }
  rewrite {
    replace %z with pd_op.relu(%x)
  }
}
`
	tests := []struct {
		name, imports string
		want          []string // substrings of the diagnostics, in order
	}{
		{"an import in the FS", `import "lib.drr"`, nil},
		{"an absolute import is relative to the FS", `import "/lib.drr"`, nil},
		{"a file on disk", `import "lib.drr"` + "\nimport \"" + filepath.ToSlash(secret) + `"`, []string{"cannot read " + strings.TrimPrefix(filepath.ToSlash(secret), "/")}},
		{"a path out of the FS", `import "lib.drr"` + "\nimport \"../secret.drr\"", []string{"cannot read ../secret.drr"}},
		{"a diagnostic in an imported file", `import "lib.drr"` + "\nimport \"broken/bad.drr\"", []string{"2:1-2:24 error: in broken/bad.drr:1:15: error: unknown op"}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			uri := protocol.DocumentURI("untitled:doc" + string(rune('a'+i)) + ".drr")
			open(uri, tt.imports+"\n"+rule)
			got := diagStrings(c.diagnostics(uri, 1))
			require.Len(t, got, len(tt.want), "%q", got)
			for k, w := range tt.want {
				assert.Contains(t, got[k], w)
			}
		})
	}
	// Hover on the family quotes its declaration from the FS.
	uri := protocol.DocumentURI("untitled:hover.drr")
	text := `import "lib.drr"` + "\n" + rule
	open(uri, text)
	require.Empty(t, c.diagnostics(uri, 1))
	var h *protocol.Hover
	c.call(protocol.MethodHover, textDoc(t, uri, text, "in conv", 4), &h)
	require.NotNil(t, h)
	assert.Contains(t, h.Contents.Value, "Convolutions, from the FS.")

	// "apply to…" reads programs from disk: refused.
	err := c.callErr(protocol.MethodExecuteCommand, protocol.ExecuteCommandParams{Command: CommandApply,
		Arguments: []json.RawMessage{mustJSON(t, applyArgs{URI: uri, Program: secret})}}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "does not allow")
}
