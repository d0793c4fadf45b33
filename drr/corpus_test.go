package drr

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
)

type corpusLine struct {
	file string
	line int
	text string
}

var (
	printedOp = regexp.MustCompile(`^\s*\((%[^)]*)?\) = `)
	resultRef = regexp.MustCompile(`%[A-Za-z0-9_]+`)
)

// corpusLines returns the printed op lines of the shared corpus (none when
// it is absent; at most max if max > 0): every line `(%…) = op…` except the heads of region ops (which
// end with '{') and the era-A fragment 24, which the spec does not cover.
func corpusLines(tb testing.TB, max int) []corpusLine {
	tb.Helper()
	dir, ok := corpus.Root()
	if !ok {
		return nil // the callers that need the corpus require it
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.pir"))
	var out []corpusLine
	for _, path := range files {
		if strings.HasPrefix(filepath.Base(path), "24_") {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		for i, line := range strings.Split(string(data), "\n") {
			line = strings.TrimRight(line, "\r")
			if !printedOp.MatchString(line) || strings.HasSuffix(strings.TrimSpace(line), "{") {
				continue
			}
			out = append(out, corpusLine{file: filepath.Base(path), line: i + 1, text: line})
			if max > 0 && len(out) == max {
				return out
			}
		}
	}
	return out
}

// TestCorpusLinesParseVerbatim pastes every printed op line of the shared
// corpus into a match block: each must parse as is, keep its results and
// operands, and format idempotently.
func TestCorpusLinesParseVerbatim(t *testing.T) {
	corpus.Require(t)
	lines := corpusLines(t, 0)
	require.Greater(t, len(lines), 1000)
	for _, l := range lines {
		src := wrapMatch(l.text)
		f, err := Parse(l.file, []byte(src))
		if !assert.NoError(t, err, "%s:%d: %s", l.file, l.line, l.text) {
			continue
		}
		s := f.Rules[0].Match.Stmts[0]
		lhs := l.text[:strings.Index(l.text, ") = ")]
		assert.Len(t, s.Results, len(resultRef.FindAllString(lhs, -1)), "%s:%d", l.file, l.line)
		assert.NotNil(t, s.Op.Sig, "%s:%d", l.file, l.line)
		checkRoundTrip(t, f)
	}
}

// TestCorpusLinesOperandCounts spot-checks operands, attributes and types of
// a line from each corpus file.
func TestCorpusLinesOperandCounts(t *testing.T) {
	corpus.Require(t)
	seen := map[string]bool{}
	for _, l := range corpusLines(t, 0) {
		if seen[l.file] {
			continue
		}
		seen[l.file] = true
		f := mustParse(t, wrapMatch(l.text))
		op := f.Rules[0].Match.Stmts[0].Op
		args := l.text[strings.Index(l.text, ") = ")+4:]
		open := strings.IndexByte(args, '(')
		closing := strings.IndexByte(args, ')')
		want := len(resultRef.FindAllString(args[open:closing], -1)) + strings.Count(args[open:closing], "<<NULL VALUE>>")
		assert.Len(t, op.Operands, want, "%s:%d: %s", l.file, l.line, l.text)
	}
	assert.NotEmpty(t, seen)
}
