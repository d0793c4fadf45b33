package lsp_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/drrcli"
	"github.com/pirdrr/drr/lsp"
	"github.com/pirdrr/drr/lsp/protocol"
)

// ruleInputs returns the rule files of the repository the test compares on: the shipped rule sets, the examples,
// the inputs of the parser's error goldens, and the ```drr blocks of the documentation (those that do not import
// others), by a name for each.
func ruleInputs(t *testing.T) map[string]string {
	in := map[string]string{}
	for _, pattern := range []string{"../rules/*.drr", "../examples/*/*.drr", "../testdata/bench/*.drr"} {
		files, err := filepath.Glob(pattern)
		require.NoError(t, err)
		for _, f := range files {
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			in[strings.ReplaceAll(strings.TrimPrefix(f, "../"), "/", "_")] = string(src)
		}
	}
	archives, err := filepath.Glob("../drr/testdata/errors/*.txtar")
	require.NoError(t, err)
	for _, a := range archives {
		ar, err := txtar.ParseFile(a)
		require.NoError(t, err)
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".drr") {
				in["errors_"+strings.TrimSuffix(filepath.Base(a), ".txtar")+"_"+f.Name] = string(f.Data)
			}
		}
	}
	docs, err := filepath.Glob("../docs/*.md")
	require.NoError(t, err)
	fence := regexp.MustCompile("(?s)```drr([^\n]*)\n(.*?)```")
	for _, d := range docs {
		src, err := os.ReadFile(d)
		require.NoError(t, err)
		for i, m := range fence.FindAllStringSubmatch(string(src), -1) {
			if strings.Contains(m[1], "file=") || strings.Contains(m[2], "import ") {
				continue
			}
			in[fmt.Sprintf("doc_%s_%d.drr", strings.TrimSuffix(filepath.Base(d), ".md"), i)] = m[2]
		}
	}
	return in
}

// TestSameDiagnosticsAsDrrcCheck: for every rule file of the repository, the server publishes exactly what drrc
// check prints: the same positions, severities and messages, lint included.
func TestSameDiagnosticsAsDrrcCheck(t *testing.T) {
	c := lsp.StartTestServer(t)
	inputs := ruleInputs(t)
	require.Greater(t, len(inputs), 50)
	withDiags := 0
	for name, text := range inputs {
		t.Run(name, func(t *testing.T) {
			path := c.Write(name, text)
			var stderr bytes.Buffer
			(&drrcli.CLI{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr}).Run([]string{"check", path})
			var want []string
			for _, line := range strings.Split(stderr.String(), "\n") {
				if rest, ok := strings.CutPrefix(line, path+":"); ok {
					want = append(want, rest)
				}
			}
			got := []string{}
			lines := strings.Split(text, "\n")
			for _, d := range c.Diagnostics(c.Open(name, text)) {
				sev := map[protocol.DiagnosticSeverity]string{1: "error", 2: "warning", 3: "note"}[d.Severity]
				line := int(d.Range.Start.Line)
				col := 1
				if line < len(lines) {
					col = byteColumn(lines[line], int(d.Range.Start.Character))
				}
				got = append(got, fmt.Sprintf("%d:%d: %s: %s", line+1, col, sev, d.Message))
			}
			if want == nil {
				want = []string{}
			}
			require.Equal(t, want, got)
			if len(got) > 0 {
				withDiags++
			}
		})
	}
	require.Greater(t, withDiags, 20, "the comparison must include files with diagnostics")
}

// byteColumn converts a UTF-16 character offset in a line to drrc's 1-based byte column.
func byteColumn(line string, units int) int {
	col := 1
	for _, r := range line {
		if units <= 0 {
			break
		}
		units -= len(utf16.Encode([]rune{r}))
		col += utf8.RuneLen(r)
	}
	return col
}
