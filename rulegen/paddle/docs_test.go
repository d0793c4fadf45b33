package paddle

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var exportDoc = filepath.Join("..", "..", "docs", "paddle-export.md")

// TestDocExample: the example of docs/paddle-export.md is what drrc gen -lang paddle writes for its rule file.
func TestDocExample(t *testing.T) {
	doc, err := os.ReadFile(exportDoc)
	require.NoError(t, err)
	m := regexp.MustCompile("(?s)```drr file=transpose_clean.drr\n(.*?)```.*?```cpp\n(.*?)```").FindSubmatch(doc)
	require.NotNil(t, m, "docs/paddle-export.md has no transpose_clean.drr example followed by its C++")
	code, _, diags := generateSource(t, string(m[1]), Config{Name: "transpose_clean"})
	require.False(t, diags.HasErrors(), "%v", diags)
	assert.Equal(t, string(m[2]), string(code), "the C++ of docs/paddle-export.md is not what the generator writes")
}

// docCounts reads the table of docs/paddle-export.md: rule file → exported, total.
func docCounts(t *testing.T) map[string][2]int {
	doc, err := os.ReadFile(exportDoc)
	require.NoError(t, err)
	out := map[string][2]int{}
	for _, m := range regexp.MustCompile("(?m)^\\| `(\\w+)` \\| (\\d+) / (\\d+) \\|").FindAllStringSubmatch(string(doc), -1) {
		e, _ := strconv.Atoi(m[2])
		n, _ := strconv.Atoi(m[3])
		out[m[1]] = [2]int{e, n}
	}
	return out
}
