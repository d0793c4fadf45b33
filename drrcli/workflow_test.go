package drrcli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The corpus-verify workflow and the script that holds its commands, relative to this package.
var (
	workflowFile = filepath.Join("..", ".github", "workflows", "corpus-verify.yml")
	workflowRun  = filepath.Join("..", "testdata", "ci", "corpus-verify.sh")
)

// shellWords splits a command line of the script into words, expanding $name and ${name} from vars inside and
// outside double quotes and globbing words with an unquoted *; it stops at a redirection or ||.
func shellWords(t *testing.T, line string, vars map[string]string) []string {
	t.Helper()
	var words []string
	var cur strings.Builder
	inWord, quoted, glob := false, false, false
	flush := func() {
		if !inWord {
			return
		}
		w := cur.String()
		if glob {
			matches, err := filepath.Glob(w)
			require.NoError(t, err)
			words = append(words, matches...)
		} else {
			words = append(words, w)
		}
		cur.Reset()
		inWord, glob = false, false
	}
	name := regexp.MustCompile(`^\$(\{[A-Za-z_]+\}|[A-Za-z_]+)`)
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case ch == '"':
			quoted, inWord = !quoted, true
		case ch == '$':
			m := name.FindString(line[i:])
			require.NotEmpty(t, m, "a $ the test cannot expand in %q", line)
			v, ok := vars[strings.Trim(m[1:], "{}")]
			require.True(t, ok, "variable %s of %q", m, line)
			cur.WriteString(v)
			inWord = true
			i += len(m) - 1
		case !quoted && (ch == '>' || strings.HasPrefix(line[i:], "||") || strings.HasPrefix(line[i:], "2>")):
			flush()
			return words
		case !quoted && (ch == ' ' || ch == '\t'):
			flush()
		default:
			if ch == '*' && !quoted {
				glob = true
			}
			cur.WriteByte(ch)
			inWord = true
		}
	}
	flush()
	return words
}

// scriptCommands returns the drrc command lines of the script's function fn.
func scriptCommands(t *testing.T, script, fn string) []string {
	t.Helper()
	body, ok := strings.CutPrefix(script[strings.Index(script, "\n"+fn+"() {")+1:], fn+"() {")
	require.True(t, ok, "the script has no function %s", fn)
	body, _, _ = strings.Cut(body, "\n}")
	var out []string
	for _, line := range strings.Split(body, "\n") {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, `"$DRRC" `) {
			out = append(out, strings.TrimPrefix(line, `"$DRRC" `))
		}
	}
	require.NotEmpty(t, out, "no drrc command in %s", fn)
	return out
}

// TestCorpusVerifyWorkflow checks the shard arithmetic of .github/workflows/corpus-verify.yml — a matrix of shards
// 1..16 exactly, each job running shard K of 16 with the script's shard command, a merge job over every shard's
// results — and runs the script's drrc command lines in-process over a small folder as 4 shards, merged as the
// merge job merges them.
func TestCorpusVerifyWorkflow(t *testing.T) {
	wf, err := os.ReadFile(workflowFile)
	require.NoError(t, err)
	sh, err := os.ReadFile(workflowRun)
	require.NoError(t, err)
	workflow, script := string(wf), string(sh)

	m := regexp.MustCompile(`(?m)^\s+shard: \[([0-9, ]+)\]$`).FindStringSubmatch(workflow)
	require.NotNil(t, m, "the workflow's matrix of shards")
	var shards []int
	for _, f := range strings.Split(m[1], ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		require.NoError(t, err)
		shards = append(shards, k)
	}
	run := regexp.MustCompile(`corpus-verify\.sh shard \$\{\{ matrix\.shard \}\} (\d+) (\S+) (\S+)\n`).FindStringSubmatch(workflow)
	require.NotNil(t, run, "the verify job runs the script's shard command with the matrix's shard")
	n, err := strconv.Atoi(run[1])
	require.NoError(t, err)
	assert.Equal(t, 16, n, "16 jobs")
	want := make([]int, n)
	for k := range want {
		want[k] = k + 1 // shards count from 1, as -shard K/N does
	}
	assert.Equal(t, want, shards, "the matrix holds shards 1..%d exactly, once each", n)
	corpusDir, resultsDir := run[2], run[3]
	assert.Contains(t, workflow, "name: verify shard ${{ matrix.shard }}/16")
	assert.Contains(t, workflow, "path: "+resultsDir+"/")
	assert.Regexp(t, `(?s)\n  merge:\n    needs: verify\n    if: always\(\)\n.*corpus-verify\.sh merge `+regexp.QuoteMeta(corpusDir+" "+resultsDir)+` `, workflow,
		"the merge job runs after every shard, failed ones too, over the same corpus and results")
	assert.Equal(t, 2, strings.Count(workflow, "corpus-verify.sh fetch "+strings.TrimSuffix(corpusDir, "/paddle_samples")+"\n"),
		"both jobs clone GraphNet into the folder the corpus path names")
	assert.NotContains(t, workflow, "shared/corpus", "the corpus comes from GraphNet, never from this repository")
	assert.Regexp(t, `(?m)^GRAPHNET_COMMIT=[0-9a-f]{40}$`, script, "GraphNet is pinned to a commit")

	// The script's commands, as the jobs run them, over 10 programs in 4 shards.
	dir := t.TempDir()
	corpus := reluPrograms(t, dir, 10)
	out := filepath.Join(dir, "results")
	require.NoError(t, os.Mkdir(out, 0o755))
	const shardsHere = 4
	for k := 1; k <= shardsHere; k++ {
		vars := map[string]string{"k": fmt.Sprint(k), "n": fmt.Sprint(shardsHere), "corpus": corpus, "out": out}
		require.NoError(t, os.WriteFile(filepath.Join(out, fmt.Sprintf("results-%d.jsonl", k)), nil, 0o644)) // the script's touch
		for _, line := range scriptCommands(t, script, "shard") {
			args := shellWords(t, line, vars)
			require.Equal(t, "verify", args[0])
			code, _, stderr := runEnv(t, nil, args...)
			require.Equal(t, exitOK, code, "%v: %s", args, stderr)
		}
	}
	for i, line := range scriptCommands(t, script, "merge") {
		args := shellWords(t, line, map[string]string{"corpus": corpus, "out": out})
		require.Equal(t, "report", args[0])
		code, stdout, stderr := runEnv(t, nil, args...)
		require.Equal(t, exitOK, code, "%v: %s", args, stderr)
		if i == 0 {
			assert.Contains(t, stdout, "totals: 10 program(s): 10 ok")
			assert.Contains(t, stdout, fmt.Sprintf("; %d shard(s)", shardsHere))
		}
	}
	// A shard that did not run is a gap the merge reports.
	require.NoError(t, os.Remove(filepath.Join(out, "results-2.jsonl")))
	args := shellWords(t, scriptCommands(t, script, "merge")[0], map[string]string{"corpus": corpus, "out": out})
	code, _, stderr := runEnv(t, nil, args...)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, "gap:")
}
