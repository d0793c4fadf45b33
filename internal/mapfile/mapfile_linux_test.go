package mapfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/smaps"
)

// rss returns the resident bytes of the mapping holding p, or skips where /proc/self/smaps cannot tell.
func rss(t *testing.T, p *byte) int64 {
	t.Helper()
	n, err := smaps.Bytes(uintptr(unsafe.Pointer(p)), "Rss")
	if errors.Is(err, smaps.ErrUnavailable) {
		t.Skip(err)
	}
	require.NoError(t, err)
	return n
}

// bigFile writes a file of size bytes, each byte its offset's low byte, and returns its path.
func bigFile(t *testing.T, size int) string {
	t.Helper()
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(i)
	}
	path := filepath.Join(t.TempDir(), "big")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return path
}

// TestPopulatorMapsAhead: a populator maps the source up to where it is asked, in one go per request, and no
// further; a source under PopulateFrom gets none.
func TestPopulatorMapsAhead(t *testing.T) {
	small, err := Open(bigFile(t, PopulateFrom-1))
	require.NoError(t, err)
	assert.True(t, small.Mapped())
	assert.Nil(t, small.ahead)
	small.Close()

	s, err := Open(bigFile(t, PopulateFrom+4*ReleaseStep))
	require.NoError(t, err)
	defer s.Close()
	a := s.ahead // asked for the first two release steps
	require.NotNil(t, a)
	a.UpTo(3 * ReleaseStep)
	a.UpTo(ReleaseStep) // behind what was asked: nothing more
	assert.Equal(t, 3*ReleaseStep, a.next)
	a.Stop() // waits for the requests sent; Close stops it again, which does nothing
	if a.Refused() {
		t.Skip("the kernel refuses MADV_POPULATE_READ (before Linux 5.14)")
	}
	n := rss(t, &s.Data[0])
	assert.GreaterOrEqual(t, n, int64(3*ReleaseStep), "the part asked for is mapped")
	assert.Less(t, n, int64(4*ReleaseStep), "the rest is not")
}

// TestPassedReleases reads a mapped file through, telling the source where it is: what is behind goes back to the
// system, the bytes read are the file's, and reading a released part again gives the same bytes. The file is under
// PopulateFrom: a populator runs behind a reader as fast as this one, and what it maps late is not what is tested.
func TestPassedReleases(t *testing.T) {
	size := PopulateFrom - 4096
	s, err := Open(bigFile(t, size))
	require.NoError(t, err)
	defer s.Close()
	require.True(t, s.Mapped())
	sum := 0
	for pos := 0; pos < size; pos += 4096 {
		if s.Data[pos] != byte(pos) {
			t.Fatalf("byte %d is %d", pos, s.Data[pos])
		}
		sum++
		s.Passed(pos)
	}
	assert.Equal(t, size/4096, sum)
	// The last release went up to ReleaseKeep before a position at least ReleaseStep past the one before.
	require.Nil(t, s.ahead)
	assert.Greater(t, s.released, size-2*ReleaseStep-2*ReleaseKeep)
	assert.LessOrEqual(t, s.released, size-ReleaseKeep)
	n := rss(t, &s.Data[0])
	assert.Less(t, n, int64(size-s.released+ReleaseKeep+ReleaseStep), "what was passed is given back")
	assert.Equal(t, byte(12345%256), s.Data[12345], "a released page reads the file again")
}

// TestOpenReadsWhatCannotBeMapped: an empty file and a file that is not regular are read whole; Close is safe to
// call twice.
func TestOpenReadsWhatCannotBeMapped(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	s, err := Open(empty)
	require.NoError(t, err)
	assert.False(t, s.Mapped())
	assert.Empty(t, s.Data)
	s.Passed(1 << 30) // nothing to release
	s.Close()
	s.Close()

	_, err = Open(filepath.Join(t.TempDir(), "missing"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}
