package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEditorsKnowTheServer: what the editor integrations repeat of the server stays the server's: the builtins
// the TextMate grammar highlights, and the views the VS Code extension offers in its picker.
func TestEditorsKnowTheServer(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "editors", "vscode", "syntaxes", "drr.tmLanguage.json"))
	require.NoError(t, err)
	var g struct {
		Repository map[string]struct {
			Match string `json:"match"`
		} `json:"repository"`
	}
	require.NoError(t, json.Unmarshal(raw, &g))
	m := regexp.MustCompile(`\(\?:([a-z_|]+)\)`).FindStringSubmatch(g.Repository["builtins"].Match)
	require.NotNil(t, m, "the grammar's builtins pattern: %s", g.Repository["builtins"].Match)
	got := strings.Split(m[1], "|")
	var want []string
	for _, b := range builtins() {
		want = append(want, b.Name)
	}
	sort.Strings(got)
	require.Equal(t, want, got, "editors/vscode/syntaxes/drr.tmLanguage.json lists other builtins than the server")

	js, err := os.ReadFile(filepath.Join("..", "editors", "vscode", "extension.js"))
	require.NoError(t, err)
	var labels, names []string
	for _, m := range regexp.MustCompile(`\{ label: '([\w-]+)'`).FindAllStringSubmatch(string(js), -1) {
		labels = append(labels, m[1])
	}
	for _, v := range views {
		names = append(names, v.Name)
	}
	require.Equal(t, names, labels, "editors/vscode/extension.js offers other views than the server")

	lua, err := os.ReadFile(filepath.Join("..", "editors", "nvim", "lua", "drr", "init.lua"))
	require.NoError(t, err)
	m = regexp.MustCompile(`return \{ ('[\w-]+'(?:, '[\w-]+')*) \}`).FindStringSubmatch(string(lua))
	require.NotNil(t, m, "the views :DrrView completes")
	require.Equal(t, "'"+strings.Join(names, "', '")+"'", m[1], "editors/nvim completes other views than the server")
}
