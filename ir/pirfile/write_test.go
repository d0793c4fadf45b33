package pirfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func noTemporaries(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.False(t, strings.Contains(e.Name(), ".tmp"), "temporary file left: %s", e.Name())
	}
}

func TestWriteFileRegular(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.pir")
	require.NoError(t, WriteFile(path, []byte("one")))
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o644), info.Mode().Perm(), "a new file")

	// An existing file keeps its permissions; a failed write leaves it alone.
	require.NoError(t, os.Chmod(path, 0o600))
	require.NoError(t, WriteFile(path, []byte("two")))
	info, err = os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o600), info.Mode().Perm())
	boom := errors.New("boom")
	err = WriteFileFunc(path, func(w io.Writer) error {
		io.WriteString(w, "partial")
		return boom
	})
	assert.ErrorIs(t, err, boom)
	data, _ := os.ReadFile(path)
	assert.Equal(t, "two", string(data))
	noTemporaries(t, dir)
}

func TestWriteFileDirectory(t *testing.T) {
	dir := t.TempDir()
	err := WriteFile(dir, []byte("x"))
	require.Error(t, err)
	assert.ErrorContains(t, err, "is a directory")
	info, err := os.Stat(dir)
	require.NoError(t, err)
	assert.True(t, info.IsDir(), "the directory is still there")
}

// TestWriteFileSymlink: a link is followed: the file it names is written, and the link stays a link. A link to
// /dev/null writes into the device and leaves both the link and the device as they were (the test never writes
// /dev/null by its own name, so that a regression could only replace the link in the test's folder).
func TestWriteFileSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.pir")
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o644))
	link := filepath.Join(dir, "link.pir")
	require.NoError(t, os.Symlink("target.pir", link))
	require.NoError(t, WriteFile(link, []byte("new")))
	info, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, info.Mode()&fs.ModeSymlink, "the link is still a link")
	data, _ := os.ReadFile(target)
	assert.Equal(t, "new", string(data))

	dangling := filepath.Join(dir, "dangling.pir")
	require.NoError(t, os.Symlink("made.pir", dangling))
	require.NoError(t, WriteFile(dangling, []byte("made")))
	data, _ = os.ReadFile(filepath.Join(dir, "made.pir"))
	assert.Equal(t, "made", string(data), "a dangling link's target is created")

	if info, err := os.Stat(os.DevNull); err != nil || info.Mode()&fs.ModeDevice == 0 {
		t.Skipf("%s is not a device here", os.DevNull)
	}
	null := filepath.Join(dir, "null")
	require.NoError(t, os.Symlink(os.DevNull, null))
	require.NoError(t, WriteFile(null, []byte("discarded")))
	info, err = os.Lstat(null)
	require.NoError(t, err)
	assert.NotZero(t, info.Mode()&fs.ModeSymlink, "the link to the device is still a link")
	info, err = os.Stat(os.DevNull)
	require.NoError(t, err)
	assert.NotZero(t, info.Mode()&fs.ModeDevice, "the device is still a device")
	noTemporaries(t, dir)
}
