package genplugin_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPluginsDoc keeps the section "Compiled rules" of docs/plugins.md true to this example: the Go it quotes is
// in plugin.go or in the generated activations_rules.go as written (so the generated code the page shows is what
// drrc gen writes), and the passes section it shows is the golden archive's.
func TestPluginsDoc(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "plugins.md"))
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(doc), "\n## Compiled rules\n")
	require.True(t, ok, "docs/plugins.md has no section Compiled rules")
	section, _, _ = strings.Cut(section, "\n## ")
	src, err := os.ReadFile("plugin.go")
	require.NoError(t, err)
	generated, err := os.ReadFile("activations_rules.go")
	require.NoError(t, err)
	archive, err := os.ReadFile(filepath.Join("testdata", "activations.txtar"))
	require.NoError(t, err)
	blocks := regexp.MustCompile("(?s)```(go|text)\n(.*?)```").FindAllStringSubmatch(section, -1)
	require.NotEmpty(t, blocks)
	for _, b := range blocks {
		switch b[1] {
		case "go":
			require.True(t, strings.Contains(string(src), b[2]) || strings.Contains(string(generated), b[2]),
				"docs/plugins.md quotes Go that is neither in plugin.go nor in activations_rules.go as written:\n%s", b[2])
		case "text":
			require.Contains(t, string(archive), b[2], "docs/plugins.md shows an archive section that is not testdata/activations.txtar's")
		}
	}
}
