package editors

import (
	"archive/zip"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// nodeTools returns node's path, skipping the test when Node.js or the extension's dependencies are missing.
func nodeTools(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("Node.js is not installed (Debian: apt-get install nodejs npm)")
	}
	if _, err := os.Stat(filepath.Join("vscode", "node_modules", "vscode-tmgrammar-test")); err != nil {
		t.Skip("editors/vscode/node_modules is missing: run npm ci in editors/vscode (.ci/run does)")
	}
	return node
}

// run runs a command in editors/vscode and returns its output, failing the test on an error.
func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = "vscode"
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s %s:\n%s", name, strings.Join(args, " "), out)
	return string(out)
}

// TestGrammar runs the TextMate grammar's assertion tests (test/*.test.drr, vscode-tmgrammar-test).
func TestGrammar(t *testing.T) {
	node := nodeTools(t)
	out := run(t, node, "node_modules/vscode-tmgrammar-test/dist/unit.js", "-g", "syntaxes/drr.tmLanguage.json", "test/grammar.test.drr")
	require.Contains(t, out, "run successfuly")
}

// shippedRuleFiles returns the rule files the grammar's snapshots cover: the shipped rule sets and the examples.
func shippedRuleFiles(t *testing.T) []string {
	var files []string
	for _, pattern := range []string{"../rules/*.drr", "../examples/*/*.drr"} {
		m, err := filepath.Glob(pattern)
		require.NoError(t, err)
		files = append(files, m...)
	}
	require.NotEmpty(t, files)
	sort.Strings(files)
	return files
}

// snapName is the name of a rule file's snapshot in vscode/test/snap.
func snapName(path string) string {
	return strings.ReplaceAll(strings.TrimPrefix(filepath.ToSlash(path), "../"), "/", "_") + ".snap"
}

// TestGrammarOnShippedRules tokenizes every shipped rule file with the grammar (vscode-tmgrammar-snap) and compares
// the scopes with the snapshots in vscode/test/snap; -update rewrites them. No token of a shipped file may be
// invalid.
func TestGrammarOnShippedRules(t *testing.T) {
	node := nodeTools(t)
	update := flag.Lookup("update").Value.String() == "true"
	tmp := t.TempDir()
	snaps, err := filepath.Abs(filepath.Join("vscode", "test", "snap"))
	require.NoError(t, err)
	var cases []string
	for _, f := range shippedRuleFiles(t) {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		name := strings.TrimSuffix(snapName(f), ".snap")
		require.NoError(t, os.WriteFile(filepath.Join(tmp, name), src, 0o644))
		cases = append(cases, filepath.Join(tmp, name))
		snap, err := os.ReadFile(filepath.Join(snaps, name+".snap"))
		if update {
			continue
		}
		require.NoError(t, err, "no snapshot for %s: run go test ./editors -run GrammarOnShipped -update", f)
		require.NoError(t, os.WriteFile(filepath.Join(tmp, name+".snap"), snap, 0o644))
	}
	args := []string{"node_modules/vscode-tmgrammar-test/dist/snapshot.js", "--config", "package.json", "-s", "source.drr"}
	if update {
		args = append(args, "--updateSnapshot")
	}
	run(t, node, append(args, cases...)...)
	for _, c := range cases {
		snap, err := os.ReadFile(c + ".snap")
		require.NoError(t, err)
		// Scope lines (#…) name the scopes of a token; an invalid.* scope is what the grammar could not read. The
		// source lines (>…) may say "invalid" themselves (remove_redundant_transpose's rule invalid_transpose).
		require.NotRegexp(t, `(?m)^#.*\sinvalid\.`, string(snap), "%s: the grammar marks part of a shipped rule file invalid", c)
		if update {
			require.NoError(t, os.MkdirAll(snaps, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(snaps, filepath.Base(c)+".snap"), snap, 0o644))
		}
	}
}

// TestExtensionUnit runs the extension's unit test (test/extension.test.js, with stand-ins for VS Code).
func TestExtensionUnit(t *testing.T) {
	node := nodeTools(t)
	out := run(t, node, "--test", "test/extension.test.js")
	require.Contains(t, out, "# fail 0")
}

// TestPackageVSIX builds the extension's .vsix with @vscode/vsce, as npm run package does, and checks what it holds.
func TestPackageVSIX(t *testing.T) {
	node := nodeTools(t)
	vsix := filepath.Join(t.TempDir(), "drr.vsix")
	run(t, node, "node_modules/@vscode/vsce/vsce", "package", "--skip-license", "--allow-missing-repository", "-o", vsix)
	z, err := zip.OpenReader(vsix)
	require.NoError(t, err)
	defer z.Close()
	have := map[string]bool{}
	for _, f := range z.File {
		have[f.Name] = true
	}
	for _, want := range []string{"extension/package.json", "extension/extension.js", "extension/syntaxes/drr.tmLanguage.json",
		"extension/language-configuration.json", "extension/node_modules/vscode-languageclient/node.js"} {
		require.True(t, have[want], "the .vsix lacks %s", want)
	}
	for name := range have {
		require.False(t, strings.HasPrefix(name, "extension/test/"), "the .vsix holds the tests: %s", name)
	}
}
