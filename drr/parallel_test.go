package drr

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParallelParseMatchesSequential: splitting a large file into regions
// parsed concurrently gives exactly the tree, comments and diagnostics of a
// sequential parse.
func TestParallelParseMatchesSequential(t *testing.T) {
	var b strings.Builder
	b.WriteString("// header\nimport \"a.drr\"\n\n")
	b.Write(generateRules(150))
	b.WriteString("family f = [a.b,\n") // unclosed: the next rule starts a region anyway
	b.Write(generateRules(100))
	b.WriteString("rule broken {\n  match {\n    %y = a.b(%x\n  }\n  rewrite {\n    erase\n  }\n}\n")
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "/// doc %d\nnative constraint c%d(%%v: value)\n", i, i)
	}
	b.WriteString("rule tail {\n  match {\n    %y = a.b(%x)\n  }\n  rewrite {}\n") // no closing brace at EOF
	src := []byte(b.String())
	require.Greater(t, len(src), 64<<10)

	parse := func(min int) (*File, error) {
		old := parallelMinBytes
		defer func() { parallelMinBytes = old }()
		parallelMinBytes = min
		return Parse("big.drr", src)
	}
	seqFile, seqErr := parse(1 << 30)
	parFile, parErr := parse(0)
	require.Error(t, seqErr)
	require.Equal(t, seqErr.Error(), parErr.Error())
	require.Equal(t, seqFile, parFile)
	require.Len(t, parFile.Rules, 251) // the unclosed last rule is dropped
	require.Len(t, parFile.Natives, 50)
	require.Equal(t, "doc 49", parFile.Natives[49].Doc.Text())
}

// TestSplitRegions checks where large files are split.
func TestSplitRegions(t *testing.T) {
	src := "// c\nrule a {\n}\n  rule b {\nrule\nrule.x y\nfamily f = x\nimport \"p\"\nnative rewrite g()\n"
	var starts []string
	for _, r := range splitRegions(src) {
		line := src[r.start:]
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		starts = append(starts, fmt.Sprintf("%d:%s", r.line, line))
	}
	require.Equal(t, []string{"1:// c", "2:rule a {", "7:family f = x", "8:import \"p\"", "9:native rewrite g()"}, starts)
}
