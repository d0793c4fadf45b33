package pirtext

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/smaps"
	"github.com/pirdrr/drr/ir"
)

// TestPopulatorMapsAhead: a populator maps the source up to where it is asked, in one go per request, and no
// further; a source under populateFrom gets none.
func TestPopulatorMapsAhead(t *testing.T) {
	assert.Nil(t, startPopulating(make([]byte, populateFrom-1)))

	path := filepath.Join(t.TempDir(), "big.pir")
	require.NoError(t, os.WriteFile(path, make([]byte, populateFrom+4*releaseStep), 0o644))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	info, err := f.Stat()
	require.NoError(t, err)
	src, err := syscall.Mmap(int(f.Fd()), 0, int(info.Size()), syscall.PROT_READ, syscall.MAP_PRIVATE)
	require.NoError(t, err)
	defer syscall.Munmap(src)

	a := startPopulating(src) // asks for the first two release steps
	require.NotNil(t, a)
	a.upTo(3 * releaseStep)
	a.upTo(releaseStep) // behind what was asked: nothing more
	assert.Equal(t, 3*releaseStep, a.next)
	a.stop() // waits for the requests sent
	if a.fails.Load() {
		t.Skip("the kernel refuses MADV_POPULATE_READ (before Linux 5.14)")
	}
	rss, err := smaps.Bytes(uintptr(unsafe.Pointer(&src[0])), "Rss")
	if errors.Is(err, smaps.ErrUnavailable) {
		t.Skip(err)
	}
	require.NoError(t, err)
	assert.GreaterOrEqual(t, rss, int64(3*releaseStep), "the part asked for is mapped")
	assert.Less(t, rss, int64(4*releaseStep), "the rest is not")
}

// TestParseFilePopulated: a file large enough for a populator reads as the same bytes parsed in memory.
func TestParseFilePopulated(t *testing.T) {
	src := chainProgram(400000)
	require.Greater(t, len(src), populateFrom)
	path := filepath.Join(t.TempDir(), "chain.pir")
	require.NoError(t, os.WriteFile(path, src, 0o644))
	got, _, err := ParseFile(ir.NewContext(), path, ReadOptions{})
	require.NoError(t, err)
	want, _, err := Parse(ir.NewContext(), path, src, ReadOptions{})
	require.NoError(t, err)
	require.Equal(t, want.NumOps(), got.NumOps())
	assert.Equal(t, string(Print(want, WriteOptions{})), string(Print(got, WriteOptions{})))
}

// TestSlotArenaMadeAhead: a large source's value-name arena has the pages of the slot pages after the one it hands
// out made already, and a small one's has no populator.
func TestSlotArenaMadeAhead(t *testing.T) {
	small := newSlotArena(populateFrom - 1)
	require.NotNil(t, small)
	assert.Nil(t, small.ahead)
	small.free()

	a := newSlotArena(populateFrom)
	require.NotNil(t, a)
	require.NotNil(t, a.ahead)
	defer a.free()
	pg := a.page()
	require.NotNil(t, pg)
	assert.Nil(t, pg[0], "a new page is zeroed")
	a.ahead.stop() // waits for the requests sent; free stops it again, which does nothing
	if a.ahead.fails.Load() {
		t.Skip("the kernel refuses MADV_POPULATE_WRITE (before Linux 5.14)")
	}
	rss, err := smaps.Bytes(uintptr(unsafe.Pointer(&a.mem[0])), "Rss")
	if errors.Is(err, smaps.ErrUnavailable) {
		t.Skip(err)
	}
	require.NoError(t, err)
	const pageBytes = slotPage * 8
	assert.GreaterOrEqual(t, rss, int64((1+slotsAhead)*pageBytes), "the pages ahead are made")
	assert.Less(t, rss, int64((2+slotsAhead)*pageBytes), "and no more")
}
