package rules

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGPUInferenceTableLines: the table of Paddle's passes in docs/gpu-inference.md gives each rule file's lines (all
// non-blank lines / those that are not comments) and its rule declarations as the files have them now, so that a
// rule file shortened or split is not described by its old size.
func TestGPUInferenceTableLines(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "gpu-inference.md"))
	require.NoError(t, err)
	row := regexp.MustCompile("(?m)^\\| \\d+ \\| \\w+ \\| `([a-z0-9_]+\\.drr)` \\| \\d+ \\| (\\d+) / (\\d+) \\| (\\d+) \\|")
	rows := row.FindAllStringSubmatch(string(doc), -1)
	require.NotEmpty(t, rows, "no rows of the passes table in docs/gpu-inference.md")
	for _, m := range rows {
		src, err := os.ReadFile(m[1])
		require.NoError(t, err)
		all, code, rules := 0, 0, 0
		for _, l := range strings.Split(string(src), "\n") {
			s := strings.TrimSpace(l)
			if s == "" {
				continue
			}
			all++
			if !strings.HasPrefix(s, "//") {
				code++
			}
			if strings.HasPrefix(l, "rule ") {
				rules++
			}
		}
		assert.Equal(t, []string{m[2], m[3], m[4]},
			[]string{strconv.Itoa(all), strconv.Itoa(code), strconv.Itoa(rules)}, "%s: lines (all / rules only) and rules", m[1])
	}
}
