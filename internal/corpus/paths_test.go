package corpus

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// absoluteShared matches an absolute path into the shared folder next to the repository (…/shared/corpus,
// …/shared/bench): a path of one machine. The pattern is assembled so that this file does not match it.
var absoluteShared = regexp.MustCompile(`(^|[\s"'` + "`" + `(=])/[^\s"'` + "`" + `]*/` + `shared/(corpus|bench)\b`)

// TestNoMachinePaths keeps the module free of absolute paths to the shared corpus: tests find it with Root,
// Require and Path (../shared/corpus seen from the module), so they run, or skip with a message, anywhere.
func TestNoMachinePaths(t *testing.T) {
	_, file, _, ok := runtime.Caller(0)
	require.True(t, ok)
	module := filepath.Dir(filepath.Dir(filepath.Dir(file)))
	var offenders []string
	err := filepath.WalkDir(module, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != module && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if filepath.Ext(path) != ".go" {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if absoluteShared.MatchString(line) {
				rel, _ := filepath.Rel(module, path)
				offenders = append(offenders, rel+":"+strconv.Itoa(i+1)+": "+strings.TrimSpace(line))
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.Empty(t, offenders, "use corpus.Root, corpus.Require or corpus.Path instead of a path of one machine")
}

// TestAbsoluteSharedPattern checks the detector itself on lines it must and must not flag.
func TestAbsoluteSharedPattern(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{`const dir = "/work/` + `shared/corpus"`, true},
		{`// python3 /home/me/` + `shared/bench/gen.py`, true},
		{`dir := filepath.Join(root, "` + `shared", "corpus")`, false},
		{`// ../` + `shared/corpus next to the repository`, false},
		{`// python3 ../` + `shared/bench/gen.py`, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, absoluteShared.MatchString(tt.line), tt.line)
	}
}
