package pirtext

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/mapfile"
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

// TestParseReleasesSource: the parser tells a mapped source where it is, which hands back what it has passed in
// steps, keeping the end it is reading (internal/mapfile tests the release itself).
func TestParseReleasesSource(t *testing.T) {
	src := chainProgram(180000) // about 18 MB: released once
	path := filepath.Join(t.TempDir(), "chain.pir")
	require.NoError(t, os.WriteFile(path, src, 0o644))
	file, err := mapfile.Open(path)
	require.NoError(t, err)
	defer file.Close()
	if !file.Mapped() {
		t.Skip("files are not mapped on this system")
	}
	p, _, err := parse(ir.NewContext(), "chain.pir", file.Data, ReadOptions{}, &parseHooks{source: file})
	require.NoError(t, err)
	assert.Equal(t, 180002, p.NumOps())
	released := file.Released()
	assert.GreaterOrEqual(t, released, mapfile.ReleaseStep, "released a step at a time")
	assert.Less(t, released, len(src)-mapfile.ReleaseKeep+1, "the last part read is kept")
	assert.Greater(t, released, len(src)-mapfile.ReleaseStep-2*mapfile.ReleaseKeep, "all but the last steps are released")
}
