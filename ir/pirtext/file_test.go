package pirtext

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// chainProgram returns the text of a program of n relu ops in a chain: about 120 bytes per op.
func chainProgram(n int) []byte {
	var b bytes.Buffer
	b.WriteString("{\n    (%0) = \"pd_op.data\" () {name:\"x\"} : () -> builtin.tensor<1x64xf32>\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "    (%%%d) = \"pd_op.relu\" (%%%d) {} : (builtin.tensor<1x64xf32>) -> builtin.tensor<1x64xf32>\n", i, i-1)
	}
	fmt.Fprintf(&b, "    () = \"pd_op.fetch\" (%%%d) {name:\"out\"} : (builtin.tensor<1x64xf32>) -> \n}\n", n)
	return b.Bytes()
}

// TestParseFile: a program read from its file is the one Parse reads from memory, also when it is large enough
// for the mapped source to be released as the parser goes; errors name the file.
func TestParseFile(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{10, 100000} {
		src := chainProgram(n)
		path := filepath.Join(dir, fmt.Sprintf("chain%d.pir", n))
		require.NoError(t, os.WriteFile(path, src, 0o644))
		ctx := ir.NewContext()
		want, _, err := Parse(ctx, path, src, ReadOptions{})
		require.NoError(t, err)
		got, warns, err := ParseFile(ctx, path, ReadOptions{})
		require.NoError(t, err)
		assert.Empty(t, warns)
		assert.Equal(t, path, got.File)
		assert.Equal(t, n+2, got.NumOps())
		require.NoError(t, ir.Equal(want, got, ir.EqualOptions{}))
		if n < 1000 {
			assert.Equal(t, string(Print(want, WriteOptions{})), string(Print(got, WriteOptions{})))
		}
	}

	bad := filepath.Join(dir, "bad.pir")
	require.NoError(t, os.WriteFile(bad, []byte("{\n    (%0) = \"pd_op.relu\" (%7) {} : () -> f32\n}\n"), 0o644))
	_, _, err := ParseFile(ir.NewContext(), bad, ReadOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), bad+":2:")

	empty := filepath.Join(dir, "empty.pir")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	_, _, err = ParseFile(ir.NewContext(), empty, ReadOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "end of file")

	_, _, err = ParseFile(ir.NewContext(), filepath.Join(dir, "missing.pir"), ReadOptions{})
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// TestParseReleasesSource: the parser hands back what it has passed in steps, keeping the end it is reading.
func TestParseReleasesSource(t *testing.T) {
	src := chainProgram(180000) // about 19 MB: two releases
	var released [][2]int
	p, _, err := parse(ir.NewContext(), "chain.pir", src, ReadOptions{}, &parseHooks{release: func(lo, hi int) {
		released = append(released, [2]int{lo, hi})
	}})
	require.NoError(t, err)
	assert.Equal(t, 180002, p.NumOps())
	require.NotEmpty(t, released)
	prev := 0
	for _, r := range released {
		assert.Equal(t, prev, r[0], "releases are consecutive")
		assert.GreaterOrEqual(t, r[1]-r[0], releaseStep)
		prev = r[1]
	}
	assert.Less(t, prev, len(src)-releaseKeep+1, "the last part read is kept")
	assert.Greater(t, prev, len(src)-releaseStep-2*releaseKeep, "all but the last steps are released")
}
